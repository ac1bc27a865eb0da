/** Jittered exponential backoff with a reset window, and the reflector's timing settings. */
import { exponentialBackoffMs } from "../util/backoff.ts";
import { DEFAULT_WATCH_STALL_MS } from "./watch-stream.ts";

/**
 * Timings of a reflector (and of every informer a {@link Cache} creates). All optional; the
 * defaults are client-go's reflector defaults. Tests pass small values.
 *
 * @example
 * ```ts
 * import { Cache } from "operator-runtime/cache";
 *
 * const fast: ReflectorTimings = { initialBackoffMs: 10, maxBackoffMs: 200, backoffResetMs: 2_000 };
 * const cache = new Cache({ client, kubeConfig, timings: fast });
 * ```
 */
export interface ReflectorTimings {
  /** First delay after a failure (default 800 ms). */
  initialBackoffMs?: number;
  /** Longest delay (default 30 s); the delay doubles per consecutive failure up to this. */
  maxBackoffMs?: number;
  /** The failure count resets when the last failure is older than this (default 2 min). */
  backoffResetMs?: number;
  /** Each delay is multiplied by a random factor in [1 − jitter, 1 + jitter] (default 0.2). */
  jitter?: number;
  /** Watch `timeoutSeconds` is drawn from [min, max] per watch (default 300–600 s). */
  minWatchTimeoutSeconds?: number;
  maxWatchTimeoutSeconds?: number;
  /** After this many consecutive failed watch attempts the reflector relists (default 3). */
  relistAfterWatchFailures?: number;
  /**
   * How long a watch may stay silent (no event, no bookmark) once the server is known to send
   * bookmarks, before it counts as stalled: it is aborted, reopened, and a warning is logged
   * (default 150 s, 2.5 × kube-apiserver's one-minute bookmark interval). Before the first
   * bookmark, a quiet watch may stay silent for its `timeoutSeconds` plus this.
   */
  watchStallMs?: number;
  /**
   * After a watch closed cleanly or stalled (a server timeout, a swallowed stream), how long the resumed watch may take to be accepted before the informer counts as
   * stale (default 1000 ms; 0 = stale at once). Failed watches are stale at once.
   */
  resumeGraceMs?: number;
  /** Clock in ms (default `Date.now`), for tests. */
  now?: () => number;
  /** Random source in [0, 1) (default `Math.random`), for tests. */
  random?: () => number;
}

/**
 * {@link ReflectorTimings} with every default filled in.
 *
 * @example
 * ```ts
 * const t: ResolvedTimings = resolveTimings({ jitter: 0 });
 * ```
 */
export type ResolvedTimings = Required<ReflectorTimings>;

/**
 * Fills in the defaults of {@link ReflectorTimings}.
 *
 * @example
 * ```ts
 * resolveTimings({ initialBackoffMs: 10 }).maxBackoffMs; // 30_000
 * ```
 */
export function resolveTimings(t: ReflectorTimings = {}): ResolvedTimings {
  const minWatch = t.minWatchTimeoutSeconds ?? 300;
  return {
    initialBackoffMs: t.initialBackoffMs ?? 800,
    maxBackoffMs: t.maxBackoffMs ?? 30_000,
    backoffResetMs: t.backoffResetMs ?? 120_000,
    jitter: Math.min(1, Math.max(0, t.jitter ?? 0.2)),
    minWatchTimeoutSeconds: minWatch,
    maxWatchTimeoutSeconds: Math.max(minWatch, t.maxWatchTimeoutSeconds ?? 600),
    relistAfterWatchFailures: Math.max(1, t.relistAfterWatchFailures ?? 3),
    resumeGraceMs: Math.max(0, t.resumeGraceMs ?? 1000),
    watchStallMs: Math.max(1, t.watchStallMs ?? DEFAULT_WATCH_STALL_MS),
    now: t.now ?? Date.now,
    random: t.random ?? Math.random,
  };
}

/**
 * Exponential backoff: `initial · 2^n` capped at `max`, jittered, where n counts failures since
 * the last quiet period. A failure more than `backoffResetMs` after the previous one starts
 * again from `initial` (the stream was healthy meanwhile).
 *
 * @example
 * ```ts
 * const backoff = new Backoff(resolveTimings());
 * const delayMs = backoff.next(); // ≈ 800 ms, then ≈ 1.6 s, 3.2 s … 30 s
 * ```
 */
export class Backoff {
  readonly #t: ResolvedTimings;
  #failures = 0;
  #lastFailureAt = -Infinity;

  constructor(timings: ResolvedTimings) {
    this.#t = timings;
  }

  /** Records a failure and returns how long to wait before the next attempt. */
  next(): number {
    const now = this.#t.now();
    if (now - this.#lastFailureAt > this.#t.backoffResetMs) this.#failures = 0;
    this.#lastFailureAt = now;
    const base = exponentialBackoffMs(this.#failures, this.#t.initialBackoffMs, this.#t.maxBackoffMs);
    this.#failures++;
    const factor = 1 + this.#t.jitter * (this.#t.random() * 2 - 1);
    return Math.max(0, Math.round(base * factor));
  }

  /** Consecutive failures counted so far (0 after a reset). */
  get failures(): number {
    return this.#failures;
  }
}
