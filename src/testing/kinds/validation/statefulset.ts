/**
 * StatefulSet validation: `ValidateStatefulSetSpec`, in kube-apiserver's order. Its pod template
 * is checked for the selector match, `restartPolicy` and `activeDeadlineSeconds` only:
 * kube-apiserver does not validate a StatefulSet's PodSpec (a TODO in its code).
 */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { invalid, nonNegative, notSupported, num, obj, str } from "./field.ts";
import { alwaysRestartCauses, intOrPercentCauses, intOrPercentValue, notOver100Causes, selectorBlock, templateLabelsCauses } from "./workload.ts";

const RETENTION = ["Delete", "Retain"];

function updateStrategyCauses(strategy: unknown): StatusCause[] {
  const s = obj(strategy);
  if (!s) return [];
  const type = str(s.type) || "RollingUpdate";
  const ru = obj(s.rollingUpdate);
  if (type === "OnDelete") {
    return s.rollingUpdate !== undefined && s.rollingUpdate !== null
      ? [invalid("spec.updateStrategy.rollingUpdate", s.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")]
      : [];
  }
  if (type !== "RollingUpdate") return [invalid("spec.updateStrategy", s, "must be 'RollingUpdate' or 'OnDelete'")];
  if (!ru) return [];
  const at = "spec.updateStrategy.rollingUpdate";
  const causes = nonNegative(ru.partition, `${at}.partition`);
  if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
    causes.push(...intOrPercentCauses(ru.maxUnavailable, `${at}.maxUnavailable`));
    if (intOrPercentValue(ru.maxUnavailable) === 0) causes.push(invalid(`${at}.maxUnavailable`, ru.maxUnavailable, "cannot be 0"));
    causes.push(...notOver100Causes(ru.maxUnavailable, `${at}.maxUnavailable`));
  }
  return causes;
}

/** Every cause of a StatefulSet's spec. */
export function statefulSetCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes: StatusCause[] = [];
  const policy = str(spec.podManagementPolicy);
  if (policy && policy !== "OrderedReady" && policy !== "Parallel") {
    causes.push(invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  causes.push(...updateStrategyCauses(spec.updateStrategy));
  const retention = obj(spec.persistentVolumeClaimRetentionPolicy);
  if (retention) {
    for (const key of ["whenDeleted", "whenScaled"]) {
      const v = str(retention[key]) || "Retain";
      if (!RETENTION.includes(v)) causes.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${key}`, v, RETENTION));
    }
  }
  causes.push(...nonNegative(spec.replicas, "spec.replicas"), ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"));
  const ordinals = obj(spec.ordinals);
  if (ordinals) causes.push(...nonNegative(num(ordinals.start), "spec.ordinals.start"));
  const { causes: selectorCauses, selector } = selectorBlock(spec, "statefulset", "");
  causes.push(...selectorCauses);
  if (selector.kind !== "error") causes.push(...templateLabelsCauses(spec.template, selector));
  causes.push(...alwaysRestartCauses(spec.template, "StatefulSet"));
  return causes;
}
