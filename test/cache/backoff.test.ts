import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Backoff, resolveTimings } from "../../src/cache/backoff.ts";

describe("reflector backoff", () => {
  it("doubles from 800 ms to 30 s by default, jittered ±20 %", () => {
    let random = 0.5;
    const backoff = new Backoff(resolveTimings({ now: () => 0, random: () => random }));
    assert.deepEqual(Array.from({ length: 8 }, () => backoff.next()), [800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
    random = 0;
    assert.equal(backoff.next(), 24_000);
    random = 0.999_999;
    assert.ok(backoff.next() <= 36_000);
  });

  it("starts again from the initial delay after a quiet period", () => {
    let now = 0;
    const backoff = new Backoff(resolveTimings({ initialBackoffMs: 10, maxBackoffMs: 1000, backoffResetMs: 100, jitter: 0, now: () => now }));
    assert.deepEqual([backoff.next(), backoff.next(), backoff.next()], [10, 20, 40]);
    now += 100;
    assert.equal(backoff.next(), 80, "not yet quiet for longer than the window");
    now += 101;
    assert.equal(backoff.next(), 10);
    assert.equal(backoff.failures, 1);
  });

  it("keeps the watch timeout range and relist threshold sane", () => {
    const t = resolveTimings({ minWatchTimeoutSeconds: 10, maxWatchTimeoutSeconds: 5, relistAfterWatchFailures: 0, jitter: 3 });
    assert.equal(t.maxWatchTimeoutSeconds, 10);
    assert.equal(t.relistAfterWatchFailures, 1);
    assert.equal(t.jitter, 1);
  });
});
