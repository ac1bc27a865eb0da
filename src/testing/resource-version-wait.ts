/**
 * Reads "not older than" a resourceVersion the server has not reached yet: wait for the store
 * to catch up, bounded, then answer 504 "Too large resource version" as kube-apiserver does.
 */
import type { ServerResponse } from "node:http";
import type { ApiContext } from "./api-context.ts";
import { StatusError } from "./status.ts";
import { parseResourceVersion } from "./list-params.ts";

/** kube-apiserver's bound on waiting for a resourceVersion (its watch cache waits 3 s). */
export const DEFAULT_RESOURCE_VERSION_WAIT_MS = 3000;

/**
 * The 504 kube-apiserver answers when the asked resourceVersion is still ahead of the server's
 * after the wait: message `Timeout: Too large resource version: N, current: M` (its
 * `NewTimeoutError` prefixes `Timeout: `), `reason: Timeout`, `retryAfterSeconds: 1` and the `ResourceVersionTooLarge`
 * cause (serialized, like every `StatusCause` type, under the JSON name `reason`).
 */
export function tooLargeResourceVersion(asked: bigint, current: number): StatusError {
  return new StatusError(504, "Timeout", `Timeout: Too large resource version: ${asked}, current: ${current}`, {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    retryAfterSeconds: 1,
  });
}

/**
 * Resolves once the store's resourceVersion is at least `asked` (at once when it already is);
 * rejects with {@link tooLargeResourceVersion} after `ctx.resourceVersionWaitMs`. Resolves
 * `false` when the client went away meanwhile (nothing should be written then), else `true`.
 */
export function awaitResourceVersion(ctx: ApiContext, asked: bigint, res: ServerResponse): Promise<boolean> {
  if (BigInt(ctx.store.resourceVersion) >= asked) return Promise.resolve(true);
  return new Promise<boolean>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      unsubscribe();
      clearTimeout(timer);
      res.off("close", onClose);
      outcome();
    };
    const unsubscribe = ctx.store.onChange(() => {
      if (BigInt(ctx.store.resourceVersion) >= asked) finish(() => resolve(true));
    });
    const onClose = () => finish(() => resolve(false));
    res.on("close", onClose);
    const timer = setTimeout(
      () => finish(() => reject(tooLargeResourceVersion(asked, ctx.store.resourceVersion))),
      ctx.resourceVersionWaitMs,
    );
    timer.unref();
  });
}

/**
 * The resourceVersion a get or list asks to be "not older than" (`resourceVersion=N`, with
 * `resourceVersionMatch` unset, `NotOlderThan` or `Exact`); undefined for "" and "0" (any
 * version).
 *
 * @throws {StatusError} 400 for a value that is not a uint64 (see {@link parseResourceVersion}).
 */
export function minimumResourceVersion(query: URLSearchParams): bigint | undefined {
  const rv = parseResourceVersion(query.get("resourceVersion"));
  return rv > 0n ? rv : undefined;
}
