import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { exponentialBackoffMs } from "../../src/util/backoff.ts";

describe("exponentialBackoffMs", () => {
  it("doubles from the base with each failure and stops at the cap", () => {
    assert.deepEqual([0, 1, 2, 3, 5, 6].map((n) => exponentialBackoffMs(n, 800, 30_000)), [800, 1600, 3200, 6400, 25_600, 30_000]);
  });

  it("stays at the cap however many failures, without overflowing", () => {
    for (const n of [60, 1023, 1024, 10_000]) assert.equal(exponentialBackoffMs(n, 5, 1_000_000), 1_000_000, String(n));
  });

  it("is 0 for a zero base, and the cap when the base is above it", () => {
    assert.equal(exponentialBackoffMs(2000, 0, 1000), 0);
    assert.equal(exponentialBackoffMs(0, 500, 100), 100);
  });
});
