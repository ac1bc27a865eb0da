/**
 * Injectable time for the work queue and rate limiters: the real clock and a manual one for tests.
 */

/**
 * What the work queue needs from time: a monotonic "now" in milliseconds and one-shot timers.
 * Only differences between `now()` values matter; the origin is arbitrary.
 *
 * Guarantees expected of an implementation: `now()` never goes backwards; a timer's callback
 * runs once, no earlier than `ms` after `setTimeout`, unless cleared first.
 *
 * @example
 * ```ts
 * const clock: Clock = realClock;
 * const handle = clock.setTimeout(() => console.log("later"), 100);
 * clock.clearTimeout(handle);
 * ```
 */
export interface Clock {
  /** Milliseconds since an arbitrary origin; never decreases. */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds; returns a handle for {@link Clock.clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer; cancelling a fired or unknown handle does nothing. */
  clearTimeout(handle: unknown): void;
}

/**
 * Wall time through `performance.now()` and Node timers.
 *
 * Guarantees: `now()` is monotonic; every timer is `unref()`'d, so a pending timer never keeps
 * the process alive by itself.
 *
 * @example
 * ```ts
 * import { WorkQueue } from "operator-runtime/controller";
 *
 * const queue = new WorkQueue({ name: "dataapp", clock: realClock });
 * ```
 */
export const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface ManualTimer {
  at: number;
  seq: number;
  callback: () => void;
}

/**
 * A clock that moves only when told, for deterministic tests: {@link ManualClock.advance} runs
 * the timers that fall due, in deadline order (ties in the order they were set).
 *
 * Guarantees: a timer never runs before `now()` reaches its deadline; while a callback runs,
 * `now()` equals that timer's deadline; timers set by callbacks during `advance` run in the
 * same `advance` if they fall due within it.
 *
 * @example
 * ```ts
 * const clock = new ManualClock();
 * clock.setTimeout(() => console.log("fired"), 100);
 * clock.advance(99);  // nothing
 * clock.advance(1);   // "fired"
 * ```
 */
export class ManualClock implements Clock {
  #ms: number;
  #seq = 0;
  readonly #timers = new Map<number, ManualTimer>();

  /** Starts at `startMs` (default 0). */
  constructor(startMs = 0) {
    this.#ms = startMs;
  }

  /** The current time; a bound function, so it can be passed around (`now: clock.now`). */
  readonly now = (): number => this.#ms;

  /** Schedules `callback` at `now() + ms` (negative delays count as 0). */
  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.#seq;
    this.#timers.set(id, { at: this.#ms + Math.max(0, ms), seq: id, callback });
    return id;
  }

  /** Cancels a pending timer. */
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.#ms + Math.max(0, ms);
    for (;;) {
      let next: ManualTimer | undefined;
      for (const t of this.#timers.values()) {
        if (t.at <= target && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      }
      if (!next) break;
      this.#timers.delete(next.seq);
      this.#ms = Math.max(this.#ms, next.at);
      next.callback();
    }
    this.#ms = target;
  }

  /** How many timers are pending. */
  pendingTimers(): number {
    return this.#timers.size;
  }
}
