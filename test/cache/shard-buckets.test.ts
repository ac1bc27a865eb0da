import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { SHARD_BUCKETS, SHARD_BUCKET_LABEL, bucketLabelSelector, bucketOfUid, bucketRange, bucketRanges } from "../../src/cache/shard-buckets.ts";
import { fnv1a64 } from "../../src/sharding/hash.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";
import { parseLabelSelector } from "../../src/util/label-selector.ts";

const TOP = 1n << 64n;

describe("fnv1a64", () => {
  it("matches the published FNV-1a 64 test vectors", () => {
    assert.equal(fnv1a64(""), 0xcbf29ce484222325n);
    assert.equal(fnv1a64("a"), 0xaf63dc4c8601ec8cn);
    assert.equal(fnv1a64("foobar"), 0x85944171f73967e8n);
  });

  it("hashes the UTF-8 bytes, not UTF-16 code units", () => {
    // "é" is the two bytes c3 a9: the same as hashing them one by one from the offset basis.
    let h = 0xcbf29ce484222325n;
    for (const byte of [0xc3, 0xa9]) h = ((h ^ BigInt(byte)) * 0x100000001b3n) % TOP;
    assert.equal(fnv1a64("é"), h);
  });
});

describe("bucketOfUid and bucketRange", () => {
  it("a UID's bucket is the bucket whose range holds its hash", () => {
    for (let i = 0; i < 500; i++) {
      const uid = randomUUID();
      const b = bucketOfUid(uid);
      const { start, end } = bucketRange(b);
      const h = fnv1a64(uid);
      assert.ok(start <= h && h < end, `${uid}: hash ${h} in bucket ${b} [${start}, ${end})`);
    }
  });

  it("the ranges cut the whole hash space into contiguous equal slices, the last ending at 2^64", () => {
    assert.deepEqual(bucketRange(0), { start: 0n, end: 1n << 58n });
    assert.deepEqual(bucketRange(SHARD_BUCKETS - 1), { start: 63n << 58n, end: TOP });
    for (let b = 1; b < SHARD_BUCKETS; b++) assert.equal(bucketRange(b).start, bucketRange(b - 1).end);
  });

  it("for a bucket count that does not divide 2^64, a range holds exactly the hashes of its bucket", () => {
    const buckets = 3;
    for (let b = 0; b < buckets; b++) {
      const { start, end } = bucketRange(b, buckets);
      assert.equal(Number((start * 3n) >> 64n), b, "start is in the bucket");
      assert.equal(Number(((end - 1n) * 3n) >> 64n), b, "end - 1 is in the bucket");
      if (b > 0) assert.equal(Number(((start - 1n) * 3n) >> 64n), b - 1, "start - 1 is in the one before");
    }
    assert.equal(bucketRange(2, 3).end, TOP);
  });

  it("random UIDs spread over all buckets", () => {
    const counts = new Array<number>(SHARD_BUCKETS).fill(0);
    for (let i = 0; i < 6400; i++) counts[bucketOfUid(randomUUID())]!++;
    assert.ok(Math.min(...counts) > 50 && Math.max(...counts) < 160, `counts ${counts.join(",")}`);
  });

  it("bucketRanges merges adjacent buckets, lowest first, and ignores duplicates", () => {
    assert.deepEqual(bucketRanges([5, 0, 1, 1]), [{ start: 0n, end: 2n << 58n }, { start: 5n << 58n, end: 6n << 58n }]);
    assert.deepEqual(bucketRanges([]), []);
    assert.deepEqual(bucketRanges(Array.from({ length: SHARD_BUCKETS }, (_, b) => b)), [{ start: 0n, end: TOP }]);
  });

  it("a bucket out of range is an error naming the bucket and the fix", () => {
    for (const bad of [-1, 64, 1.5, Number.NaN]) {
      assert.throws(() => bucketRange(bad), (err: unknown) => err instanceof OperatorRuntimeError && /bucketRange: bucket .* 0…63.*Fix/.test(err.message));
    }
    assert.throws(() => bucketLabelSelector([64]), /bucketLabelSelector: bucket 64/);
    assert.throws(() => bucketOfUid("x", 0), /buckets: 0 .*Fix/);
  });
});

describe("bucketLabelSelector", () => {
  it("selects exactly the children labelled with one of the buckets", () => {
    const text = bucketLabelSelector([9, 1, 5, 5]);
    assert.equal(text, `${SHARD_BUCKET_LABEL} in (1,5,9)`);
    const sel = parseLabelSelector(text);
    assert.equal(sel.matches({ [SHARD_BUCKET_LABEL]: "5" }), true);
    assert.equal(sel.matches({ [SHARD_BUCKET_LABEL]: "2" }), false);
    assert.equal(sel.matches({}), false);
  });

  it("for no buckets is a valid selector that matches nothing", () => {
    const sel = parseLabelSelector(bucketLabelSelector([]));
    assert.equal(sel.isEmpty, false);
    const cases: (Record<string, string> | undefined)[] = [undefined, {}, { [SHARD_BUCKET_LABEL]: "" }, { [SHARD_BUCKET_LABEL]: "0" }, { [SHARD_BUCKET_LABEL]: "none" }];
    for (const labels of cases) {
      assert.equal(sel.matches(labels), false, JSON.stringify(labels));
    }
  });
});
