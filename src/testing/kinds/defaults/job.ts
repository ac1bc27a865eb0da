/**
 * Job defaults: batch/v1 `SetDefaults_Job` on decode; on create the job strategy's generated
 * selector (the Job's uid in `batch.kubernetes.io/controller-uid`, unless `manualSelector`)
 * and empty status, and the labels the read-back defaulting copies from the template.
 */
import type { KindDefaults, Obj } from "./types.ts";
import { child, itemsAt, objectAt, orDefault } from "./types.ts";
import { podTemplateDefaults, templateMetadata } from "./pod-spec.ts";

/** The label holding the Job's uid on its pods (the one the generated selector matches). */
export const CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
/** The label holding the Job's name on its pods. */
export const JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

/** Job. */
export const job: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    jobSpecDefaults(spec);
    templateLabelsToJob(obj, spec);
  },
  create(obj) {
    const spec = child(obj, "spec");
    const meta = child(obj, "metadata");
    if (spec.manualSelector !== true) generateSelector(spec, String(meta.name ?? ""), String(meta.uid ?? ""));
    templateMetadata(objectAt(spec, "template"));
    templateLabelsToJob(obj, spec);
    obj.status = {};
  },
};

/** `SetDefaults_Job` without the labels (a CronJob's job template gets none of these). */
function jobSpecDefaults(spec: Obj): void {
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  orDefault(spec, "parallelism", 1);
  orDefault(spec, "backoffLimit", spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? 2147483647 : 6);
  orDefault(spec, "completionMode", "NonIndexed");
  orDefault(spec, "suspend", false);
  const failurePolicy = objectAt(spec, "podFailurePolicy");
  for (const rule of itemsAt(failurePolicy, "rules")) {
    for (const pattern of itemsAt(rule, "onPodConditions")) if (!pattern.status) pattern.status = "True";
  }
  orDefault(spec, "podReplacementPolicy", failurePolicy ? "Failed" : "TerminatingOrFailed");
  orDefault(spec, "manualSelector", false);
  podTemplateDefaults(objectAt(spec, "template"));
}

/** A Job without labels gets its pod template's. */
function templateLabelsToJob(obj: Obj, spec: Obj): void {
  const labels = objectAt(objectAt(objectAt(spec, "template"), "metadata"), "labels");
  if (!labels) return;
  const meta = child(obj, "metadata");
  const own = objectAt(meta, "labels");
  if (!own || Object.keys(own).length === 0) meta.labels = { ...labels };
}

/** The job strategy's `generateSelector`: name and uid labels on the template, the uid in the selector. */
function generateSelector(spec: Obj, name: string, uid: string): void {
  const template = child(spec, "template");
  const labels = child(child(template, "metadata"), "labels");
  for (const key of ["job-name", JOB_NAME_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = name;
  for (const key of ["controller-uid", CONTROLLER_UID_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = uid;
  const matchLabels = child(child(spec, "selector"), "matchLabels");
  if (!Object.hasOwn(matchLabels, CONTROLLER_UID_LABEL)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}
