/** Fixed hash buckets: which bucket a key falls in, which hash range a bucket covers, and the label selecting a bucket's children. */
import type { KubeObject } from "../client/types.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { fnv1a64 } from "../util/shard-range.ts";
import type { HashRange } from "../util/shard-range.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * How many buckets the hash space is cut into. Fixed for a ring: members hand over whole
 * buckets, so a join or a leave moves about 1/N of them; 64 keeps the handover fine-grained
 * for rings of up to a few dozen replicas.
 *
 * @example
 * ```ts
 * const everyBucket = Array.from({ length: SHARD_BUCKETS }, (_, b) => b);
 * ```
 */
export const SHARD_BUCKETS = 64;

/**
 * The label carrying the bucket of a child's owner (`String(bucketOfUid(owner.metadata.uid))`),
 * so a replica watches the children of its buckets with {@link bucketLabelSelector}. The Builder
 * and the ReplicaSetReconciler set it on every child they write; {@link shardBucketLabels} gives
 * it for children written otherwise.
 *
 * @example
 * ```ts
 * const labels = { [SHARD_BUCKET_LABEL]: String(bucketOfUid(owner.metadata!.uid!)) };
 * ```
 */
export const SHARD_BUCKET_LABEL = "operator-runtime.io/shard-bucket";

const SPACE = 1n << 64n;

/**
 * The bucket of an object keyed by its (owner's) UID: `floor(fnv1a64(uid) × buckets / 2^64)`.
 * Buckets are contiguous slices of the hash space, so a set of buckets is a union of
 * `shardRange` intervals (see {@link bucketRange}).
 *
 * @example
 * ```ts
 * bucketOfUid("0b7c2a6e-3f1d-4c8e-9a55-2d1f0e9b7a10"); // 0 … 63
 * ```
 */
export function bucketOfUid(uid: string, buckets = SHARD_BUCKETS): number {
  checkCount(buckets);
  return Number((fnv1a64(uid) * BigInt(buckets)) >> 64n);
}

/**
 * The labels a child of `owner` must carry so the sharded Manager replica serving the owner's
 * bucket sees it: `{ [SHARD_BUCKET_LABEL]: String(bucketOfUid(owner.metadata.uid)) }`. The
 * Builder stamps this label on every object it writes; use this helper for children you write
 * yourself (`client.apply`, `client.create`), or a replica watching its buckets' children with
 * {@link bucketLabelSelector} never sees them. Spread it after your own labels so a stale value
 * cannot win.
 *
 * @throws OperatorRuntimeError when the owner has no `metadata.uid` (an owner not yet read from
 * the API server).
 *
 * @example
 * ```ts
 * await client.apply({
 *   apiVersion: "v1", kind: "ConfigMap",
 *   metadata: { name: "extra", namespace: owner.metadata!.namespace, labels: { app: "web", ...shardBucketLabels(owner) } },
 *   data: { k: "v" },
 * });
 * ```
 */
export function shardBucketLabels(owner: KubeObject): Record<string, string> {
  checkObject("shardBucketLabels(owner)", "owner", owner, "a Kubernetes object (with metadata.uid)", "Pass the owner object as read from the API server, not its UID");
  const uid = owner.metadata?.uid;
  if (typeof uid !== "string" || uid === "") {
    const name = owner.metadata?.name ? ` ${owner.kind ?? "object"} ${owner.metadata.namespace ? `${owner.metadata.namespace}/` : ""}${owner.metadata.name}` : "";
    throw new OperatorRuntimeError(`shardBucketLabels: the owner${name} has no metadata.uid, so its bucket is unknown. Fix: pass the owner as read from the API server (a get, a list or the cache), not an object built in code.`);
  }
  return { [SHARD_BUCKET_LABEL]: String(bucketOfUid(uid)) };
}

export type { HashRange } from "../util/shard-range.ts";

/**
 * The hashes of bucket `bucket`: exactly those `h` with `floor(h × buckets / 2^64) = bucket`.
 *
 * @example
 * ```ts
 * bucketRange(0);  // { start: 0n, end: 0x0400000000000000n }
 * bucketRange(63); // { start: 0xfc00000000000000n, end: 0x10000000000000000n }
 * ```
 */
export function bucketRange(bucket: number, buckets = SHARD_BUCKETS): HashRange {
  checkCount(buckets);
  checkBucket(bucket, buckets, "bucketRange");
  return { start: ceilDiv(BigInt(bucket) * SPACE, buckets), end: ceilDiv(BigInt(bucket + 1) * SPACE, buckets) };
}

/**
 * The hash ranges of a set of buckets, adjacent buckets merged, lowest first: what a replica
 * passes as `shardRange` requirements joined by `||`. Empty for no buckets.
 *
 * @example
 * ```ts
 * bucketRanges([0, 1, 5]); // [{ start: 0n, end: 2n << 58n }, { start: 5n << 58n, end: 6n << 58n }]
 * ```
 */
export function bucketRanges(set: Iterable<number>, buckets = SHARD_BUCKETS): HashRange[] {
  const ranges: HashRange[] = [];
  for (const b of sortedBuckets(set, buckets, "bucketRanges")) {
    const r = bucketRange(b, buckets);
    const last = ranges.at(-1);
    if (last && last.end === r.start) ranges[ranges.length - 1] = { start: last.start, end: r.end };
    else ranges.push(r);
  }
  return ranges;
}

/**
 * A label selector for the children of `set`'s buckets: `operator-runtime.io/shard-bucket in (1,5,9)`.
 * For no buckets it is `operator-runtime.io/shard-bucket,!operator-runtime.io/shard-bucket`
 * (the label both present and absent), which is valid and matches nothing — `in ()` is
 * rejected by the API server.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 * import type { RingMembership } from "operator-runtime/sharding";
 *
 * declare const ring: RingMembership; // this replica's membership in the ring
 * bucketLabelSelector([1, 5, 9]); // "operator-runtime.io/shard-bucket in (1,5,9)"
 * const page = await client.list(ConfigMap, { namespace: "default", labelSelector: bucketLabelSelector(ring.served()) });
 * ```
 */
export function bucketLabelSelector(set: Iterable<number>, buckets = SHARD_BUCKETS): string {
  const sorted = sortedBuckets(set, buckets, "bucketLabelSelector");
  if (sorted.length === 0) return `${SHARD_BUCKET_LABEL},!${SHARD_BUCKET_LABEL}`;
  return `${SHARD_BUCKET_LABEL} in (${sorted.join(",")})`;
}

/** Distinct buckets of `set`, ascending; throws naming `caller` on a bucket out of range. */
function sortedBuckets(set: Iterable<number>, buckets: number, caller: string): number[] {
  checkCount(buckets);
  const distinct = new Set<number>();
  for (const b of set) {
    checkBucket(b, buckets, caller);
    distinct.add(b);
  }
  return [...distinct].sort((a, b) => a - b);
}

function checkBucket(bucket: number, buckets: number, caller: string): void {
  if (!Number.isInteger(bucket) || bucket < 0 || bucket >= buckets) {
    throw new OperatorRuntimeError(`${caller}: bucket ${String(bucket)} is not an integer in 0…${buckets - 1}. Fix: pass buckets from bucketOfUid() or the ring's served().`);
  }
}

function checkCount(buckets: number): void {
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > 4096) {
    throw new OperatorRuntimeError(`buckets: ${String(buckets)} is not an integer in 1…4096. Fix: use SHARD_BUCKETS (64).`);
  }
}

/** ceil(n / d) for n >= 0. */
function ceilDiv(n: bigint, d: number): bigint {
  const big = BigInt(d);
  return (n + big - 1n) / big;
}
