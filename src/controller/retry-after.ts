/** How long a failure asks to be left alone: the server's Retry-After, found anywhere in an error. */
import { TooManyRequestsError } from "../errors.ts";

/**
 * The longest Retry-After (in ms) of any {@link TooManyRequestsError} in `err`: the error
 * itself, its `cause` chain, and the `errors` of an `AggregateError` (as a reconciler throws
 * for a Builder's failed children). Undefined when none carries one.
 *
 * @example
 * ```ts
 * import type { ConfigMap } from "operator-runtime";
 * import { WorkQueue } from "operator-runtime/controller";
 *
 * const queue = new WorkQueue({ name: "greeting" });
 * const key = "default/hello";
 * const cm: ConfigMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "hello", namespace: "default" }, data: { greeting: "hi" } };
 * try { await client.apply(cm); } catch (err) { queue.addRateLimited(key, retryAfterMs(err)); } // waits at least the server's Retry-After
 * ```
 */
export function retryAfterMs(err: unknown): number | undefined {
  let longest: number | undefined;
  const seen = new Set<unknown>();
  const visit = (e: unknown): void => {
    if (typeof e !== "object" || e === null || seen.has(e)) return;
    seen.add(e);
    if (e instanceof TooManyRequestsError && e.retryAfterSeconds !== undefined) {
      longest = Math.max(longest ?? 0, e.retryAfterSeconds * 1000);
    }
    if ("cause" in e) visit(e.cause);
    if ("errors" in e && Array.isArray(e.errors)) for (const inner of e.errors) visit(inner);
  };
  try {
    visit(err);
  } catch {
    // A thrown value whose inspection throws (a revoked proxy, a throwing getter): no Retry-After.
    return undefined;
  }
  return longest;
}
