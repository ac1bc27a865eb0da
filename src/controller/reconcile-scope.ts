/**
 * The controller a reconcile runs in, known through every `await` of the run: what a Builder
 * created in the reconciler learns from the controller without being told (the kinds it owns,
 * which it prunes).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { KindRef } from "../kinds/kind.ts";

/**
 * What a reconcile knows of its controller.
 *
 * @example
 * ```ts
 * import { ConfigMap, StatefulSet } from "operator-runtime";
 *
 * const scope: ReconcileScope = { controller: "pinot", owns: [ConfigMap, StatefulSet] };
 * ```
 */
export interface ReconcileScope {
  /** The controller's name. */
  controller: string;
  /** The kinds the controller `.owns` (watches for its primary's children). */
  owns: readonly KindRef[];
  /** The primary's kind (`.for`). */
  primary?: KindRef;
  /** The request being reconciled: the primary's namespace ("" when cluster-scoped) and name. */
  request?: { namespace: string; name: string };
}

/**
 * The kinds a Builder for `owner` prunes because the running reconcile's controller `.owns`
 * them: only when `owner` is the primary this reconcile is about (a Builder for another owner,
 * or work the reconcile started for something else, gets none).
 *
 * @example
 * ```ts
 * const kinds = ownedKindsFor(owner); // [ConfigMap, Deployment] inside the greeting controller's reconcile of it
 * ```
 */
export function ownedKindsFor(owner: { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } }): readonly KindRef[] {
  const scope = scopes.getStore();
  if (!scope) return [];
  const { primary, request } = scope;
  if (primary && (primary.apiVersion !== owner.apiVersion || primary.kind !== owner.kind)) return [];
  if (request && (request.name !== owner.metadata?.name || request.namespace !== (owner.metadata?.namespace ?? ""))) return [];
  return scope.owns;
}

const scopes = new AsyncLocalStorage<ReconcileScope>();

/**
 * Runs `fn` (a reconcile) in `scope`: {@link reconcileScope} answers it anywhere in the run,
 * through every `await` and callback it starts. The Manager's controller builder runs each
 * reconcile so.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 * import type { ReconcileContext, Reconciler, Request } from "operator-runtime";
 *
 * declare const reconcile: Reconciler;
 * declare const request: Request;
 * declare const ctx: ReconcileContext;
 * await runInReconcileScope({ controller: "pinot", owns: [ConfigMap], request }, () => reconcile(request, ctx));
 * ```
 */
export function runInReconcileScope<T>(scope: ReconcileScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/**
 * The scope of the reconcile running now, or undefined outside any (a Builder used in a
 * script, a test, or a controller built without the Manager).
 *
 * @example
 * ```ts
 * const owned = reconcileScope()?.owns ?? [];
 * ```
 */
export function reconcileScope(): ReconcileScope | undefined {
  return scopes.getStore();
}
