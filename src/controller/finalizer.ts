/**
 * The finalizer helper: guarantees cleanup runs before an object goes away.
 */
import type { KubeObject } from "../client/types.ts";
import { isNotFound } from "../errors.ts";
import type { Action } from "./reconciler.ts";
import { argumentError, checkKubeObject, checkObject } from "../util/check-args.ts";

/** The reading and patching side of a client (a ResourceClient fits). */
export interface FinalizerClient {
  get<T extends KubeObject = KubeObject>(ref: { apiVersion: string; kind: string; name: string; namespace?: string }): Promise<T>;
  patch<T extends KubeObject = KubeObject>(
    ref: { apiVersion: string; kind: string; name: string; namespace?: string },
    patch: unknown,
    type: "json",
  ): Promise<T>;
}

/** What to do for a live object and for a deleting one. */
export interface FinalizerHandlers<T extends KubeObject> {
  /** The normal reconcile; runs only once the finalizer is stored on the object. */
  apply(obj: T): Promise<Action | void> | Action | void;
  /** Cleanup before deletion; throw to keep the finalizer and retry with backoff. */
  cleanup(obj: T): Promise<Action | void> | Action | void;
}


/**
 * Runs `apply` or `cleanup` for `obj` around the finalizer `name`.
 *
 * Expected flow: a live object without the finalizer gets it added first, with a JSON patch
 * whose `test` op checks the finalizer list is still what we read (a concurrent writer makes
 * the patch fail with 422 and the reconcile retries, so no one's finalizer is lost), then
 * `apply` runs. A deleting object with the finalizer runs `cleanup`; only when cleanup
 * succeeds is the finalizer removed (again with a `test` op on its index). A deleting object
 * without our finalizer is left alone.
 *
 * Guarantees: `apply` never runs on an object that lacks the finalizer in storage; the
 * finalizer is removed only after `cleanup` succeeded; before cleanup the object is re-read
 * from the API server (one GET per deletion), so a stale cache never runs cleanup twice. It
 * runs again only if removing the finalizer fails, so cleanup must still be idempotent.
 *
 * RBAC: patch on the object's kind.
 *
 * @example
 * ```ts
 * import { Action } from "operator-runtime";
 * import type { Reconciler } from "operator-runtime";
 *
 * const reconcilePerson: Reconciler = async (req) => {
 *   const person = mgr.cache.informer(Person).get(req.name, req.namespace);
 *   if (!person) return Action.done();
 *   return finalizer(client, person, "example.com/greetings", {
 *     apply: async (p) => Action.done(),
 *     cleanup: async (p) => { log.info("unlinking the greetings of", { person: p.metadata?.name }); },
 *   });
 * };
 * ```
 */
export async function finalizer<T extends KubeObject>(client: FinalizerClient, obj: T, name: string, handlers: FinalizerHandlers<T>): Promise<Action | void> {
  const where = "finalizer(client, obj, name, handlers)";
  checkObject(where, "client", client, "a client (a ResourceClient, or { get, patch })");
  checkKubeObject(where, "obj", obj);
  if (typeof name !== "string" || name === "") throw argumentError(where, "name", 'a finalizer name such as "example.com/cleanup"', name);
  checkObject(where, "handlers", handlers, "handlers ({ apply, cleanup })");
  const m = obj.metadata ?? {};
  const ref = { apiVersion: obj.apiVersion!, kind: obj.kind!, name: m.name!, ...(m.namespace ? { namespace: m.namespace } : {}) };
  const current = m.finalizers;
  const index = current?.indexOf(name) ?? -1;
  if (m.deletionTimestamp) {
    if (index < 0) return;
    // The cache may still show a finalizer a previous run already removed (its watch event can
    // trail another watch's event): confirm with the API server before cleaning up again.
    let fresh: T;
    try {
      fresh = await client.get<T>(ref);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const freshIndex = fresh.metadata?.finalizers?.indexOf(name) ?? -1;
    if (freshIndex < 0) return;
    const result = await handlers.cleanup(fresh);
    try {
      await client.patch(ref, [
        { op: "test", path: `/metadata/finalizers/${freshIndex}`, value: name },
        { op: "remove", path: `/metadata/finalizers/${freshIndex}` },
      ], "json");
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return result;
  }
  if (index < 0) {
    const ops = current === undefined || current.length === 0
      ? [{ op: "test", path: "/metadata/finalizers", value: current ?? null }, { op: "add", path: "/metadata/finalizers", value: [name] }]
      : [{ op: "test", path: "/metadata/finalizers", value: current }, { op: "add", path: `/metadata/finalizers/-`, value: name }];
    const updated = await client.patch<T>(ref, ops, "json");
    return handlers.apply(updated);
  }
  return handlers.apply(obj);
}

