import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { docEntries } from "../../scripts/docs.ts";
import type { PackageManifest } from "../../scripts/docs.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const name = "operator-runtime";

describe("npm run docs: entry points from package.json exports", () => {
  it("names each subpath as users import it and maps its types back to the source", () => {
    const entries = docEntries({
      name,
      exports: {
        ".": { types: "./dist/src/index.d.ts", import: "./dist/src/index.js" },
        "./testing": { types: "./dist/src/testing/index.d.ts", import: "./dist/src/testing/index.js" },
        "./builder": { types: "./dist/src/entries/builder.d.ts", import: "./dist/src/entries/builder.js" },
        "./package.json": "./package.json",
      },
    });
    assert.deepEqual(entries, [
      { name: "operator-runtime", source: "src/index.ts" },
      { name: "operator-runtime/testing", source: "src/testing/index.ts" },
      { name: "operator-runtime/builder", source: "src/entries/builder.ts" },
    ]);
  });

  it("finds types nested under another condition, and .d.mts / .d.cts declarations", () => {
    const entries = docEntries({
      name,
      exports: {
        "./a": { import: { types: "./dist/src/a.d.mts", default: "./dist/src/a.mjs" } },
        "./b": { require: { types: "./dist/src/b.d.cts" } },
      },
    });
    assert.deepEqual(entries, [
      { name: "operator-runtime/a", source: "src/a.mts" },
      { name: "operator-runtime/b", source: "src/b.cts" },
    ]);
  });

  it("reads the sugar forms of exports as the root entry", () => {
    assert.deepEqual(docEntries({ name, exports: { types: "./dist/src/index.d.ts", import: "./dist/src/index.js" } }), [
      { name, source: "src/index.ts" },
    ]);
    assert.deepEqual(docEntries({ name, exports: "./dist/src/index.js" }), []);
    assert.deepEqual(docEntries({ name }), []);
  });

  it("refuses patterns and types that the build does not emit", () => {
    assert.throws(() => docEntries({ name, exports: { "./*": { types: "./dist/src/*.d.ts" } } }), /"\.\/\*": patterns/);
    assert.throws(() => docEntries({ name, exports: { "./x": { types: "./types/x.d.ts" } } }), /not a declaration file under \.\/dist\//);
    assert.throws(() => docEntries({ name, exports: { "./x": { types: "./dist/src/x.js" } } }), /not a declaration file/);
  });

  it("finds a source file for every entry of this package, the root first", () => {
    const pkg = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as PackageManifest;
    const entries = docEntries(pkg);
    assert.equal(entries[0]?.name, "operator-runtime");
    for (const entry of entries) assert.ok(existsSync(path.join(repo, entry.source)), `${entry.name} → ${entry.source} is missing`);
  });
});
