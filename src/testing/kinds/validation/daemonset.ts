/** DaemonSet validation: `ValidateDaemonSetSpec`, in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { invalid, nonNegative, notSupported, obj, required, str } from "./field.ts";
import { podTemplateSpecCauses } from "./pod-spec.ts";
import { asSelector, isEmptySelector, selectorExpressionCauses } from "./selector.ts";
import { alwaysRestartCauses, intOrPercentCauses, intOrPercentValue, notOver100Causes, templateLabelsCauses } from "./workload.ts";

function updateStrategyCauses(strategy: unknown): StatusCause[] {
  const s = obj(strategy);
  if (!s) return [];
  const type = str(s.type) || "RollingUpdate";
  if (type === "OnDelete") return [];
  if (type !== "RollingUpdate") return [notSupported("spec.updateStrategy", s, ["RollingUpdate", "OnDelete"])];
  const ru = obj(s.rollingUpdate);
  if (!ru) return [];
  const at = "spec.updateStrategy.rollingUpdate";
  const maxUnavailable = ru.maxUnavailable ?? 1;
  const maxSurge = ru.maxSurge ?? 0;
  const causes = [
    ...intOrPercentCauses(maxUnavailable, `${at}.maxUnavailable`),
    ...intOrPercentCauses(maxSurge, `${at}.maxSurge`),
    ...notOver100Causes(maxUnavailable, `${at}.maxUnavailable`),
    ...notOver100Causes(maxSurge, `${at}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) causes.push(invalid(`${at}.maxSurge`, maxSurge, "may not be set when maxUnavailable is non-zero"));
  else if (!hasUnavailable && !hasSurge) causes.push(required(`${at}.maxUnavailable`, "cannot be 0 when maxSurge is 0"));
  return causes;
}

/** Every cause of a DaemonSet's spec. */
export function daemonSetCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes = selectorExpressionCauses(spec.selector, "spec.selector");
  const selector = asSelector(spec.selector);
  if (selector.kind !== "error") causes.push(...templateLabelsCauses(spec.template, selector));
  const sel = obj(spec.selector);
  if (sel && isEmptySelector(sel)) causes.push(invalid("spec.selector", sel, "empty selector is invalid for daemonset"));
  causes.push(...podTemplateSpecCauses(spec.template, "spec.template"));
  causes.push(...alwaysRestartCauses(spec.template, "DaemonSet"));
  causes.push(...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"), ...nonNegative(spec.templateGeneration, "spec.templateGeneration"));
  causes.push(...updateStrategyCauses(spec.updateStrategy));
  causes.push(...nonNegative(spec.revisionHistoryLimit, "spec.revisionHistoryLimit"));
  return causes;
}
