import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../src/util/clock.ts";
import {
  tokenBucketRateLimiter,
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOfRateLimiters,
} from "../../src/controller/rate-limiter.ts";
import type { RateLimiter } from "../../src/controller/rate-limiter.ts";

const times = (limiter: RateLimiter, key: string, n: number): number[] => Array.from({ length: n }, () => limiter.when(key));

describe("exponentialFailureRateLimiter", () => {
  it("doubles a key's backoff from 5 ms: 5, 10, 20, 40, 80 … and counts the retries", () => {
    const limiter = exponentialFailureRateLimiter();
    assert.deepEqual(times(limiter, "ns/a", 6), [5, 10, 20, 40, 80, 160]);
    assert.equal(limiter.retries("ns/a"), 6);
  });

  it("caps the backoff at 1000 s however many failures, without overflowing", () => {
    const limiter = exponentialFailureRateLimiter({ baseMs: 5, maxMs: 1_000_000 });
    const delays = times(limiter, "ns/a", 2000);
    assert.equal(delays[17], 5 * 2 ** 17); // 655 360 ms, still below the cap
    assert.equal(delays[18], 1_000_000);
    assert.ok(delays.slice(18).every((d) => d === 1_000_000));
    assert.ok(delays.every((d) => Number.isFinite(d) && d <= 1_000_000));
  });

  it("starts a key over at the base delay after forget", () => {
    const limiter = exponentialFailureRateLimiter();
    times(limiter, "ns/a", 4);
    limiter.forget("ns/a");
    assert.equal(limiter.retries("ns/a"), 0);
    assert.deepEqual(times(limiter, "ns/a", 3), [5, 10, 20]);
  });

  it("keeps each key's backoff separate", () => {
    const limiter = exponentialFailureRateLimiter({ baseMs: 1, maxMs: 100 });
    times(limiter, "ns/a", 3);
    assert.equal(limiter.when("ns/b"), 1);
    assert.equal(limiter.when("ns/a"), 8);
    assert.equal(limiter.retries("ns/b"), 1);
  });

  it("rejects a negative base or a cap below the base", () => {
    assert.throws(() => exponentialFailureRateLimiter({ baseMs: -1 }), RangeError);
    assert.throws(() => exponentialFailureRateLimiter({ baseMs: 10, maxMs: 5 }), RangeError);
  });
});

describe("tokenBucketRateLimiter", () => {
  it("lets a burst through at once, then spaces reservations 1/qps apart", () => {
    const clock = new ManualClock();
    const limiter = tokenBucketRateLimiter({ qps: 10, burst: 100, now: clock.now });
    const delays = Array.from({ length: 103 }, (_, i) => limiter.when(`ns/k${i}`));
    assert.ok(delays.slice(0, 100).every((d) => d === 0));
    assert.deepEqual(delays.slice(100), [100, 200, 300]);
  });

  it("earns tokens back over time but never holds more than the burst", () => {
    const clock = new ManualClock();
    const limiter = tokenBucketRateLimiter({ qps: 10, burst: 2, now: clock.now });
    assert.deepEqual(times(limiter, "k", 3), [0, 0, 100]);
    clock.advance(100); // pays back the token reserved above
    assert.equal(limiter.when("k"), 100);
    clock.advance(60_000); // a long idle spell refills to the burst only
    assert.deepEqual(times(limiter, "k", 3), [0, 0, 100]);
  });

  it("keeps no per-key state", () => {
    const limiter = tokenBucketRateLimiter({ qps: 1, burst: 1, now: () => 0 });
    limiter.when("k");
    assert.equal(limiter.retries("k"), 0);
    limiter.forget("k");
    assert.equal(limiter.when("k"), 1000);
  });

  it("rejects a non-positive rate or an empty burst", () => {
    assert.throws(() => tokenBucketRateLimiter({ qps: 0 }), RangeError);
    assert.throws(() => tokenBucketRateLimiter({ burst: 0 }), RangeError);
  });
});

describe("maxOfRateLimiters", () => {
  it("waits as long as the slowest limiter, forgets in all, reports the most retries", () => {
    const clock = new ManualClock();
    const limiter = maxOfRateLimiters(
      exponentialFailureRateLimiter({ baseMs: 5, maxMs: 1_000_000 }),
      tokenBucketRateLimiter({ qps: 10, burst: 2, now: clock.now }),
    );
    assert.deepEqual(times(limiter, "k", 4), [5, 10, 100, 200]); // backoff, backoff, then the bucket
    assert.equal(limiter.retries("k"), 4);
    limiter.forget("k");
    assert.equal(limiter.retries("k"), 0);
    clock.advance(1000);
    assert.equal(limiter.when("k"), 5);
  });

  it("returns 0 with no limiters", () => {
    assert.equal(maxOfRateLimiters().when("k"), 0);
  });
});

describe("defaultControllerRateLimiter", () => {
  it("backs one key off 5, 10, 20, 40 ms … up to 1000 s and resets on forget", () => {
    const limiter = defaultControllerRateLimiter();
    const delays = times(limiter, "ns/a", 25);
    assert.deepEqual(delays.slice(0, 5), [5, 10, 20, 40, 80]);
    assert.equal(delays.at(-1), 1_000_000);
    limiter.forget("ns/a");
    assert.equal(limiter.when("ns/a"), 5);
  });

  it("limits all keys together to a burst of 100, then 10 per second", () => {
    const limiter = defaultControllerRateLimiter({ now: () => 0 });  // time stands still
    const delays = Array.from({ length: 102 }, (_, i) => limiter.when(`ns/k${i}`));
    assert.ok(delays.slice(0, 100).every((d) => d === 5), "the burst waits only the per-key 5 ms");
    assert.deepEqual(delays.slice(100), [100, 200], "then one token every 100 ms");
  });
});
