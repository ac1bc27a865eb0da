/**
 * The default roles and bindings LocalCluster creates in authorization mode: the part of
 * kube-apiserver's bootstrap policy every cluster relies on. `cluster-admin` (bound to
 * `system:masters`), and for every authenticated user `system:discovery` (the discovery and
 * OpenAPI paths), `system:basic-user` (reviews of one's own access) and
 * `system:public-info-viewer` (`/version`, health paths).
 */
import type { KubeObject } from "../resource-type.ts";
import type { Registry } from "../registry.ts";
import type { Writer } from "../write-path.ts";
import type { PolicyRule } from "./policy-rule.ts";
import { RBAC_GROUP } from "./rbac-index.ts";

const META = {
  labels: { "kubernetes.io/bootstrapping": "rbac-defaults" },
  annotations: { "rbac.authorization.kubernetes.io/autoupdate": "true" },
};

function clusterRole(name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: "ClusterRole", metadata: { name, ...structuredClone(META) }, rules };
}

function clusterRoleBinding(name: string, groups: string[]): KubeObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: "ClusterRoleBinding",
    metadata: { name, ...structuredClone(META) },
    roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name },
    subjects: groups.map((g) => ({ apiGroup: RBAC_GROUP, kind: "Group", name: g })),
  };
}

const PUBLIC_INFO = ["/healthz", "/livez", "/readyz", "/version", "/version/"];

/** The ClusterRoles, then the ClusterRoleBindings, to create at start. */
export function bootstrapPolicy(): { clusterRoles: KubeObject[]; clusterRoleBindings: KubeObject[] } {
  return {
    clusterRoles: [
      clusterRole("cluster-admin", [
        { apiGroups: ["*"], resources: ["*"], verbs: ["*"] },
        { nonResourceURLs: ["*"], verbs: ["*"] },
      ]),
      clusterRole("system:discovery", [
        { nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"], verbs: ["get"] },
      ]),
      clusterRole("system:basic-user", [
        { apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], verbs: ["create"] },
        { apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"], verbs: ["create"] },
      ]),
      clusterRole("system:public-info-viewer", [{ nonResourceURLs: PUBLIC_INFO, verbs: ["get"] }]),
    ],
    clusterRoleBindings: [
      clusterRoleBinding("cluster-admin", ["system:masters"]),
      clusterRoleBinding("system:discovery", ["system:authenticated"]),
      clusterRoleBinding("system:basic-user", ["system:authenticated"]),
      clusterRoleBinding("system:public-info-viewer", ["system:authenticated", "system:unauthenticated"]),
    ],
  };
}

/** Creates the default ClusterRoles and ClusterRoleBindings of authorization mode through `writer`. */
export function seedBootstrapPolicy(registry: Registry, writer: Writer): void {
  const { clusterRoles, clusterRoleBindings } = bootstrapPolicy();
  const roleType = registry.byPath(RBAC_GROUP, "v1", "clusterroles")!;
  const bindingType = registry.byPath(RBAC_GROUP, "v1", "clusterrolebindings")!;
  for (const role of clusterRoles) writer.create(roleType, undefined, role);
  for (const binding of clusterRoleBindings) writer.create(bindingType, undefined, binding);
}
