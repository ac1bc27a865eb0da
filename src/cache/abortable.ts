/** Waiting on a promise until an AbortSignal fires, without leaking listeners. */

/**
 * Resolves as `promise` does, or rejects with `signal.reason` once `signal` aborts, whichever
 * comes first. The abort listener is removed either way.
 *
 * @example
 * ```ts
 * await abortable(cache.synced(), AbortSignal.timeout(30_000)); // rejects after 30 s unless synced
 * ```
 */
export async function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw signal.reason;
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
