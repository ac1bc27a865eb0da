/**
 * Which API resource (group and plural) a kind is, without asking a cluster: the built-in kinds
 * from a table, custom kinds from their CustomResourceDefinitions.
 */
import type { KindRef } from "../kinds/kind.ts";
import type { KubeObject } from "../kinds/kube-object.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { checkArray } from "../util/check-args.ts";

/** A kind's resource as RBAC names it. */
export interface ApiResource {
  /** API group (`""` for the core group). */
  group: string;
  /** Plural resource name, e.g. `deployments`. */
  resource: string;
  /** Whether objects live in namespaces. */
  namespaced: boolean;
}

/** group → kind → [plural, namespaced] of the built-in kinds an operator commonly touches. */
const BUILTIN: Readonly<Record<string, Readonly<Record<string, readonly [string, boolean]>>>> = {
  "": {
    Pod: ["pods", true], ConfigMap: ["configmaps", true], Secret: ["secrets", true], Service: ["services", true],
    ServiceAccount: ["serviceaccounts", true], PersistentVolumeClaim: ["persistentvolumeclaims", true],
    Endpoints: ["endpoints", true], Event: ["events", true], ResourceQuota: ["resourcequotas", true],
    LimitRange: ["limitranges", true], ReplicationController: ["replicationcontrollers", true],
    PodTemplate: ["podtemplates", true], Namespace: ["namespaces", false], Node: ["nodes", false],
    PersistentVolume: ["persistentvolumes", false],
  },
  apps: {
    Deployment: ["deployments", true], StatefulSet: ["statefulsets", true], DaemonSet: ["daemonsets", true],
    ReplicaSet: ["replicasets", true], ControllerRevision: ["controllerrevisions", true],
  },
  batch: { Job: ["jobs", true], CronJob: ["cronjobs", true] },
  autoscaling: { HorizontalPodAutoscaler: ["horizontalpodautoscalers", true] },
  policy: { PodDisruptionBudget: ["poddisruptionbudgets", true] },
  "coordination.k8s.io": { Lease: ["leases", true] },
  "events.k8s.io": { Event: ["events", true] },
  "discovery.k8s.io": { EndpointSlice: ["endpointslices", true] },
  "networking.k8s.io": { Ingress: ["ingresses", true], NetworkPolicy: ["networkpolicies", true], IngressClass: ["ingressclasses", false] },
  "rbac.authorization.k8s.io": {
    Role: ["roles", true], RoleBinding: ["rolebindings", true], ClusterRole: ["clusterroles", false],
    ClusterRoleBinding: ["clusterrolebindings", false],
  },
  "storage.k8s.io": {
    StorageClass: ["storageclasses", false], CSIDriver: ["csidrivers", false], CSINode: ["csinodes", false],
    VolumeAttachment: ["volumeattachments", false], CSIStorageCapacity: ["csistoragecapacities", true],
  },
  "apiextensions.k8s.io": { CustomResourceDefinition: ["customresourcedefinitions", false] },
  "admissionregistration.k8s.io": {
    ValidatingWebhookConfiguration: ["validatingwebhookconfigurations", false],
    MutatingWebhookConfiguration: ["mutatingwebhookconfigurations", false],
    ValidatingAdmissionPolicy: ["validatingadmissionpolicies", false],
    ValidatingAdmissionPolicyBinding: ["validatingadmissionpolicybindings", false],
  },
  "scheduling.k8s.io": { PriorityClass: ["priorityclasses", false] },
  "certificates.k8s.io": { CertificateSigningRequest: ["certificatesigningrequests", false] },
  "node.k8s.io": { RuntimeClass: ["runtimeclasses", false] },
  "apiregistration.k8s.io": { APIService: ["apiservices", false] },
  "authentication.k8s.io": { TokenReview: ["tokenreviews", false] },
  "authorization.k8s.io": {
    SubjectAccessReview: ["subjectaccessreviews", false], SelfSubjectAccessReview: ["selfsubjectaccessreviews", false],
    LocalSubjectAccessReview: ["localsubjectaccessreviews", true],
  },
  "flowcontrol.apiserver.k8s.io": { FlowSchema: ["flowschemas", false], PriorityLevelConfiguration: ["prioritylevelconfigurations", false] },
  "resource.k8s.io": { ResourceClaim: ["resourceclaims", true], DeviceClass: ["deviceclasses", false] },
};

/** The API group of an apiVersion: `apps/v1` → `apps`, `v1` → `""`. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/**
 * A resolver of kinds to resources: built-in kinds from a table, custom kinds from `crds`
 * (`spec.group`, `spec.names.kind`, `spec.names.plural`, `spec.scope`). The resolver throws for
 * a kind it cannot resolve, naming the kind and the fix.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 * declare const crds: KubeObject[]; // the operator's CustomResourceDefinitions
 *
 * const resolve = resourceResolver(crds);
 * resolve({ apiVersion: "apps/v1", kind: "Deployment" }); // { group: "apps", resource: "deployments", namespaced: true }
 * ```
 */
export function resourceResolver(crds: readonly KubeObject[]): (kind: KindRef) => ApiResource {
  checkArray("resourceResolver(crds)", "crds", crds, "an array of CustomResourceDefinition objects");
  const custom = new Map<string, ApiResource>();
  for (const crd of crds) {
    if (crd.kind !== "CustomResourceDefinition") continue;
    const spec = (crd as { spec?: { group?: unknown; scope?: unknown; names?: { kind?: unknown; plural?: unknown } } }).spec;
    if (typeof spec?.group !== "string" || typeof spec.names?.kind !== "string" || typeof spec.names.plural !== "string") {
      throw new OperatorRuntimeError(`CustomResourceDefinition ${crd.metadata?.name ?? "(unnamed)"} lacks spec.group, spec.names.kind or spec.names.plural`);
    }
    custom.set(`${spec.group}|${spec.names.kind}`, { group: spec.group, resource: spec.names.plural, namespaced: spec.scope !== "Cluster" });
  }
  return (kind) => {
    const group = groupOf(kind.apiVersion);
    const found = custom.get(`${group}|${kind.kind}`);
    if (found) return found;
    const builtin = BUILTIN[group]?.[kind.kind];
    if (builtin && Object.hasOwn(BUILTIN[group]!, kind.kind)) return { group, resource: builtin[0], namespaced: builtin[1] };
    const builtinGroup = group === "" || group.endsWith(".k8s.io") || !group.includes(".");
    throw new OperatorRuntimeError(`cannot tell the resource of ${kind.apiVersion} ${kind.kind}: no CustomResourceDefinition given declares it`
      + (builtinGroup
        ? ", and it is not among the built-in kinds this tool knows (check the apiVersion and kind; a built-in kind missing here is a bug to report)"
        : "; export its CRD from the module (`export const crds = [...]`)"));
  };
}
