/**
 * The table of built-in kinds' defaults, by `group/Kind` (core group as `/Kind`).
 */
import type { KindDefaults } from "./types.ts";
import { mutatingWebhookConfiguration, validatingWebhookConfiguration } from "./admissionregistration.ts";
import { customResourceDefinition, endpoints, endpointSlice, namespace, rbac, secret } from "./core.ts";
import { cronJob } from "./cronjob.ts";
import { daemonSet } from "./daemonset.ts";
import { deployment } from "./deployment.ts";
import { horizontalPodAutoscaler } from "./hpa.ts";
import { ingress } from "./ingress.ts";
import { job } from "./job.ts";
import { networkPolicy } from "./networkpolicy.ts";
import { podDisruptionBudget } from "./pdb.ts";
import { pod } from "./pod.ts";
import { persistentVolume, persistentVolumeClaim } from "./pvc.ts";
import { podTemplate, replicaSet, replicationController } from "./replicaset.ts";
import { service } from "./service.ts";
import { statefulSet } from "./statefulset.ts";
import { ingressClass, priorityClass, storageClass } from "./storage.ts";

export type { DefaultingContext, KindDefaults } from "./types.ts";

const RBAC = "rbac.authorization.k8s.io";

/** Every built-in kind with defaults. Kinds not listed (ConfigMap, ServiceAccount, Role, …) have none. */
export const KIND_DEFAULTS: ReadonlyMap<string, KindDefaults> = new Map<string, KindDefaults>([
  ["/Namespace", namespace],
  ["/Secret", secret],
  ["/Pod", pod],
  ["/PodTemplate", podTemplate],
  ["/ReplicationController", replicationController],
  ["/Service", service],
  ["/Endpoints", endpoints],
  ["/PersistentVolumeClaim", persistentVolumeClaim],
  ["/PersistentVolume", persistentVolume],
  ["apps/Deployment", deployment],
  ["apps/StatefulSet", statefulSet],
  ["apps/DaemonSet", daemonSet],
  ["apps/ReplicaSet", replicaSet],
  ["batch/Job", job],
  ["batch/CronJob", cronJob],
  ["networking.k8s.io/Ingress", ingress],
  ["networking.k8s.io/NetworkPolicy", networkPolicy],
  ["policy/PodDisruptionBudget", podDisruptionBudget],
  ["autoscaling/HorizontalPodAutoscaler", horizontalPodAutoscaler],
  ["networking.k8s.io/IngressClass", ingressClass],
  ["discovery.k8s.io/EndpointSlice", endpointSlice],
  ["storage.k8s.io/StorageClass", storageClass],
  ["scheduling.k8s.io/PriorityClass", priorityClass],
  ["admissionregistration.k8s.io/ValidatingWebhookConfiguration", validatingWebhookConfiguration],
  ["admissionregistration.k8s.io/MutatingWebhookConfiguration", mutatingWebhookConfiguration],
  ["apiextensions.k8s.io/CustomResourceDefinition", customResourceDefinition],
  [`${RBAC}/RoleBinding`, rbac("RoleBinding")],
  [`${RBAC}/ClusterRoleBinding`, rbac("ClusterRoleBinding")],
]);

/** The defaults of a built-in kind, if it has any. */
export function kindDefaults(group: string, kind: string): KindDefaults | undefined {
  return KIND_DEFAULTS.get(`${group}/${kind}`);
}
