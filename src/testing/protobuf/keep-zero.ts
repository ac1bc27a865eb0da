/**
 * The scalar fields whose zero value means something: pointers in the Go types (`*int32`,
 * `*bool`, `*string`) where an explicit `0`, `false` or `""` differs from "not set".
 *
 * The protobuf wire cannot tell them apart from plain (non-pointer) fields: Go's encoder writes
 * a plain field even when it is zero, and a pointer only when it is set. JSON-wise, a plain
 * field tagged `omitempty` disappears when zero, a pointer does not. So a zero scalar read from
 * a protobuf body is dropped (as `omitempty` would drop it), except for the fields below, kept
 * so that `replicas: 0`, `runAsUser: 0` or `storageClassName: ""` survive. Names are
 * `<message full name>.<field>`.
 */
const CORE = "k8s.io.api.core.v1";
const APPS = "k8s.io.api.apps.v1";
const BATCH = "k8s.io.api.batch.v1";

export const KEEP_ZERO_FIELDS: readonly string[] = [
  `${APPS}.DeploymentSpec.replicas`,
  `${APPS}.DeploymentSpec.revisionHistoryLimit`,
  `${APPS}.DeploymentSpec.progressDeadlineSeconds`,
  `${APPS}.StatefulSetSpec.replicas`,
  `${APPS}.StatefulSetSpec.revisionHistoryLimit`,
  `${APPS}.RollingUpdateStatefulSetStrategy.partition`,
  `${APPS}.ReplicaSetSpec.replicas`,
  `${APPS}.DaemonSetSpec.revisionHistoryLimit`,
  "k8s.io.api.autoscaling.v1.ScaleSpec.replicas",
  "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerSpec.minReplicas",
  "k8s.io.api.autoscaling.v1.HorizontalPodAutoscalerSpec.targetCPUUtilizationPercentage",
  "k8s.io.api.autoscaling.v2.HorizontalPodAutoscalerSpec.minReplicas",
  "k8s.io.api.autoscaling.v2.HPAScalingRules.stabilizationWindowSeconds",
  "k8s.io.api.autoscaling.v2.MetricTarget.averageUtilization",
  `${BATCH}.JobSpec.parallelism`,
  `${BATCH}.JobSpec.completions`,
  `${BATCH}.JobSpec.activeDeadlineSeconds`,
  `${BATCH}.JobSpec.backoffLimit`,
  `${BATCH}.JobSpec.backoffLimitPerIndex`,
  `${BATCH}.JobSpec.maxFailedIndexes`,
  `${BATCH}.JobSpec.ttlSecondsAfterFinished`,
  `${BATCH}.JobSpec.manualSelector`,
  `${BATCH}.JobSpec.suspend`,
  `${BATCH}.CronJobSpec.startingDeadlineSeconds`,
  `${BATCH}.CronJobSpec.suspend`,
  `${BATCH}.CronJobSpec.successfulJobsHistoryLimit`,
  `${BATCH}.CronJobSpec.failedJobsHistoryLimit`,
  `${BATCH}.CronJobSpec.timeZone`,
  "k8s.io.api.networking.v1.IngressSpec.ingressClassName",
  "k8s.io.api.networking.v1.NetworkPolicyPort.endPort",
  "k8s.io.api.coordination.v1.LeaseSpec.holderIdentity",
  "k8s.io.api.coordination.v1.LeaseSpec.leaseDurationSeconds",
  "k8s.io.api.coordination.v1.LeaseSpec.leaseTransitions",
  "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta.deletionGracePeriodSeconds",
  "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference.controller",
  "k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference.blockOwnerDeletion",
  "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions.gracePeriodSeconds",
  "k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions.orphanDependents",
  `${CORE}.ConfigMap.immutable`,
  `${CORE}.Secret.immutable`,
  `${CORE}.ServiceAccount.automountServiceAccountToken`,
  `${CORE}.PodSpec.terminationGracePeriodSeconds`,
  `${CORE}.PodSpec.activeDeadlineSeconds`,
  `${CORE}.PodSpec.automountServiceAccountToken`,
  `${CORE}.PodSpec.enableServiceLinks`,
  `${CORE}.PodSpec.shareProcessNamespace`,
  `${CORE}.PodSpec.hostUsers`,
  `${CORE}.PodSpec.setHostnameAsFQDN`,
  `${CORE}.PodSpec.priority`,
  `${CORE}.PodSecurityContext.runAsUser`,
  `${CORE}.PodSecurityContext.runAsGroup`,
  `${CORE}.PodSecurityContext.runAsNonRoot`,
  `${CORE}.PodSecurityContext.fsGroup`,
  `${CORE}.SecurityContext.privileged`,
  `${CORE}.SecurityContext.runAsUser`,
  `${CORE}.SecurityContext.runAsGroup`,
  `${CORE}.SecurityContext.runAsNonRoot`,
  `${CORE}.SecurityContext.readOnlyRootFilesystem`,
  `${CORE}.SecurityContext.allowPrivilegeEscalation`,
  `${CORE}.ConfigMapVolumeSource.defaultMode`,
  `${CORE}.ConfigMapVolumeSource.optional`,
  `${CORE}.SecretVolumeSource.defaultMode`,
  `${CORE}.SecretVolumeSource.optional`,
  `${CORE}.ProjectedVolumeSource.defaultMode`,
  `${CORE}.DownwardAPIVolumeSource.defaultMode`,
  `${CORE}.KeyToPath.mode`,
  `${CORE}.DownwardAPIVolumeFile.mode`,
  `${CORE}.ConfigMapKeySelector.optional`,
  `${CORE}.SecretKeySelector.optional`,
  `${CORE}.ConfigMapEnvSource.optional`,
  `${CORE}.SecretEnvSource.optional`,
  `${CORE}.ConfigMapProjection.optional`,
  `${CORE}.SecretProjection.optional`,
  `${CORE}.Toleration.tolerationSeconds`,
  `${CORE}.PersistentVolumeClaimSpec.storageClassName`,
  `${CORE}.ServiceSpec.allocateLoadBalancerNodePorts`,
  `${CORE}.ReplicationControllerSpec.replicas`,
];

const KEEP = new Set(KEEP_ZERO_FIELDS);

/** Whether a zero value of `field` in `message` (full name, no leading dot) is kept. */
export function keepsZero(message: string, field: string): boolean {
  return KEEP.has(`${message}.${field}`);
}
