/**
 * The one token bucket: refilled continuously up to a burst, with the time passed in. The work
 * queue's overall retry limiter reserves from one; the EventRecorder's per-object spam filter
 * keeps one per key.
 */
import { LRUCache } from "lru-cache";

/**
 * Options of {@link TokenBucket}.
 *
 * @example
 * ```ts
 * const tenPerSecond: TokenBucketOptions = { burst: 100, refillIntervalMs: 100 };
 * ```
 */
export interface TokenBucketOptions {
  /** Tokens a fresh bucket holds, and the most it ever holds (at least 1). */
  burst: number;
  /** Milliseconds to earn back one token (positive). */
  refillIntervalMs: number;
}

/**
 * A token bucket: starts full with `burst` tokens and earns one back every `refillIntervalMs`,
 * continuously, never holding more than `burst`. Time is passed in (milliseconds, any
 * monotonic origin), so callers decide the clock; time going backwards earns nothing.
 *
 * `take` is a gate (a token or nothing); `reserve` always takes one, going into debt, and says
 * how long until that token exists — `golang.org/x/time/rate`'s `Reserve().Delay()`.
 *
 * @example
 * ```ts
 * const bucket = new TokenBucket({ burst: 2, refillIntervalMs: 1000 }, 0);
 * bucket.take(0);    // true
 * bucket.reserve(0); // 0: the second token
 * bucket.reserve(0); // 1000: the next one exists in a second
 * bucket.take(500);  // false: still in debt
 * ```
 * @throws RangeError when `burst` is below 1 or `refillIntervalMs` is not positive.
 */
export class TokenBucket {
  readonly #burst: number;
  readonly #refillIntervalMs: number;
  #tokens: number;
  #at: number;

  constructor(options: TokenBucketOptions, nowMs: number) {
    checkOptions(options);
    this.#burst = options.burst;
    this.#refillIntervalMs = options.refillIntervalMs;
    this.#tokens = options.burst;
    this.#at = nowMs;
  }

  /** Takes one token at `nowMs` if there is one; false (and nothing taken) otherwise. */
  take(nowMs: number): boolean {
    this.#refill(nowMs);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Takes one token at `nowMs`, in debt if need be; returns the milliseconds until it exists (0 when it does). */
  reserve(nowMs: number): number {
    this.#refill(nowMs);
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : -this.#tokens * this.#refillIntervalMs;
  }

  #refill(nowMs: number): void {
    if (nowMs <= this.#at) return;
    this.#tokens = Math.min(this.#burst, this.#tokens + (nowMs - this.#at) / this.#refillIntervalMs);
    this.#at = nowMs;
  }
}

function checkOptions(options: TokenBucketOptions): TokenBucketOptions {
  if (!(options.burst >= 1)) throw new RangeError(`burst must be at least 1, got ${options.burst}`);
  if (!(options.refillIntervalMs > 0)) throw new RangeError(`refillIntervalMs must be positive, got ${options.refillIntervalMs}`);
  return options;
}

/**
 * Options of {@link KeyedTokenBuckets}.
 *
 * @example
 * ```ts
 * const options: KeyedTokenBucketsOptions = { burst: 25, refillIntervalMs: 300_000, maxKeys: 4096 };
 * ```
 */
export interface KeyedTokenBucketsOptions extends TokenBucketOptions {
  /** Most keys remembered (least recently used forgotten first; a forgotten key starts full). Default 4096. */
  maxKeys?: number;
}

/**
 * One {@link TokenBucket} per key — the shape of client-go's per-object event spam filter —
 * with memory bounded by `maxKeys`.
 *
 * @example
 * ```ts
 * const buckets = new KeyedTokenBuckets({ burst: 2, refillIntervalMs: 1000 });
 * buckets.take("pod-a", 0); // true
 * buckets.take("pod-a", 0); // true
 * buckets.take("pod-a", 0); // false: empty
 * buckets.take("pod-b", 0); // true: another key
 * buckets.take("pod-a", 1000); // true: one token earned back
 * ```
 * @throws RangeError as {@link TokenBucket}.
 */
export class KeyedTokenBuckets {
  readonly #options: TokenBucketOptions;
  readonly #buckets: LRUCache<string, TokenBucket>;

  constructor(options: KeyedTokenBucketsOptions) {
    this.#options = checkOptions({ burst: options.burst, refillIntervalMs: options.refillIntervalMs });
    this.#buckets = new LRUCache({ max: options.maxKeys ?? 4096 });
  }

  /** Takes one token from `key`'s bucket at time `nowMs`; false (and nothing taken) when empty. */
  take(key: string, nowMs: number): boolean {
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.#options, nowMs);
      this.#buckets.set(key, bucket);
    }
    return bucket.take(nowMs);
  }
}
