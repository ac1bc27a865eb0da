import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mergePatch } from "../../src/util/merge-patch.ts";

describe("mergePatch (RFC 7386)", () => {
  it("merges objects key by key, deletes on null, replaces lists and scalars", () => {
    const target = { a: 1, b: { c: 2, d: 3 }, list: [1, 2] };
    assert.deepEqual(mergePatch(target, { b: { d: null, e: [1] }, list: [3] }), { a: 1, b: { c: 2, e: [1] }, list: [3] });
    assert.equal(mergePatch({ a: 1 }, "x"), "x");
    assert.deepEqual(mergePatch("x", { a: { b: null } }), { a: {} });
  });

  it("skips undefined members of the patch and shares no structure with its inputs", () => {
    const target = { keep: { deep: [1] }, gone: 1 };
    const patch = { gone: undefined, added: { x: 1 } };
    const result = mergePatch(target, patch) as { keep: { deep: number[] }; gone: number; added: { x: number } };
    assert.deepEqual(result, { keep: { deep: [1] }, gone: 1, added: { x: 1 } });
    result.keep.deep.push(2);
    result.added.x = 2;
    assert.deepEqual(target.keep.deep, [1]);
    assert.deepEqual(patch.added, { x: 1 });
  });

  it("keeps __proto__ as a data key, never reaching a prototype", () => {
    const patch = JSON.parse('{"__proto__": {"polluted": "yes"}, "metadata": {"__proto__": {"controller": true}}}') as unknown;
    const result = mergePatch({ metadata: { name: "a" } }, patch) as Record<string, Record<string, unknown>>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.equal(result.metadata!.controller, undefined);
    assert.deepEqual(Object.keys(result).sort(), ["__proto__", "metadata"]);
    assert.deepEqual(JSON.parse(JSON.stringify(result)), JSON.parse('{"metadata":{"name":"a","__proto__":{"controller":true}},"__proto__":{"polluted":"yes"}}'));
  });
});
