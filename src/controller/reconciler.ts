/**
 * The reconcile contract: what a reconciler receives, what it returns, and what the
 * controller does with each outcome.
 */
import type { Logger } from "../log/logger.ts";

/** The key of the object to reconcile. */
export interface Request {
  /** Namespace ("" for cluster-scoped objects). */
  namespace: string;
  name: string;
}

/** What a reconcile asks for next. Build with {@link Result}. */
export interface ReconcileResult {
  /** Run again after this many milliseconds (the earliest deadline wins). */
  requeueAfter?: number;
  /** Run again with the rate limiter's backoff. */
  requeue?: boolean;
}

/** Named constructors for reconcile results. */
export const Result = {
  /** Done: run again only when something changes. */
  done(): ReconcileResult {
    return {};
  },
  /** Run again after `ms` milliseconds (backoff reset). */
  requeueAfter(ms: number): ReconcileResult {
    return { requeueAfter: ms };
  },
  /** Run again with backoff (without counting as an error). */
  requeue(): ReconcileResult {
    return { requeue: true };
  },
} as const;

/** What each reconcile call gets besides the request. */
export interface ReconcileContext {
  /** A logger carrying controller, key and reconcileID. */
  log: Logger;
  /** Unique per run; in every log line of the run. */
  reconcileID: string;
  /** Aborted when the controller stops without draining (leadership lost). */
  signal: AbortSignal;
}

/**
 * A reconciler: makes the world match the object named by `request`.
 *
 * Contract: return (or resolve) {@link Result.done} when done; {@link Result.requeueAfter} for
 * a timed re-run; throw to retry with per-key exponential backoff (5 ms doubling to 1000 s,
 * reset on success); throw a `terminal(err)` error to record it and not retry. A reconcile is
 * never run twice at once for the same key; changes that arrive while it runs cause exactly
 * one more run afterwards. It must be idempotent: it may run at any time, for any reason.
 */
export type Reconciler = (request: Request, context: ReconcileContext) => Promise<ReconcileResult | void> | ReconcileResult | void;

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function keyOf(request: Request): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

/** The Request for a key. */
export function requestOf(key: string): Request {
  const i = key.indexOf("/");
  return i < 0 ? { namespace: "", name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
