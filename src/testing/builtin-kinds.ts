/**
 * The built-in kinds LocalCluster serves, with the discovery facts a real API server reports.
 */
import type { ListTypeLookup, ResourceType } from "./resource-type.ts";
import { builtinListType } from "./patch/merge-keys.ts";

const ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

interface BuiltinSpec {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  status?: boolean;
  scale?: boolean;
  hasGeneration?: boolean;
  requireResourceVersion?: boolean;
  storageKey?: string;
  verbs?: string[];
}

const SPECS: BuiltinSpec[] = [
  { group: "", version: "v1", kind: "Namespace", plural: "namespaces", namespaced: false, shortNames: ["ns"], status: true,
    verbs: ["create", "delete", "get", "list", "patch", "update", "watch"] },
  { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps", namespaced: true, shortNames: ["cm"] },
  { group: "", version: "v1", kind: "Secret", plural: "secrets", namespaced: true },
  { group: "", version: "v1", kind: "Service", plural: "services", namespaced: true, shortNames: ["svc"], categories: ["all"], status: true,
    verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"] },
  { group: "", version: "v1", kind: "Pod", plural: "pods", namespaced: true, shortNames: ["po"], categories: ["all"], status: true },
  { group: "", version: "v1", kind: "PersistentVolumeClaim", plural: "persistentvolumeclaims", namespaced: true, shortNames: ["pvc"], status: true },
  { group: "", version: "v1", kind: "ServiceAccount", plural: "serviceaccounts", namespaced: true, shortNames: ["sa"] },
  { group: "", version: "v1", kind: "Event", plural: "events", namespaced: true, shortNames: ["ev"], storageKey: "events" },
  { group: "apps", version: "v1", kind: "Deployment", plural: "deployments", namespaced: true, shortNames: ["deploy"], categories: ["all"],
    status: true, scale: true, hasGeneration: true },
  { group: "apps", version: "v1", kind: "StatefulSet", plural: "statefulsets", namespaced: true, shortNames: ["sts"], categories: ["all"],
    status: true, scale: true, hasGeneration: true },
  { group: "apps", version: "v1", kind: "ReplicaSet", plural: "replicasets", namespaced: true, shortNames: ["rs"], categories: ["all"],
    status: true, scale: true, hasGeneration: true },
  { group: "coordination.k8s.io", version: "v1", kind: "Lease", plural: "leases", namespaced: true, requireResourceVersion: true },
  { group: "events.k8s.io", version: "v1", kind: "Event", plural: "events", namespaced: true, shortNames: ["ev"], storageKey: "events" },
  { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition", plural: "customresourcedefinitions",
    namespaced: false, shortNames: ["crd", "crds"], categories: ["api-extensions"], status: true, hasGeneration: true,
    requireResourceVersion: true },
  { group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRoleBinding", plural: "clusterrolebindings", namespaced: false },
  { group: "rbac.authorization.k8s.io", version: "v1", kind: "ClusterRole", plural: "clusterroles", namespaced: false },
  { group: "rbac.authorization.k8s.io", version: "v1", kind: "RoleBinding", plural: "rolebindings", namespaced: true },
  { group: "rbac.authorization.k8s.io", version: "v1", kind: "Role", plural: "roles", namespaced: true },
  // Reviews: answered at once, never stored (see auth/reviews.ts).
  { group: "authorization.k8s.io", version: "v1", kind: "LocalSubjectAccessReview", plural: "localsubjectaccessreviews", namespaced: true,
    verbs: ["create"] },
  { group: "authorization.k8s.io", version: "v1", kind: "SelfSubjectAccessReview", plural: "selfsubjectaccessreviews", namespaced: false,
    verbs: ["create"] },
  { group: "authorization.k8s.io", version: "v1", kind: "SelfSubjectRulesReview", plural: "selfsubjectrulesreviews", namespaced: false,
    verbs: ["create"] },
  { group: "authorization.k8s.io", version: "v1", kind: "SubjectAccessReview", plural: "subjectaccessreviews", namespaced: false,
    verbs: ["create"] },
  { group: "authentication.k8s.io", version: "v1", kind: "SelfSubjectReview", plural: "selfsubjectreviews", namespaced: false,
    verbs: ["create"] },
];

function toResourceType(s: BuiltinSpec): ResourceType {
  const listType: ListTypeLookup = builtinListType(s.kind);
  return {
    group: s.group,
    version: s.version,
    kind: s.kind,
    plural: s.plural,
    singular: s.kind.toLowerCase(),
    namespaced: s.namespaced,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    verbs: s.verbs ?? ALL_VERBS,
    status: s.status ?? false,
    scale: s.scale
      ? { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" }
      : undefined,
    builtin: true,
    hasGeneration: s.hasGeneration ?? false,
    requireResourceVersion: s.requireResourceVersion ?? false,
    storageKey: s.storageKey ?? `${s.group}/${s.plural}`,
    printerColumns: [],
    schema: undefined,
    listType,
  };
}

/** The built-in resource types, in discovery order. */
export function builtinResourceTypes(): ResourceType[] {
  return SPECS.map(toResourceType);
}
