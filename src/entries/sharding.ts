/**
 * `operator-runtime/sharding`: more than one replica of an operator, each reconciling a share
 * of the owners — the ring ({@link RingMembership}), hash buckets, the {@link ShardRouter} a
 * sharded Manager runs, and the Manager's `sharding` options.
 *
 * @example
 * ```ts
 * import { bucketOfUid, bucketLabelSelector, SHARD_BUCKETS } from "operator-runtime/sharding";
 *
 * const bucket = bucketOfUid("5f0c8a52-2f6e-4c55-9a1e-0d6d0c2d9b11");
 * console.log(`bucket ${bucket} of ${SHARD_BUCKETS}:`, bucketLabelSelector([bucket]));
 * ```
 * @module
 */
export * from "../sharding/index.ts";
export { ShardRouter } from "../manager/shard-router.ts";
export type { ShardRouterOptions } from "../manager/shard-router.ts";
export type { ShardingOptions } from "../manager/manager.ts";
