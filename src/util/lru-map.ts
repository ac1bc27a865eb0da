/** A bounded least-recently-used map whose memory follows the entries it holds. */

/**
 * A Map that keeps at most `max` entries, forgetting the least recently used first. Built on
 * one `Map` (its insertion order is the recency order), so an empty or small one costs next to
 * nothing, unlike caches that allocate arrays of `max` slots up front.
 *
 * Guarantees: `get` and `set` make an entry the most recently used; `peek` and `has` do not.
 * After `set`, `size <= max`.
 *
 * @example
 * ```ts
 * const seen = new LruMap<string, number>(2);
 * seen.set("a", 1); seen.set("b", 2);
 * seen.get("a");       // 1; "a" is now the most recent
 * seen.set("c", 3);    // forgets "b"
 * seen.has("b");       // false
 * ```
 */
export class LruMap<K, V> {
  readonly max: number;
  readonly #map = new Map<K, V>();

  constructor(max: number) {
    if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`LruMap: max must be an integer >= 1, got ${max}`);
    this.max = max;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value of `key`, made the most recently used. */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key)!;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** The value of `key`, without touching its recency. */
  peek(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Sets `key` as the most recently used, forgetting the least recently used beyond `max`. */
  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
    return this;
  }

  /** Replaces the value of a present `key` without touching its recency; false when absent. */
  update(key: K, value: V): boolean {
    if (!this.#map.has(key)) return false;
    this.#map.set(key, value);
    return true;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }
}
