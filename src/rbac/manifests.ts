/**
 * RBAC objects for an operator: its ServiceAccount, a ClusterRole and ClusterRoleBinding for the
 * cluster-scope rules, and a Role and RoleBinding in each namespace with namespace rules.
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { RbacRules } from "./rules.ts";
import { checkObject } from "../util/check-args.ts";

/** Names of the objects {@link rbacManifests} makes. */
export interface RbacManifestOptions {
  /** Name of the ServiceAccount, the roles and the bindings. */
  name: string;
  /** Namespace of the ServiceAccount (where the operator runs). */
  namespace: string;
  /** Labels put on every object (default: `app.kubernetes.io/name: <name>`). */
  labels?: Readonly<Record<string, string>>;
}

/**
 * The ServiceAccount `namespace/name`, and the roles and bindings granting it `rules`: a
 * ClusterRole and ClusterRoleBinding named `name` when there are cluster-scope rules, and a Role
 * and RoleBinding named `name` in each namespace with rules of its own.
 *
 * @example
 * ```ts
 * import { rbacRules } from "operator-runtime/rbac";
 * import type { KubeObject } from "operator-runtime";
 * declare const crds: KubeObject[]; // the operator's CustomResourceDefinitions
 *
 * const objects = rbacManifests(rbacRules(mgr, { crds }), { name: "greeting-operator", namespace: "operators" });
 * // [ServiceAccount, ClusterRole, ClusterRoleBinding, Role, RoleBinding]
 * ```
 */
export function rbacManifests(rules: RbacRules, options: RbacManifestOptions): KubeObject[] {
  checkObject("rbacManifests(rules, options)", "rules", rules, "RbacRules (from rbacRules)");
  checkObject("rbacManifests(rules, options)", "options", options, "an options object ({ name, namespace, … })");
  const { name, namespace } = options;
  const labels = { ...(options.labels ?? { "app.kubernetes.io/name": name }) };
  const subjects = [{ kind: "ServiceAccount", name, namespace }];
  const objects: KubeObject[] = [{ apiVersion: "v1", kind: "ServiceAccount", metadata: { name, namespace, labels } }];
  const rbac = "rbac.authorization.k8s.io/v1";
  if (rules.cluster.length) {
    objects.push(
      { apiVersion: rbac, kind: "ClusterRole", metadata: { name, labels }, rules: rules.cluster } as KubeObject,
      { apiVersion: rbac, kind: "ClusterRoleBinding", metadata: { name, labels },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name }, subjects } as KubeObject,
    );
  }
  for (const [ns, nsRules] of Object.entries(rules.namespaces)) {
    objects.push(
      { apiVersion: rbac, kind: "Role", metadata: { name, namespace: ns, labels }, rules: nsRules } as KubeObject,
      { apiVersion: rbac, kind: "RoleBinding", metadata: { name, namespace: ns, labels },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name }, subjects } as KubeObject,
    );
  }
  return objects;
}
