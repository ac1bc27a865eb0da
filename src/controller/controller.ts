/**
 * A Controller: turns cache events of its kind, the kinds it owns and the kinds it watches
 * into keys on a de-duplicating, rate-limited work queue, and runs the reconciler on them.
 */
import { randomUUID } from "node:crypto";
import type { Kind, KindRef, KubeObject } from "../client/types.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import { conditionTypeProblem } from "../client/conditions.ts";
import type { Informer } from "../cache/types.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import type { Runnable } from "../util/runnable.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { MetricsProvider } from "./metrics-hooks.ts";
import { noopMetrics } from "./metrics-hooks.ts";
import type { Predicate } from "./predicates.ts";
import type { Action, Reconciler, Request } from "./reconciler.ts";
import { keyOf, requestOf } from "./reconciler.ts";
import { WorkQueue } from "./work-queue.ts";
import { retryAfterMs } from "./retry-after.ts";
import type { Clock } from "../util/clock.ts";
import { realClock } from "../util/clock.ts";
import { runWithWriteGate } from "../client/write-gate.ts";
import type { WriteGate } from "../client/write-gate.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import { TERMINAL_CONDITION_TYPE, TerminalErrors, isTerminalError } from "./terminal-errors.ts";
import type { TerminalErrorOptions } from "./terminal-errors.ts";
import type { ControllerAccess } from "./access.ts";
import { bucketOfUid } from "../cache/shard-buckets.ts";
import { checkKindRef, checkKubeObject, checkObject } from "../util/check-args.ts";
import type { KindRef as PlainKindRef } from "../kinds/kind.ts";
import type { GatedWrite, GatedWriteEnd } from "../client/write-gate.ts";
import type { Trigger } from "./triggers.ts";
import { changedParts, describeTrigger, triggerMetricReason } from "./triggers.ts";
import type { ControllerObserver, ObservedWrite, ReconcileEnd, ReconcileRun } from "./observer.ts";
import { runWithHooks } from "./run-hooks.ts";
import type { BuilderResult } from "./results.ts";

/**
 * What a watch is to the controller asking a {@link InformerSource} for its informer: its
 * primary kind (`for`), an owned kind (`owns`), or a mapped kind (`watches`). A sharded
 * Manager's source answers `for` and `owns` with informers of the served buckets only.
 *
 * @example
 * ```ts
 * const role: WatchRole = "owns";
 * ```
 */
export type WatchRole = "for" | "owns" | "watches";

/** Where a controller gets informers from (the Manager's Cache, or its sharded source). */
export interface InformerSource {
  informer<T extends KubeObject = KubeObject>(kind: Kind<T>, options?: { namespace?: string; role?: WatchRole }): Informer<T>;
}

/**
 * How a controller of a sharded Manager shares its keys with other replicas: a key belongs to
 * the bucket of its primary's UID (`bucketOfUid`), and is reconciled only while this replica
 * serves that bucket (see `Controller.serveBucket`).
 *
 * @example
 * ```ts
 * import type { RingMembership } from "operator-runtime/sharding";
 *
 * declare const ring: RingMembership; // this replica's membership in the ring
 * const sharding: ControllerSharding = { mayReconcile: (b) => ring.mayReconcile(b) };
 * ```
 */
export interface ControllerSharding {
  /**
   * Whether a reconcile of a key in `bucket` may still write (the ring's `mayReconcile`: the
   * membership is valid by the ring's own clock and the bucket is served or draining). Checked
   * before every write, and before a key of a served bucket is dispatched: a key is not
   * dispatched while it answers false, even before the ring has drained the bucket.
   */
  mayReconcile(bucket: number): boolean;
}

/**
 * How long a key of a served bucket whose write gate is closed waits before it is looked at
 * again (ms): the ring drains such a bucket at once, so the key is normally dropped then.
 */
const GATE_RECHECK_MS = 1000;

/** Objects whose last write by a run is remembered (to tell an event that echoes it); the oldest are forgotten. */
const OWN_WRITES_KEPT = 20_000;

/** One cause of a queued key: its trigger, made only when the key runs, and whether it echoes the key's own write. */
interface Cause {
  make: () => Trigger;
  /** Asked when the key runs: by then every write of its previous run has been answered and remembered. */
  echo?: () => boolean;
  /** Known to be an echo when it came. */
  known?: boolean;
}

/** The causes of a queued key (the first few kept), when the first came, and how many came. */
interface PendingCause {
  causes: Cause[];
  /** Epoch ms of the first cause. */
  at: number;
  count: number;
}

/** Causes kept per queued key to choose the trigger from (the others are only counted). */
const CAUSES_KEPT = 16;
/**
 * Self-triggered runs that write, in a row, that make a reconcile loop: a phase machine that
 * moves its status one step per run (Pending → Creating → Ready) settles well before.
 */
export const LOOP_RUNS = 5;
/** resourceVersions remembered per object written (a run may write one object more than once). */
const VERSIONS_KEPT = 4;

/** A delayed add's cause: brought when the delay is over. */
interface DelayedCause {
  trigger: Trigger;
  /** Clock time (the controller's clock) it is due. */
  dueAt: number;
  /** Epoch ms it is due. */
  dueEpoch: number;
}

/** What a run tracks while it runs: its record, the writes it made. */
interface RunTracker {
  run: ReconcileRun;
  writes: number;
}

/**
 * What {@link Controller.plan} answers: the run (`plan: true`), how it ended, every write it
 * sent (each a server dry run, with the cached object before it), and each Builder pass.
 *
 * @example
 * ```ts
 * declare const controller: Controller;
 * const plan: ControllerPlan = await controller.plan({ namespace: "default", name: "demo" });
 * for (const w of plan.writes) console.log(w.verb, w.kind, w.name);
 * ```
 */
export interface ControllerPlan {
  run: ReconcileRun;
  end: ReconcileEnd;
  writes: ObservedWrite[];
  builder: { owner: KubeObject; result: BuilderResult }[];
}

/** The index of a sharded controller's primary informer: objects by the bucket of their UID. */
const BUCKET_INDEX = "operator-runtime.io/bucket";

/**
 * Maps an object of a watched kind to the requests it should trigger.
 *
 * @example
 * ```ts
 * // A Person labelled `example.com/greeting: hello` concerns the Greeting "hello" of its namespace.
 * const greetingsOfPerson: MapFunc<Person> = (p) => {
 *   const greeting = p.metadata?.labels?.["example.com/greeting"];
 *   return greeting ? [{ namespace: p.metadata?.namespace ?? "", name: greeting }] : [];
 * };
 * ```
 */
export type MapFunc<T = KubeObject> = (obj: T) => Request[];

/**
 * Options shared by every watch of a controller.
 *
 * @example
 * ```ts
 * import { generationChanged } from "operator-runtime";
 *
 * const options: WatchOptions = { namespace: "default", predicates: [generationChanged] };
 * ```
 */
export interface WatchOptions<T = KubeObject> {
  /** Only this namespace (default: all). */
  namespace?: string;
  /** Every predicate must pass for an event to enqueue. */
  predicates?: Predicate<T>[];
}

/** Construction options of a {@link Controller}. */
export interface ControllerOptions {
  name: string;
  /**
   * The API access the reconciler declared (for `operator-runtime gen rbac`); the Manager's
   * controller builder fills it. Default: watching the `for`, `owns` and `watches` kinds only.
   */
  access?: ControllerAccess;
  source: InformerSource;
  reconcile: Reconciler;
  for: { kind: KindRef } & WatchOptions;
  owns?: ({ kind: KindRef } & WatchOptions)[];
  watches?: ({ kind: KindRef; map: MapFunc } & WatchOptions)[];
  /** Workers (default 1). */
  maxConcurrentReconciles?: number;
  rateLimiter?: RateLimiter;
  logger?: Logger;
  metrics?: MetricsProvider;
  /** How long start() waits for caches (default 2 min). */
  cacheSyncTimeoutMs?: number;
  /**
   * Writes the {@link ControllerOptions.terminalCondition} (`Ready=False`) on the primary when a
   * reconcile fails with a terminal error (a `ResourceClient` fits; the kind needs a status
   * subresource). Without it, terminal errors are only logged (and still not retried until the
   * object changes). The write sets that one condition in the list as the server holds it (see
   * `writeStatus`): with `get` too, as a `ResourceClient` has, a conflict with a newer status is
   * resolved by reading it again.
   */
  statusClient?: TerminalErrorOptions["statusClient"] & Partial<Pick<ResourceClient, "get">>;
  /**
   * The condition a terminal error sets to `False` on the primary through `statusClient`
   * (default `"Ready"`), with reason `InvalidSpec` or
   * `ReconcileFailed` and the error's message; `false` writes no condition (the Warning event
   * and the log line remain). It is the controller's only status write: other conditions —
   * those the reconciler wrote with `writeStatus`, say `Available`, `Progressing`, `Degraded` —
   * are kept, with their lastTransitionTime. A later successful reconcile does not reset it:
   * the reconciler sets it (e.g. `Ready=True`) itself.
   *
   * @example
   * ```ts
   * import type { Reconciler } from "operator-runtime";
   *
   * declare const reconcile: Reconciler;
   * new Controller({ name: "greeting", source: cache, for: { kind: Greeting }, reconcile, statusClient: client,
   *   terminalCondition: "Reconciled" }); // Reconciled=False on a terminal error; Ready is the reconciler's
   * ```
   */
  terminalCondition?: string | false;
  /** Records one Warning event on the primary per terminal error (an `EventRecorder` fits). */
  recorder?: TerminalErrorOptions["recorder"];
  /** Time of the work queue's delays and of reconcile timeouts (default `realClock`); tests pass a `ManualClock`. */
  clock?: Clock;
  /**
   * How long one reconcile may run (default 30 000 ms; 0 = no limit). When it expires, the
   * reconcile's `signal` aborts (a client bound to it stops sending), the worker moves on to
   * other keys, and the key is retried with backoff once the timed-out run has returned.
   */
  reconcileTimeoutMs?: number;
  /**
   * Whether this process may write (the Manager passes its leader elector's `isLeader`, which
   * answers from the renew deadline). While it answers false, every ResourceClient write a
   * reconcile makes is refused without a request — as are writes after its `signal` aborted.
   */
  leading?: () => boolean;
  /**
   * Set by a sharded Manager: keys are reconciled only in the buckets handed to
   * `serveBucket` (and not yet to `drainBucket`); the primary's informer should then hold
   * those buckets' objects only. A key whose primary is not cached is not reconciled (put
   * deletion cleanup in a finalizer); nor is a key while `sharding.mayReconcile` answers false
   * for its bucket (it is looked at again a second later). A running reconcile's writes are
   * refused once its primary is no longer cached with the UID it was dispatched for (deleted, or
   * re-created under the same name: the new UID's bucket may be another replica's).
   */
  sharding?: ControllerSharding;
  /**
   * Set by a Manager with leader election: the controller starts when this process wins the
   * Lease, so the runs of its informers' first lists say so (`trigger.leadership`, metric reason
   * `leadership`).
   */
  leaderElection?: boolean;
}

/** The default of {@link ControllerOptions.reconcileTimeoutMs}. */
export const DEFAULT_RECONCILE_TIMEOUT_MS = 30_000;

/**
 * A running controller (a leader-only {@link Runnable}).
 *
 * Guarantees: a key is reconciled by one worker at a time; events during a reconcile cause
 * exactly one more run; throws and rejections of any value are caught (never crash the process)
 * and retried with per-key backoff; terminal errors (`terminal(err)`, the Builder's validation
 * errors) are logged, set `Ready=False` (the {@link ControllerOptions.terminalCondition}, merged
 * into the live condition list) and emit one Warning event on the primary (with
 * `statusClient` and `recorder`), and are not run again until the primary changes (see
 * {@link isTerminalError}); `requeueAfter` keeps the
 * earliest deadline. `stop()` drains: it waits for running reconciles; `abort()` stops at once
 * and aborts their `signal` (leadership lost). Every log line of a run carries controller, key
 * and reconcileID. Each run gets `reconcileTimeoutMs` (default 30 s): past it, its signal aborts and
 * the worker moves on; the key runs again only after the late run has returned. A run's
 * ResourceClient writes are refused once its signal aborted or `leading()` answers false.
 *
 * Stale caches: while any informer the controller watches (its `for`, `owns` and `watches`
 * kinds) is stale — from the moment its watch failed or its resume was not accepted promptly
 * until a relist or an accepted resume, see `Informer.isStale` — reconciles are held, not
 * dropped: a dequeued key waits, a running reconcile's ResourceClient writes are refused (a
 * `WriteRefusedError`), and a reconcile that ends meanwhile (however it ends) is run again; all
 * held keys are queued the moment every informer has caught up. A reconcile that had a write
 * refused so is held too, even when the caches caught up before it returned: no backoff, no
 * error log, no terminal verdict. So an API server that restarts empty cannot receive children
 * of owners it never had.
 *
 * @example
 * ```ts
 * import { Action, ConfigMap } from "operator-runtime";
 *
 * const c = new Controller({
 *   name: "greeting", source: cache,
 *   for: { kind: Greeting },
 *   owns: [{ kind: ConfigMap }],
 *   reconcile: async (req, { log }) => { log.info("reconciling"); return Action.done(); },
 * });
 * await c.start(signal);
 * ```
 */
export class Controller implements Runnable {
  readonly name: string;
  readonly needsLeaderElection = true;
  readonly queue: WorkQueue;
  /** The API access it declared: its kinds and what it does to each (read by `gen rbac`). */
  readonly access: ControllerAccess;
  /** How long one reconcile may run (ms; 0 = no limit): the longest a graceful stop drains one. */
  readonly reconcileTimeoutMs: number;
  readonly #options: ControllerOptions;
  readonly #log: Logger;
  readonly #metrics: ReturnType<MetricsProvider["controller"]>;
  readonly #unsubscribe: (() => void)[] = [];
  readonly #workers: Promise<void>[] = [];
  readonly #terminal: TerminalErrors;
  #primary: Informer | undefined;
  /** The informers of every watched kind: reconciles are held while one is stale. */
  readonly #informers: Informer[] = [];
  /** Keys held while an informer was stale; queued when all have caught up. */
  readonly #held = new Set<string>();
  #abort = new AbortController();
  readonly #clock: Clock;
  /** Keys whose reconcile timed out and has not returned yet: not run again until it has. */
  readonly #overdue = new Set<string>();
  #active = 0;
  #started = false;
  /** The caches synced and the workers run (a plan needs both). */
  #running = false;
  /** Sharded: the buckets whose keys run here, their abort controllers, and their running reconciles. */
  readonly #served = new Set<number>();
  readonly #bucketAborts = new Map<number, AbortController>();
  readonly #inflight = new Map<number, number>();
  readonly #idleWaiters = new Map<number, (() => void)[]>();
  /** Why each queued key was queued (the first cause since its last run, and how many were coalesced). */
  readonly #causes = new Map<string, PendingCause>();
  /** Delayed adds (requeue, retry, recheck): the cause each brings when due. */
  readonly #delayed = new Map<string, DelayedCause>();
  /** Objects written by runs → the key of the run and the resourceVersion answered ("" once deleted). */
  readonly #ownWrites = new Map<string, { key: string; rvs: string[] }>();
  /** Keys whose latest runs were triggered by their own write and wrote again: how many in a row. */
  readonly #chains = new Map<string, number>();
  readonly #observers = new Set<ControllerObserver>();
  /** Informers by role, for {@link Controller.watched}. */
  readonly #watched: { role: WatchRole; informer: Informer }[] = [];

  constructor(options: ControllerOptions) {
    checkObject("new Controller(options)", "options", options, "an options object ({ name, reconcile, … })");
    this.#options = options;
    this.name = options.name;
    this.reconcileTimeoutMs = options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
    this.access = options.access ?? watchedOnly(options);
    this.#clock = options.clock ?? realClock;
    this.#log = (options.logger ?? silentLogger).child({ controller: options.name });
    const metrics = options.metrics ?? noopMetrics;
    this.#metrics = metrics.controller(options.name);
    const conditionType = terminalConditionType(options.name, options.terminalCondition);
    this.#terminal = new TerminalErrors({
      ...(options.statusClient && conditionType !== false ? { statusClient: options.statusClient, conditionType } : {}),
      ...(options.recorder ? { recorder: options.recorder } : {}),
    });
    this.queue = new WorkQueue({ name: options.name, metrics: metrics.workQueue(options.name), ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}), ...(options.clock ? { clock: options.clock } : {}) });
  }

  /** Subscribes to the informers, waits for them to sync, then starts the workers. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const o = this.#options;
    const informers = this.#informers;
    const forKind = o.for.kind;
    this.#primary = this.#watch(o.for, "for", (obj) => [requestFor(obj)]);
    if (o.sharding) this.#primary.addIndex(BUCKET_INDEX, (obj) => (obj.metadata?.uid ? [String(bucketOfUid(obj.metadata.uid))] : []));
    informers.push(this.#primary);
    for (const w of o.owns ?? []) informers.push(this.#watch(w, "owns", (obj) => ownerRequests(obj, forKind)));
    for (const w of o.watches ?? []) informers.push(this.#watch(w, "watches", w.map));
    const timeout = o.cacheSyncTimeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(informers.map((i) => i.synced())),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`controller ${this.name}: caches did not sync within ${timeout} ms`)), timeout);
        timer.unref();
      }),
      new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error(`controller ${this.name}: start aborted`)), { once: true })),
    ]).finally(() => clearTimeout(timer));
    const workers = o.maxConcurrentReconciles ?? 1;
    this.#metrics.maxConcurrentReconciles(workers);
    for (let i = 0; i < workers; i++) this.#workers.push(this.#worker());
    this.#running = true;
    this.#log.info("started", { workers });
  }

  /** Stops taking work, waits for running reconciles to finish (drain), unsubscribes. */
  async stop(): Promise<void> {
    for (const u of this.#unsubscribe.splice(0)) u();
    await this.queue.shutDownWithDrain();
    await Promise.all(this.#workers);
    this.#log.info("stopped");
  }

  /** Stops at once: aborts running reconciles' signals and hands out no more work. */
  async abort(): Promise<void> {
    for (const u of this.#unsubscribe.splice(0)) u();
    this.#abort.abort(new Error("controller aborted"));
    this.queue.shutDown();
    await Promise.all(this.#workers);
  }

  /**
   * Sharded: reconciles the keys of `bucket` from now on, and queues every primary of it
   * cached (call once the informers hold the bucket's objects). Throws without
   * {@link ControllerOptions.sharding}.
   *
   * @example
   * ```ts
   * declare const controller: Controller; // created with `sharding`
   * controller.serveBucket(17);
   * ```
   */
  serveBucket(bucket: number): void {
    if (!this.#options.sharding) throw new OperatorRuntimeError(`controller ${this.name}: serveBucket needs ControllerOptions.sharding (a sharded Manager sets it)`);
    this.#served.add(bucket);
    if (!this.#bucketAborts.has(bucket)) this.#bucketAborts.set(bucket, new AbortController());
    for (const obj of this.#primary?.byIndex(BUCKET_INDEX, String(bucket)) ?? []) this.#cause(keyOf(requestFor(obj)), () => ({ reason: "bucket" }));
  }

  /**
   * Sharded: stops dispatching the keys of `bucket` and resolves once none of its reconciles
   * runs any more (a reconcile that timed out counts until it returns). When `signal` aborts,
   * the running reconciles' signals abort too (their writes are refused from then on by
   * `sharding.mayReconcile`). Queued keys of the bucket are dropped when dequeued.
   *
   * @example
   * ```ts
   * declare const controller: Controller; // created with `sharding`
   * await controller.drainBucket(17, AbortSignal.timeout(10_000));
   * ```
   */
  async drainBucket(bucket: number, signal: AbortSignal): Promise<void> {
    this.#served.delete(bucket);
    const abort = this.#bucketAborts.get(bucket);
    const hurry = () => abort?.abort(signal.reason);
    if (signal.aborted) hurry();
    else signal.addEventListener("abort", hurry, { once: true });
    try {
      if ((this.#inflight.get(bucket) ?? 0) > 0) {
        await new Promise<void>((resolve) => {
          const waiters = this.#idleWaiters.get(bucket) ?? [];
          waiters.push(resolve);
          this.#idleWaiters.set(bucket, waiters);
        });
      }
    } finally {
      signal.removeEventListener("abort", hurry);
    }
    if (!this.#served.has(bucket)) this.#bucketAborts.delete(bucket);
  }

  /** How many keys it reconciles at once (`maxConcurrentReconciles`, default 1). */
  get workers(): number {
    return this.#options.maxConcurrentReconciles ?? 1;
  }

  /** Whether it was built for a sharded Manager ({@link ControllerOptions.sharding}). */
  get sharded(): boolean {
    return this.#options.sharding !== undefined;
  }

  /** Buckets whose keys this controller reconciles now (sharded; empty otherwise). */
  servedBuckets(): ReadonlySet<number> {
    return new Set(this.#served);
  }

  /** Counts a running reconcile of `bucket`; the returned function (idempotent) ends it. */
  #track(bucket: number): () => void {
    this.#inflight.set(bucket, (this.#inflight.get(bucket) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#inflight.get(bucket) ?? 1) - 1;
      if (left > 0) {
        this.#inflight.set(bucket, left);
        return;
      }
      this.#inflight.delete(bucket);
      for (const resolve of this.#idleWaiters.get(bucket) ?? []) resolve();
      this.#idleWaiters.delete(bucket);
    };
  }

  /** Enqueues a request by hand. */
  enqueue(request: Request): void {
    this.#cause(keyOf(request), () => ({ reason: "manual" }));
  }

  /** Runs the reconciler for `key`; `refused.stale` turns true when the gate refuses a write because a cache is stale. */
  #reconcile(key: string, log: Logger, reconcileID: string, refused: { stale: boolean }, bucket: number | undefined, primary: KubeObject | undefined, tracker: RunTracker): Promise<Action | void> {
    const timeoutMs = this.#options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
    const gate = (signal: AbortSignal) => this.#observedGate(this.#gate(signal, bucket, primary, refused), tracker);
    const call = (signal: AbortSignal) => this.#callReconciler(key, { log, reconcileID, signal }, tracker);
    if (bucket === undefined) {
      const run = (signal: AbortSignal) => runWithWriteGate(gate(signal), () => call(signal));
      return boundedReconcile(run, key, this.#abort.signal, timeoutMs, this.#clock, this.#overdue, (k) => this.#cause(k, () => ({ reason: "timeout-returned" })));
    }
    // Sharded: the run counts for its bucket's drain until it has returned (even after a timeout).
    const end = this.#track(bucket);
    let called = false;
    const run = (signal: AbortSignal) => {
      called = true;
      const running = runWithWriteGate(gate(signal), () => call(signal));
      void Promise.resolve(running).then(end, end);
      return running;
    };
    const stopped = this.#runSignal(bucket);
    const bounded = boundedReconcile(run, key, stopped, timeoutMs, this.#clock, this.#overdue, (k) => this.#cause(k, () => ({ reason: "timeout-returned" })));
    void bounded.then(() => !called && end(), () => !called && end());
    return bounded;
  }

  /** Calls the reconciler; with observers, in hooks that tell them the Builder's results. */
  #callReconciler(key: string, ctx: { log: Logger; reconcileID: string; signal: AbortSignal }, tracker: RunTracker): ReturnType<Reconciler> {
    if (this.#observers.size === 0) return this.#options.reconcile(requestOf(key), ctx);
    const hooks = { plan: false, builderResult: (owner: KubeObject, result: BuilderResult) => this.#tell((o) => o.builderResult?.(tracker.run, owner, result)) };
    return runWithHooks(hooks, () => this.#options.reconcile(requestOf(key), ctx));
  }

  /** `gate`, counting the run's writes and remembering them (to tell their echoes); with observers, telling them each write. */
  #observedGate(gate: WriteGate, tracker: RunTracker): WriteGate {
    return {
      ...gate,
      get closed() {
        return gate.closed;
      },
      observe: (write) => {
        // An Event the run records is not a change of a watched object (and shows in the Events view).
        if (write.kind === "Event") return;
        tracker.writes++;
        const before = this.#observers.size > 0 ? this.#cachedBefore(write) : undefined;
        return (end) => {
          this.#rememberWrite(tracker.run.key, write, end);
          if (this.#observers.size > 0) this.#tell((o) => o.wrote?.(tracker.run, { ...write, ...(before ? { before } : {}), ...end }));
        };
      },
    };
  }

  /** Aborts on `abort()`, and (sharded) when the drain of `bucket` must hurry. */
  #runSignal(bucket: number | undefined): AbortSignal {
    if (bucket === undefined) return this.#abort.signal;
    return AbortSignal.any([this.#abort.signal, (this.#bucketAborts.get(bucket) ?? new AbortController()).signal]);
  }

  /**
   * The write gate of a run: `refused.stale` turns true when it refuses a write because a cache
   * is stale (without `refused`, stale caches do not close it). Sharded, it also closes once the
   * primary the run was dispatched for (`primary`, in `bucket`) is no longer cached under its
   * name with its UID: deleted, or deleted and re-created (a new UID hashes into another bucket,
   * which another replica may be reconciling now).
   */
  #gate(signal: AbortSignal, bucket: number | undefined, primary: KubeObject | undefined, refused: { stale: boolean } | undefined): WriteGate {
    const leading = this.#options.leading;
    const sharding = this.#options.sharding;
    let closed = "";
    return {
      signal,
      open: () => {
        if (leading && !leading()) closed = "this process no longer leads";
        else if (sharding && bucket !== undefined && !sharding.mayReconcile(bucket)) closed = `this replica no longer serves bucket ${bucket} of the ring`;
        else if (sharding && bucket !== undefined && !this.#stillCached(primary)) {
          closed = `the primary ${primary?.metadata?.namespace ? `${primary.metadata.namespace}/` : ""}${primary?.metadata?.name ?? ""} (UID ${primary?.metadata?.uid ?? "?"}) was deleted or re-created; the replica serving its new UID's bucket reconciles it`;
        }
        else if (refused && this.#stale()) {
          closed = "a cache this controller reads is stale (its watch ended; waiting for a relist or resume)";
          refused.stale = true;
        } else return true;
        return false;
      },
      get closed() {
        return closed;
      },
    };
  }

  /** Whether the primary informer still holds `primary` (same name, same UID). */
  #stillCached(primary: KubeObject | undefined): boolean {
    const uid = primary?.metadata?.uid;
    if (!uid) return false;
    return this.#primary?.get(primary.metadata?.name ?? "", primary.metadata?.namespace || undefined)?.metadata?.uid === uid;
  }

  #watch(w: { kind: KindRef } & WatchOptions, role: WatchRole, map: MapFunc): Informer {
    const informer = this.#options.source.informer(w.kind, { ...(w.namespace ? { namespace: w.namespace } : {}), role });
    const pass = (e: Parameters<Predicate>[0]) => (w.predicates ?? []).every((p) => p(e));
    const kind = { apiVersion: w.kind.apiVersion, kind: w.kind.kind };
    const enqueue = (event: "ADDED" | "MODIFIED" | "DELETED", obj: KubeObject, oldObj?: KubeObject, initial?: boolean, skip?: ReadonlySet<string>) => {
      const keys = new Set<string>();
      for (const r of map(event === "MODIFIED" && skip ? oldObj! : obj)) {
        const key = keyOf(r);
        if (skip?.has(key) || keys.has(key)) continue;
        keys.add(key);
        this.#cause(key, () => eventTrigger(event, role, kind, obj, oldObj, initial === true, this.#options.leaderElection === true), () => this.#echoes(kind, obj, key, event === "DELETED"));
      }
      return keys;
    };
    this.#unsubscribe.push(informer.addEventHandler({
      add: (obj, initial) => pass({ type: "add", obj }) && enqueue("ADDED", obj, undefined, initial),
      update: (oldObj, obj) => {
        if (!pass({ type: "update", obj, oldObj })) return;
        const now = enqueue("MODIFIED", obj, oldObj);
        // The keys the object mapped to before the change (a label moved, an owner changed) run too.
        enqueue("MODIFIED", obj, oldObj, false, now);
      },
      delete: (obj) => pass({ type: "delete", obj }) && enqueue("DELETED", obj),
      caughtUp: () => this.#release(),
    }));
    this.#watched.push({ role, informer });
    return informer;
  }

  /**
   * Queues `key` with a cause (made into a trigger when the key runs: the first cause that is
   * not the echo of the key's own write; a run is attributed to its own write only when nothing
   * else asked for it).
   */
  #cause(key: string, make: () => Trigger, echo?: () => boolean): void {
    if (this.queue.isShuttingDown()) return;
    const pending = this.#causes.get(key);
    if (!pending) this.#causes.set(key, { causes: [echo ? { make, echo } : { make }], at: Date.now(), count: 1 });
    else {
      pending.count++;
      // The slots go to causes that may not be echoes: one echo known already is enough (the
      // children a run created echo by the dozen).
      const knownEcho = echo?.() === true;
      if (pending.causes.length >= CAUSES_KEPT && !knownEcho) {
        // Full: make room by dropping kept causes answered as echoes by now (the first stays, the fallback).
        const kept = pending.causes.filter((c, i) => i === 0 || c.echo?.() !== true);
        if (kept.length < pending.causes.length) pending.causes = kept;
      }
      if (pending.causes.length < CAUSES_KEPT && !(knownEcho && pending.causes.some((c) => c.known))) {
        pending.causes.push(echo ? { make, echo, ...(knownEcho ? { known: true } : {}) } : { make });
      }
    }
    this.queue.add(key);
  }

  /** Adds `key` after `ms` with a cause it brings when due (the earliest pending one is kept, as the queue keeps it). */
  #causeAfter(key: string, ms: number, trigger: Trigger): void {
    if (this.queue.isShuttingDown()) return;
    if (!(ms > 0)) {
      this.#cause(key, () => trigger);
      return;
    }
    const dueAt = this.#clock.now() + ms;
    const pending = this.#delayed.get(key);
    if (!pending || pending.dueAt > dueAt) this.#delayed.set(key, { trigger, dueAt, dueEpoch: Date.now() + ms });
    this.queue.addAfter(key, ms);
  }

  /** Takes the cause of a run of `key`: the first queued since its last run (a delayed add that fell due counts by when it fell due). */
  #takeCause(key: string): TakenCause {
    const pending = this.#causes.get(key);
    this.#causes.delete(key);
    const delayed = this.#delayed.get(key);
    // Due once the queue no longer holds it back (its timer fired, maybe a little early).
    const due = delayed !== undefined && !this.queue.isWaiting(key);
    if (due) this.#delayed.delete(key);
    const chosen = pending ? chooseCause(pending.causes) : undefined;
    if (delayed && (!pending || (due && (chosen!.self || delayed.dueEpoch <= pending.at)))) {
      return { trigger: delayed.trigger, triggers: 1 + (pending?.count ?? 0), queuedAt: Math.min(delayed.dueEpoch, Date.now()) };
    }
    if (pending) return { trigger: chosen!.trigger, triggers: pending.count + (due ? 1 : 0), queuedAt: pending.at };
    return { trigger: { reason: "manual" }, triggers: 1, queuedAt: Date.now() };
  }

  /** Whether an event of `obj` is the echo of the last write a run of `key` made to it. */
  #echoes(kind: PlainKindRef, obj: KubeObject, key: string, deleted: boolean): boolean {
    if (this.#ownWrites.size === 0) return false;
    const own = this.#ownWrites.get(objectKey(kind, obj.metadata?.namespace, obj.metadata?.name));
    if (!own || own.key !== key) return false;
    return own.rvs.includes(deleted ? "" : (obj.metadata?.resourceVersion ?? "-"));
  }

  /** Remembers a write of a run of `key` (to tell its echo); forgets the oldest past the limit. */
  #rememberWrite(key: string, write: GatedWrite, end: GatedWriteEnd): void {
    if (write.dryRun || end.error !== undefined) return;
    const name = write.name ?? end.answer?.metadata?.name;
    if (!name) return;
    const k = objectKey(write, write.namespace, name);
    const rv = write.verb === "delete" && !end.answer?.metadata?.deletionTimestamp ? "" : end.answer?.metadata?.resourceVersion;
    if (rv === undefined) return;
    const own = this.#ownWrites.get(k);
    const rvs = own?.key === key ? [...own.rvs.slice(1 - VERSIONS_KEPT), rv] : [rv];
    this.#ownWrites.delete(k);
    this.#ownWrites.set(k, { key, rvs });
    if (this.#ownWrites.size > OWN_WRITES_KEPT) this.#ownWrites.delete(this.#ownWrites.keys().next().value!);
  }

  /** The cached object a write is about (from this controller's informers), for the diff of its observers. */
  #cachedBefore(write: GatedWrite): KubeObject | undefined {
    if (!write.name) return undefined;
    const group = groupOf(write.apiVersion);
    for (const { informer } of this.#watched) {
      if (informer.kind.kind !== write.kind || groupOf(informer.kind.apiVersion) !== group) continue;
      const found = informer.get(write.name, write.namespace || undefined);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Watches this controller's runs: each start with its trigger, each write, the Builder's
   * results and each end (the dashboard uses it). Answers the function that stops it.
   *
   * @example
   * ```ts
   * declare const controller: Controller;
   * const stop = controller.observe({ ended: (run, end) => console.log(run.key, run.trigger.reason, end.outcome) });
   * stop();
   * ```
   */
  observe(observer: ControllerObserver): () => void {
    checkObject("Controller.observe(observer)", "observer", observer, "an observer ({ started?, wrote?, builderResult?, ended? })");
    this.#observers.add(observer);
    return () => void this.#observers.delete(observer);
  }

  /**
   * The informers this controller watches, with their role (`for`, `owns`, `watches`); empty
   * before `start()`.
   *
   * @example
   * ```ts
   * declare const controller: Controller;
   * const primary = controller.watched().find((w) => w.role === "for")?.informer;
   * ```
   */
  watched(): readonly { role: WatchRole; informer: Informer }[] {
    return [...this.#watched];
  }

  /**
   * The keys held until the caches catch up, and counts of the causes kept.
   *
   * @example
   * ```ts
   * declare const controller: Controller;
   * console.log(controller.inspect().held);
   * ```
   */
  inspect(): { held: string[]; pendingCauses: number; delayedCauses: number; rememberedWrites: number } {
    return { held: [...this.#held], pendingCauses: this.#causes.size, delayedCauses: this.#delayed.size, rememberedWrites: this.#ownWrites.size };
  }

  /**
   * Runs the reconciler once for `request` as a plan, outside the queue: every ResourceClient
   * write it makes goes out as a server dry run (`dryRun=All`: validated and admitted, not
   * stored), a Builder only plans (and sends its creates and updates as dry runs, so each write
   * holds the exact change), Events are not recorded, and `ctx.dryRun` is true. Answers the
   * writes with the cached object before each. Needs a started controller (its caches); bounded
   * by the reconcile timeout and `options.signal`.
   *
   * Caveats: side effects of the reconciler outside the ResourceClient (other services, a raw
   * client-node call) are not dry runs: check `ctx.dryRun`. A plan runs beside the queue, so it
   * may run while a real reconcile of the same key does (it writes nothing, but a reconciler
   * that keeps in-process state per key sees two runs at once).
   *
   * @example
   * ```ts
   * declare const controller: Controller;
   * const plan = await controller.plan({ namespace: "default", name: "demo" });
   * console.log(plan.end.outcome, plan.writes.map((w) => `${w.verb} ${w.kind}/${w.name}`));
   * ```
   */
  async plan(request: Request, options: { signal?: AbortSignal } = {}): Promise<ControllerPlan> {
    checkObject("Controller.plan(request)", "request", request, "a request ({ namespace, name })");
    if (!this.#running || this.queue.isShuttingDown()) {
      throw new OperatorRuntimeError(`controller ${this.name}: plan() needs a running controller (its caches). Fix: start the Manager first; on a standby replica, ask the leader`);
    }
    const key = keyOf(request);
    const reconcileID = randomUUID();
    const now = Date.now();
    const run: ReconcileRun = { controller: this.name, key, reconcileID, trigger: { reason: "manual" }, triggers: 1, queuedAt: now, startedAt: now, plan: true };
    const writes: ObservedWrite[] = [];
    const builder: ControllerPlan["builder"] = [];
    const timeoutMs = this.reconcileTimeoutMs > 0 ? this.reconcileTimeoutMs : DEFAULT_RECONCILE_TIMEOUT_MS;
    const signal = AbortSignal.any([this.#abort.signal, AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]);
    const log = this.#log.child({ key, reconcileID, plan: true });
    const gate = {
      signal, dryRun: true,
      observe: (write: GatedWrite) => {
        const before = this.#cachedBefore(write);
        return (end: GatedWriteEnd) => void writes.push({ ...write, ...(before ? { before } : {}), ...end });
      },
    };
    const hooks = { plan: true, builderResult: (owner: KubeObject, result: BuilderResult) => void builder.push({ owner, result }) };
    let end: ReconcileEnd;
    try {
      // A reconciler that ignores its signal does not hold the plan past the timeout.
      const running = Promise.resolve().then(() => runWithWriteGate(gate, () => runWithHooks(hooks, () => this.#options.reconcile(requestOf(key), { log, reconcileID, signal, dryRun: true }))));
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(new OperatorRuntimeError(`plan of ${key} ended after ${timeoutMs} ms (reconcileTimeoutMs) or was aborted: the reconciler did not return`, { cause: signal.reason }));
        if (signal.aborted) fail();
        else signal.addEventListener("abort", fail, { once: true });
      });
      const result = (await Promise.race([running, aborted])) ?? {};
      const requeueAfter = result.requeueAfter !== undefined && result.requeueAfter >= 0 ? result.requeueAfter : undefined;
      end = {
        outcome: requeueAfter !== undefined ? "requeue-after" : result.requeue ? "requeue" : "done",
        ...(requeueAfter !== undefined ? { requeueAfterMs: requeueAfter } : {}),
        endedAt: Date.now(), writes: writes.length, selfTriggered: false, loop: false,
      };
    } catch (error) {
      end = { outcome: isTerminalError(error) ? "terminal" : "error", error, endedAt: Date.now(), writes: writes.length, selfTriggered: false, loop: false };
    }
    return { run, end, writes, builder };
  }

  /** Tells each observer; what an observer throws is ignored. */
  #tell(fn: (o: ControllerObserver) => void): void {
    for (const o of this.#observers) {
      try {
        fn(o);
      } catch {
        // An observer never breaks a reconcile.
      }
    }
  }

  /** Whether an informer this controller watches is stale. */
  #stale(): boolean {
    return this.#informers.some((i) => i.isStale());
  }

  /** Holds `key` until every informer has caught up. */
  #hold(key: string, log: Logger, why: string): void {
    this.#held.add(key);
    log.debug(`held until the caches have caught up: ${why}`);
    if (!this.#stale()) this.#release();
  }

  /** Queues the held keys once no informer is stale. */
  #release(): void {
    if (this.#stale() || this.#held.size === 0) return;
    const keys = [...this.#held];
    this.#held.clear();
    this.#log.info("caches caught up: queuing held keys", { keys: keys.length });
    for (const k of keys) this.#cause(k, () => ({ reason: "caches-caught-up" }));
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.#process(key);
    }
  }

  async #process(key: string): Promise<void> {
    const cause = this.#takeCause(key);
    const req = requestOf(key);
    const primary = this.#primary?.get(req.name, req.namespace || undefined);
    let bucket: number | undefined;
    if (this.#options.sharding) {
      const uid = primary?.metadata?.uid;
      bucket = uid ? bucketOfUid(uid) : undefined;
      if (bucket === undefined || !this.#served.has(bucket)) {
        // Another replica's key (or a primary this replica does not hold): not reconciled here.
        this.queue.forget(key);
        this.queue.done(key);
        return;
      }
      if (!this.#options.sharding.mayReconcile(bucket)) {
        // Served, but the ring's own clock says its lease lapsed (a process that woke from a
        // pause, before the timer that drains the bucket has run): the write gate is closed, so
        // dispatch is too. Looked at again later: by then the bucket is drained (the key is
        // dropped; serving it again queues it) or the lease was renewed in time (it runs).
        this.#log.child({ key }).debug("not dispatched: the write gate of its bucket is closed", { bucket });
        this.queue.done(key);
        this.#causeAfter(key, GATE_RECHECK_MS, { reason: "gate-recheck", delayMs: GATE_RECHECK_MS });
        return;
      }
      // The bucket's drain waits for all of it, the terminal error's status write and event included.
      const end = this.#track(bucket);
      try {
        await this.#processServed(key, primary, bucket, cause);
      } finally {
        end();
      }
      return;
    }
    await this.#processServed(key, primary, undefined, cause);
  }

  /** Runs `key` (sharded: its `bucket` is served here) and files the outcome. */
  async #processServed(key: string, primary: KubeObject | undefined, bucket: number | undefined, cause: TakenCause): Promise<void> {
    if (this.#terminal.holds(key, primary)) {
      // Failed terminally and unchanged since: running it again would fail the same way.
      this.queue.forget(key);
      this.queue.done(key);
      return;
    }
    if (this.#stale()) {
      this.#hold(key, this.#log.child({ key }), "not started");
      this.queue.done(key);
      return;
    }
    const reconcileID = randomUUID();
    const log = this.#log.child({ key, reconcileID });
    const tracker: RunTracker = {
      run: { controller: this.name, key, reconcileID, trigger: cause.trigger, triggers: cause.triggers, queuedAt: cause.queuedAt, startedAt: Date.now(), plan: false },
      writes: 0,
    };
    const trigger = cause.trigger;
    this.#metrics.reconcileTrigger?.(trigger.reason === "event" ? trigger.kind ?? "" : "", triggerMetricReason(trigger));
    if (this.#observers.size > 0) this.#tell((o) => o.started?.(tracker.run));
    this.#metrics.activeWorkers(++this.#active);
    const t0 = performance.now();
    let ended: Pick<ReconcileEnd, "outcome" | "requeueAfterMs" | "error" | "retries"> = { outcome: "done" };
    try {
      const refused = { stale: false };
      let result: Action;
      try {
        result = (await this.#reconcile(key, log, reconcileID, refused, bucket, primary, tracker)) ?? {};
      } catch (err) {
        if (this.#stale() || refused.stale) {
          // Refused writes (or errors of a restarting server): no backoff, no error log, no terminal
          // verdict — even when the caches caught up before the reconcile returned.
          this.#hold(key, log, `the reconcile failed while a cache was stale${refused.stale ? " (a write was refused)" : ""}: ${(err as Error)?.message ?? String(err)}`);
          this.#metrics.reconcileResult("requeue");
          ended = { outcome: "held", error: err };
          return;
        }
        throw err;
      }
      if (this.#stale() || refused.stale) {
        // Computed from a cache that went stale meanwhile, or with writes refused: run it again on the fresh one.
        this.#hold(key, log, refused.stale ? "a write was refused while a cache was stale" : "a cache went stale during the reconcile");
        this.#metrics.reconcileResult("requeue");
        ended = { outcome: "held" };
        return;
      }
      if (result.requeueAfter !== undefined && result.requeueAfter >= 0) {
        this.queue.forget(key);
        this.#causeAfter(key, result.requeueAfter, { reason: "requeue-after", delayMs: result.requeueAfter });
        this.#metrics.reconcileResult("requeue_after");
        ended = { outcome: "requeue-after", requeueAfterMs: result.requeueAfter };
      } else if (result.requeue) {
        this.#requeueRateLimited(key, "requeue", 0);
        this.#metrics.reconcileResult("requeue");
        ended = { outcome: "requeue" };
      } else {
        this.queue.forget(key);
        this.#metrics.reconcileResult("success");
      }
      log.debug("reconciled", { durationMs: Math.round(performance.now() - t0), trigger: logTrigger(trigger, cause.triggers), writes: tracker.writes, result: ended.outcome });
    } catch (err) {
      const terminal = isTerminalError(err);
      this.#metrics.reconcileResult("error");
      this.#metrics.reconcileError(terminal);
      ended = { outcome: terminal ? "terminal" : "error", error: err };
      if (terminal) {
        this.queue.forget(key);
        log.error("reconcile failed; not retrying until the object changes (terminal error)", { error: err, trigger: logTrigger(trigger, cause.triggers) });
        try {
          // Under the reconcile's write gate: refused once this process no longer leads, or the
          // ring no longer lets this replica write for the key's bucket.
          await runWithWriteGate(this.#gate(this.#runSignal(bucket), bucket, primary, undefined), () => this.#terminal.record(key, primary, err));
        } catch (recordErr) {
          this.#requeueRateLimited(key, "retry", 0);
          log.error("could not record the terminal error on the object; retrying with backoff", { error: recordErr });
        }
      } else {
        this.#requeueRateLimited(key, "retry", retryAfterMs(err) ?? 0);
        ended.retries = this.queue.numRequeues(key);
        log.error("reconcile failed; retrying with backoff", { error: err, retries: ended.retries, trigger: logTrigger(trigger, cause.triggers) });
      }
    } finally {
      this.#metrics.reconcileTime((performance.now() - t0) / 1000);
      this.#metrics.activeWorkers(--this.#active);
      this.queue.done(key);
      this.#ended(tracker, ended, log);
    }
  }

  /** Re-adds `key` after its backoff (at least `atLeastMs`), with the cause it will bring. */
  #requeueRateLimited(key: string, reason: "requeue" | "retry", atLeastMs: number): void {
    if (this.queue.isShuttingDown()) return;
    const ms = this.queue.addRateLimited(key, atLeastMs);
    const dueAt = this.#clock.now() + ms;
    const pending = this.#delayed.get(key);
    if (!pending || pending.dueAt > dueAt) this.#delayed.set(key, { trigger: { reason, delayMs: ms }, dueAt, dueEpoch: Date.now() + ms });
  }

  /** Files the end of a run: the loop check, then the observers. */
  #ended(tracker: RunTracker, ended: Pick<ReconcileEnd, "outcome" | "requeueAfterMs" | "error" | "retries">, log: Logger): void {
    const { run } = tracker;
    const selfTriggered = run.trigger.self === true;
    let chain = 0;
    if (selfTriggered && tracker.writes > 0) chain = (this.#chains.get(run.key) ?? 0) + 1;
    if (chain > 0) this.#chains.set(run.key, chain);
    else this.#chains.delete(run.key);
    const loop = chain >= LOOP_RUNS;
    if (chain === LOOP_RUNS) {
      log.warn("reconcile loop: each run is triggered by the previous run's own write, and writes again. Fix: write only what changed (compare before writing; keep timestamps and counters that change on every run out of the object)", {
        trigger: logTrigger(run.trigger, run.triggers), writes: tracker.writes,
      });
    }
    if (this.#observers.size === 0) return;
    const end: ReconcileEnd = { ...ended, endedAt: Date.now(), writes: tracker.writes, selfTriggered, loop };
    this.#tell((o) => o.ended?.(run, end));
  }
}

/** A run's cause, as taken from the queue's bookkeeping. */
interface TakenCause {
  trigger: Trigger;
  triggers: number;
  queuedAt: number;
}

/** The `trigger` field of a reconcile's log line: the trigger, its summary, and the causes coalesced. */
function logTrigger(t: Trigger, triggers: number): Record<string, unknown> {
  return { ...t, summary: describeTrigger(t), ...(triggers > 1 ? { coalesced: triggers } : {}) };
}

/** The trigger of a watch event (what changed is worked out only when the key runs). */
function eventTrigger(event: "ADDED" | "MODIFIED" | "DELETED", role: WatchRole, kind: PlainKindRef, obj: KubeObject, oldObj: KubeObject | undefined, initial: boolean, leadership: boolean): Trigger {
  const m = obj.metadata ?? {};
  return {
    reason: "event", event, role, apiVersion: kind.apiVersion, kind: kind.kind,
    ...(m.namespace ? { namespace: m.namespace } : {}), name: m.name ?? "",
    ...(event === "MODIFIED" && oldObj ? { changed: changedParts(oldObj, obj) } : {}),
    ...(initial ? { initial: true, ...(leadership ? { leadership: true } : {}) } : {}),
  };
}

/** The trigger of a run from its causes: the first that does not echo the key's own write, else the first (marked `self`). */
function chooseCause(causes: readonly Cause[]): { trigger: Trigger; self: boolean } {
  const other = causes.find((c) => !c.echo?.());
  if (other) return { trigger: other.make(), self: false };
  return { trigger: { ...causes[0]!.make(), self: true }, self: true };
}

/** The API group of an apiVersion ("" for the core group). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** The key of an object across versions of its kind: group, kind, namespace, name. */
function objectKey(kind: { apiVersion?: string; kind?: string }, namespace: string | undefined, name: string | undefined): string {
  return `${groupOf(kind.apiVersion ?? "")}|${kind.kind ?? ""}|${namespace ?? ""}|${name ?? ""}`;
}

/**
 * Runs the reconciler for `key` with a signal that aborts on `abort()` or when the reconcile
 * timeout expires; at expiry it rejects at once (the run goes on in the background until it
 * returns, and the key is not run again before that).
 */
function boundedReconcile(
  run: (signal: AbortSignal) => ReturnType<Reconciler>, key: string, stopped: AbortSignal, timeoutMs: number, clock: Clock,
  overdue: Set<string>, requeue: (key: string) => void,
): Promise<Action | void> {
  if (overdue.has(key)) {
    return Promise.reject(new OperatorRuntimeError(`reconcile of ${key}: the previous run timed out and has not returned yet; retrying after it has`));
  }
  if (!(timeoutMs > 0)) return Promise.resolve().then(() => run(stopped));
  const expiry = new AbortController();
  const signal = AbortSignal.any([stopped, expiry.signal]);
  const running = Promise.resolve().then(() => run(signal));
  let timer: unknown;
  const expired = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => {
      const err = new OperatorRuntimeError(`reconcile of ${key} timed out after ${timeoutMs} ms (reconcileTimeoutMs); its signal is aborted`,
        { cause: new DOMException("reconcile timed out", "TimeoutError") });
      expiry.abort(err);
      overdue.add(key);
      void running.then(undefined, () => undefined).finally(() => {
        overdue.delete(key);
        requeue(key);
      });
      reject(err);
    }, timeoutMs);
  });
  return Promise.race([running, expired]).finally(() => clock.clearTimeout(timer));
}

/** The condition type of {@link ControllerOptions.terminalCondition} (checked), or false. */
function terminalConditionType(controller: string, option: string | false | undefined): string | false {
  if (option === false) return false;
  if (option === undefined) return TERMINAL_CONDITION_TYPE;
  const problem = typeof option === "string" ? conditionTypeProblem(option) : `${typeof option} is not a condition type`;
  if (problem) {
    throw new OperatorRuntimeError(`controller ${controller}: terminalCondition: ${problem}. Fix: pass a condition type such as "Ready", or false to write none`);
  }
  return option;
}

/** The request for an object itself. */
export function requestFor(obj: KubeObject): Request {
  checkKubeObject("requestFor(obj)", "obj", obj);
  return { namespace: obj.metadata?.namespace ?? "", name: obj.metadata?.name ?? "" };
}

/** The request of the object's controller owner, when it is of `ownerKind`. */
export function ownerRequests(obj: KubeObject, ownerKind: KindRef): Request[] {
  checkObject("ownerRequests(obj, ownerKind)", "obj", obj, "a Kubernetes object");
  checkKindRef("ownerRequests(obj, ownerKind)", "ownerKind", ownerKind);
  const group = (v: string) => (v.includes("/") ? v.slice(0, v.indexOf("/")) : "");
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!ref || ref.kind !== ownerKind.kind || group(ref.apiVersion) !== group(ownerKind.apiVersion)) return [];
  return [{ namespace: obj.metadata?.namespace ?? "", name: ref.name }];
}

/** The access of a controller that declared none: watching its kinds. */
function watchedOnly(options: ControllerOptions): ControllerAccess {
  const watched = [options.for, ...(options.owns ?? []), ...(options.watches ?? [])];
  return {
    controller: options.name,
    builder: false,
    kinds: watched.map((w) => ({
      kind: { apiVersion: w.kind.apiVersion, kind: w.kind.kind }, namespace: w.namespace, watched: true,
      verbs: [], status: [], finalizers: [],
    })),
  };
}
