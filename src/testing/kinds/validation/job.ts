/**
 * Job validation: `validateJobSpec` (shared with CronJob job templates) and, for a Job with a
 * manual selector, the selector checks of `ValidateJobSpec`. A Job's generated selector
 * (`controller-uid`) is not modelled, so without `manualSelector` the selector is not checked.
 */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { invalid, nonNegative, notSupported, num, obj, required } from "./field.ts";
import type { Obj } from "./field.ts";
import { podTemplateSpecCauses, templateRestartPolicy } from "./pod-spec.ts";
import { asSelector, selectorExpressionCauses, selectorMatches } from "./selector.ts";

const COMPLETION_MODES = ["Indexed", "NonIndexed"];
const REPLACEMENT_POLICIES = ["Failed", "TerminatingOrFailed"];

/** Causes of a job spec at `field` (`spec`, or `spec.jobTemplate.spec` of a CronJob). */
export function jobSpecCauses(spec: Obj, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const key of ["parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"]) {
    causes.push(...nonNegative(spec[key], `${field}.${key}`));
  }
  const mode = spec.completionMode;
  if (typeof mode === "string" && mode) {
    if (!COMPLETION_MODES.includes(mode)) causes.push(notSupported(`${field}.completionMode`, mode, ["NonIndexed", "Indexed"]));
    else if (mode === "Indexed" && num(spec.completions) === undefined) causes.push(required(`${field}.completions`, "when completion mode is Indexed"));
  }
  const replacement = spec.podReplacementPolicy;
  if (typeof replacement === "string" && replacement && !REPLACEMENT_POLICIES.includes(replacement)) {
    causes.push(notSupported(`${field}.podReplacementPolicy`, replacement, REPLACEMENT_POLICIES));
  }
  causes.push(...podTemplateSpecCauses(spec.template, `${field}.template`));
  const policy = templateRestartPolicy(spec.template);
  if (policy !== "OnFailure" && policy !== "Never") causes.push(notSupported(`${field}.template.spec.restartPolicy`, policy, ["OnFailure", "Never"]));
  return causes;
}

/** Every cause of a Job's spec. */
export function jobCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes = jobSpecCauses(spec, "spec");
  if (spec.manualSelector === true) {
    if (!obj(spec.selector)) causes.push(required("spec.selector"));
    else causes.push(...selectorExpressionCauses(spec.selector, "spec.selector"));
    const selector = asSelector(spec.selector);
    const labels = obj(obj(obj(spec.template)?.metadata)?.labels);
    if (selector.kind !== "error" && !selectorMatches(selector, labels)) {
      causes.push(invalid("spec.template.metadata.labels", labels ?? null, "`selector` does not match template `labels`"));
    }
  }
  return causes;
}

