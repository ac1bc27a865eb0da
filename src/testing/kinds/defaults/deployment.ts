/** Deployment defaults: apps/v1 `SetDefaults_Deployment`; an empty status on create. */
import type { KindDefaults } from "./types.ts";
import { child, objectAt, orDefault, orDefaultString } from "./types.ts";
import { podTemplateDefaults, templateMetadata } from "./pod-spec.ts";

/** Deployment. */
export const deployment: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    orDefault(spec, "replicas", 1);
    const strategy = child(spec, "strategy");
    orDefaultString(strategy, "type", "RollingUpdate");
    if (strategy.type === "RollingUpdate") {
      const rolling = child(strategy, "rollingUpdate");
      orDefault(rolling, "maxUnavailable", "25%");
      orDefault(rolling, "maxSurge", "25%");
    }
    orDefault(spec, "revisionHistoryLimit", 10);
    orDefault(spec, "progressDeadlineSeconds", 600);
    podTemplateDefaults(objectAt(spec, "template"));
  },
  create(obj) {
    templateMetadata(objectAt(objectAt(obj, "spec"), "template"));
    obj.status = {};
  },
};
