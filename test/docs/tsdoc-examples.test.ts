/**
 * Every ```ts block under an `@example` tag in the TSDoc of src/ and builders/ type-checks
 * (issue 23). See `tsdoc-examples.ts` for the harness and `example-prelude.d.ts` for what an
 * example may assume; `node test/docs/tsdoc-examples-report.ts` groups the failures by cause.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { checkExamples, extractExamples, extractFrom, formatFailure, isTypeError, preludeNames, rewriteRelativeImports } from "./tsdoc-examples.ts";

/**
 * A source file with TSDoc comments: two examples to check, a fence that is not one, two
 * `@example` tags without a fenced block, one whose only block is ```json, one with an empty ```ts block.
 */
const FIXTURE = [
  "/**",                                                             // 1
  " * Prose with a fence that is not an example:",                   // 2
  " * ```ts",                                                        // 3
  " * notChecked(;",                                                 // 4
  " * ```",                                                          // 5
  " *",                                                              // 6
  " * @example",                                                     // 7
  " * ```ts",                                                        // 8
  ' * import { ConfigMap } from "operator-runtime";',                // 9
  ' * const cm = await client.get({ ...ConfigMap, name: "a", namespace: "b" });', // 10
  " * const n: number = cm.data?.key;",                              // 11: string | undefined is not a number
  " * ```",                                                          // 12
  " * @param x - not part of the example",                           // 13
  " */",                                                             // 14
  "export function documented(x: number): number { return x; }",    // 15
  "/**",                                                             // 16
  " * @example",                                                     // 17
  " * ```ts",                                                        // 18
  ' * import type { KubeObject } from "./kube-object.ts";',          // 19: relative to src/kinds/
  ' * const pods: Kind<KubeObject> = kindFromModel<KubeObject>({ apiVersion: "v1", kind: "Pod" });', // 20: the file's exports
  " * log.info(`${owner.spec.name} ${pods.kind}`);",                 // 21: prelude names
  " * ```",                                                          // 22
  " * ```yaml",                                                      // 23
  " * not: checked",                                                 // 24
  " * ```",                                                          // 25
  " */",                                                             // 26
  "/** @example `inline()` */",                                      // 27
  "/**",                                                             // 28
  " * @example",                                                     // 29
  " * unfenced(); // 1",                                             // 30
  " */",                                                             // 31
  "/**",                                                             // 32
  " * @example Output, not code",                                    // 33
  " * ```json",                                                      // 34
  ' * { "not": "checked" }',                                         // 35
  " * ```",                                                          // 36
  " * @example",                                                     // 37
  " * ```ts",                                                        // 38
  " *",                                                              // 39
  " * ```",                                                          // 40
  " */",                                                             // 41
].join("\n");

describe("TSDoc @example extraction", () => {
  it("takes the ```ts blocks under @example tags, with their fence lines", () => {
    const { examples } = extractFrom("src/kinds/kind.ts", FIXTURE);
    assert.deepEqual(examples.map((e) => [e.line, e.index, e.code.length]), [[8, 1, 3], [18, 2, 3], [38, 3, 1]]);
    assert.equal(examples[0]!.code[0], 'import { ConfigMap } from "operator-runtime";');
  });

  it("reports an @example without a fenced block, and an empty ```ts block; a ```json block is a fenced block", () => {
    const { unfenced, empty } = extractFrom("src/kinds/kind.ts", FIXTURE);
    assert.deepEqual(unfenced.map((u) => [u.line, u.text]), [[27, "`inline()`"], [29, "unfenced(); // 1"]]);
    assert.deepEqual(empty.map((e) => [e.line, e.index]), [[38, 3]]);
  });

  it("takes a fenced example as it is, but an unfenced one as a failure (negative case)", () => {
    const fenced = ["/**", " * @example", " * ```ts", " * unfenced();", " * ```", " */"].join("\n");
    const bare = ["/**", " * @example", " * unfenced();", " */"].join("\n");
    const onOpeningLine = ["/** @example", " * unfenced();", " */"].join("\n");
    assert.deepEqual(extractFrom("a.ts", fenced).unfenced, []);
    assert.deepEqual(extractFrom("a.ts", bare).unfenced, [{ file: "a.ts", line: 2, text: "unfenced();" }]);
    assert.deepEqual(extractFrom("a.ts", onOpeningLine).unfenced, [{ file: "a.ts", line: 1, text: "unfenced();" }]);
    // A tag whose section ends at the next tag without a block is unfenced, even if a later tag has one.
    const beforeParam = ["/**", " * @example", " * unfenced();", " * @param x - a ```ts block in prose is not the example's:", " * ```ts", " * x;", " * ```", " */"].join("\n");
    assert.deepEqual(extractFrom("a.ts", beforeParam).unfenced.map((u) => u.line), [2]);
  });

  it("finds the repository's examples", () => {
    const { examples } = extractExamples();
    assert.ok(examples.length >= 400, `only ${examples.length} @example blocks found`);
    assert.ok(new Set(examples.map((e) => e.file)).size >= 100);
  });

  it("resolves relative imports from the source file", () => {
    assert.equal(rewriteRelativeImports('import { a } from "../x.ts"; await import("./y.ts");', "/r/src/kinds/kind.ts"),
      'import { a } from "/r/src/x.ts"; await import("/r/src/kinds/y.ts");');
  });

  it("gives the prelude's names as globals", () => {
    for (const name of ["client", "kubeConfig", "mgr", "owner", "recorder", "Greeting"]) assert.ok(preludeNames().includes(name), name);
  });
});

describe("TSDoc @example type check", () => {
  it("reports a wrong example at its source line, passes a right one, still type-checks beside one that does not parse, and fails the fence rules", async () => {
    // As if the fixture were src/kinds/kind.ts: relative imports and the implicit import come from there.
    const unparsable = { file: "src/kinds/kind.ts", line: 100, index: 4, code: ["// a fragment", "const x = (;"] };
    const result = await checkExamples({ only: true, sources: [{ file: "src/kinds/kind.ts", text: FIXTURE }], examples: [unparsable] });
    const lines = result.failures.map(formatFailure);
    const all = lines.join("\n");
    assert.match(lines[0] ?? "", /^src\/kinds\/kind\.ts:11 \(example 1\): error TS2322: Type 'string \| undefined' is not assignable to type 'number'/, all);
    // The negative cases of the fence rules: each fails the check, at the tag or the fence.
    assert.deepEqual(lines.slice(1, 4), [
      "src/kinds/kind.ts:27: @example without a fenced block",
      "src/kinds/kind.ts:29: @example without a fenced block",
      "src/kinds/kind.ts:38: @example with an empty ```ts block",
    ], all);
    assert.ok(lines.length >= 5 && lines.slice(4).every((l) => /^src\/kinds\/kind\.ts:102 \(example 4\): error TS1\d{3}: /.test(l)), all);
    assert.equal(result.failures.filter(isTypeError).filter((f) => f.line < 100).length, 1, all);
    assert.deepEqual(result.other, []);
  });

  it("every @example block compiles", async () => {
    const result = await checkExamples();
    const prelude = result.other.filter((o) => o.includes("prelude"));
    assert.deepEqual(prelude, [], "the prelude itself does not type-check");
    const failing = new Set(result.failures.filter(isTypeError).map((f) => `${f.file}#${f.index}`));
    assert.equal(result.failures.length, 0,
      `${failing.size} of ${result.examples.length} @example blocks fail, ${result.unfenced.length} @example tags have no fenced block, ` +
      `${result.empty.length} \`\`\`ts blocks are empty:\n${result.failures.map(formatFailure).join("\n")}` +
      `\n(node test/docs/tsdoc-examples-report.ts groups them by cause)`);
  });
});
