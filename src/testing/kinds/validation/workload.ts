/**
 * Pieces the apps/v1 workload validators share: the selector block of `ValidateDeploymentSpec`
 * (and its ReplicaSet/StatefulSet twins), `ValidatePodTemplateSpecForReplicaSet`, and
 * int-or-percent rolling-update values.
 */
import type { StatusCause } from "../../status.ts";
import { invalid, nonNegative, notSupported, obj, percentErrors, required } from "./field.ts";
import type { Obj } from "./field.ts";
import { podTemplateSpecCauses, templateRestartPolicy } from "./pod-spec.ts";
import { asSelector, isEmptySelector, selectorExpressionCauses, selectorMatches } from "./selector.ts";
import type { Selector } from "./selector.ts";

/**
 * The selector checks at `spec.selector`: required, valid requirements, not empty (`what` names
 * the kind in kube's message), plus the selector they build — or a cause when it can't be built
 * (`invalidDetail` is kube's detail for that, which differs per kind).
 */
export function selectorBlock(spec: Obj, what: string, invalidDetail: string): { causes: StatusCause[]; selector: Selector } {
  const causes: StatusCause[] = [];
  const sel = obj(spec.selector);
  if (!sel) causes.push(required("spec.selector"));
  else {
    causes.push(...selectorExpressionCauses(sel, "spec.selector"));
    if (isEmptySelector(sel)) causes.push(invalid("spec.selector", sel, `empty selector is invalid for ${what}`));
  }
  const selector = asSelector(spec.selector);
  if (selector.kind === "error") causes.push(invalid("spec.selector", spec.selector, invalidDetail));
  return { causes, selector };
}

/** `true` unless the selector is empty (`Everything`); `Nothing` (nil) counts as non-empty. */
function selectorNonEmpty(selector: Selector): boolean {
  return selector.kind !== "everything";
}

/** The `selector does not match template labels` check shared by all workloads. */
export function templateLabelsCauses(template: unknown, selector: Selector): StatusCause[] {
  if (!selectorNonEmpty(selector)) return [];
  const labels = obj(obj(obj(template)?.metadata)?.labels);
  return selectorMatches(selector, labels) ? [] : [invalid("spec.template.metadata.labels", labels ?? null, "`selector` does not match template `labels`")];
}

/**
 * `ValidatePodTemplateSpecForReplicaSet` (Deployments and ReplicaSets; DaemonSets use the same
 * checks in another order): labels match, the pod template, `restartPolicy: Always`, no
 * `activeDeadlineSeconds`. `owner` is the kind in the deadline message.
 */
export function replicaSetTemplateCauses(template: unknown, selector: Selector, owner: string): StatusCause[] {
  return [...templateLabelsCauses(template, selector), ...podTemplateSpecCauses(template, "spec.template"), ...alwaysRestartCauses(template, owner)];
}

/** `restartPolicy` must be `Always` and `activeDeadlineSeconds` unset, in a controller's template. */
export function alwaysRestartCauses(template: unknown, owner: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const policy = templateRestartPolicy(template);
  if (policy !== "Always") causes.push(notSupported("spec.template.spec.restartPolicy", policy, ["Always"]));
  const spec = obj(obj(template)?.spec);
  if (spec?.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    causes.push({ reason: "FieldValueForbidden", message: `Forbidden: activeDeadlineSeconds in ${owner} is not Supported`, field: "spec.template.spec.activeDeadlineSeconds" });
  }
  return causes;
}

/** `ValidatePositiveIntOrPercent`. */
export function intOrPercentCauses(value: unknown, field: string): StatusCause[] {
  if (typeof value === "string") return percentErrors(value).map((m) => invalid(field, value, m));
  return nonNegative(value, field);
}

/** The integer or percentage an int-or-string holds (0 when it is neither). */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && percentErrors(value).length === 0) return Number(value.slice(0, -1));
  return 0;
}

/** `IsNotMoreThan100Percent`. */
export function notOver100Causes(value: unknown, field: string): StatusCause[] {
  return typeof value === "string" && percentErrors(value).length === 0 && Number(value.slice(0, -1)) > 100
    ? [invalid(field, value, "must not be greater than 100%")]
    : [];
}
