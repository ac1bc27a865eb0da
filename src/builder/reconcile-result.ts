/**
 * The outcome of a Builder pass: one entry per object, never just the last result.
 */
import type { KindRef } from "../client/types.ts";

/**
 * What happened to one object in a Builder pass (or, for `plan()`, would happen).
 *
 * @example
 * ```ts
 * const created = result.objects.filter((o) => o.action === "created").length;
 * ```
 */
export type ObjectAction = "created" | "updated" | "unchanged" | "deleted" | "waiting" | "failed";

/**
 * The outcome of a Builder pass for one object.
 *
 * @example
 * ```ts
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
 * (A reconciler's return value, what the controller does next, is a `ReconcileAction`.)
 *
 * @example
 * ```ts
 * const result: ReconcileResult = await builder.reconcile();
 * if (!result.ok) throw new AggregateError(result.errors, "children failed"); // retried with backoff
 * return result.waitingOn ? Result.requeueAfter(5_000) : Result.done();
 * ```
 */
export interface ReconcileResult {
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
}

/** Builds a ReconcileResult from the per-object outcomes. */
export function summarize(
  objects: ObjectResult[],
  extra: { dryRun: boolean; pruneSkipped?: string | undefined; waitingOn?: string | undefined },
): ReconcileResult {
  const errors = objects.filter((o) => o.action === "failed" && o.error).map((o) => o.error!);
  return {
    objects,
    ok: !objects.some((o) => o.action === "failed"),
    changed: objects.some((o) => o.action === "created" || o.action === "updated" || o.action === "deleted"),
    dryRun: extra.dryRun,
    ...(extra.pruneSkipped ? { pruneSkipped: extra.pruneSkipped } : {}),
    ...(extra.waitingOn ? { waitingOn: extra.waitingOn } : {}),
    errors,
  };
}

/** `Kind/namespace/name` for messages. */
export function describeObject(o: { kind?: string; name?: string; namespace?: string | undefined }): string {
  return `${o.kind}/${o.namespace ? `${o.namespace}/` : ""}${o.name}`;
}
