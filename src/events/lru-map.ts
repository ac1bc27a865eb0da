/**
 * A Map bounded by a key count that forgets the least recently used key first.
 */

/**
 * A `Map` with at most `capacity` keys: `get` and `set` mark a key as recently used, and a
 * `set` beyond capacity evicts the least recently used key. Keeps the recorder's per-object
 * state bounded however many objects an operator touches.
 *
 * @example
 * ```ts
 * const lru = new LruMap<string, number>(2);
 * lru.set("a", 1); lru.set("b", 2); lru.get("a"); lru.set("c", 3);
 * lru.has("b"); // false: "b" was the least recently used
 * ```
 */
export class LruMap<K, V> {
  readonly capacity: number;
  readonly #map = new Map<K, V>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`LruMap capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  /** The value of `key`, marking it recently used; undefined when absent. */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key) as V;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** Stores `value` under `key` as the most recently used, evicting the oldest key when full. */
  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
    return this;
  }

  /** Whether `key` is present (does not mark it used). */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Removes `key`; returns whether it was present. */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  /** Number of keys held. */
  get size(): number {
    return this.#map.size;
  }
}
