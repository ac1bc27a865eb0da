/** Leader election on a coordination.k8s.io/v1 Lease: one replica leads, the others stand by and take over. */
import { AlreadyExistsError, ConflictError, NotFoundError, OperatorRuntimeError } from "../errors.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import { realClock } from "../util/clock.ts";
import { retryAfterMs } from "../controller/retry-after.ts";
import type { Clock } from "../util/clock.ts";
import type { Logger } from "../log/logger.ts";
import { createLogger } from "../log/logger.ts";
import type { LeaderElectorOptions, StoppedLeadingReason } from "./leader-election-options.ts";
import type { Runnable } from "../util/runnable.ts";
import { CallbackSet } from "./callback-set.ts";
import { LEASE_KIND, holdingLease, releasedLease } from "./lease-record.ts";
import { LeaseObservation } from "./lease-observation.ts";
import type { Lease } from "./lease-record.ts";
import { checkObject } from "../util/check-args.ts";

export type { LeaderElectorOptions, StoppedLeadingReason } from "./leader-election-options.ts";

/** Candidates wait retryPeriod × (1 + up to this fraction) between attempts. */
const JITTER = 0.2;

type Attempt = "ok" | "held" | "race" | "error";

/**
 * Leader election on a Lease, with client-go's protocol. Candidates GET the Lease; a missing
 * Lease is created (a racing create answers AlreadyExists: that candidate lost and retries); a
 * held Lease is taken over only when it has not changed (holderIdentity, renewTime,
 * resourceVersion) for the holder's lease duration as measured by the candidate's own clock —
 * never by comparing renewTime with the local clock. Takeover is a PUT with the observed
 * resourceVersion and leaseTransitions + 1 (409 when another candidate won). The leader renews
 * with one PUT every retryPeriod (a GET only after a 409); `stop()` releases (holderIdentity "",
 * leaseDurationSeconds 1). Timestamps are MicroTime (UTC, six fractional digits).
 *
 * Guarantees:
 * - `start()` returns at once; campaigning runs in the background on the `clock`'s timers
 *   (unref'd with the default clock). Retries, the renew deadline and lease expiry are judged
 *   on that monotonic clock; only the Lease's stamps come from `now` (wall clock).
 * - `onStoppedLeading` runs the moment leadership is lost: no renewal succeeding within
 *   renewDeadline of sending the last successful one, or another holder seen. Losing is
 *   final: the elector stops campaigning (as client-go's `Run` returns) — exit the process
 *   (the Manager does) or create a new elector.
 * - Every `onStartedLeading` is followed by exactly one `onStoppedLeading`, `stop()` included.
 * - No Lease request waits forever: a candidate's attempt is abandoned after renewDeadline, a
 *   leader's renewal when its renew deadline passes, the release after renewDeadline;
 *   `stop()` and `abandon()` abort a request in flight instead of waiting for it.
 * - `stop()` releases only a Lease that, as last written by this elector, names it; the PUT is
 *   conditional on that resourceVersion, so it never clears another holder. It awaits promises
 *   returned by `onStoppedLeading` callbacks before releasing.
 *
 * Caveats:
 * - Lease-based election is not fencing: a leader paused longer than leaseDuration − renewDeadline
 *   can overlap the next one. Keep renewDeadline well under leaseDuration.
 * - Candidates retry after retryPeriod plus up to 20 % jitter (client-go adds up to 120 %; a
 *   smaller jitter keeps takeover near leaseDuration + retryPeriod), or after a 429's
 *   Retry-After when that is longer; a leader renews every retryPeriod regardless.
 * - The `signal` of `start()` only aborts a start; call `stop()` to stop.
 * - leaseDurationSeconds is whole seconds (rounded up); the exact duration is advertised in the
 *   `operator-runtime.io/lease-duration-ms` annotation, which other clients ignore safely.
 *
 * RBAC: `coordination.k8s.io` `leases`: get, create, update (in the Lease's namespace).
 *
 * @example
 * ```ts
 * import type { Controller } from "operator-runtime/controller";
 * import { hostname } from "node:os";
 * declare const controller: Controller;
 *
 * const elector = new LeaderElector({ client, namespace: "operators", name: "dataapp-operator", identity: hostname() });
 * elector.onStartedLeading(() => controller.start(signal));
 * elector.onStoppedLeading(() => process.exit(1));
 * await elector.start(AbortSignal.timeout(10_000));
 * // on SIGTERM:
 * await elector.stop(); // releases the Lease so a standby takes over at once
 * ```
 */
export class LeaderElector implements Runnable {
  readonly name = "leader-election";
  readonly identity: string;
  readonly #client: ResourceClient;
  readonly #ref: { apiVersion: string; kind: string; namespace: string; name: string };
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #retryMs: number;
  readonly #log: Logger;
  readonly #metrics: LeaderElectorOptions["metrics"];
  readonly #clock: Clock;
  readonly #now: () => number;
  #state: "new" | "running" | "lost" | "stopped" = "new";
  #leading = false;
  readonly #seen: LeaseObservation;
  #reportedLeader = "";
  #raced = false;
  /** The Retry-After (ms) of the last attempt's 429, 0 when none. */
  #retryAfterMs = 0;
  #writeSentAt = 0;
  /** When leading ends unless renewed: the last successful write's send time + renewDeadline (clock ms). */
  #validUntil = -Infinity;
  #timer: unknown;
  #deadline: unknown;
  #inflight: Promise<void> = Promise.resolve();
  /** Aborts the requests of the attempt in flight (its deadline passed, or stop/abandon). */
  #attemptAbort: AbortController | undefined;
  #stopping: Promise<void> | undefined;
  readonly #onStarted: CallbackSet<void>;
  readonly #onStopped: CallbackSet<StoppedLeadingReason>;
  readonly #onNewLeader: CallbackSet<string>;

  constructor(options: LeaderElectorOptions) {
    checkObject("new LeaderElector(options)", "options", options, "an options object ({ client, namespace, name, identity, … })");
    const { namespace, name, identity, leaseDurationMs = 15_000, renewDeadlineMs = 10_000, retryPeriodMs = 2_000 } = options;
    if (!namespace || !name || !identity) {
      throw new OperatorRuntimeError("LeaderElector: namespace, name and identity are required. Fix: pass the Lease namespace/name and a unique identity (pod name).");
    }
    if (!(leaseDurationMs > renewDeadlineMs && renewDeadlineMs > retryPeriodMs && retryPeriodMs > 0)) {
      throw new OperatorRuntimeError(
        `LeaderElector: need leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0, got ${leaseDurationMs} / ${renewDeadlineMs} / ${retryPeriodMs}. Fix: e.g. 15000 / 10000 / 2000.`,
      );
    }
    this.identity = identity;
    this.#client = options.client;
    this.#ref = { ...LEASE_KIND, namespace, name };
    this.#leaseMs = leaseDurationMs;
    this.#renewMs = renewDeadlineMs;
    this.#retryMs = retryPeriodMs;
    this.#log = options.logger ?? createLogger({ fields: { component: "leader-election" } });
    this.#metrics = options.metrics;
    const clock = options.clock ?? realClock;
    this.#clock = clock;
    this.#now = options.now ?? Date.now;
    this.#seen = new LeaseObservation(() => clock.now(), leaseDurationMs);
    this.#onStarted = new CallbackSet("onStartedLeading", this.#log);
    this.#onStopped = new CallbackSet("onStoppedLeading", this.#log);
    this.#onNewLeader = new CallbackSet("onNewLeader", this.#log);
  }

  /**
   * Whether this elector leads now. Answered from the renew deadline itself: false as soon as
   * renewDeadline has passed since the last successful renewal was sent, even if the timer that
   * ends leading has not run yet (a stalled event loop), so two processes never both answer true.
   */
  isLeader(): boolean {
    return this.#leading && this.#clock.now() < this.#validUntil;
  }

  /** The holder last seen in the Lease ("" when none or released). */
  leader(): string {
    return this.#seen.holder;
  }

  /** Calls `fn` when this elector starts leading. Returns an unsubscribe function. */
  onStartedLeading(fn: () => unknown): () => void {
    return this.#onStarted.add(fn);
  }

  /** Calls `fn` the moment leading ends (lost or stopped); stop reconciling in it. Returns an unsubscribe function. */
  onStoppedLeading(fn: (reason: StoppedLeadingReason) => unknown): () => void {
    return this.#onStopped.add(fn);
  }

  /** Calls `fn` with the identity of each new holder seen (this elector's too; never ""). Returns an unsubscribe function. */
  onNewLeader(fn: (identity: string) => unknown): () => void {
    return this.#onNewLeader.add(fn);
  }

  /** Starts campaigning in the background and returns at once. An elector starts once. */
  async start(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#state !== "new") throw new OperatorRuntimeError("LeaderElector.start: already started. Fix: create a new LeaderElector.");
    this.#state = "running";
    this.#metrics?.leaderStatus(this.#ref.name, false);
    this.#inflight = this.#tick();
  }

  /** Stops campaigning; if this elector holds the Lease, ends leading and releases it. Idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= this.#shutdown();
    return this.#stopping;
  }

  /**
   * For tests: stops the loop as if the process died — no release, no callbacks; `stop()`
   * becomes a no-op. Resolves when a request in flight has settled, so the Lease is final.
   */
  abandon(): Promise<void> {
    this.#state = "stopped";
    this.#leading = false;
    this.#clearTimers();
    this.#attemptAbort?.abort(new OperatorRuntimeError("LeaderElector abandoned"));
    this.#stopping ??= Promise.resolve();
    return this.#inflight;
  }

  async #shutdown(): Promise<void> {
    this.#state = "stopped";
    this.#clearTimers();
    this.#attemptAbort?.abort(new OperatorRuntimeError("LeaderElector stopped"));
    await this.#inflight;
    if (this.#leading) this.#endLeading("stopped");
    await this.#onStopped.settled();
    const lease = this.#seen.lease;
    if (lease && this.leader() === this.identity) {
      try {
        this.#observe(await this.#client.replace(releasedLease(lease, this.#now()), { signal: AbortSignal.timeout(this.#renewMs) }));
        this.#log.info("released the lease", { lease: this.#ref.name });
      } catch (err) {
        this.#log.warn("could not release the lease; candidates take over after its duration", { lease: this.#ref.name, error: err });
      }
    }
  }

  /** One attempt, then the next one scheduled. */
  async #tick(): Promise<void> {
    const outcome = await this.#attempt();
    if (this.#state !== "running") return;
    if (this.#leading) {
      if (outcome === "held") return this.#lose("taken-over");
      if (outcome === "ok") this.#armDeadline();
      return this.#schedule(this.#retryMs);
    }
    if (outcome === "ok") {
      this.#leading = true;
      this.#armDeadline();
      this.#metrics?.leaderStatus(this.#ref.name, true);
      this.#log.info("became leader", { lease: this.#ref.name, identity: this.identity });
      this.#onStarted.emit();
      return this.#schedule(this.#retryMs);
    }
    // One immediate retry after losing a race: the next GET sees the winner.
    const retryNow = outcome === "race" && !this.#raced;
    this.#raced = outcome === "race";
    // A candidate waits out a 429's Retry-After; a leader keeps renewing every retryPeriod.
    this.#schedule(retryNow ? 0 : Math.max(this.#candidateDelay(), this.#retryAfterMs));
  }

  /** GET, then create, take over or renew; the leader first tries a PUT on the Lease it last wrote. Never throws. */
  async #attempt(): Promise<Attempt> {
    // Bounded like client-go's: a candidate's attempt by renewDeadline, a leader's by what is
    // left of it. A real-time bound (not the clock's timers, which pace the protocol): requests take real time.
    const abort = (this.#attemptAbort = new AbortController());
    const boundMs = this.#leading ? Math.max(0, this.#validUntil - this.#clock.now()) : this.#renewMs;
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(Math.ceil(boundMs))]);
    this.#retryAfterMs = 0;
    try {
      const last = this.#seen.lease;
      if (this.#leading && last && (await this.#write(() => this.#client.replace<Lease>(this.#holding(last), { signal }), ConflictError))) return "ok";
      const current = await this.#client.get<Lease>(this.#ref, { signal }).catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
      if (!current) return (await this.#write(() => this.#client.create<Lease>(this.#holding(undefined), { signal }), AlreadyExistsError)) ? "ok" : "race";
      this.#observe(current);
      const holder = current.spec?.holderIdentity ?? "";
      if (holder !== "" && holder !== this.identity && this.#seen.expiresIn() >= 0) return "held";
      return (await this.#write(() => this.#client.replace<Lease>(this.#holding(current), { signal }), ConflictError)) ? "ok" : "race";
    } catch (err) {
      this.#retryAfterMs = retryAfterMs(err) ?? 0;
      this.#log.warn(this.#leading ? "lease renewal failed" : "lease acquisition failed", { lease: this.#ref.name, error: err });
      return "error";
    }
  }

  /** Sends a write and observes its result; false when it failed with `lostTo` (another writer was first). */
  async #write(send: () => Promise<Lease>, lostTo: new (...args: never[]) => Error): Promise<boolean> {
    try {
      this.#observe(await send());
      return true;
    } catch (err) {
      if (err instanceof lostTo) return false;
      throw err;
    }
  }

  /** The body that holds the Lease, stamped now; also notes (on the clock) when the write was sent. */
  #holding(current: Lease | undefined): Lease {
    this.#writeSentAt = this.#clock.now();
    return holdingLease(current, { namespace: this.#ref.namespace, name: this.#ref.name, identity: this.identity, durationMs: this.#leaseMs, now: this.#now() });
  }

  /** Remembers the Lease; reports a new holder. */
  #observe(lease: Lease): void {
    this.#seen.see(lease);
    const holder = this.#seen.holder;
    if (holder !== this.#reportedLeader) {
      this.#reportedLeader = holder;
      if (holder !== "") this.#onNewLeader.emit(holder);
    }
  }

  /** retryPeriod with jitter, but no later than the moment the seen holder's lease expires. */
  #candidateDelay(): number {
    const delay = this.#retryMs * (1 + Math.random() * JITTER);
    const holder = this.leader();
    if (holder === "" || holder === this.identity) return delay;
    return Math.max(0, Math.min(delay, this.#seen.expiresIn() + 1));
  }

  #schedule(ms: number): void {
    if (this.#state !== "running") return;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#inflight = this.#tick();
    }, ms);
  }

  /**
   * Leading ends unless another renewal succeeds within renewDeadline of sending the last
   * successful one (sent before the server stored it, so before any candidate saw it).
   */
  #armDeadline(): void {
    this.#validUntil = this.#writeSentAt + this.#renewMs;
    const ms = this.#validUntil - this.#clock.now();
    this.#clock.clearTimeout(this.#deadline);
    this.#deadline = this.#clock.setTimeout(() => {
      if (this.#state === "running" && this.#leading) this.#lose("renew-deadline");
    }, Math.max(0, ms));
  }

  #lose(reason: StoppedLeadingReason): void {
    this.#state = "lost";
    this.#clearTimers();
    this.#log.error("leadership lost", { lease: this.#ref.name, identity: this.identity, reason, holder: this.leader() });
    this.#endLeading(reason);
  }

  #endLeading(reason: StoppedLeadingReason): void {
    this.#leading = false;
    this.#validUntil = -Infinity;
    this.#clock.clearTimeout(this.#deadline);
    this.#metrics?.leaderStatus(this.#ref.name, false);
    this.#onStopped.emit(reason);
  }

  #clearTimers(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#clock.clearTimeout(this.#deadline);
    this.#timer = this.#deadline = undefined;
  }
}
