/** The assertion the selector tests share: a typed InvalidSelectorError with the apiserver's wording. */
import assert from "node:assert/strict";
import { InvalidSelectorError } from "../../src/util/selector-error.ts";

/**
 * Asserts that `fn` throws an {@link InvalidSelectorError} of `type` whose `problem` (the
 * apiserver's wording, which LocalCluster answers with a 400) equals or matches `problem`.
 */
export function assertInvalidSelector(type: "label" | "field" | "shard", fn: () => unknown, problem: RegExp | string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof InvalidSelectorError, `expected an InvalidSelectorError, got ${String(err)}`);
    assert.equal(err.selectorType, type);
    if (typeof problem === "string") assert.equal(err.problem, problem);
    else assert.match(err.problem, problem);
    assert.ok(err.message.includes(err.problem) && err.message.includes(JSON.stringify(err.selector)), "the message names the selector and the problem");
    return true;
  });
}
