/** Membership in a ring of replicas that split the hash space: a Lease per member, the bucket assignment, and the safe handover of buckets. */
import { SharedInformer } from "../cache/informer.ts";
import { realClock } from "../util/clock.ts";
import type { Clock } from "../util/clock.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import { createLogger } from "../log/logger.ts";
import { CallbackSet } from "../lease/callback-set.ts";
import { LEASE_KIND } from "../lease/lease-record.ts";
import type { Lease } from "../lease/lease-record.ts";
import type { Runnable } from "../util/runnable.ts";
import { assignBuckets } from "./assignment.ts";
import { SHARD_BUCKETS } from "../cache/shard-buckets.ts";
import { BucketHandover, lostMembership } from "./bucket-handover.ts";
import { MemberLeaseStore, changedUnderUs } from "./member-lease-store.ts";
import type { Published } from "./member-lease-store.ts";
import { RING_LABEL, checkRingName, memberLeaseName } from "./ring-lease.ts";
import type { RingLostReason, RingMembershipOptions, ShardHandler } from "./ring-options.ts";
import { RingView } from "./ring-view.ts";
import type { PeerView } from "./ring-view.ts";
import { checkObject } from "../util/check-args.ts";

export type { RingLostReason, RingMembershipOptions, ShardHandler } from "./ring-options.ts";

/**
 * One replica's membership in a ring: it holds a Lease `<ring>-<hash of identity>` labelled
 * `operator-runtime.io/ring=<ring>`, renewed every retryPeriod by a PUT conditional on its
 * resourceVersion; it watches the ring's Leases; and from the live members it derives the same
 * assignment of {@link SHARD_BUCKETS} buckets as every other replica (rendezvous hashing with bounded load, so a
 * join or a leave moves about 1/N of them). It takes the buckets assigned to it and hands over
 * the others through a {@link ShardHandler} (the sharded Manager).
 *
 * Expected flow, per bucket:
 * - Assigned here and published by no other live member (as served or claimed): claim it —
 *   publish it in `operator-runtime.io/claiming` — and wait until this member's own watch
 *   delivers that write. The watch delivers the ring's Leases in resourceVersion order, so by
 *   then any claim written earlier by a competitor is in view: if one is (or the bucket is
 *   served), withdraw; if none is, publish the bucket in `operator-runtime.io/serving`, and only
 *   once that write succeeded call `handler.start(b)`. Of two competing claims, the later
 *   one's member always sees the earlier one, so at most one of them proceeds; when both see
 *   each other both withdraw, and try again once their views agree on the members (then only
 *   one of them is assigned the bucket).
 * - Served here and assigned elsewhere: `handler.stop(b, signal)` (drain), and only once it
 *   resolved stop publishing `b`. Until then the new owner waits.
 * - A member is live while its Lease names a holder and has changed within its lease duration,
 *   judged by the observer's monotonic clock; a released Lease is not live; a deleted one that
 *   still published buckets counts until it would have expired.
 * - No renewal succeeded within renewDeadline of sending the last successful one: every served
 *   bucket is stopped at once with an aborted signal, `onLost` callbacks run, and
 *   {@link RingMembership.mayReconcile} answers false from that moment. The member keeps trying
 *   to renew and rejoins when a renewal succeeds (its Lease then publishes only what is still
 *   draining, so it takes buckets again through the same protocol). Unlike a leader, a member
 *   holds nothing exclusive that could be stale after rejoining: rejoining is safe.
 * - `stop()`: marks the Lease `operator-runtime.io/leaving` (others drop this member from the
 *   assignment at once), drains every bucket, unpublishes each as it drains (others take it
 *   at once), then deletes the Lease.
 * - Leases left behind by crashed replicas are deleted by any live member once they have been
 *   expired for another lease duration (a precondition on their resourceVersion).
 *
 * Guarantees (under the assumptions below):
 * - Never two members serving one bucket: from `start(b)` to the resolution of `stop(b)`, `b`
 *   is published as served in a live Lease, and no member starts a bucket another live member
 *   publishes.
 * - `start(b)` and `stop(b)` alternate per bucket, `stop` only after `start` settled.
 * - A member that cannot renew stops reconciling within renewDeadline of its last successful
 *   renewal; other members wait at least leaseDuration from their last sight of a change.
 *
 * Assumptions and caveats (the leader elector's):
 * - Lease-based, not fencing: a process paused longer than leaseDuration − renewDeadline, or
 *   a drain aborted at the renew deadline that does not finish within that margin, can overlap
 *   the next owner. Keep renewDeadline well under leaseDuration, and refuse writes of
 *   reconciles when {@link RingMembership.mayReconcile} answers false.
 * - Clocks may be skewed but must advance at about the same rate.
 * - Members of a ring must agree on the bucket count; a live member publishing another count is
 *   taken to hold every bucket (nothing moves until it leaves).
 * - The identity must be unique among live replicas. A restarted process with the identity of a
 *   dead one takes over its Lease and publishes only what it serves itself.
 *
 * RBAC: `coordination.k8s.io` `leases`: get, list, watch, create, update, delete (in the namespace).
 *
 * @example
 * ```ts
 * import { hostname } from "node:os";
 * import type { ShardHandler } from "operator-runtime/sharding";
 * declare const handler: ShardHandler; // starts and drains buckets, e.g. a ShardRouter
 *
 * const ring = new RingMembership({ client, kubeConfig, namespace: "operators", ring: "dataapp",
 *   identity: hostname(), handler });
 * ring.onLost(() => log.error("lost ring membership; rejoining"));
 * await ring.start(AbortSignal.timeout(30_000));
 * // on SIGTERM:
 * await ring.stop(); // drains, unpublishes and deletes the Lease: others take over at once
 * ```
 */
export class RingMembership implements Runnable {
  readonly name: string;
  readonly identity: string;
  readonly ring: string;
  /** The name of this member's Lease. */
  readonly leaseName: string;
  readonly #namespace: string;
  readonly #bucketCount: number;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #retryMs: number;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #store: MemberLeaseStore;
  readonly #informer: SharedInformer<Lease>;
  readonly #view: RingView;
  readonly #handover: BucketHandover;
  readonly #onLost: CallbackSet<RingLostReason>;
  #state: "new" | "running" | "leaving" | "stopped" = "new";
  #joined = false;
  /** When the last write was sent, and whether it failed (then the next waits a retry period). */
  #lastAttemptAt = -Infinity;
  #lastFailed = false;
  /** The Lease changed under this member (a conflict): read it and write again at once. */
  #retryNow = false;
  /** The renew deadline: the last successful write's send time + renewDeadline (clock ms). */
  #validUntil = -Infinity;
  /** Successful writes are numbered; the resourceVersions of those a claim may still wait for. */
  #writes = 0;
  readonly #writtenRvs = new Map<number, string>();
  #published = "";
  #servingPublished: number[] = [];
  #members: string[] = [];
  /** The assignment of the members last asked about. */
  #assigned: { key: string; owners: (string | undefined)[] } | undefined;
  #lastGc = -Infinity;
  #stepTimer: unknown;
  #deadlineTimer: unknown;
  #stepping: Promise<void> | undefined;
  #again = false;
  #requestAbort: AbortController | undefined;
  #stopping: Promise<void> | undefined;
  #drained: (() => void) | undefined;

  constructor(options: RingMembershipOptions) {
    checkObject("new RingMembership(options)", "options", options, "an options object ({ client, ring, identity, … })");
    const { namespace, ring, identity, leaseDurationMs = 15_000, renewDeadlineMs = 10_000, retryPeriodMs = 2_000, buckets = SHARD_BUCKETS } = options;
    if (!namespace || !identity) {
      throw new OperatorRuntimeError("RingMembership: namespace and identity are required. Fix: pass the Leases' namespace and a unique identity (pod name).");
    }
    checkRingName(ring);
    if (!(leaseDurationMs > renewDeadlineMs && renewDeadlineMs > retryPeriodMs && retryPeriodMs > 0)) {
      throw new OperatorRuntimeError(
        `RingMembership: need leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0, got ${leaseDurationMs} / ${renewDeadlineMs} / ${retryPeriodMs}. Fix: e.g. 15000 / 10000 / 2000.`,
      );
    }
    if (!Number.isInteger(buckets) || buckets < 1 || buckets > 4096) {
      throw new OperatorRuntimeError(`RingMembership: buckets ${buckets} is not an integer in 1…4096. Fix: leave it at SHARD_BUCKETS (64).`);
    }
    this.identity = identity;
    this.ring = ring;
    this.name = `shard-ring ${ring}`;
    this.leaseName = memberLeaseName(ring, identity);
    this.#store = new MemberLeaseStore(options.client, {
      namespace, ring, name: this.leaseName, identity, durationMs: leaseDurationMs, buckets, now: options.now ?? Date.now,
    });
    this.#namespace = namespace;
    this.#bucketCount = buckets;
    this.#leaseMs = leaseDurationMs;
    this.#renewMs = renewDeadlineMs;
    this.#retryMs = retryPeriodMs;
    this.#log = (options.logger ?? createLogger()).child({ component: "shard-ring", ring, identity });
    const clock = (this.#clock = options.clock ?? realClock);
    this.#view = new RingView(() => clock.now(), leaseDurationMs, buckets);
    this.#handover = new BucketHandover(identity, options.handler, this.#log, clock, retryPeriodMs, () => this.#kick());
    this.#onLost = new CallbackSet("onLost", this.#log);
    this.#informer = new SharedInformer<Lease>({
      client: options.client, kubeConfig: options.kubeConfig, kind: LEASE_KIND, namespace,
      labelSelector: `${RING_LABEL}=${ring}`, logger: this.#log,
    });
    this.#informer.addEventHandler({
      add: (lease) => this.#seen(lease),
      update: (_, lease) => this.#seen(lease),
      delete: (lease) => {
        this.#view.forget(lease);
        this.#kick();
      },
      caughtUp: () => this.#kick(),
    });
  }

  /**
   * Buckets this member serves now: their keys may be dispatched to reconcile. Empty once the
   * renew deadline has passed, even before the timer that stops them ran.
   */
  served(): ReadonlySet<number> {
    return this.#valid() ? this.#handover.served() : new Set();
  }

  /**
   * Whether reconciles of `bucket` may run and write now: it is served or still draining, and
   * the renew deadline has not passed (answered from the deadline itself, like
   * `LeaderElector.isLeader()`). The write gate of a sharded Manager.
   */
  mayReconcile(bucket: number): boolean {
    return this.#valid() && this.#handover.running(bucket);
  }

  /** The live members taking part in the assignment (this one while joined and not leaving), sorted. */
  members(): string[] {
    return [...this.#members];
  }

  /** The assignment this member derives from {@link RingMembership.members}: entry b names b's owner. */
  assignment(): (string | undefined)[] {
    const key = this.#members.join("\u0000");
    if (this.#assigned?.key !== key) this.#assigned = { key, owners: assignBuckets(this.#members, this.#bucketCount) };
    return [...this.#assigned.owners];
  }

  /** Whether this member's Lease is renewed (within the renew deadline). */
  isJoined(): boolean {
    return this.#valid();
  }

  /** Calls `fn` when membership is lost (served buckets are being stopped). Returns an unsubscribe function. */
  onLost(fn: (reason: RingLostReason) => unknown): () => void {
    return this.#onLost.add(fn);
  }

  /** Starts watching the ring; resolves once the watch has synced (joining continues in the background). Starts once. */
  async start(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#state !== "new") throw new OperatorRuntimeError("RingMembership.start: already started. Fix: create a new RingMembership.");
    this.#state = "running";
    try {
      await this.#informer.start(signal);
    } catch (err) {
      this.#state = "stopped";
      throw err;
    }
    this.#kick();
  }

  /**
   * Leaves the ring: marks the Lease leaving, drains every bucket (renewing meanwhile),
   * unpublishes each as it drains, then deletes the Lease. Resolves once all that is done; it
   * waits for every `stop` of the handler, so bound it by the pod's termination grace period
   * if a drain can hang. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#leave();
    return this.#stopping;
  }

  /**
   * For tests: stops as if the process died — no drain, no callbacks, the Lease left as it is;
   * `stop()` becomes a no-op. Resolves when a request in flight has settled.
   */
  async abandon(): Promise<void> {
    this.#state = "stopped";
    this.#joined = false;
    this.#clearTimers();
    this.#requestAbort?.abort(new OperatorRuntimeError("RingMembership abandoned"));
    this.#stopping ??= Promise.resolve();
    this.#drained?.();
    await this.#stepping;
    await this.#informer.stop();
  }

  async #leave(): Promise<void> {
    if (this.#state === "new" || this.#state === "stopped") {
      this.#state = "stopped";
      await this.#informer.stop();
      return;
    }
    this.#state = "leaving";
    this.#log.info("leaving the ring");
    await new Promise<void>((resolve) => {
      this.#drained = resolve;
      this.#kick();
    });
    if (this.#state !== "leaving") return; // abandoned meanwhile
    this.#state = "stopped";
    this.#clearTimers();
    await this.#stepping;
    try {
      await this.#store.delete(AbortSignal.timeout(this.#renewMs));
      this.#log.info("left the ring");
    } catch (err) {
      this.#log.warn("could not delete the member Lease; the others take over once it expires", { lease: this.leaseName, error: err });
    }
    this.#joined = false;
    await this.#informer.stop();
  }

  #seen(lease: Lease): void {
    this.#view.see(lease);
    this.#kick();
  }

  #valid(): boolean {
    return this.#joined && this.#clock.now() < this.#validUntil;
  }

  /** Runs a step now, or once more after the one running. */
  #kick(): void {
    if (this.#state === "new" || this.#state === "stopped") return;
    if (this.#stepping) {
      this.#again = true;
      return;
    }
    this.#stepping = this.#loop();
  }

  async #loop(): Promise<void> {
    try {
      do {
        this.#again = false;
        await this.#step();
      } while (this.#again && this.#state !== "stopped");
    } finally {
      this.#stepping = undefined;
      this.#scheduleNext();
    }
  }

  /** Decides on every bucket, then writes the Lease when it must change or is due for renewal. */
  async #step(): Promise<void> {
    const peers = this.#view.live(this.identity);
    const leaving = this.#state !== "running";
    const ready = this.#valid() && !leaving && this.#informer.hasSynced() && !this.#informer.isStale();
    this.#noteMembers(peers, this.#valid() && !leaving);
    this.#handover.decide({
      owners: this.assignment(),
      takenByOthers: (b) => peers.some((p) => holds(p.serving, b) || holds(p.claiming, b)),
      ready,
      leaving,
      claimVisible: (seq) => this.#claimVisible(seq),
    });
    const { serving, claiming } = this.#handover.toPublish();
    const published = JSON.stringify([serving, claiming, leaving]);
    const periodOver = this.#clock.now() - this.#lastAttemptAt >= this.#retryMs;
    const due = this.#retryNow || periodOver || (!this.#lastFailed && published !== this.#published);
    if (due && (await this.#write({ serving, claiming, leaving }))) {
      if (this.#state === "stopped") return; // abandoned meanwhile: no callbacks any more
      const released = this.#servingPublished.filter((b) => !serving.includes(b));
      if (released.length > 0) this.#log.info("released buckets", { buckets: released });
      this.#published = published;
      this.#servingPublished = serving;
      this.#handover.written(this.#writes, serving, claiming);
    }
    if (leaving && this.#handover.isEmpty() && (this.#published === JSON.stringify([[], [], true]) || !this.#valid())) this.#drained?.();
    if (ready) this.#collectGarbage();
  }

  /** Keeps `members()` and logs joins and leaves. */
  #noteMembers(peers: PeerView[], self: boolean): void {
    const members = peers.filter((p) => !p.leaving).map((p) => p.identity);
    if (self) members.push(this.identity);
    members.sort();
    const before = new Set(this.#members);
    const after = new Set(members);
    for (const m of members) if (!before.has(m) && m !== this.identity) this.#log.info("member joined", { member: m, members: members.length });
    for (const m of this.#members) if (!after.has(m) && m !== this.identity) this.#log.info("member left", { member: m, members: members.length });
    this.#members = members;
  }

  /** Whether the watch has delivered this member's write `seq` or a later one. */
  #claimVisible(seq: number): boolean {
    const rv = this.#informer.get(this.leaseName, this.#namespace)?.metadata?.resourceVersion;
    if (!rv) return false;
    for (const [n, written] of this.#writtenRvs) if (n >= seq && written === rv) return true;
    return false;
  }

  /** Writes this member's Lease (creating or taking it over if needed). Never throws; true on success. */
  async #write(published: Published): Promise<boolean> {
    const abort = (this.#requestAbort = new AbortController());
    const isRetry = this.#retryNow;
    this.#retryNow = false;
    this.#lastAttemptAt = this.#clock.now();
    this.#lastFailed = true;
    const boundMs = this.#valid() ? this.#validUntil - this.#clock.now() : this.#renewMs;
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(Math.max(1, Math.ceil(boundMs)))]);
    try {
      const sentAt = this.#clock.now();
      this.#renewed(await this.#store.write(published, signal), sentAt);
      this.#lastFailed = false;
      return true;
    } catch (err) {
      // Someone else wrote or deleted the Lease: the store reads it again; once, at once.
      if (changedUnderUs(err) && !isRetry) this.#retryNow = this.#again = true;
      this.#log.warn(this.#joined ? "member Lease renewal failed" : "member Lease write failed", { lease: this.leaseName, error: err });
      return false;
    } finally {
      if (this.#requestAbort === abort) this.#requestAbort = undefined;
    }
  }

  #renewed(lease: Lease, sentAt: number): void {
    if (this.#state === "stopped") return;
    this.#writes++;
    this.#writtenRvs.set(this.#writes, lease.metadata?.resourceVersion ?? "");
    const keepFrom = this.#handover.oldestClaim() ?? this.#writes;
    for (const n of this.#writtenRvs.keys()) if (n < keepFrom) this.#writtenRvs.delete(n);
    this.#validUntil = sentAt + this.#renewMs;
    if (!this.#joined) this.#log.info("joined the ring", { lease: this.leaseName });
    this.#joined = true;
    this.#clock.clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = this.#clock.setTimeout(() => this.#lose(), Math.max(0, this.#validUntil - this.#clock.now()));
  }

  #lose(): void {
    if (!this.#joined || this.#state === "stopped") return;
    this.#joined = false;
    this.#log.error("ring membership lost: the Lease was not renewed within the renew deadline; stopping every bucket", {
      lease: this.leaseName, renewDeadlineMs: this.#renewMs,
    });
    this.#handover.lose(lostMembership(this.identity));
    this.#onLost.emit("renew-deadline");
    this.#kick();
  }

  /** The next step: when the renewal falls due, or a live member would expire, whichever is first. */
  #scheduleNext(): void {
    this.#clock.clearTimeout(this.#stepTimer);
    this.#stepTimer = undefined;
    if (this.#state === "new" || this.#state === "stopped") return;
    const renewIn = this.#lastAttemptAt + this.#retryMs - this.#clock.now();
    const expiryIn = this.#view.nextExpiryIn(this.identity);
    const ms = Math.max(0, Math.min(renewIn, expiryIn === undefined ? Infinity : expiryIn + 1));
    this.#stepTimer = this.#clock.setTimeout(() => {
      this.#stepTimer = undefined;
      this.#kick();
    }, ms);
  }

  /** Deletes Leases of replicas gone for over two lease durations, at most once per lease duration. */
  #collectGarbage(): void {
    if (this.#clock.now() - this.#lastGc < this.#leaseMs) return;
    this.#lastGc = this.#clock.now();
    this.#store.deleteDeparted(this.#view.abandoned(this.leaseName, this.#leaseMs), this.#renewMs, this.#log);
  }

  #clearTimers(): void {
    this.#clock.clearTimeout(this.#stepTimer);
    this.#clock.clearTimeout(this.#deadlineTimer);
    this.#stepTimer = this.#deadlineTimer = undefined;
  }
}

function holds(set: ReadonlySet<number> | "all", bucket: number): boolean {
  return set === "all" || set.has(bucket);
}
