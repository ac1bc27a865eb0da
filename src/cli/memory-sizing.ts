/**
 * How much memory an operator's container needs, from how many objects its informers cache,
 * and the Node.js options that keep its RSS near what it holds. The figures are measured by
 * `npm run bench -- scale` (see docs/performance.md, "Memory"); `gen manifests` uses them.
 */

/**
 * Node options for an operator process (`NODE_OPTIONS` in the Deployment `gen manifests`
 * writes). By default V8 sizes its young generation for throughput on the machine's memory (up
 * to 3 × 64 MiB semi-spaces), and an operator converging thousands of owners fills it: RSS
 * grows by that much and stays. `--max-semi-space-size=8` caps it at 24 MiB. It can only be set
 * when the process starts; the old generation's growth is the Manager's
 * `heapGrowingPercent` (set at run time). Measured at 10,000 owners (50,000 cached objects):
 * RSS 315 MiB with both instead of 711, peak heap 1.4× the retained heap instead of 3.8×.
 *
 * @example
 * ```ts
 * const env = { name: "NODE_OPTIONS", value: OPERATOR_NODE_OPTIONS };
 * console.log(env.value); // → --max-semi-space-size=8
 * ```
 */
export const OPERATOR_NODE_OPTIONS = "--max-semi-space-size=8";

/** RSS of a started Manager with empty caches, with {@link OPERATOR_NODE_OPTIONS}, rounded up (MiB). */
export const MEMORY_FLOOR_MIB = 180;

/** RSS each cached object of about 1 KiB (as JSON) adds, garbage headroom included (KiB). */
export const RSS_PER_CACHED_OBJECT_KIB = 3.5;

/** The container's memory request and limit for an operator caching `cachedObjects` objects. */
export interface MemorySizing {
  /** `resources.requests.memory`: the expected RSS. */
  request: string;
  /** `resources.limits.memory`: the expected RSS plus a quarter, rounded up to 64 MiB. */
  limit: string;
}

/**
 * The memory request and limit for `cachedObjects` cached objects of about 1 KiB each (count a
 * 10 KiB object as ten): request = floor + objects × per-object RSS, limit = request × 1.25
 * rounded up to a multiple of 64 MiB.
 *
 * @example
 * ```ts
 * memoryFor(50_000); // → { request: "351Mi", limit: "448Mi" }
 * ```
 */
export function memoryFor(cachedObjects: number): MemorySizing {
  if (!Number.isInteger(cachedObjects) || cachedObjects < 0) throw new RangeError(`memoryFor: cachedObjects must be a whole number ≥ 0, got ${cachedObjects}`);
  const expected = Math.ceil(MEMORY_FLOOR_MIB + (cachedObjects * RSS_PER_CACHED_OBJECT_KIB) / 1024);
  const limit = Math.ceil((expected * 1.25) / 64) * 64;
  return { request: `${expected}Mi`, limit: `${limit}Mi` };
}
