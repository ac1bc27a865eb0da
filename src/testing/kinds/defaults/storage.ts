/**
 * Defaults of cluster-level classes: storage/v1 `SetDefaults_StorageClass`, networking/v1
 * `SetDefaults_IngressClass` and scheduling/v1 `SetDefaults_PriorityClass`.
 */
import type { KindDefaults } from "./types.ts";
import { objectAt, orDefault, orDefaultString } from "./types.ts";

/** StorageClass. */
export const storageClass: KindDefaults = {
  decode(obj) {
    orDefault(obj, "reclaimPolicy", "Delete");
    orDefault(obj, "volumeBindingMode", "Immediate");
  },
};

/** IngressClass: a parameters reference is cluster scoped unless it says otherwise. */
export const ingressClass: KindDefaults = {
  decode(obj) {
    const parameters = objectAt(objectAt(obj, "spec"), "parameters");
    if (parameters) orDefault(parameters, "scope", "Cluster");
  },
};

/** PriorityClass. */
export const priorityClass: KindDefaults = {
  decode(obj) {
    orDefaultString(obj, "preemptionPolicy", "PreemptLowerPriority");
  },
};
