/**
 * Per-key token buckets: the recorder's spam filter (burst 25, one token back per 5 minutes).
 */
import { LRUCache } from "lru-cache";

/**
 * Options of {@link KeyedTokenBuckets}.
 *
 * @example
 * ```ts
 * const options: KeyedTokenBucketsOptions = { burst: 25, refillIntervalMs: 300_000, maxKeys: 4096 };
 * ```
 */
export interface KeyedTokenBucketsOptions {
  /** Tokens a fresh bucket holds, and the most it ever holds. */
  burst: number;
  /** Milliseconds to earn back one token. */
  refillIntervalMs: number;
  /** Most keys remembered (least recently used forgotten first; a forgotten key starts full). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per key, refilled continuously at one token per `refillIntervalMs` up to
 * `burst` — the same shape as client-go's per-object event spam filter. Time is passed in, so
 * callers decide the clock (tests use a fake one).
 *
 * @example
 * ```ts
 * const buckets = new KeyedTokenBuckets({ burst: 2, refillIntervalMs: 1000 });
 * buckets.take("pod-a", 0); // true
 * buckets.take("pod-a", 0); // true
 * buckets.take("pod-a", 0); // false: empty
 * buckets.take("pod-a", 1000); // true: one token earned back
 * ```
 */
export class KeyedTokenBuckets {
  readonly #burst: number;
  readonly #refillIntervalMs: number;
  readonly #buckets: LRUCache<string, Bucket>;

  constructor(options: KeyedTokenBucketsOptions) {
    if (!(options.burst >= 1)) throw new RangeError(`burst must be at least 1, got ${options.burst}`);
    if (!(options.refillIntervalMs > 0)) throw new RangeError(`refillIntervalMs must be positive, got ${options.refillIntervalMs}`);
    this.#burst = options.burst;
    this.#refillIntervalMs = options.refillIntervalMs;
    this.#buckets = new LRUCache({ max: options.maxKeys ?? 4096 });
  }

  /** Takes one token from `key`'s bucket at time `nowMs`; false (and nothing taken) when empty. */
  take(key: string, nowMs: number): boolean {
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, at: nowMs };
    const elapsed = Math.max(0, nowMs - bucket.at);
    bucket.tokens = Math.min(this.#burst, bucket.tokens + elapsed / this.#refillIntervalMs);
    bucket.at = Math.max(bucket.at, nowMs);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return allowed;
  }
}
