/**
 * The RBAC rules a Manager's controllers need, from what they watch and declared
 * ({@link ControllerAccess}), what its cache watches, its event recorder and its leader election.
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { KindRef } from "../kinds/kind.ts";
import type { Controller } from "../controller/controller.ts";
import type { Verb } from "../controller/access.ts";
import { VERBS, WATCH_VERBS } from "../controller/access.ts";
import { resourceResolver } from "./resources.ts";
import { checkObject } from "../util/check-args.ts";

/** An RBAC PolicyRule as Roles and ClusterRoles carry it. */
export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: Verb[];
  resourceNames?: string[];
}

/** The rules an operator needs: those at cluster scope and those in single namespaces. */
export interface RbacRules {
  /** For a ClusterRole bound with a ClusterRoleBinding (cluster-wide watches, cluster-scoped kinds). */
  cluster: PolicyRule[];
  /** For a Role and RoleBinding in each namespace (watches limited to it, the leader Lease). */
  namespaces: Record<string, PolicyRule[]>;
}

/** What {@link rbacRules} reads from a Manager (a Manager fits). */
export interface RbacSource {
  controllers(): readonly Pick<Controller, "access">[];
  readonly cache: { informers(): readonly { kind: KindRef; namespace: string | undefined }[] };
  readonly recorder: unknown;
  readonly leaderElection: { namespace: string; name: string } | undefined;
  /** A sharded Manager's ring: its members' Leases live in `namespace`. */
  readonly sharding?: { namespace: string; ring: string } | undefined;
}

const EVENTS = { group: "events.k8s.io", resource: "events" } as const;
const LEASES = { group: "coordination.k8s.io", resource: "leases" } as const;

/**
 * The least RBAC rules a Manager's controllers need:
 * - `get`, `list`, `watch` on every kind a controller or the cache watches, at cluster scope or
 *   in the namespace the watch is limited to;
 * - the verbs each controller declared on its kinds and their `status`/`finalizers`
 *   subresources (`.owns` defaults to the Builder's create, patch, delete; `.for` gets
 *   `finalizers` update when the controller owns kinds), where the kind is watched;
 * - nothing more for a controller writing with a Builder: a Builder lists and prunes the kinds
 *   the controller owns (watched already) and its `manages`, and reads a ConfigMap or Secret a
 *   workload references by name in the owner's namespace (from a synced informer that holds
 *   it, else one GET): declare that `get` with `.uses(Secret, { verbs: ["get"] })`;
 * - `create`, `patch` on `events.k8s.io` events when the Manager records events (in the
 *   namespaces of the primaries, or cluster-wide);
 * - on the leader Lease's namespace: `create` on leases, and `get`, `update` on that Lease only;
 * - on a sharded Manager's ring namespace: `get`, `list`, `watch`, `create`, `update`,
 *   `delete` on leases (members' Lease names derive from their identities, so they cannot be
 *   listed by name; `delete` clears Leases of crashed members).
 *
 * One rule per resource (and subresource), sorted; verbs in a fixed order. Kinds resolve through
 * the built-in table and `crds` ({@link resourceResolver}); an unknown kind throws.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 * declare const crds: KubeObject[]; // the operator's CustomResourceDefinitions
 *
 * const rules = rbacRules(mgr, { crds });
 * // rules.cluster: [{ apiGroups: ["example.com"], resources: ["greetings"], verbs: ["get", "list", "watch"] }, …]
 * // rules.namespaces["operators"]: the leader Lease's rules
 * ```
 */
export function rbacRules(source: RbacSource, options: { crds?: readonly KubeObject[] } = {}): RbacRules {
  checkObject("rbacRules(source, options)", "source", source, "a Manager or { controllers, cache, recorder, leaderElection }");
  const resolve = resourceResolver(options.crds ?? []);
  const grants = new Map<string, Grant>();
  const grant = (scope: string | undefined, group: string, resource: string, verbs: readonly Verb[], names?: string[]) => {
    if (!verbs.length) return;
    const key = JSON.stringify([scope ?? null, group, resource, names ?? null]);
    let g = grants.get(key);
    if (!g) grants.set(key, g = { scope, group, resource, verbs: new Set(), ...(names ? { names } : {}) });
    for (const v of verbs) g.verbs.add(v);
  };
  const scopeOf = (kind: KindRef, namespace: string | undefined) => (resolve(kind).namespaced ? namespace : undefined);

  const primaryScopes = new Set<string | undefined>();
  for (const c of source.controllers()) {
    for (const [i, use] of c.access.kinds.entries()) {
      const r = resolve(use.kind);
      const scope = scopeOf(use.kind, use.namespace);
      if (i === 0) primaryScopes.add(scope);
      grant(scope, r.group, r.resource, use.watched ? [...WATCH_VERBS, ...use.verbs] : use.verbs);
      grant(scope, r.group, `${r.resource}/status`, use.status);
      grant(scope, r.group, `${r.resource}/finalizers`, use.finalizers);
    }
  }
  for (const informer of source.cache.informers()) {
    const r = resolve(informer.kind);
    grant(scopeOf(informer.kind, informer.namespace), r.group, r.resource, WATCH_VERBS);
  }
  if (source.recorder) {
    const scopes = primaryScopes.has(undefined) ? [undefined] : [...primaryScopes];
    for (const scope of scopes) grant(scope, EVENTS.group, EVENTS.resource, ["create", "patch"]);
  }
  const le = source.leaderElection;
  if (le) {
    grant(le.namespace, LEASES.group, LEASES.resource, ["create"]);
    grant(le.namespace, LEASES.group, LEASES.resource, ["get", "update"], [le.name]);
  }
  const sh = source.sharding;
  if (sh) grant(sh.namespace, LEASES.group, LEASES.resource, ["get", "list", "watch", "create", "update", "delete"]);
  return toRules([...grants.values()]);
}

interface Grant {
  scope: string | undefined;
  group: string;
  resource: string;
  verbs: Set<Verb>;
  names?: string[];
}

/** Grants as rules: namespaced verbs a cluster rule already grants are dropped; sorted. */
function toRules(grants: Grant[]): RbacRules {
  const clusterVerbs = new Map<string, Set<Verb>>();
  for (const g of grants) if (g.scope === undefined && !g.names) clusterVerbs.set(`${g.group}|${g.resource}`, g.verbs);
  const cluster: PolicyRule[] = [];
  const namespaces: Record<string, PolicyRule[]> = {};
  const sorted = [...grants].sort((a, b) => compare(a.group, b.group) || compare(a.resource, b.resource) || compare(a.names?.join(",") ?? "", b.names?.join(",") ?? ""));
  for (const g of sorted) {
    const covered = g.scope === undefined ? undefined : clusterVerbs.get(`${g.group}|${g.resource}`);
    const verbs = VERBS.filter((v) => g.verbs.has(v) && !covered?.has(v));
    if (!verbs.length) continue;
    const rule: PolicyRule = { apiGroups: [g.group], resources: [g.resource], verbs, ...(g.names ? { resourceNames: g.names } : {}) };
    if (g.scope === undefined) cluster.push(rule);
    else (namespaces[g.scope] ??= []).push(rule);
  }
  return { cluster, namespaces: Object.fromEntries(Object.entries(namespaces).sort(([a], [b]) => compare(a, b))) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
