/**
 * The outcome of a Builder pass: one entry per object, never just the last result.
 */
import type { KindRef } from "../client/types.ts";
import { InvalidError } from "../errors.ts";
import { isTerminalError, markTerminal } from "./terminal-errors.ts";

/**
 * What happened to one object in a Builder pass (or, for `plan()`, would happen).
 *
 * @example
 * ```ts
 * declare const result: BuilderResult;
 * const created = result.objects.filter((o) => o.action === "created").length;
 * ```
 */
export type ObjectAction = "created" | "updated" | "unchanged" | "deleted" | "waiting" | "failed";

/**
 * The outcome of a Builder pass for one object.
 *
 * @example
 * ```ts
 * declare const result: BuilderResult;
 * for (const o of result.objects) console.log(o.action, `${o.kind}/${o.name}`, o.reason ?? o.error?.message ?? "");
 * ```
 */
export interface ObjectResult extends KindRef {
  /** The object's name; `*` for a prune list of this kind that failed (nothing of it pruned). */
  name: string;
  namespace?: string;
  action: ObjectAction;
  /** Why: what changed, what it waits on, or why it was deleted. */
  reason?: string;
  /** The error, when `action` is `failed`. */
  error?: Error;
}

/**
 * The outcome of a Builder's `reconcile()` or `plan()`: one {@link ObjectResult} per object.
 * (A reconciler's return value, what the controller does next, is an `Action`.)
 *
 * @example
 * ```ts
 * import { Action } from "operator-runtime";
 * import type { Builder } from "operator-runtime";
 *
 * async function reconcileChildren(builder: Builder): Promise<Action> {
 *   const result: BuilderResult = await builder.reconcile();
 *   // Retried with backoff; terminal (not retried until the owner changes) when result.terminal.
 *   if (!result.ok) throw new AggregateError(result.errors, "children failed");
 *   return result.waitingOn ? Action.requeueAfter(5_000) : Action.done();
 * }
 * ```
 */
export interface BuilderResult {
  /** Every object of the pass, in reconcile order, then the pruned ones. */
  readonly objects: readonly ObjectResult[];
  /** True when no object failed. */
  readonly ok: boolean;
  /** True when anything was (or, for a plan, would be) created, updated or deleted. */
  readonly changed: boolean;
  /** True for `plan()`: nothing was written. */
  readonly dryRun: boolean;
  /** Why pruning did not run, when it did not. */
  readonly pruneSkipped?: string;
  /** The rollout gate's blocker, e.g. `StatefulSet/broker: 1/3 replicas ready`. */
  readonly waitingOn?: string;
  /** The errors of failed objects. */
  readonly errors: readonly Error[];
  /**
   * True when objects failed and every failure is terminal: by default, the API server refused
   * each failed object as invalid (422 Invalid, see `BuilderOptions.retryInvalid`), which the
   * same request cannot fix. `throw new AggregateError(result.errors)` (or one of the errors) is
   * then a terminal error for a controller: recorded once on the owner and not retried until the
   * owner changes. False when anything else failed, or nothing did.
   */
  readonly terminal: boolean;
}

/** Builds a BuilderResult from the per-object outcomes. */
export function summarize(
  objects: ObjectResult[],
  extra: { dryRun: boolean; pruneSkipped?: string | undefined; waitingOn?: string | undefined },
): BuilderResult {
  const failed = objects.filter((o) => o.action === "failed");
  const errors = failed.filter((o) => o.error).map((o) => o.error!);
  return {
    objects,
    ok: failed.length === 0,
    changed: objects.some((o) => o.action === "created" || o.action === "updated" || o.action === "deleted"),
    dryRun: extra.dryRun,
    ...(extra.pruneSkipped ? { pruneSkipped: extra.pruneSkipped } : {}),
    ...(extra.waitingOn ? { waitingOn: extra.waitingOn } : {}),
    errors,
    terminal: allTerminal(failed),
  };
}

/**
 * The pass's result with each child the API server refused as invalid (a 422 `InvalidError`)
 * marked terminal (it stays an `InvalidError`; see `isTerminalError`) and `terminal` set
 * accordingly; with `retryInvalid` the result as it is, so those failures are retried like any
 * other.
 */
export function withInvalidTerminal(result: BuilderResult, retryInvalid: boolean): BuilderResult {
  if (retryInvalid) return result;
  let marked = false;
  for (const o of result.objects) {
    if (o.action === "failed" && o.error instanceof InvalidError) {
      markTerminal(o.error);
      marked = true;
    }
  }
  return marked ? { ...result, terminal: allTerminal(result.objects.filter((o) => o.action === "failed")) } : result;
}

/** Whether there are failures and each one's error is terminal. */
function allTerminal(failed: readonly ObjectResult[]): boolean {
  return failed.length > 0 && failed.every((o) => o.error !== undefined && isTerminalError(o.error));
}

/** `Kind/namespace/name` for messages. */
export function describeObject(o: { kind?: string; name?: string; namespace?: string | undefined }): string {
  return `${o.kind}/${o.namespace ? `${o.namespace}/` : ""}${o.name}`;
}
