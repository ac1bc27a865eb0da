/** CronJob defaults: batch/v1 `SetDefaults_CronJob` and its job template's pod defaults; an empty status on create. */
import type { KindDefaults } from "./types.ts";
import { objectAt, orDefault, orDefaultString } from "./types.ts";
import { podTemplateDefaults, templateMetadata } from "./pod-spec.ts";

/** CronJob. */
export const cronJob: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    orDefaultString(spec, "concurrencyPolicy", "Allow");
    orDefault(spec, "suspend", false);
    orDefault(spec, "successfulJobsHistoryLimit", 3);
    orDefault(spec, "failedJobsHistoryLimit", 1);
    podTemplateDefaults(objectAt(objectAt(objectAt(spec, "jobTemplate"), "spec"), "template"));
  },
  create(obj) {
    const jobTemplate = objectAt(objectAt(obj, "spec"), "jobTemplate");
    templateMetadata(jobTemplate);
    templateMetadata(objectAt(objectAt(jobTemplate, "spec"), "template"));
    obj.status = {};
  },
};
