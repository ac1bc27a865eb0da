/**
 * LocalCluster's authorizer in authorization mode: members of `system:masters` may do anything
 * (kube-apiserver's privileged-group authorizer), everyone else gets what RBAC allows.
 */
import type { Attributes } from "./attributes.ts";
import type { Decision, RbacAuthorizer, RulesResult } from "../rbac/rbac-authorizer.ts";
import type { UserInfo } from "./user-info.ts";
import { isSuperuser } from "./user-info.ts";

/** Decides requests: superusers first, then RBAC. */
export class Authorizer {
  readonly rbac: RbacAuthorizer;

  constructor(rbac: RbacAuthorizer) {
    this.rbac = rbac;
  }

  /** The decision for one request. */
  authorize(a: Attributes): Decision {
    if (isSuperuser(a.user)) return { allowed: true, reason: "" };
    return this.rbac.authorize(a);
  }

  /** The rules bound to a user in a namespace (SelfSubjectRulesReview, escalation checks). */
  rulesFor(user: UserInfo, namespace: string): RulesResult {
    return this.rbac.rulesFor(user, namespace);
  }
}
