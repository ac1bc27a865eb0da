/**
 * User impersonation (`Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid`,
 * `Impersonate-Extra-<key>` headers; `kubectl --as`/`--as-group`), as kube-apiserver's
 * impersonation filter does it: the requester needs `impersonate` on `users`, `groups`,
 * `serviceaccounts` (in their namespace), `uids` and `userextras/<key>` for each thing asked for.
 */
import type { IncomingMessage } from "node:http";
import { StatusError } from "../status.ts";
import type { Authorizer } from "./authorizer.ts";
import { deniedError, resourceAttributes } from "./attributes.ts";
import type { UserInfo } from "./user-info.ts";
import { AUTHENTICATED_GROUP, serviceAccountGroups, splitServiceAccountUsername } from "./user-info.ts";

const EXTRA_PREFIX = "impersonate-extra-";

/**
 * The identity a request acts as: `requester` itself without impersonation headers, else the
 * impersonated user.
 *
 * @throws StatusError 403 when the requester may not impersonate one of the things asked for
 *   (kube-apiserver's message, e.g. `users "bob" is forbidden: User "alice" cannot impersonate
 *   resource "users" in API group "" at the cluster scope`); 500 for groups, extras or a UID
 *   without a user, as kube-apiserver answers.
 */
export function impersonate(req: IncomingMessage, requester: UserInfo, authorizer: Authorizer): UserInfo {
  const headers = req.headersDistinct;
  const userName = headers["impersonate-user"]?.[0];
  const groupsAsked = headers["impersonate-group"] ?? [];
  const uid = headers["impersonate-uid"]?.[0];
  const extra: Record<string, string[]> = {};
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_PREFIX) || !values) continue;
    const key = decodeURIComponentSafe(header.slice(EXTRA_PREFIX.length));
    extra[key] = [...(extra[key] ?? []), ...values];
  }
  if (userName === undefined) {
    if (groupsAsked.length || uid !== undefined || Object.keys(extra).length) {
      throw new StatusError(500, "InternalError", "Internal error occurred: requested impersonation of groups, extras or a UID without impersonating a user");
    }
    return requester;
  }
  const check = (a: Parameters<typeof resourceAttributes>[1]) => {
    const attrs = resourceAttributes(requester, a);
    const decision = authorizer.authorize(attrs);
    if (!decision.allowed) throw deniedError(attrs, decision.reason);
  };
  let groups: string[] = [];
  const sa = splitServiceAccountUsername(userName);
  if (sa) {
    check({ verb: "impersonate", resource: "serviceaccounts", namespace: sa.namespace, name: sa.name });
    if (!groupsAsked.length) groups = serviceAccountGroups(sa.namespace);
  } else {
    check({ verb: "impersonate", resource: "users", name: userName });
  }
  for (const group of groupsAsked) {
    check({ verb: "impersonate", resource: "groups", name: group });
    groups.push(group);
  }
  for (const [key, values] of Object.entries(extra)) {
    for (const value of values) check({ verb: "impersonate", apiGroup: "authentication.k8s.io", resource: "userextras", subresource: key, name: value });
  }
  if (uid !== undefined) check({ verb: "impersonate", apiGroup: "authentication.k8s.io", resource: "uids", name: uid });
  if (userName !== "system:anonymous" && !groups.includes(AUTHENTICATED_GROUP) && !groups.includes("system:unauthenticated")) groups.push(AUTHENTICATED_GROUP);
  return {
    name: userName,
    groups,
    ...(uid !== undefined ? { uid } : {}),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
