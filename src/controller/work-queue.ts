/**
 * De-duplicating, delaying, rate-limited queue of keys that hands each key to one worker at a time.
 */
import { realClock } from "../util/clock.ts";
import type { Clock } from "../util/clock.ts";
import { noopMetrics } from "./metrics-hooks.ts";
import type { WorkQueueMetrics } from "./metrics-hooks.ts";
import { defaultControllerRateLimiter } from "./rate-limiter.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import { checkObject } from "../util/check-args.ts";

/** Node caps timer delays at 2^31 − 1 ms; longer delays are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How often the unfinished-work / longest-running gauges are reported. */
const UNFINISHED_WORK_INTERVAL_MS = 1000;

/**
 * Options of {@link WorkQueue}.
 *
 * @example
 * ```ts
 * import { defaultControllerRateLimiter } from "operator-runtime/controller";
 *
 * const options: WorkQueueOptions = { name: "dataapp", rateLimiter: defaultControllerRateLimiter() };
 * ```
 */
export interface WorkQueueOptions {
  /** The queue's name (the `name` label of its metrics). */
  name: string;
  /** Backoff for {@link WorkQueue.addRateLimited} (default {@link defaultControllerRateLimiter}). */
  rateLimiter?: RateLimiter;
  /** Measurement hooks (default: record nothing). */
  metrics?: WorkQueueMetrics;
  /** Time source and timers (default: `performance.now()` and Node's timers); tests pass a manual clock. */
  clock?: Clock;
}

/**
 * What {@link WorkQueue.inspect} answers.
 *
 * @example
 * ```ts
 * const snapshot: WorkQueueSnapshot = { depth: 1, ready: 1, processing: 0, delayed: 0, keys: [{ key: "default/app", state: "ready", retries: 0 }] };
 * ```
 */
export interface WorkQueueSnapshot {
  /** Keys that need a run (ready, or waiting for their running turn to end). */
  depth: number;
  /** Keys ready to be handed out. */
  ready: number;
  /** Keys held by workers. */
  processing: number;
  /** Delayed adds pending. */
  delayed: number;
  keys: { key: string; state: "processing" | "delayed" | "ready"; retries: number; dueInMs?: number }[];
}

/**
 * The controller's work queue of string keys (`"namespace/name"`), with client-go's semantics:
 * a dirty set (keys that need a run) and a processing set (keys a worker holds).
 *
 * Expected flow: producers `add` keys; each worker loops `key = await get()` → reconcile →
 * `forget(key)` on success or `addRateLimited(key)` on failure (or `addAfter(key, ms)`) →
 * `done(key)`; the worker stops when `get()` resolves `undefined`.
 *
 * Guarantees:
 * - A key is waiting in the queue at most once; adding a waiting key again does nothing.
 * - A key is never handed to two workers at once. Adds while a key is processing mark it
 *   dirty, and it is queued exactly once more when `done(key)` is called.
 * - Ready keys are handed out first in, first out; waiting `get()`s are served in call order.
 * - `addAfter` keeps the earliest deadline per key: a longer delay never postpones a pending
 *   one, a shorter one brings it forward. A delayed add does not cancel an immediate one.
 * - After `shutDown()` or `shutDownWithDrain()`: adds are ignored, nothing more is handed
 *   out, pending and future `get()`s resolve `undefined`, delayed adds are dropped, and no
 *   timer of the queue is left pending (all timers are also `unref()`'d while running).
 *
 * Caveats: `done` for a key that is not processing is ignored. Metrics: `depth` counts dirty
 * keys (ready ones plus those waiting for their running turn to finish), like
 * `workqueue_depth`; `len()` counts only ready keys.
 *
 * @example
 * ```ts
 * declare function reconcile(key: string): Promise<void>;
 * const queue = new WorkQueue({ name: "dataapp" });
 * queue.add("default/my-app");
 * for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
 *   try {
 *     await reconcile(key);
 *     queue.forget(key);
 *   } catch {
 *     queue.addRateLimited(key);
 *   } finally {
 *     queue.done(key);
 *   }
 * }
 * ```
 */
export class WorkQueue {
  /** The queue's name. */
  readonly name: string;
  readonly #limiter: RateLimiter;
  readonly #metrics: WorkQueueMetrics;
  readonly #clock: Clock;
  /** Ready keys, FIFO: `#ready[#head …]`. */
  #ready: string[] = [];
  #head = 0;
  /** Keys that need a run (ready, or parked until their current run is done). */
  readonly #dirty = new Set<string>();
  /** Keys held by workers → when they were handed out. */
  readonly #processing = new Map<string, number>();
  /** Dirty keys → when they became dirty (for queue latency). */
  readonly #addedAt = new Map<string, number>();
  /** Delayed adds → deadline and timer. */
  readonly #waiting = new Map<string, { at: number; timer: unknown }>();
  /** Workers blocked in `get()`, in call order. */
  #getters: ((key: string | undefined) => void)[] = [];
  #shuttingDown = false;
  #drained: { promise: Promise<void>; resolve: () => void } | undefined;
  #ticker: unknown;

  /** Creates the queue and starts its 1 s unfinished-work report (an unref'd timer). */
  constructor(options: WorkQueueOptions) {
    checkObject("new WorkQueue(options)", "options", options, "an options object ({ name, rateLimiter?, … })");
    this.name = options.name;
    this.#limiter = options.rateLimiter ?? defaultControllerRateLimiter();
    this.#metrics = options.metrics ?? noopMetrics.workQueue(options.name);
    this.#clock = options.clock ?? realClock;
    this.#tick();
  }

  /** Queues the key unless it is already waiting; a key being processed runs once more after `done`. */
  add(key: string): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#metrics.add();
    this.#dirty.add(key);
    this.#addedAt.set(key, this.#clock.now());
    this.#metrics.depth(this.#dirty.size);
    if (!this.#processing.has(key)) this.#enqueue(key);
  }

  /** Adds the key after `ms` milliseconds, keeping the earliest pending deadline; `ms <= 0` adds now. */
  addAfter(key: string, ms: number): void {
    if (this.#shuttingDown) return;
    if (!(ms > 0)) {
      this.add(key);
      return;
    }
    const at = this.#clock.now() + ms;
    const pending = this.#waiting.get(key);
    if (pending) {
      if (pending.at <= at) return;
      this.#clock.clearTimeout(pending.timer);
    }
    this.#arm(key, at, ms);
  }

  /**
   * Adds the key after the rate limiter's delay for it, counting a retry. `atLeastMs` is a
   * floor for that delay: a server's Retry-After (see `retryAfterMs`) is never cut short by a
   * shorter backoff. Answers the delay (ms).
   */
  addRateLimited(key: string, atLeastMs = 0): number {
    if (this.#shuttingDown) return 0;
    this.#metrics.retry();
    const ms = Math.max(this.#limiter.when(key), atLeastMs);
    this.addAfter(key, ms);
    return ms;
  }

  /** Resets the rate limiter's backoff for the key (call after a successful run). */
  forget(key: string): void {
    this.#limiter.forget(key);
  }

  /** Retries the rate limiter counted for the key since it was last forgotten. */
  numRequeues(key: string): number {
    return this.#limiter.retries(key);
  }

  /** The next ready key, waiting if none is; `undefined` once the queue is shutting down. */
  get(): Promise<string | undefined> {
    if (this.#shuttingDown) return Promise.resolve(undefined);
    if (this.len() > 0) return Promise.resolve(this.#take(this.#shift()));
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks the key's run finished; if it was added meanwhile, it is queued again. */
  done(key: string): void {
    const started = this.#processing.get(key);
    if (started === undefined) return;
    this.#processing.delete(key);
    this.#metrics.workDuration((this.#clock.now() - started) / 1000);
    if (this.#dirty.has(key) && !this.#shuttingDown) this.#enqueue(key);
    if (this.#shuttingDown && this.#processing.size === 0) this.#finish();
  }

  /** Keys ready to be handed out. */
  len(): number {
    return this.#ready.length - this.#head;
  }

  /** Keys currently held by workers. */
  processing(): number {
    return this.#processing.size;
  }

  /**
   * What the queue holds now, for dashboards and debugging: counts, and up to `limit` keys
   * (default 100) that are held by workers, delayed (with when they are due, in ms from now)
   * or ready, each with its retries.
   *
   * @example
   * ```ts
   * const queue = new WorkQueue({ name: "dataapp" });
   * queue.addAfter("default/app", 5000);
   * queue.inspect().keys; // [{ key: "default/app", state: "delayed", dueInMs: 5000, retries: 0 }]
   * ```
   */
  inspect(limit = 100): WorkQueueSnapshot {
    const now = this.#clock.now();
    const keys: WorkQueueSnapshot["keys"] = [];
    const push = (key: string, state: "processing" | "delayed" | "ready", dueInMs?: number) => {
      if (keys.length >= limit) return;
      keys.push({ key, state, retries: this.#limiter.retries(key), ...(dueInMs !== undefined ? { dueInMs: Math.max(0, Math.round(dueInMs)) } : {}) });
    };
    for (const key of this.#processing.keys()) push(key, "processing");
    for (const [key, w] of this.#waiting) push(key, "delayed", w.at - now);
    for (let i = this.#head; i < this.#ready.length && keys.length < limit; i++) push(this.#ready[i]!, "ready");
    return { depth: this.#dirty.size, ready: this.len(), processing: this.#processing.size, delayed: this.#waiting.size, keys };
  }

  /** Whether a delayed add of `key` (`addAfter`, `addRateLimited`) is still pending. */
  isWaiting(key: string): boolean {
    return this.#waiting.has(key);
  }

  /** Whether `shutDown` or `shutDownWithDrain` was called. */
  isShuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Stops at once: ignores adds, hands out nothing more, resolves waiting `get()`s with `undefined`. */
  shutDown(): void {
    this.#beginShutdown();
    this.#stopTicker();
  }

  /** Stops like `shutDown`, then resolves once every key being processed is `done`. */
  shutDownWithDrain(): Promise<void> {
    this.#beginShutdown();
    if (this.#processing.size === 0) this.#finish();
    if (this.#drained) return this.#drained.promise;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#drained = { promise, resolve };
    return promise;
  }

  #beginShutdown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const w of this.#waiting.values()) this.#clock.clearTimeout(w.timer);
    this.#waiting.clear();
    const getters = this.#getters;
    this.#getters = [];
    for (const resolve of getters) resolve(undefined);
  }

  /** Nothing is processing any more after shutdown: stop reporting, release drain waiters. */
  #finish(): void {
    this.#stopTicker();
    this.#drained?.resolve();
    if (!this.#drained) this.#drained = { promise: Promise.resolve(), resolve: () => undefined };
  }

  /** Makes a dirty, not-processing key ready: straight to a waiting worker, else to the FIFO. */
  #enqueue(key: string): void {
    const getter = this.#getters.shift();
    if (getter) getter(this.#take(key));
    else this.#ready.push(key);
  }

  /** Hands a ready key out: dirty → processing. */
  #take(key: string): string {
    const now = this.#clock.now();
    this.#dirty.delete(key);
    this.#processing.set(key, now);
    this.#metrics.queueLatency((now - (this.#addedAt.get(key) ?? now)) / 1000);
    this.#addedAt.delete(key);
    this.#metrics.depth(this.#dirty.size);
    return key;
  }

  #shift(): string {
    const key = this.#ready[this.#head++]!;
    if (this.#head === this.#ready.length) {
      this.#ready = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#ready.length) {
      this.#ready = this.#ready.slice(this.#head);
      this.#head = 0;
    }
    return key;
  }

  /** Sets the delayed-add timer; delays past Node's timer limit are re-armed until due. */
  #arm(key: string, at: number, ms: number): void {
    const step = Math.min(ms, MAX_TIMER_MS);
    const timer = this.#clock.setTimeout(() => {
      if (step < ms) {
        this.#arm(key, at, at - this.#clock.now());
        return;
      }
      this.#waiting.delete(key);
      this.add(key);
    }, step);
    unref(timer);
    this.#waiting.set(key, { at, timer });
  }

  #tick(): void {
    this.#ticker = this.#clock.setTimeout(() => {
      const now = this.#clock.now();
      let total = 0;
      let longest = 0;
      for (const started of this.#processing.values()) {
        total += now - started;
        longest = Math.max(longest, now - started);
      }
      this.#metrics.unfinishedWork(total / 1000, longest / 1000);
      this.#tick();
    }, UNFINISHED_WORK_INTERVAL_MS);
    unref(this.#ticker);
  }

  #stopTicker(): void {
    if (this.#ticker === undefined) return;
    this.#clock.clearTimeout(this.#ticker);
    this.#ticker = undefined;
  }
}

/** Lets a Node timer handle not keep the process alive (other clocks' handles are left alone). */
function unref(handle: unknown): void {
  if (typeof handle === "object" && handle !== null && "unref" in handle && typeof handle.unref === "function") handle.unref();
}
