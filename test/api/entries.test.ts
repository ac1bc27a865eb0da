/**
 * The package's entry points: a small root of what an operator author uses daily, subpath
 * entries for the rest, and every name the root exported in 0.1 still importable from it as a
 * `@deprecated` alias that says where the name lives now.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { exportsOf } from "./export-names.ts";
import * as root from "../../src/index.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string | { types: string; import: string }> };
/** `./x` of the exports map → the source file it is built from. */
const ENTRIES = Object.entries(pkg.exports).flatMap(([name, target]) =>
  typeof target === "string" ? [] : [{ name, source: target.types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts") }]);
const ROOT_0_1 = JSON.parse(readFileSync(join(ROOT, "test/api/root-exports-0.1.json"), "utf8")) as Record<string, "value" | "type">;
const deprecatedSource = readFileSync(join(ROOT, "src/deprecated.ts"), "utf8");
/**
 * Each alias of src/deprecated.ts: its old name, the name it points at, and its note — inside
 * the braces, on the specifier, where TypeScript reads it (a comment above `export { … }` is
 * ignored: no strike-through, no warning).
 */
const ALIASES = [...deprecatedSource.matchAll(/export (type )?\{\n {2}\/\*\* (@deprecated [^*]*)\*\/\n {2}(\w+)(?: as (\w+))?,\n\} from "\.\/entries\/(\w+)\.ts";/g)]
  .map((m) => ({ note: m[2]!, typeOnly: !!m[1], now: m[3]!, old: m[4] ?? m[3]!, entry: m[5]! }));

describe("package entries", () => {
  it("the exports map names the root, seven subpath entries and testing, each built from an existing source with a module comment", () => {
    assert.deepEqual(ENTRIES.map((e) => e.name), [".", "./builder", "./client", "./cache", "./controller", "./sharding", "./rbac", "./webhook", "./testing"]);
    for (const e of ENTRIES) {
      const text = readFileSync(join(ROOT, e.source), "utf8");
      assert.match(text.slice(0, 3000), /@module/, `${e.source} starts with a TSDoc module comment`);
    }
    const files = readdirSync(join(ROOT, "src/entries")).map((f) => `src/entries/${f}`).sort();
    assert.deepEqual(files, ENTRIES.filter((e) => e.source.startsWith("src/entries/")).map((e) => e.source).sort(), "every file in src/entries is an entry");
  });

  it("the root exports at most 60 names of its own (the deprecated aliases aside)", () => {
    const own = exportsOf(join(ROOT, "src/index.ts"));
    for (const a of ALIASES) if (a.old !== a.now || !own.has(a.old)) own.delete(a.old);
    // Names the root exports itself (a deprecated alias may share a root name, e.g. Action).
    const declared = new Set([...readFileSync(join(ROOT, "src/index.ts"), "utf8").matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)]
      .flatMap((m) => m[1]!.split(",").map((s) => s.trim().split(/\s+as\s+/).pop()!.trim()).filter(Boolean)));
    assert.ok(declared.size >= 40 && declared.size <= 60, `root has ${declared.size} names: ${[...declared].join(", ")}`);
    for (const name of declared) assert.ok(!ALIASES.some((a) => a.old === name), `${name} is both a root name and a deprecated alias`);
  });

  it("every name the root exported in 0.1 is still exported from it, of the same kind", () => {
    const now = exportsOf(join(ROOT, "src/index.ts"));
    const lost = Object.keys(ROOT_0_1).filter((n) => !now.has(n));
    assert.deepEqual(lost, [], "0.1 root names no longer importable from the root");
    const values = Object.entries(ROOT_0_1).filter(([, kind]) => kind === "value").map(([n]) => n);
    const missingAtRuntime = values.filter((n) => !(n in root));
    assert.deepEqual(missingAtRuntime, [], "0.1 root values missing at run time");
    assert.ok(values.length > 100, `read ${values.length} values from the 0.1 list`);
  });

  it("every deprecated alias says where its name lives now, and that entry exports it", () => {
    assert.ok(ALIASES.length > 150, `found ${ALIASES.length} aliases`);
    const aliasLines = deprecatedSource.split("\n").filter((l) => l.startsWith("export"));
    assert.equal(aliasLines.length, ALIASES.length, "every export of src/deprecated.ts has its @deprecated note");
    for (const a of ALIASES) {
      const entry = ENTRIES.find((e) => e.source === `src/entries/${a.entry}.ts`)!;
      assert.ok(exportsOf(join(ROOT, entry.source)).has(a.now), `${entry.source} exports ${a.now}`);
      const rootName = exportsOf(join(ROOT, "src/index.ts"));
      const where = a.old !== a.now && rootName.has(a.now) && !ALIASES.some((b) => b.old === a.now) ? '"operator-runtime"' : `"operator-runtime/${a.entry}"`;
      assert.ok(a.note.includes(`import { ${a.now} } from ${where}`), `${a.old}: "${a.note}" names ${a.now} and ${where}`);
      assert.ok(ROOT_0_1[a.old], `${a.old} was a 0.1 root name`);
    }
  });

  it("reading the export lists finds re-exports through several files (negative: an unknown file throws)", () => {
    assert.ok(exportsOf(join(ROOT, "src/entries/cache.ts")).has("parseLabelSelector"), "export * → export { } from");
    assert.throws(() => exportsOf(join(ROOT, "src/entries/nope.ts")));
  });
});
