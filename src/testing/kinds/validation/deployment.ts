/** Deployment validation: `ValidateDeploymentSpec`, in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { forbidden, invalid, nonNegative, notSupported, num, obj } from "./field.ts";
import { intOrPercentCauses, intOrPercentValue, notOver100Causes, replicaSetTemplateCauses, selectorBlock } from "./workload.ts";

function strategyCauses(strategy: unknown): StatusCause[] {
  const s = obj(strategy);
  if (!s) return []; // defaulted to RollingUpdate 25%/25%
  const type = typeof s.type === "string" && s.type ? s.type : "RollingUpdate";
  if (type === "Recreate") {
    return s.rollingUpdate !== undefined && s.rollingUpdate !== null
      ? [forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'")]
      : [];
  }
  if (type !== "RollingUpdate") return [notSupported("spec.strategy", s, ["Recreate", "RollingUpdate"])];
  const ru = obj(s.rollingUpdate);
  if (!ru) return []; // defaulted
  const at = "spec.strategy.rollingUpdate";
  const maxUnavailable = ru.maxUnavailable ?? "25%";
  const maxSurge = ru.maxSurge ?? "25%";
  const causes = [...intOrPercentCauses(maxUnavailable, `${at}.maxUnavailable`), ...intOrPercentCauses(maxSurge, `${at}.maxSurge`)];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    causes.push(invalid(`${at}.maxUnavailable`, maxUnavailable, "may not be 0 when `maxSurge` is 0"));
  }
  causes.push(...notOver100Causes(maxUnavailable, `${at}.maxUnavailable`));
  return causes;
}

/** Every cause of a Deployment's spec. */
export function deploymentCauses(obj_: KubeObject): StatusCause[] {
  const spec = obj(obj_.spec) ?? {};
  const causes = nonNegative(spec.replicas, "spec.replicas");
  const { causes: selectorCauses, selector } = selectorBlock(spec, "deployment", "invalid label selector");
  causes.push(...selectorCauses);
  if (selector.kind !== "error") causes.push(...replicaSetTemplateCauses(spec.template, selector, "ReplicaSet"));
  causes.push(...strategyCauses(spec.strategy));
  causes.push(...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"));
  causes.push(...nonNegative(spec.revisionHistoryLimit, "spec.revisionHistoryLimit"));
  const rollback = obj(spec.rollbackTo);
  if (rollback) causes.push(...nonNegative(rollback.revision, "spec.rollback.version"));
  const deadline = num(spec.progressDeadlineSeconds);
  if (deadline !== undefined) {
    causes.push(...nonNegative(deadline, "spec.progressDeadlineSeconds"));
    if (deadline <= (num(spec.minReadySeconds) ?? 0)) causes.push(invalid("spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"));
  }
  return causes;
}

