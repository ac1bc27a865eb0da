/** ReplicaSet validation: `ValidateReplicaSetSpec`, in kube-apiserver's order. */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { nonNegative, obj } from "./field.ts";
import { replicaSetTemplateCauses, selectorBlock } from "./workload.ts";

/** Every cause of a ReplicaSet's spec. */
export function replicaSetCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes = [...nonNegative(spec.replicas, "spec.replicas"), ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds")];
  // kube-apiserver's ReplicaSet message says "deployment" too.
  const { causes: selectorCauses, selector } = selectorBlock(spec, "deployment", "invalid label selector");
  causes.push(...selectorCauses);
  if (selector.kind !== "error") causes.push(...replicaSetTemplateCauses(spec.template, selector, "ReplicaSet"));
  return causes;
}
