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
  /** Sharded: the buckets whose keys run here, their abort controllers, and their running reconciles. */
  readonly #served = new Set<number>();
  readonly #bucketAborts = new Map<number, AbortController>();
  readonly #inflight = new Map<number, number>();
  readonly #idleWaiters = new Map<number, (() => void)[]>();

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
    for (const obj of this.#primary?.byIndex(BUCKET_INDEX, String(bucket)) ?? []) this.queue.add(keyOf(requestFor(obj)));
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
    this.queue.add(keyOf(request));
  }

  /** Runs the reconciler for `key`; `refused.stale` turns true when the gate refuses a write because a cache is stale. */
  #reconcile(key: string, log: Logger, reconcileID: string, refused: { stale: boolean }, bucket: number | undefined, primary: KubeObject | undefined): Promise<Action | void> {
    const timeoutMs = this.#options.reconcileTimeoutMs ?? DEFAULT_RECONCILE_TIMEOUT_MS;
    const gate = (signal: AbortSignal) => this.#gate(signal, bucket, primary, refused);
    if (bucket === undefined) {
      const run = (signal: AbortSignal) => runWithWriteGate(gate(signal), () => this.#options.reconcile(requestOf(key), { log, reconcileID, signal }));
      return boundedReconcile(run, key, this.#abort.signal, timeoutMs, this.#clock, this.#overdue, (k) => this.queue.add(k));
    }
    // Sharded: the run counts for its bucket's drain until it has returned (even after a timeout).
    const end = this.#track(bucket);
    let called = false;
    const run = (signal: AbortSignal) => {
      called = true;
      const running = runWithWriteGate(gate(signal), () => this.#options.reconcile(requestOf(key), { log, reconcileID, signal }));
      void Promise.resolve(running).then(end, end);
      return running;
    };
    const stopped = this.#runSignal(bucket);
    const bounded = boundedReconcile(run, key, stopped, timeoutMs, this.#clock, this.#overdue, (k) => this.queue.add(k));
    void bounded.then(() => !called && end(), () => !called && end());
    return bounded;
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
    const enqueue = (obj: KubeObject) => {
      for (const r of map(obj)) this.queue.add(keyOf(r));
    };
    this.#unsubscribe.push(informer.addEventHandler({
      add: (obj) => pass({ type: "add", obj }) && enqueue(obj),
      update: (oldObj, obj) => {
        if (!pass({ type: "update", obj, oldObj })) return;
        enqueue(obj);
        enqueue(oldObj);
      },
      delete: (obj) => pass({ type: "delete", obj }) && enqueue(obj),
      caughtUp: () => this.#release(),
    }));
    return informer;
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
    for (const k of keys) this.queue.add(k);
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.#process(key);
    }
  }

  async #process(key: string): Promise<void> {
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
        this.queue.addAfter(key, GATE_RECHECK_MS);
        return;
      }
      // The bucket's drain waits for all of it, the terminal error's status write and event included.
      const end = this.#track(bucket);
      try {
        await this.#processServed(key, primary, bucket);
      } finally {
        end();
      }
      return;
    }
    await this.#processServed(key, primary, undefined);
  }

  /** Runs `key` (sharded: its `bucket` is served here) and files the outcome. */
  async #processServed(key: string, primary: KubeObject | undefined, bucket: number | undefined): Promise<void> {
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
    this.#metrics.activeWorkers(++this.#active);
    const t0 = performance.now();
    try {
      const refused = { stale: false };
      let result: Action;
      try {
        result = (await this.#reconcile(key, log, reconcileID, refused, bucket, primary)) ?? {};
      } catch (err) {
        if (this.#stale() || refused.stale) {
          // Refused writes (or errors of a restarting server): no backoff, no error log, no terminal
          // verdict — even when the caches caught up before the reconcile returned.
          this.#hold(key, log, `the reconcile failed while a cache was stale${refused.stale ? " (a write was refused)" : ""}: ${(err as Error)?.message ?? String(err)}`);
          this.#metrics.reconcileResult("requeue");
          return;
        }
        throw err;
      }
      if (this.#stale() || refused.stale) {
        // Computed from a cache that went stale meanwhile, or with writes refused: run it again on the fresh one.
        this.#hold(key, log, refused.stale ? "a write was refused while a cache was stale" : "a cache went stale during the reconcile");
        this.#metrics.reconcileResult("requeue");
        return;
      }
      if (result.requeueAfter !== undefined && result.requeueAfter >= 0) {
        this.queue.forget(key);
        this.queue.addAfter(key, result.requeueAfter);
        this.#metrics.reconcileResult("requeue_after");
      } else if (result.requeue) {
        this.queue.addRateLimited(key);
        this.#metrics.reconcileResult("requeue");
      } else {
        this.queue.forget(key);
        this.#metrics.reconcileResult("success");
      }
      log.debug("reconciled", { durationMs: Math.round(performance.now() - t0) });
    } catch (err) {
      const terminal = isTerminalError(err);
      this.#metrics.reconcileResult("error");
      this.#metrics.reconcileError(terminal);
      if (terminal) {
        this.queue.forget(key);
        log.error("reconcile failed; not retrying until the object changes (terminal error)", { error: err });
        try {
          // Under the reconcile's write gate: refused once this process no longer leads, or the
          // ring no longer lets this replica write for the key's bucket.
          await runWithWriteGate(this.#gate(this.#runSignal(bucket), bucket, primary, undefined), () => this.#terminal.record(key, primary, err));
        } catch (recordErr) {
          this.queue.addRateLimited(key);
          log.error("could not record the terminal error on the object; retrying with backoff", { error: recordErr });
        }
      } else {
        this.queue.addRateLimited(key, retryAfterMs(err));
        log.error("reconcile failed; retrying with backoff", { error: err, retries: this.queue.numRequeues(key) });
      }
    } finally {
      this.#metrics.reconcileTime((performance.now() - t0) / 1000);
      this.#metrics.activeWorkers(--this.#active);
      this.queue.done(key);
    }
  }
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
