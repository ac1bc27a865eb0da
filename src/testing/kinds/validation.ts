/**
 * Validation of built-in kinds that lives in kube-apiserver's code (not its schemas): one
 * list of causes per write, in the order kube-apiserver reports them. One module per kind under
 * `validation/`; this file is the table that picks one. Object metadata, label/annotation maps
 * and ConfigMap/Secret data limits are checked in metadata-validation.ts, update rules in
 * immutable-fields.ts, RBAC kinds in rbac/.
 */
import type { KubeObject, ResourceType } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { badRequest } from "../status.ts";
import { mutatingWebhookConfigurationCauses, validatingWebhookConfigurationCauses } from "./validation/admissionregistration.ts";
import { validatingAdmissionPolicyBindingCauses, validatingAdmissionPolicyCauses } from "../admission/policy-validation.ts";
import { cronJobCauses } from "./validation/cronjob.ts";
import { daemonSetCauses } from "./validation/daemonset.ts";
import { deploymentCauses } from "./validation/deployment.ts";
import { list, obj } from "./validation/field.ts";
import { ingressCauses } from "./validation/ingress.ts";
import { jobCauses } from "./validation/job.ts";
import { networkPolicyCauses } from "./validation/networkpolicy.ts";
import { pdbCauses } from "./validation/pdb.ts";
import { podCauses } from "./validation/pod.ts";
import { pvcCauses } from "./validation/pvc.ts";
import { replicaSetCauses } from "./validation/replicaset.ts";
import { QUANTITY_PATTERN, badQuantityPaths } from "./validation/resources.ts";
import { secretCauses } from "./validation/secret.ts";
import { serviceCauses } from "./validation/service.ts";
import { statefulSetCauses } from "./validation/statefulset.ts";

/** A kind's validator: the causes of `obj` (`old` is the stored object on update). */
type KindValidator = (obj: KubeObject, old: KubeObject | undefined) => StatusCause[];

/** Built-in kinds (by `group/Kind`) and their validators. */
const VALIDATORS: Record<string, KindValidator> = {
  "/Pod": podCauses,
  "/Service": serviceCauses,
  "/PersistentVolumeClaim": pvcCauses,
  "/Secret": secretCauses,
  "apps/Deployment": deploymentCauses,
  "apps/ReplicaSet": replicaSetCauses,
  "apps/StatefulSet": statefulSetCauses,
  "apps/DaemonSet": daemonSetCauses,
  "batch/Job": jobCauses,
  "batch/CronJob": cronJobCauses,
  "networking.k8s.io/Ingress": ingressCauses,
  "networking.k8s.io/NetworkPolicy": networkPolicyCauses,
  "policy/PodDisruptionBudget": pdbCauses,
  "admissionregistration.k8s.io/MutatingWebhookConfiguration": mutatingWebhookConfigurationCauses,
  "admissionregistration.k8s.io/ValidatingWebhookConfiguration": validatingWebhookConfigurationCauses,
  "admissionregistration.k8s.io/ValidatingAdmissionPolicy": validatingAdmissionPolicyCauses,
  "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": validatingAdmissionPolicyBindingCauses,
};

/** The pod specs inside an object of `kind`, whose resource quantities must decode. */
function podSpecsOf(kind: string, o: KubeObject): unknown[] {
  const spec = obj(o.spec);
  if (!spec) return [];
  if (kind === "Pod") return [spec];
  if (kind === "CronJob") return [obj(obj(obj(spec.jobTemplate)?.spec)?.template)?.spec];
  return [obj(spec.template)?.spec];
}

/**
 * Throws the 400 kube-apiserver answers when a resource quantity in `o` does not decode (it
 * happens while decoding the body, before any validation).
 */
function checkQuantities(type: ResourceType, o: KubeObject): void {
  const resources: unknown[] = [];
  for (const podSpec of podSpecsOf(type.kind, o)) {
    for (const key of ["initContainers", "containers"]) for (const c of list(obj(podSpec)?.[key])) resources.push(obj(c)?.resources);
  }
  if (type.kind === "PersistentVolumeClaim") resources.push(obj(o.spec)?.resources);
  if (resources.some((r) => badQuantityPaths(r).length > 0)) {
    throw badRequest(
      `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: quantities must match the regular expression '${QUANTITY_PATTERN}'`,
    );
  }
}

/**
 * Every validation error of a built-in object (`old` is the stored object on update), as
 * kube-apiserver reports them; empty when valid. The caller turns them into one 422. A
 * resource quantity that does not parse throws kube-apiserver's 400 instead.
 */
export function builtinCauses(type: ResourceType, o: KubeObject, old: KubeObject | undefined): StatusCause[] {
  if (!type.builtin) return [];
  const validate = VALIDATORS[`${type.group}/${type.kind}`];
  if (!validate) return [];
  checkQuantities(type, o);
  return validate(o, old);
}
