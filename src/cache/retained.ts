/**
 * Retained PersistentVolumeClaims: data volumes a Builder manages without an ownerReference, so
 * that deleting the owner never lets garbage collection delete the data.
 *
 * Such a claim carries the managed-by label and the {@link RETAINED_BY_ANNOTATION} naming its
 * owner's UID; prune (when PVC pruning is opted in) and the Builder's ownership check recognise
 * it by both. After the owner is deleted the claim stays; a re-created owner (a new UID) adopts
 * it explicitly with `{ adopt: true }`.
 */
import type { ModelObject } from "../kinds/model-object.ts";

/** The annotation naming the UID of the owner of a retained PersistentVolumeClaim. */
export const RETAINED_BY_ANNOTATION = "operator-runtime.io/retained-by-owner-uid";

/**
 * Whether `obj` (a PersistentVolumeClaim: the caller checks the kind) is retained for `owner`:
 * the managed-by label and {@link RETAINED_BY_ANNOTATION} carrying the owner's UID.
 */
export function isRetainedBy(obj: ModelObject, owner: ModelObject, managedBy: { key: string; value: string }): boolean {
  const uid = owner.metadata?.uid;
  if (!uid) return false;
  const m = obj.metadata ?? {};
  return m.labels?.[managedBy.key] === managedBy.value && m.annotations?.[RETAINED_BY_ANNOTATION] === uid;
}
