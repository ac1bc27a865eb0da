import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ServerError, TooManyRequestsError } from "../../src/errors.ts";
import { retryAfterMs } from "../../src/controller/retry-after.ts";

const tooMany = (seconds?: number) =>
  new TooManyRequestsError(429, { reason: "TooManyRequests", ...(seconds !== undefined ? { details: { retryAfterSeconds: seconds } } : {}) }, "patch configmaps default/a");

describe("retryAfterMs", () => {
  it("reads a 429's Retry-After in milliseconds", () => {
    assert.equal(retryAfterMs(tooMany(5)), 5000);
  });

  it("finds it in a cause chain and in an AggregateError of a Builder's failed children, taking the longest", () => {
    const wrapped = new Error("reconcile failed", { cause: tooMany(2) });
    const aggregate = new AggregateError([new ServerError(500, {}, "get configmaps"), wrapped, tooMany(7)], "children failed");
    assert.equal(retryAfterMs(aggregate), 7000);
  });

  it("is undefined for other errors, a 429 without Retry-After, and thrown non-errors", () => {
    assert.equal(retryAfterMs(new Error("x")), undefined);
    assert.equal(retryAfterMs(tooMany()), undefined);
    assert.equal(retryAfterMs("a string"), undefined);
    const cyclic: { cause?: unknown } = {};
    cyclic.cause = cyclic;
    assert.equal(retryAfterMs(cyclic), undefined);
  });
});
