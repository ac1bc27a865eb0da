/**
 * A user clones this repository alone: nothing in it may read a file outside the checkout.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const SCANNED = ["src", "builders", "examples", "test", "bench", "scripts", ".ci"];
const SKIP = new Set(["node_modules", "dist", ".tmp", "fixtures"]);

/** Every file under `dir`, skipping build output, dependencies and vendored data. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : filesUnder(full);
    return [full];
  });
}

/**
 * Text that reaches outside the checkout: the sibling folder of shared material the project grew
 * from (spelled in pieces, so this file does not match itself).
 */
const SIBLING = "shared";
const OUTSIDE = new RegExp(String.raw`\.\./${SIBLING}\b|["'\x60]${SIBLING}/fixtures`);

describe("the repository is self-contained", () => {
  it("reads no file outside the checkout (fixtures are vendored in test/fixtures)", () => {
    const offenders = SCANNED.flatMap((d) => filesUnder(path.join(repoRoot, d)))
      .filter((file) => OUTSIDE.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(repoRoot, file));
    assert.deepEqual(offenders, [], "these files read outside the checkout; vendor what they need into test/fixtures/");
  });

  it("vendors every fixture the tests use, with its origin and licence", () => {
    // Real-world data lives once: general fixtures in test/fixtures/, the Pinot CRD and CR in the
    // pinot example that runs them. Each folder's README names every file with its origin.
    const vendored = [
      { dir: "test/fixtures", readme: "test/fixtures/README.md" },
      { dir: "examples/pinot", readme: "examples/pinot/README.md", only: /^(crds|samples)\// },
    ];
    let count = 0;
    for (const { dir, readme, only } of vendored) {
      const text = readFileSync(path.join(repoRoot, readme), "utf8");
      const yaml = readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: "utf8" })
        .map((f) => f.split(path.sep).join("/"))
        .filter((f) => f.endsWith(".yaml") && (!only || only.test(f)));
      count += yaml.length;
      for (const file of yaml) assert.ok(text.includes(`\`${file}\``), `${readme} names ${file} with its origin and licence`);
    }
    assert.ok(count >= 4, "the real CRDs and the Pinot CR are vendored");
  });
});
