/**
 * The RBAC authorizer: allows a request when a rule of a role bound to the user allows it,
 * walking ClusterRoleBindings first, then the RoleBindings of the request's namespace, as
 * kube-apiserver's RBAC authorizer does (including its reasons and its role-not-found errors).
 */
import type { Attributes } from "../auth/attributes.ts";
import type { UserInfo } from "../auth/user-info.ts";
import { serviceAccountUsername } from "../auth/user-info.ts";
import type { PolicyRule } from "./policy-rule.ts";
import { ruleAllows } from "./policy-rule.ts";
import type { BindingEntry, RbacIndex, RoleRef, Subject } from "./rbac-index.ts";
import { RBAC_GROUP } from "./rbac-index.ts";

/** An authorization decision; `reason` is what kube-apiserver reports with it (often ""). */
export interface Decision {
  readonly allowed: boolean;
  readonly reason: string;
}

/** The rules a user holds in a namespace, and the errors met resolving them. */
export interface RulesResult {
  readonly rules: PolicyRule[];
  /** E.g. `clusterrole.rbac.authorization.k8s.io "gone" not found` for a binding to a missing role. */
  readonly errors: string[];
}

/** A rule's origin, for the reason of an allowed request. */
type Visitor = (rule: PolicyRule | undefined, source: (() => string) | undefined, error: string | undefined) => boolean;

/** Evaluates RBAC over an {@link RbacIndex}. */
export class RbacAuthorizer {
  readonly #index: RbacIndex;

  constructor(index: RbacIndex) {
    this.#index = index;
  }

  /** Whether RBAC allows the request, with kube's reason (`RBAC: allowed by …` or the resolution errors). */
  authorize(a: Attributes): Decision {
    let allowed = false;
    let reason = "";
    const errors: string[] = [];
    this.#visit(a.user, a.namespace, (rule, source, error) => {
      if (rule && ruleAllows(a, rule)) {
        allowed = true;
        reason = `RBAC: allowed by ${source!()}`;
        return false;
      }
      if (error) errors.push(error);
      return true;
    });
    if (allowed) return { allowed, reason };
    return { allowed: false, reason: errors.length ? `RBAC: ${aggregate(errors)}` : "" };
  }

  /** Every rule bound to `user` in `namespace` (cluster-wide ones included; "" for only those). */
  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.#visit(user, namespace, (rule, _source, error) => {
      if (rule) rules.push(rule);
      if (error) errors.push(error);
      return true;
    });
    return { rules, errors };
  }

  /**
   * The rules of the role a binding refers to, or the error kube's rule resolver gives for it
   * (`resource` is how the message names the kind: the authorizer says `clusterrole`, the
   * binding storage `clusterroles`).
   */
  roleRules(ref: RoleRef, namespace: string, resource: "singular" | "plural" = "singular"): { rules?: readonly PolicyRule[]; error?: string } {
    const role = ref.kind === "Role" ? this.#index.roles.get(namespace, ref.name)
      : ref.kind === "ClusterRole" ? this.#index.clusterRoles.get("", ref.name) : undefined;
    if (role) return { rules: role.rules };
    if (ref.kind !== "Role" && ref.kind !== "ClusterRole") return { error: `unsupported role reference kind: ${JSON.stringify(ref.kind)}` };
    const noun = ref.kind.toLowerCase() + (resource === "plural" ? "s" : "");
    return { error: `${noun}.${RBAC_GROUP} ${JSON.stringify(ref.name)} not found` };
  }

  #visit(user: UserInfo, namespace: string, visitor: Visitor): void {
    if (!this.#visitBindings(user, "", this.#index.clusterRoleBindings.in(""), "ClusterRoleBinding", visitor)) return;
    if (namespace !== "") this.#visitBindings(user, namespace, this.#index.roleBindings.in(namespace), "RoleBinding", visitor);
  }

  #visitBindings(user: UserInfo, namespace: string, bindings: readonly BindingEntry[], kind: string, visitor: Visitor): boolean {
    for (const binding of bindings) {
      const subject = binding.subjects.find((s) => appliesTo(user, s, namespace));
      if (!subject) continue;
      const { rules, error } = this.roleRules(binding.roleRef, namespace);
      if (!rules) {
        if (!visitor(undefined, undefined, error)) return false;
        continue;
      }
      const source = () => describe(kind, binding, subject);
      for (const rule of rules) if (!visitor(rule, source, undefined)) return false;
    }
    return true;
  }
}

/** Whether a binding's subject is the user (a service account subject without a namespace is one of the binding's namespace). */
export function appliesTo(user: UserInfo, s: Subject, bindingNamespace: string): boolean {
  switch (s.kind) {
    case "User":
      return user.name === s.name;
    case "Group":
      return user.groups.includes(s.name);
    case "ServiceAccount": {
      const ns = s.namespace || bindingNamespace;
      return ns !== "" && user.name === serviceAccountUsername(ns, s.name);
    }
    default:
      return false;
  }
}

function describe(kind: string, b: BindingEntry, s: Subject): string {
  const name = kind === "RoleBinding" ? `${b.name}/${b.namespace}` : b.name;
  const subject = s.kind === "ServiceAccount" ? `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || b.namespace}`)}` : `${s.kind} ${JSON.stringify(s.name)}`;
  return `${kind} ${JSON.stringify(name)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${subject}`;
}

/** apimachinery's aggregate error text: one error as is, several (deduplicated) as `[a, b]`. */
export function aggregate(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`;
}
