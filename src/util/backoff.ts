/**
 * The one exponential-backoff arithmetic: `base · 2^n` capped at `max`. The reflector's
 * jittered `Backoff` (reset after a quiet period) and the work queue's per-key
 * `exponentialFailureRateLimiter` (reset by `forget`) both compute their delays with it.
 */

/**
 * The delay after `failures` earlier failures: `baseMs · 2^failures`, capped at `maxMs`.
 *
 * Guarantees: finite and never above `maxMs` however many failures (no overflow: `2^n` that
 * overflows to Infinity gives `maxMs`); 0 when `baseMs` is 0 or less.
 *
 * @example
 * ```ts
 * [0, 1, 2, 10].map((n) => exponentialBackoffMs(n, 800, 30_000)); // [800, 1600, 3200, 30000]
 * ```
 */
export function exponentialBackoffMs(failures: number, baseMs: number, maxMs: number): number {
  if (!(baseMs > 0)) return 0;
  const delay = baseMs * 2 ** failures;
  return delay < maxMs ? delay : maxMs;
}
