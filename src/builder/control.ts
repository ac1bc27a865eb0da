/**
 * Whether a Builder may write a live object: only one its owner controls, or one it was told
 * to adopt. Everything else belongs to someone else and is reported, never written over.
 *
 * An owner controls an object when the object carries the owner's UID in its controller
 * ownerReference — or, for a PersistentVolumeClaim kept under `persistentVolumeClaimRetention:
 * "Retain"` (which has no ownerReference, so that garbage collection cannot delete it), when it
 * carries the managed-by label and the {@link RETAINED_BY_ANNOTATION} naming the owner's UID.
 */
import type { KubeObject } from "../client/types.ts";
import type { ModelObject } from "../kinds/model-object.ts";
import { NotOwnedError } from "../errors.ts";
import { isControlledBy } from "../controller/controller-ref.ts";
import { isRetainedBy, RETAINED_BY_ANNOTATION } from "../cache/retained.ts";

export { RETAINED_BY_ANNOTATION };

/** Who controls a live object, from its owner's point of view. */
export type Control = "owner" | "nobody" | "another";

/** Whether `owner` controls `live` (see the module doc), nobody does, or another owner does. */
export function controlOf(live: ModelObject, kind: string, owner: ModelObject, managedBy: { key: string; value: string }): Control {
  if (isControlledBy(live, owner)) return "owner";
  if (kind === "PersistentVolumeClaim" && isRetainedBy(live, owner, managedBy)) return "owner";
  return (live.metadata?.ownerReferences ?? []).some((r) => r.controller === true) ? "another" : "nobody";
}

/**
 * The error for a live object the owner does not control: whose it is and what to do. An
 * object another owner controls can only be renamed or released; one with no controller can be
 * adopted with `{ adopt: true }`.
 */
export function notOwned(live: KubeObject, name: string, method: string, owner: KubeObject): NotOwnedError {
  const o = owner.metadata ?? {};
  const ownerName = `${owner.kind} ${o.namespace ? `${o.namespace}/` : ""}${o.name}`;
  const ref = (live.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (ref) {
    return new NotOwnedError(name, { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid },
      `${name} is controlled by ${ref.kind} ${ref.name} (uid ${ref.uid}), not by this ${ownerName}; it is left as it is. Fix: rename the object, or remove it from the other controller first (objects controlled by another owner are never adopted)`);
  }
  const retained = live.metadata?.annotations?.[RETAINED_BY_ANNOTATION];
  const whose = retained ? `it has no controller (it was kept from an owner with uid ${retained}, since deleted or re-created)` : "it has no controller (created by hand or by another tool)";
  return new NotOwnedError(name, undefined,
    `${name} already exists and is not controlled by this ${ownerName}: ${whose}; it is left as it is. Fix: rename the object, delete it, or adopt it as it is with .${method}(obj, { adopt: true }) (or new Builder({ …, adopt: true }) for every object)`);
}
