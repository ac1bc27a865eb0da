import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { KeyedTokenBuckets, TokenBucket } from "../../src/util/token-bucket.ts";

describe("TokenBucket", () => {
  it("starts full, gives out the burst, then earns a token back per interval", () => {
    const bucket = new TokenBucket({ burst: 2, refillIntervalMs: 1000 }, 0);
    assert.deepEqual([bucket.take(0), bucket.take(0), bucket.take(0)], [true, true, false]);
    assert.equal(bucket.take(999), false);
    assert.equal(bucket.take(1000), true);
  });

  it("never holds more than the burst, however long it idles", () => {
    const bucket = new TokenBucket({ burst: 2, refillIntervalMs: 10 }, 0);
    bucket.take(0);
    bucket.take(0);
    assert.deepEqual([bucket.take(1_000_000), bucket.take(1_000_000), bucket.take(1_000_000)], [true, true, false]);
  });

  it("reserve goes into debt and says when each token will exist", () => {
    const bucket = new TokenBucket({ burst: 1, refillIntervalMs: 100 }, 0);
    assert.deepEqual([bucket.reserve(0), bucket.reserve(0), bucket.reserve(0)], [0, 100, 200]);
    assert.equal(bucket.take(150), false, "the debt is paid back before a token is free");
    assert.equal(bucket.reserve(300), 0);
  });

  it("earns nothing when time goes backwards", () => {
    const bucket = new TokenBucket({ burst: 1, refillIntervalMs: 100 }, 1000);
    bucket.take(1000);
    assert.equal(bucket.take(0), false);
    assert.equal(bucket.take(1100), true);
  });

  it("refuses an empty burst or a non-positive interval", () => {
    assert.throws(() => new TokenBucket({ burst: 0, refillIntervalMs: 1 }, 0), RangeError);
    assert.throws(() => new TokenBucket({ burst: 1, refillIntervalMs: 0 }, 0), RangeError);
    assert.throws(() => new KeyedTokenBuckets({ burst: 1, refillIntervalMs: -1 }), RangeError);
  });
});

describe("KeyedTokenBuckets", () => {
  it("keeps one bucket per key", () => {
    const buckets = new KeyedTokenBuckets({ burst: 1, refillIntervalMs: 1000 });
    assert.deepEqual([buckets.take("a", 0), buckets.take("a", 0), buckets.take("b", 0)], [true, false, true]);
    assert.equal(buckets.take("a", 1000), true);
  });

  it("forgets the least recently used key beyond maxKeys, which then starts full", () => {
    const buckets = new KeyedTokenBuckets({ burst: 1, refillIntervalMs: 1000, maxKeys: 2 });
    buckets.take("a", 0);
    buckets.take("b", 0);
    assert.equal(buckets.take("a", 0), false, "a is remembered and empty; now the most recently used");
    buckets.take("c", 0); // evicts b
    assert.equal(buckets.take("a", 0), false, "a is still remembered");
    assert.equal(buckets.take("b", 0), true, "b was forgotten and starts full");
  });
});
