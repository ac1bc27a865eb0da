/**
 * RBAC escalation prevention, as kube-apiserver's role and binding storage enforces it for users
 * outside `system:masters`: a Role or ClusterRole may only grant what its writer already holds
 * (unless they may `escalate` roles), and a binding may only bind a role whose rules the writer
 * holds (unless they may `bind` that role).
 */
import type { Authorizer } from "../auth/authorizer.ts";
import { forbiddenError, resourceAttributes } from "../auth/attributes.ts";
import type { UserInfo } from "../auth/user-info.ts";
import { isSuperuser } from "../auth/user-info.ts";
import type { KubeObject } from "../resource-type.ts";
import { StatusError } from "../status.ts";
import { sameContent } from "../write-path.ts";
import type { PolicyRule } from "./policy-rule.ts";
import { compactRules, compactString, goQuotedList, uncovered } from "./policy-rule.ts";
import type { RoleRef } from "./rbac-index.ts";
import { RBAC_GROUP } from "./rbac-index.ts";

/** The write being checked: the RBAC resource, the request's namespace and the name on the URL. */
export interface RbacWrite {
  readonly plural: "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings";
  readonly namespace: string;
  /** The name on the URL (undefined for a POST). */
  readonly requestName: string | undefined;
}

/**
 * Throws the 403 (or, for a binding to a missing role, the 404) kube-apiserver answers when
 * `user` writes an RBAC object that grants more than `user` holds.
 *
 * Roles: allowed when the user may `escalate` the resource (`roles`/`clusterroles`) or already
 * holds every rule. Bindings: allowed when the user may `bind` the referenced role (by name) or
 * holds every rule of it. An update that changes only owner references or finalizers is always
 * allowed.
 */
export function checkEscalation(authorizer: Authorizer, user: UserInfo, w: RbacWrite, next: KubeObject, old: KubeObject | undefined): void {
  if (isSuperuser(user)) return;
  if (old && onlyGcFieldsChange(next, old)) return;
  const name = next.metadata?.name ?? "";
  const o = next as { rules?: PolicyRule[]; roleRef?: RoleRef };
  let rules: readonly PolicyRule[];
  if (w.plural === "roles" || w.plural === "clusterroles") {
    const escalate = resourceAttributes(user, { verb: "escalate", apiGroup: RBAC_GROUP, resource: w.plural, name: w.requestName ?? "", namespace: w.namespace });
    if (authorizer.authorize(escalate).allowed) return;
    rules = o.rules ?? [];
  } else {
    const ref = o.roleRef!;
    const bind = resourceAttributes(user, {
      verb: "bind", apiGroup: ref.apiGroup, resource: ref.kind === "Role" ? "roles" : "clusterroles", name: ref.name, namespace: w.namespace,
    });
    if (authorizer.authorize(bind).allowed) return;
    const resolved = authorizer.rbac.roleRules(ref, w.namespace, "plural");
    if (!resolved.rules) {
      const plural = ref.kind === "Role" ? "roles" : "clusterroles";
      throw new StatusError(404, "NotFound", resolved.error!, { name: ref.name, group: RBAC_GROUP, kind: plural });
    }
    rules = resolved.rules;
  }
  const held = authorizer.rulesFor(user, w.namespace);
  const missing = uncovered(held.rules, rules);
  if (missing.length === 0) return;
  const described = [...new Set(compactRules(missing).map(compactString))].sort();
  let message = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${described.join("\n")}`;
  if (held.errors.length) message += `; resolution errors: [${held.errors.join(" ")}]`;
  throw forbiddenError(RBAC_GROUP, w.plural, name, message);
}

/** Whether `next` differs from `old` only in owner references, finalizers or deletion marks (bookkeeping fields ignored). */
function onlyGcFieldsChange(next: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, deletionTimestamp: _d, deletionGracePeriodSeconds: _g, managedFields: _m, resourceVersion: _r, ...meta } = o.metadata ?? {};
    return { ...o, metadata: meta };
  };
  return sameContent(strip(next), strip(old));
}
