/**
 * The reconcile contract: what a reconciler receives, what it returns, and what the
 * controller does with each outcome.
 */
import type { Logger } from "../log/logger.ts";
import { argumentError } from "../util/check-args.ts";

/** The key of the object to reconcile. */
export interface Request {
  /** Namespace ("" for cluster-scoped objects). */
  namespace: string;
  name: string;
}

/**
 * What a reconciler asks the controller to do next (not what the Builder did: that is the
 * Builder's `BuilderResult`). Build it with {@link Action}; returning nothing means
 * {@link Action.done}.
 *
 * @example
 * ```ts
 * declare const ready: boolean; // whether the children are ready
 * const next: Action = ready ? Action.done() : Action.requeueAfter(10_000);
 * ```
 */
export interface Action {
  /** Run again after this many milliseconds (the earliest deadline wins). */
  requeueAfter?: number;
  /** Run again with the rate limiter's backoff. */
  requeue?: boolean;
}

/**
 * Named constructors of the {@link Action} a reconciler returns.
 *
 * @example
 * ```ts
 * mgr.controller("greeting").for(Greeting).reconcile(async (req) => {
 *   const greeting = mgr.cache.informer(Greeting).get(req.name, req.namespace);
 *   if (!greeting) return Action.done();
 *   return Action.requeueAfter(10 * 60_000);   // re-check in ten minutes
 * });
 * ```
 */
export const Action = {
  /** Done: run again only when something changes. */
  done(): Action {
    return {};
  },
  /** Run again after `ms` milliseconds (backoff reset). */
  requeueAfter(ms: number): Action {
    return { requeueAfter: ms };
  },
  /** Run again with backoff (without counting as an error). */
  requeue(): Action {
    return { requeue: true };
  },
} as const;

/** What each reconcile call gets besides the request. */
export interface ReconcileContext {
  /** A logger carrying controller, key and reconcileID. */
  log: Logger;
  /** Unique per run; in every log line of the run. */
  reconcileID: string;
  /**
   * Aborted when the controller stops without draining (leadership lost) or the reconcile
   * timeout (`reconcileTimeoutMs`, default 30 s) expires. From then on every ResourceClient
   * write the run makes is refused without a request (rejecting with the signal's reason); pass
   * it on (`{ signal }` on client calls, `client.withSignal(signal)`) to abort reads and
   * requests in flight too.
   */
  signal: AbortSignal;
  /**
   * True when this run is a plan (the dashboard's Plan view, `Controller.plan`): every
   * ResourceClient write goes out as a server dry run and a Builder only plans, so nothing is
   * stored. Skip side effects outside Kubernetes (calls to other services) when it is set.
   */
  dryRun?: boolean;
}

/**
 * A reconciler: makes the world match the object named by `request`.
 *
 * Contract: return (or resolve) {@link Action.done} when done; {@link Action.requeueAfter} for
 * a timed re-run; throw (any value) to retry with per-key exponential backoff (5 ms doubling
 * to 1000 s, reset on success; a thrown 429 `TooManyRequestsError`, also inside `cause` or an
 * `AggregateError`, waits at least its Retry-After). Throw a terminal error for what retrying cannot fix: a
 * `terminal(err)`, or the Builder's `BuilderValidationErrors` / `BuilderValidationError`, which
 * are terminal by default (a bad spec does not fix itself). A terminal error is logged, sets
 * `Ready=False` with reason `InvalidSpec` (validation) or `ReconcileFailed` and the message on
 * the primary's status (when the controller has a `statusClient`), emits one Warning event
 * (when it has a `recorder`), and the key is not run again until the primary object changes
 * (a new resourceVersion: a spec edit, a label, another writer's status) — events of owned or
 * watched objects and `enqueue()` do not wake it. Set `Ready` yourself once reconciling
 * succeeds: the controller does not clear the condition. To retry on another object's change,
 * throw a plain error instead. A reconcile is never run twice at once for the same key;
 * changes that arrive while it runs cause exactly one more run afterwards. It must be
 * idempotent: it may run at any time, for any reason.
 */
export type Reconciler = (request: Request, context: ReconcileContext) => Promise<Action | void> | Action | void;

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function keyOf(request: Request): string {
  if (typeof request !== "object" || request === null || typeof request.name !== "string") throw argumentError("keyOf(request)", "request", "a Request ({ namespace, name })", request, "Use requestOf(key) to go from a key to a Request");
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

/** The Request for a key. */
export function requestOf(key: string): Request {
  const i = key.indexOf("/");
  return i < 0 ? { namespace: "", name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
