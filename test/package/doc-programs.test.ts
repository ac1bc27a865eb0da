/**
 * The documentation's programs are found, named and configured as the consumer test expects,
 * without packing the package: every ```ts fence of README.md and docs/*.md is a program named
 * after its page and line, its `doc-test` directive is read, and the parser refuses what would
 * let code slip past the check.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { docPages, docPrograms, parsePrograms, programFileName } from "./readme-programs.ts";
import { README_SETUPS } from "./readme-setups.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const read = (source: string) => readFileSync(path.join(repoRoot, source), "utf8");

/** The entries a program may import from: the package's and Node's own. */
const ENTRIES = new Set(["operator-runtime", ...["builder", "client", "cache", "controller", "sharding", "rbac", "webhook", "testing"].map((e) => `operator-runtime/${e}`)]);

describe("the documentation's programs", () => {
  const programs = docPrograms(repoRoot);

  it("reads README.md and every docs/*.md page", () => {
    const pages = docPages(repoRoot);
    assert.equal(pages[0], "README.md");
    for (const guide of ["builder", "manager", "sharding", "testing", "toolbox", "admission", "performance"]) {
      assert.ok(pages.includes(`docs/${guide}.md`), `docs/${guide}.md exists`);
    }
  });

  it("finds every ```ts fence of every page, at its line, named after the page and line", () => {
    for (const source of docPages(repoRoot)) {
      const lines = read(source).split("\n");
      const fences = lines.flatMap((l, i) => (/^```ts(\s.*)?$/.test(l) ? [i + 1] : []));
      const found = programs.filter((p) => p.source === source);
      assert.deepEqual(found.map((p) => p.line), fences, `${source}: every ts block is a program`);
      for (const p of found) {
        assert.equal(p.file, programFileName(source, p.line));
        assert.ok(p.code.trim().length > 0, `${source}:${p.line} is not empty`);
      }
    }
    assert.equal(new Set(programs.map((p) => p.file)).size, programs.length, "file names are unique");
    assert.ok(programs.some((p) => p.source === "README.md"), "the README has its operator");
  });

  it("names files readme-<line>.ts and docs-<page>-<line>.ts", () => {
    assert.equal(programFileName("README.md", 95), "readme-95.ts");
    assert.equal(programFileName("docs/builder.md", 17), "docs-builder-17.ts");
    assert.equal(programFileName("docs/README.md", 3), "docs-readme-3.ts");
  });

  it("gives every program's setup a definition, and its directive keys their shapes", () => {
    for (const p of programs) {
      if (p.setup) assert.ok(README_SETUPS[p.setup], `${p.source}:${p.line}: setup ${p.setup} is defined in readme-setups.ts`);
      for (const key of [...p.expect, ...(p.signalAfter ? [p.signalAfter] : [])]) {
        assert.ok(key.apiVersion && key.kind && key.name, `${p.source}:${p.line}: ${JSON.stringify(key)}`);
      }
    }
  });

  it("imports only the package's entries and Node's modules", () => {
    for (const p of programs) {
      for (const [, spec] of p.code.matchAll(/^\s*(?:import|export)\b[^"']*?from\s*["']([^"']+)["']/gm)) {
        assert.ok(ENTRIES.has(spec!) || spec!.startsWith("node:"), `${p.source}:${p.line} imports ${spec}`);
      }
    }
  });

  it("keeps the module gen rbac and gen manifests read in docs/toolbox.md", () => {
    const program = programs.find((p) => p.section === "`operator-runtime gen rbac`");
    assert.ok(program, "a gen rbac module");
    assert.equal(program.source, "docs/toolbox.md");
    assert.match(program.code, /export function manager\(\)/);
    assert.match(program.code, /export const crds/);
  });

  it("keeps the README short", () => {
    const lines = read("README.md").split("\n").length;
    assert.ok(lines <= 200, `README.md has ${lines} lines`);
  });
});

describe("the doc-test parser", () => {
  const page = (...lines: string[]) => lines.join("\n");

  it("reads doc-test and readme-test directives, across blank lines", () => {
    const [a, b, c] = parsePrograms(page(
      "# Title", "## One",
      '<!-- doc-test: {"setup": "greeting", "expect": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "namespace": "default"}]} -->',
      "", "```ts", "console.log(1);", "```",
      "## Two",
      '<!-- readme-test: {"signalAfter": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}} -->',
      "```ts", "console.log(2);", "```",
      "```ts", "console.log(3);", "```",
    ), "docs/page.md");
    assert.deepEqual(a, {
      file: "docs-page-5.ts", source: "docs/page.md", line: 5, section: "One", code: "console.log(1);\n", setup: "greeting",
      expect: [{ apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "default" }],
    });
    assert.deepEqual(b?.signalAfter, { apiVersion: "apps/v1", kind: "Deployment", name: "d" });
    assert.equal(b?.section, "Two");
    assert.deepEqual({ ...c, code: undefined }, { file: "docs-page-13.ts", source: "docs/page.md", line: 13, section: "Two", code: undefined, expect: [] });
  });

  it("ignores other fences, and directive-like lines inside them", () => {
    const programs = parsePrograms(page("```sh", "<!-- doc-test: {} -->", "npm test", "```", "```yaml", "a: 1", "```"), "README.md");
    assert.deepEqual(programs, []);
  });

  it("refuses ```typescript and other TypeScript fences", () => {
    for (const fence of ["```typescript", "```tsx", "```mts"]) {
      assert.throws(() => parsePrograms(page("text", fence, "let x = 1;", "```"), "docs/x.md"), /docs\/x\.md:2: .*use ```ts/);
    }
  });

  it("refuses a directive without its block, an unknown key, and bad JSON", () => {
    assert.throws(() => parsePrograms(page("<!-- doc-test: {} -->", "prose", "```ts", "1", "```"), "docs/x.md"), /docs\/x\.md:1: a doc-test directive not followed/);
    assert.throws(() => parsePrograms(page("<!-- doc-test: {} -->"), "docs/x.md"), /docs\/x\.md:1: a doc-test directive not followed/);
    assert.throws(() => parsePrograms(page('<!-- doc-test: {"signal": {}} -->', "```ts", "1", "```"), "docs/x.md"), /unknown doc-test key\(s\) signal/);
    assert.throws(() => parsePrograms(page("<!-- doc-test: {setup: 1} -->", "```ts", "1", "```"), "docs/x.md"), /docs\/x\.md:1: the doc-test directive is not JSON/);
    assert.throws(() => parsePrograms(page('<!-- doc-test: {"expect": [{"kind": "X"}]} -->', "```ts", "1", "```"), "docs/x.md"), /"expect" must be a list/);
  });

  it("refuses an unterminated block, naming the page and line", () => {
    assert.throws(() => parsePrograms(page("# T", "```ts", "1"), "docs/x.md"), /docs\/x\.md:2: unterminated code block/);
  });
});
