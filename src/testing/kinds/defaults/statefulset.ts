/**
 * StatefulSet defaults: apps/v1 `SetDefaults_StatefulSet` (with the claim templates' own
 * PersistentVolumeClaim defaults); on create the zero status the v1 encoding shows.
 */
import type { KindDefaults, Obj } from "./types.ts";
import { child, itemsAt, objectAt, orDefault, orDefaultString } from "./types.ts";
import { podTemplateDefaults, templateMetadata } from "./pod-spec.ts";
import { pvcSpecDefaults } from "./pvc.ts";

/** StatefulSet. */
export const statefulSet: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    orDefaultString(spec, "podManagementPolicy", "OrderedReady");
    const strategy = child(spec, "updateStrategy");
    if (!strategy.type) {
      strategy.type = "RollingUpdate";
      orDefault(strategy, "rollingUpdate", {});
    }
    const rolling = objectAt(strategy, "rollingUpdate");
    if (strategy.type === "RollingUpdate" && rolling) orDefault(rolling, "partition", 0);
    const retention = child(spec, "persistentVolumeClaimRetentionPolicy");
    orDefaultString(retention, "whenDeleted", "Retain");
    orDefaultString(retention, "whenScaled", "Retain");
    orDefault(spec, "replicas", 1);
    orDefault(spec, "revisionHistoryLimit", 10);
    podTemplateDefaults(objectAt(spec, "template"));
    for (const claim of itemsAt(spec, "volumeClaimTemplates")) claimTemplateDefaults(claim);
  },
  create(obj) {
    templateMetadata(objectAt(objectAt(obj, "spec"), "template"));
    obj.status = { replicas: 0, availableReplicas: 0 };
  },
};

/** A claim template is a whole PersistentVolumeClaim: its type meta, spec and status defaults. */
function claimTemplateDefaults(claim: Obj): void {
  orDefaultString(claim, "apiVersion", "v1");
  orDefaultString(claim, "kind", "PersistentVolumeClaim");
  pvcSpecDefaults(child(claim, "spec"));
  orDefaultString(child(claim, "status"), "phase", "Pending");
}
