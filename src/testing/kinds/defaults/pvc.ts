/**
 * PersistentVolumeClaim and PersistentVolume defaults: core/v1 `SetDefaults_PersistentVolumeClaim(Spec)`
 * and `SetDefaults_PersistentVolume` on decode; the StorageObjectInUseProtection admission's
 * finalizer and the strategy's status on create.
 */
import type { KindDefaults, Obj } from "./types.ts";
import { child, orDefaultString } from "./types.ts";
import { wholeSeconds } from "../../views/events.ts";

/** `SetDefaults_PersistentVolumeClaimSpec`. */
export function pvcSpecDefaults(spec: Obj): void {
  orDefaultString(spec, "volumeMode", "Filesystem");
}

/** The finalizer StorageObjectInUseProtection adds to new claims and volumes. */
function protect(obj: Obj, finalizer: string): void {
  const meta = child(obj, "metadata");
  const finalizers: unknown[] = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
}

/** PersistentVolumeClaim. */
export const persistentVolumeClaim: KindDefaults = {
  decode(obj) {
    if (obj.spec && typeof obj.spec === "object") pvcSpecDefaults(obj.spec as Obj);
  },
  create(obj) {
    protect(obj, "kubernetes.io/pvc-protection");
    obj.status = { phase: "Pending" };
  },
};

/** PersistentVolume. */
export const persistentVolume: KindDefaults = {
  decode(obj) {
    const spec = child(obj, "spec");
    orDefaultString(spec, "persistentVolumeReclaimPolicy", "Retain");
    orDefaultString(spec, "volumeMode", "Filesystem");
  },
  create(obj, ctx) {
    protect(obj, "kubernetes.io/pv-protection");
    obj.status = { phase: "Pending", lastPhaseTransitionTime: wholeSeconds(ctx.now) };
  },
};
