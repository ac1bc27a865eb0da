/**
 * What a reconcile tells its controller while it runs, through every `await`: the Builder's
 * result for its owner (the dashboard's owners tree), and whether the run is a plan (the
 * dashboard's dry run), in which a Builder only plans.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { KubeObject } from "../client/types.ts";
import type { BuilderResult } from "./results.ts";

/**
 * The hooks of a running reconcile (see {@link runWithHooks}).
 *
 * @example
 * ```ts
 * const hooks: RunHooks = { plan: false, builderResult: (owner, result) => console.log(owner.metadata?.name, result.changed) };
 * ```
 */
export interface RunHooks {
  /**
   * The run is a plan: a Builder's `reconcile()` answers its `plan()` (nothing written, no
   * in-process state changed) and sends each create or update as a server dry run, so the plan
   * holds the exact change; every other ResourceClient write goes out as a dry run too.
   */
  plan: boolean;
  /** Told of each Builder pass of the run, with the owner it was for. */
  builderResult?(owner: KubeObject, result: BuilderResult): void;
}

const hooks = new AsyncLocalStorage<RunHooks>();

/**
 * Runs `fn` (a reconcile) with `runHooks` answering {@link currentRunHooks} in it.
 *
 * @example
 * ```ts
 * import type { ReconcileContext, Reconciler, Request } from "operator-runtime";
 *
 * declare const reconcile: Reconciler;
 * declare const request: Request;
 * declare const ctx: ReconcileContext;
 * await runWithHooks({ plan: true }, () => reconcile(request, ctx));
 * ```
 */
export function runWithHooks<T>(runHooks: RunHooks, fn: () => T): T {
  return hooks.run(runHooks, fn);
}

/**
 * The hooks of the reconcile running now, or undefined (outside a reconcile, or one nobody observes).
 *
 * @example
 * ```ts
 * const planning = currentRunHooks()?.plan === true;
 * ```
 */
export function currentRunHooks(): RunHooks | undefined {
  return hooks.getStore();
}
