/**
 * `operator-runtime/rbac`: the RBAC an operator needs, derived from what its controllers
 * declare — {@link rbacRules} from a Manager (or any {@link RbacSource}), {@link rbacManifests}
 * for the ServiceAccount, ClusterRole and bindings, and the verb sets behind them. The
 * `operator-runtime gen rbac` command is built on these.
 *
 * @example
 * ```ts
 * import { rbacRules, rbacManifests } from "operator-runtime/rbac";
 *
 * const rules = rbacRules(mgr);
 * const objects = rbacManifests(rules, { name: "dataapp-operator", namespace: "operators" });
 * console.log(objects.map((o) => `${o.kind}/${o.metadata?.name}`));
 * ```
 * @module
 */
export { BUILDER_VERBS, WATCH_VERBS, VERBS } from "../controller/access.ts";
export type { Verb, KindAccess, KindUse, ControllerAccess } from "../controller/access.ts";
export { rbacRules } from "../rbac/rules.ts";
export type { PolicyRule, RbacRules, RbacSource } from "../rbac/rules.ts";
export { rbacManifests } from "../rbac/manifests.ts";
export type { RbacManifestOptions } from "../rbac/manifests.ts";
export { resourceResolver } from "../rbac/resources.ts";
export type { ApiResource } from "../rbac/resources.ts";
