/**
 * ShardWarningLimiter: how often the "the API server ignored the shard selector" warning of one
 * kind is logged, across the informers that replace each other as a sharded replica's buckets
 * change.
 */

/**
 * Options of {@link ShardWarningLimiter}.
 *
 * @example
 * ```ts
 * const options: ShardWarningLimiterOptions = { intervalMs: 60_000 };
 * ```
 */
export interface ShardWarningLimiterOptions {
  /** The shortest time between two warnings (default {@link SHARD_WARNING_INTERVAL_MS}). */
  intervalMs?: number;
  /** A monotonic clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** The default shortest time between two "shard selector ignored" warnings of one kind: 10 minutes. */
export const SHARD_WARNING_INTERVAL_MS = 10 * 60_000;

/**
 * Lets one warning through per interval and counts the ones it holds back, so the next warning
 * can say how many there were.
 *
 * Guarantees: the first call to {@link take} warns; later calls warn once `intervalMs` has passed
 * since the last warning. The metric `operator_runtime_shard_client_filtering` is not limited:
 * it follows every change at once.
 *
 * @example
 * ```ts
 * const limiter = new ShardWarningLimiter();
 * const turn = limiter.take();
 * if (turn.warn) log.warn("the API server ignored the shard selector", { heldBack: turn.heldBack });
 * ```
 */
export class ShardWarningLimiter {
  readonly #intervalMs: number;
  readonly #now: () => number;
  #last: number | undefined;
  #heldBack = 0;

  /** @throws {RangeError} for an `intervalMs` that is not a number ≥ 0. */
  constructor(options: ShardWarningLimiterOptions = {}) {
    const interval = options.intervalMs ?? SHARD_WARNING_INTERVAL_MS;
    if (typeof interval !== "number" || !(interval >= 0)) {
      throw new RangeError(`ShardWarningLimiter: intervalMs must be a number ≥ 0 (milliseconds), got ${String(interval)}`);
    }
    this.#intervalMs = interval;
    this.#now = options.now ?? (() => performance.now());
  }

  /**
   * One occurrence: `warn` true when it should be logged as a warning, with `heldBack`, the
   * occurrences not logged as warnings since the last one.
   */
  take(): { warn: true; heldBack: number } | { warn: false } {
    const now = this.#now();
    if (this.#last !== undefined && now - this.#last < this.#intervalMs) {
      this.#heldBack++;
      return { warn: false };
    }
    const heldBack = this.#heldBack;
    this.#last = now;
    this.#heldBack = 0;
    return { warn: true, heldBack };
  }
}
