/** The options of RingMembership and the callbacks through which it hands buckets to the sharded Manager. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ResourceClient } from "../client/resource-client.ts";
import type { Clock } from "../util/clock.ts";
import type { Logger } from "../log/logger.ts";

/**
 * What the ring tells the sharded Manager: start serving a bucket, stop serving it.
 *
 * Contract:
 * - `start(b)` is called only after this member's Lease publishes `b` as served; reconciles of
 *   `b`'s keys may run from then on. A throw or rejection is logged and the bucket is stopped
 *   again (`stop(b)`), then left for a later attempt.
 * - `stop(b, signal)` must resolve only once no reconcile of `b`'s keys runs any more (drained):
 *   the ring unpublishes `b`, and so lets another member start it, only after that. Never
 *   called before `start(b)` has settled. A rejection is logged and `stop` is called again after
 *   a retry period: the bucket stays published until a call resolves.
 * - `signal` aborts when the drain cannot wait any more: this member lost its membership (its
 *   Lease could not be renewed in time) and others may take its buckets once the Lease expires.
 *   Abort in-flight reconciles on it and refuse their writes; see
 *   {@link RingMembership.mayReconcile}.
 *
 * @example
 * ```ts
 * import type { Controller } from "operator-runtime/controller";
 * declare const controllers: Controller[]; // created with `sharding`
 *
 * const handler: ShardHandler = {
 *   start: (b) => { for (const c of controllers) c.serveBucket(b); },
 *   stop: async (b, signal) => { await Promise.all(controllers.map((c) => c.drainBucket(b, signal))); },
 * };
 * ```
 */
export interface ShardHandler {
  start(bucket: number): Promise<void> | void;
  stop(bucket: number, signal: AbortSignal): Promise<void>;
}

/**
 * Options of `RingMembership`. Durations in ms; defaults are leader election's 15 s / 10 s /
 * 2 s. Must hold: leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0.
 *
 * @example
 * ```ts
 * import { hostname } from "node:os";
 * import { randomUUID } from "node:crypto";
 * declare const handler: ShardHandler;
 *
 * const options: RingMembershipOptions = { client, kubeConfig, namespace: "operators", ring: "dataapp",
 *   identity: `${hostname()}_${randomUUID()}`, handler };
 * ```
 */
export interface RingMembershipOptions {
  client: ResourceClient;
  /** For the watch on the ring's Leases. */
  kubeConfig: KubeConfig;
  /** Namespace of the ring's Leases. */
  namespace: string;
  /** The ring's name: a DNS label of at most 46 characters, the same on every replica. */
  ring: string;
  /** This replica's identity, unique among live replicas (pod name + random suffix). */
  identity: string;
  /** Starts and drains buckets (the sharded Manager). */
  handler: ShardHandler;
  /** Buckets the hash space is cut into; the same on every replica. Default `SHARD_BUCKETS` (64). */
  buckets?: number;
  /** How long a member's Lease stays valid after another member last saw it change. */
  leaseDurationMs?: number;
  /**
   * How long a member keeps trying to renew before it stops serving every bucket. Drains
   * aborted then must finish within leaseDurationMs − renewDeadlineMs.
   */
  renewDeadlineMs?: number;
  /** Time between renewals, and the longest a change in the ring waits to be acted on. */
  retryPeriodMs?: number;
  logger?: Logger;
  /**
   * Monotonic time for renewals, the renew deadline and other members' expiry. Default
   * `realClock` (`performance.now()`, unref'd timers).
   */
  clock?: Clock;
  /** Wall-clock time (epoch ms) for the Lease's renewTime stamps only. Default Date.now. */
  now?: () => number;
}

/**
 * Why this member stopped serving: it could not renew its Lease within renewDeadlineMs of the
 * last successful renewal (`renew-deadline`).
 *
 * @example
 * ```ts
 * import type { RingMembership } from "operator-runtime/sharding";
 * declare const ring: RingMembership;
 *
 * ring.onLost((reason: RingLostReason) => log.error("left the ring", { reason }));
 * ```
 */
export type RingLostReason = "renew-deadline";
