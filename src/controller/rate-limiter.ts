/**
 * Rate limiters for work-queue retries: per-key exponential backoff, a shared token bucket, and their max.
 */
import { exponentialBackoffMs } from "../util/backoff.ts";
import { TokenBucket } from "../util/token-bucket.ts";
import { argumentError, checkObject } from "../util/check-args.ts";

/**
 * Decides how long a key waits before its next retry.
 *
 * Guarantees expected of an implementation: `when` returns a finite, non-negative number of
 * milliseconds and records one more retry of the key; `forget` resets the key as if it had
 * never failed; `retries` reports the retries recorded since the last `forget`.
 *
 * @example
 * ```ts
 * const limiter: RateLimiter = defaultControllerRateLimiter();
 * const wait = limiter.when("default/my-app"); // 5 (ms) on the first failure
 * limiter.forget("default/my-app");            // after a success
 * ```
 */
export interface RateLimiter {
  /** Milliseconds to wait before the key's next attempt; counts one retry. */
  when(key: string): number;
  /** Resets the key's history (call after a success). */
  forget(key: string): void;
  /** Retries counted for the key since it was last forgotten. */
  retries(key: string): number;
}

/**
 * Options of {@link exponentialFailureRateLimiter}.
 *
 * @example
 * ```ts
 * const options: ExponentialFailureOptions = { baseMs: 5, maxMs: 1_000_000 };
 * ```
 */
export interface ExponentialFailureOptions {
  /** Delay of the first retry, in ms (default 5). */
  baseMs?: number;
  /** Longest delay, in ms (default 1 000 000 = 1000 s). */
  maxMs?: number;
}

/**
 * Per-key exponential backoff: the n-th retry of a key (counting from 0) waits
 * `baseMs · 2^n`, capped at `maxMs` — client-go's `ItemExponentialFailureRateLimiter`.
 *
 * Guarantees: keys are independent; delays never exceed `maxMs` (no overflow however many
 * failures); `forget(key)` starts the key over at `baseMs` and frees its memory.
 *
 * @example
 * ```ts
 * const limiter = exponentialFailureRateLimiter({ baseMs: 5, maxMs: 1_000_000 });
 * limiter.when("a"); // 5
 * limiter.when("a"); // 10
 * limiter.when("a"); // 20
 * limiter.forget("a");
 * limiter.when("a"); // 5
 * ```
 * @throws RangeError when `baseMs` is negative or `maxMs` is below `baseMs`.
 */
export function exponentialFailureRateLimiter(options: ExponentialFailureOptions = {}): RateLimiter {
  checkObject("exponentialFailureRateLimiter(options)", "options", options, "an options object ({ baseMs?, maxMs? })");
  const baseMs = options.baseMs ?? 5;
  const maxMs = options.maxMs ?? 1_000_000;
  if (!(baseMs >= 0) || !(maxMs >= baseMs)) {
    throw new RangeError(`exponentialFailureRateLimiter: need 0 <= baseMs <= maxMs (got baseMs=${baseMs}, maxMs=${maxMs})`);
  }
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      return exponentialBackoffMs(n, baseMs, maxMs);
    },
    forget(key) {
      failures.delete(key);
    },
    retries(key) {
      return failures.get(key) ?? 0;
    },
  };
}

/**
 * Options of {@link tokenBucketRateLimiter}.
 *
 * @example
 * ```ts
 * const options: TokenBucketRateLimiterOptions = { qps: 10, burst: 100 };
 * ```
 */
export interface TokenBucketRateLimiterOptions {
  /** Tokens earned back per second (default 10). */
  qps?: number;
  /** Tokens the bucket starts with and holds at most (default 100). */
  burst?: number;
  /** Milliseconds clock, monotonic (default `performance.now()`); tests pass a manual one. */
  now?: () => number;
}

/**
 * One token bucket shared by all keys: each `when` reserves a token and returns how long until
 * that token exists — `golang.org/x/time/rate`'s `Reserve().Delay()`, as client-go's
 * `BucketRateLimiter` uses it. It bounds the overall retry rate, not any one key's.
 *
 * Guarantees: the first `burst` calls at one instant wait 0; after that, reservations are
 * spaced `1000 / qps` ms apart; tokens refill continuously and never exceed `burst`.
 * `forget` does nothing and `retries` is always 0 (the bucket keeps no per-key state).
 *
 * @example
 * ```ts
 * const limiter = tokenBucketRateLimiter({ qps: 10, burst: 2, now: () => 0 });
 * limiter.when("a"); // 0
 * limiter.when("b"); // 0
 * limiter.when("c"); // 100: the next token comes in 1/qps s
 * limiter.when("d"); // 200
 * ```
 * @throws RangeError when `qps` is not positive or `burst` is below 1.
 */
export function tokenBucketRateLimiter(options: TokenBucketRateLimiterOptions = {}): RateLimiter {
  checkObject("tokenBucketRateLimiter(options)", "options", options, "an options object ({ qps?, burst?, now? })");
  const qps = options.qps ?? 10;
  const burst = options.burst ?? 100;
  const now = options.now ?? (() => performance.now());
  if (!(qps > 0) || !(burst >= 1)) {
    throw new RangeError(`tokenBucketRateLimiter: need qps > 0 and burst >= 1 (got qps=${qps}, burst=${burst})`);
  }
  const bucket = new TokenBucket({ burst, refillIntervalMs: 1000 / qps }, now());
  return {
    when() {
      return bucket.reserve(now());
    },
    forget() {},
    retries() {
      return 0;
    },
  };
}

/**
 * Combines limiters: waits as long as the slowest one says, and forgets in all of them.
 *
 * Guarantees: every limiter's `when` is called on each `when` (so each records the retry);
 * `retries` is the largest count among them; with no limiters, `when` returns 0.
 *
 * @example
 * ```ts
 * const limiter = maxOfRateLimiters(
 *   exponentialFailureRateLimiter({ baseMs: 5, maxMs: 1_000_000 }),
 *   tokenBucketRateLimiter({ qps: 10, burst: 100 }),
 * );
 * ```
 */
export function maxOfRateLimiters(...limiters: RateLimiter[]): RateLimiter {
  limiters.forEach((l, i) => {
    if (typeof l?.when !== "function") throw argumentError("maxOfRateLimiters(...limiters)", `limiters[${i}]`, "a RateLimiter ({ when, forget, retries })", l);
  });
  return {
    when(key) {
      let longest = 0;
      for (const l of limiters) longest = Math.max(longest, l.when(key));
      return longest;
    },
    forget(key) {
      for (const l of limiters) l.forget(key);
    },
    retries(key) {
      let most = 0;
      for (const l of limiters) most = Math.max(most, l.retries(key));
      return most;
    },
  };
}

/**
 * controller-runtime's default: the larger of per-key backoff 5 ms → 1000 s and an overall
 * bucket of 10 retries/s with a burst of 100.
 *
 * Guarantees: a key's n-th consecutive failure waits at least `min(5 ms · 2^n, 1000 s)`; all
 * keys together are retried at no more than 10/s after a burst of 100; `forget` after a success
 * resets the key's backoff. `now` is the bucket's millisecond clock (default
 * `performance.now()`); tests pass a fixed or manual one.
 *
 * @example
 * ```ts
 * import { WorkQueue } from "operator-runtime/controller";
 *
 * const queue = new WorkQueue({ name: "dataapp", rateLimiter: defaultControllerRateLimiter() });
 * ```
 */
export function defaultControllerRateLimiter(options: Pick<TokenBucketRateLimiterOptions, "now"> = {}): RateLimiter {
  checkObject("defaultControllerRateLimiter(options)", "options", options, "an options object ({ now? })");
  return maxOfRateLimiters(
    exponentialFailureRateLimiter({ baseMs: 5, maxMs: 1_000_000 }),
    tokenBucketRateLimiter({ qps: 10, burst: 100, ...options }),
  );
}
