/**
 * Validation of built-in kinds that lives in kube-apiserver's code (not its schemas): one
 * list of causes per write, in the order kube-apiserver reports them.
 */
import type { KubeObject, ResourceType } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { invalidValue, requiredValue } from "../status.ts";

/**
 * Every validation error of a built-in object (`old` is the stored object on update), as
 * kube-apiserver reports them; empty when valid. The caller turns them into one 422.
 */
export function builtinCauses(type: ResourceType, obj: KubeObject, _old: KubeObject | undefined): StatusCause[] {
  if (!type.builtin) return [];
  if (type.kind === "Deployment" || type.kind === "StatefulSet" || type.kind === "ReplicaSet") return workloadCauses(obj);
  return [];
}

function workloadCauses(obj: KubeObject): StatusCause[] {
  const spec = (obj.spec ?? {}) as Record<string, any>;
  const causes: StatusCause[] = [];
  const selector = spec.selector as { matchLabels?: Record<string, string> } | undefined;
  const labels = spec.template?.metadata?.labels as Record<string, string> | undefined;
  if (!selector) causes.push(requiredValue("spec.selector"));
  else if (selector.matchLabels) {
    for (const [k, v] of Object.entries(selector.matchLabels)) {
      if (labels?.[k] !== v) {
        causes.push(invalidValue("spec.template.metadata.labels", labels ?? {}, "`selector` does not match template `labels`"));
        break;
      }
    }
  }
  if (!Array.isArray(spec.template?.spec?.containers) || spec.template.spec.containers.length === 0) {
    causes.push(requiredValue("spec.template.spec.containers"));
  }
  return causes;
}
