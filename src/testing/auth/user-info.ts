/**
 * Who a request comes from, as kube-apiserver's authenticators name it: a user name and groups.
 */

/**
 * An authenticated identity. Every identity LocalCluster authenticates belongs to the group
 * `system:authenticated`; service accounts are `system:serviceaccount:<namespace>:<name>` in the
 * groups `system:serviceaccounts` and `system:serviceaccounts:<namespace>`.
 *
 * @example
 * ```ts
 * const bob: UserInfo = { name: "bob", groups: ["dev", "system:authenticated"] };
 * ```
 */
export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The group every authenticated identity belongs to. */
export const AUTHENTICATED_GROUP = "system:authenticated";

/** The group kube-apiserver lets do anything, whatever RBAC says. */
export const SUPERUSER_GROUP = "system:masters";

/** The identity of LocalCluster's own kubeconfig: a superuser. */
export const ADMIN_USER: UserInfo = { name: "localcluster-admin", groups: [SUPERUSER_GROUP, AUTHENTICATED_GROUP] };

const SA_PREFIX = "system:serviceaccount:";

/** Whether a user is in `system:masters` (allowed everything, no escalation or owner-reference checks). */
export function isSuperuser(user: UserInfo): boolean {
  return user.groups.includes(SUPERUSER_GROUP);
}

/** `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/** The namespace and name of a service account's user name, or undefined for other users. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(":");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

/** The groups of a service account, without `system:authenticated`. */
export function serviceAccountGroups(namespace: string): string[] {
  return ["system:serviceaccounts", `system:serviceaccounts:${namespace}`];
}

/** A user with `system:authenticated` added to its groups (once). */
export function authenticated(name: string, groups: readonly string[]): UserInfo {
  return { name, groups: groups.includes(AUTHENTICATED_GROUP) ? [...groups] : [...groups, AUTHENTICATED_GROUP] };
}
