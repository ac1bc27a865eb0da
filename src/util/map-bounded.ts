/** Runs an async function over items with at most `limit` calls in flight, keeping the results in order. */

/**
 * `fn` over every item, at most `limit` calls running at once (1: one after another), started
 * in item order; resolves with the results in item order once every call settled. A call that
 * rejects rejects the whole (the others still run to their end): pass an `fn` that turns its
 * errors into results when every item must be tried.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 *
 * // at most 2 files open at a time; sizes[i] is the size of the i-th file
 * const sizes = await mapBounded(["a.yaml", "b.yaml", "c.yaml"], 2, async (path) => (await readFile(path)).length);
 * ```
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}
