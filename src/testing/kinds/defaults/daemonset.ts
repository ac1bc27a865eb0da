/** DaemonSet defaults: apps/v1 `SetDefaults_DaemonSet`; on create the zero status the v1 encoding shows. */
import type { KindDefaults } from "./types.ts";
import { child, objectAt, orDefault, orDefaultString } from "./types.ts";
import { podTemplateDefaults, templateMetadata } from "./pod-spec.ts";

/** DaemonSet. */
export const daemonSet: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    const strategy = child(spec, "updateStrategy");
    orDefaultString(strategy, "type", "RollingUpdate");
    if (strategy.type === "RollingUpdate") {
      const rolling = child(strategy, "rollingUpdate");
      orDefault(rolling, "maxUnavailable", 1);
      orDefault(rolling, "maxSurge", 0);
    }
    orDefault(spec, "revisionHistoryLimit", 10);
    podTemplateDefaults(objectAt(spec, "template"));
  },
  create(obj) {
    templateMetadata(objectAt(objectAt(obj, "spec"), "template"));
    obj.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
  },
};
