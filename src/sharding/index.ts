/**
 * Sharding over Kubernetes itself: replicas of one operator form a ring, split a fixed set of
 * hash buckets between them, and hand buckets over without two replicas ever reconciling one
 * key.
 *
 * Start with {@link RingMembership}: each replica holds a Lease in the ring, watches the
 * others', and tells its {@link ShardHandler} (the sharded Manager) which buckets to start and
 * to drain. A key's bucket is {@link bucketOfUid} of its owner's UID; {@link bucketRanges} turns
 * served buckets into the hash ranges of a KEP-5866 `shardRange` selector, and
 * {@link bucketLabelSelector} into a label selector for children labelled
 * {@link SHARD_BUCKET_LABEL} (the Builder stamps it on every child; {@link shardBucketLabels} gives
 * it for children you write yourself). {@link assignBuckets} is the pure assignment every replica derives.
 *
 * When not to use it: one replica (or an active/standby pair under leader election) is enough
 * for most operators; shard only when one replica cannot keep up with the reconciles.
 *
 * @example
 * ```ts
 * import { RingMembership, bucketLabelSelector } from "operator-runtime/sharding";
 * import type { Controller } from "operator-runtime/controller";
 * import { ConfigMap } from "operator-runtime";
 * import { hostname } from "node:os";
 * declare const controllers: Controller[]; // created with `sharding`
 *
 * const ring = new RingMembership({ client, kubeConfig, namespace: "operators", ring: "dataapp", identity: hostname(),
 *   handler: {
 *     start: (b) => { for (const c of controllers) c.serveBucket(b); },
 *     stop: async (b, signal) => { await Promise.all(controllers.map((c) => c.drainBucket(b, signal))); },
 *   } });
 * await ring.start(AbortSignal.timeout(30_000));
 * const children = await client.list(ConfigMap, {
 *   namespace: "default", labelSelector: bucketLabelSelector(ring.served()),
 * });
 * ```
 * @module
 */
export { RingMembership } from "./ring-membership.ts";
export type { RingMembershipOptions, ShardHandler, RingLostReason } from "./ring-options.ts";
export { SHARD_BUCKETS, SHARD_BUCKET_LABEL, bucketOfUid, bucketRange, bucketRanges, bucketLabelSelector, shardBucketLabels } from "../cache/shard-buckets.ts";
export type { HashRange } from "../cache/shard-buckets.ts";
export { assignBuckets, rendezvousScore } from "./assignment.ts";
export { RING_LABEL, SERVING_ANNOTATION, CLAIMING_ANNOTATION, LEAVING_ANNOTATION, BUCKETS_ANNOTATION, memberLeaseName } from "./ring-lease.ts";
