/** PodDisruptionBudget validation: `ValidatePodDisruptionBudgetSpec`, in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { validateLabels } from "../../metadata-validation.ts";
import { invalid, notSupported, obj } from "./field.ts";
import { selectorExpressionCauses } from "./selector.ts";
import { intOrPercentCauses, notOver100Causes } from "./workload.ts";

const EVICTION_POLICIES = ["AlwaysAllow", "IfHealthyBudget"];
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** `ValidateLabelSelector` in full (a PDB's `matchLabels` is not checked elsewhere). */
export function fullSelectorCauses(selector: unknown, field: string): StatusCause[] {
  const s = obj(selector);
  if (!s) return [];
  return [...validateLabels(s.matchLabels, `${field}.matchLabels`), ...selectorExpressionCauses(s, field)];
}

/** Every cause of a PodDisruptionBudget's spec. */
export function pdbCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes: StatusCause[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) causes.push(invalid("spec", spec, "minAvailable and maxUnavailable cannot be both set"));
  for (const key of ["minAvailable", "maxUnavailable"]) {
    if (isSet(spec[key])) causes.push(...intOrPercentCauses(spec[key], `spec.${key}`), ...notOver100Causes(spec[key], `spec.${key}`));
  }
  causes.push(...fullSelectorCauses(spec.selector, "spec.selector"));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === "string" && !EVICTION_POLICIES.includes(policy)) causes.push(notSupported("spec.unhealthyPodEvictionPolicy", policy, EVICTION_POLICIES));
  return causes;
}
