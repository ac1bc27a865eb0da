/**
 * Safe pruning: delete what the owner controls but this reconcile no longer desires.
 *
 * Guarantees: an object is deleted only if ALL hold — it carries the owner's UID as its
 * controller ownerReference (a retained PersistentVolumeClaim: the retained-by annotation,
 * `RETAINED_BY_ANNOTATION`), it carries the Builder's managed-by label and its component label (or,
 * for the owner's unnamed Builder, no component label), it is of a kind the
 * Builder manages, it is not in the desired inventory, and the caller ran prune only after
 * every object of the pass succeeded. PersistentVolumeClaims are skipped unless opted in.
 * Deletes carry uid and resourceVersion preconditions (a changed or re-created object is
 * never deleted by a stale decision) and Background propagation.
 *
 * Errors: `prune` never rejects for an API error. A failed delete is a `failed` result for that
 * object; a failed list is one `failed` result named `*` for that kind (none of its objects is
 * pruned), and the other kinds are still pruned.
 *
 * How the owner's objects are found (never by listing every managed object of the namespace):
 * a reader with an owner index (the informer `Cache`) answers from it, at no API cost and
 * without looking at other owners' objects; any other reader (the API) lists each managed kind
 * by the owner-UID label (`OWNER_UID_LABEL`), which the API server filters on, so the answer holds only this
 * owner's objects (every object a Builder writes carries it). The two readers can differ
 * on a child whose owner-UID label was edited by hand: the index finds it by its controller
 * reference, the API list by the label it now carries (it is then left, never wrongly deleted).
 *
 * RBAC: list and delete on every managed kind.
 */
import type { Kind, KubeObject, ObjectReader } from "../client/types.ts";
import type { ObjectResult } from "../controller/results.ts";
import type { DesiredInventory } from "./desired-inventory.ts";
import { isNotFound } from "../errors.ts";
import { isRetainedBy } from "../cache/retained.ts";
import { OwnedObjects } from "./owned-objects.ts";
import { checkObject } from "../util/check-args.ts";
import { isControlledBy } from "../controller/controller-ref.ts";

/** The deleting side of a client. */
export interface ObjectDeleter {
  delete(
    ref: { apiVersion: string; kind: string; name: string; namespace?: string },
    options?: { propagationPolicy?: "Background" | "Foreground" | "Orphan"; preconditions?: { uid?: string; resourceVersion?: string } },
  ): Promise<unknown>;
}

/** Options of {@link prune}. */
export interface PruneOptions {
  reader: ObjectReader;
  deleter: ObjectDeleter;
  owner: KubeObject;
  /** The managed-by label every object of the Builder carries. */
  managedBy: { key: string; value: string };
  /**
   * The Builder's component label (`{ key, value }`): only objects carrying it are pruned; with
   * `value` undefined, only objects without the label (those of the owner's unnamed Builder).
   */
  component: { key: string; value: string | undefined };
  /** Kinds the Builder manages. */
  kinds: readonly Kind[];
  /** Namespace to prune in (undefined: cluster-scoped kinds). */
  namespace: string | undefined;
  store: DesiredInventory;
  /** Prune PersistentVolumeClaims too (data!). Default false. */
  persistentVolumeClaims: boolean;
  /** Decide only; delete nothing. */
  dryRun: boolean;
  /** Called after each successful delete (events). */
  onDeleted?: (obj: KubeObject) => Promise<void> | void;
}

/** Deletes the owner's objects that are not desired; returns one result per candidate. */
export async function prune(options: PruneOptions): Promise<ObjectResult[]> {
  checkObject("prune(options)", "options", options, "prune options ({ reader, deleter, owner, kinds, … })");
  return pruneOwned(options, new OwnedObjects({ reader: options.reader, owner: options.owner, namespace: options.namespace }));
}

/**
 * {@link prune} over the owner's objects as `owned` finds them (the Builder shares its pass's
 * reads). `forgetUnserved(kind)` is asked when listing a kind answers 404 (the kind is not served,
 * e.g. its CRD was removed): true skips the kind without a failure (nothing of it can be left).
 */
export async function pruneOwned(options: PruneOptions, owned: OwnedObjects, forgetUnserved?: (kind: Kind) => boolean): Promise<ObjectResult[]> {
  const ownerUid = options.owner.metadata?.uid;
  if (!ownerUid) return [];
  const { key, value } = options.managedBy;
  const component = options.component;
  const results: ObjectResult[] = [];
  for (const kind of options.kinds) {
    if (kind.kind === "PersistentVolumeClaim" && kind.apiVersion === "v1" && !options.persistentVolumeClaims) continue;
    let live: KubeObject[];
    try {
      live = await owned.candidates(kind);
    } catch (err) {
      if (isNotFound(err) && forgetUnserved?.(kind)) continue;
      results.push({
        apiVersion: kind.apiVersion, kind: kind.kind, name: "*", ...(options.namespace ? { namespace: options.namespace } : {}),
        action: "failed", reason: `listing ${kind.kind} objects to prune failed: none of them was pruned this pass`, error: err as Error,
      });
      continue;
    }
    for (const obj of live) {
      const m = obj.metadata ?? {};
      if (m.labels?.[key] !== value) continue;
      if (m.labels?.[component.key] !== component.value) continue;
      const pvc = kind.kind === "PersistentVolumeClaim" && kind.apiVersion === "v1";
      if (!isControlledBy(obj, options.owner) && !(pvc && isRetainedBy(obj, options.owner, options.managedBy))) continue;
      if (options.store.has({ ...obj, apiVersion: obj.apiVersion ?? kind.apiVersion, kind: obj.kind ?? kind.kind })) continue;
      if (m.deletionTimestamp) continue;
      const ref = { apiVersion: kind.apiVersion, kind: kind.kind, name: m.name!, ...(m.namespace ? { namespace: m.namespace } : {}) };
      const base = { ...ref, reason: "no longer desired by its owner" };
      if (options.dryRun) {
        results.push({ ...base, action: "deleted" });
        continue;
      }
      try {
        await options.deleter.delete(ref, {
          propagationPolicy: "Background",
          preconditions: { ...(m.uid ? { uid: m.uid } : {}), ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}) },
        });
        results.push({ ...base, action: "deleted" });
        await options.onDeleted?.(obj);
      } catch (err) {
        if (isNotFound(err)) continue;
        results.push({ ...base, action: "failed", error: err as Error });
      }
    }
  }
  return results;
}
