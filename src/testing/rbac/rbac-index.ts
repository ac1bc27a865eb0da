/**
 * The RBAC objects the authorizer reads — Roles, ClusterRoles and their bindings — kept parsed
 * and up to date from the store's changes, so authorizing a request reads no JSON and walks only
 * the bindings of the request's namespace (and the cluster's).
 */
import type { Change, ObjectStore } from "../object-store.ts";
import type { PolicyRule } from "./policy-rule.ts";

/** The API group of the RBAC kinds. */
export const RBAC_GROUP = "rbac.authorization.k8s.io";

/** A subject of a binding. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

/** A binding's reference to its role. */
export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** A Role or ClusterRole, as the authorizer reads it. */
export interface RoleEntry {
  readonly namespace: string;
  readonly name: string;
  readonly rules: readonly PolicyRule[];
}

/** A RoleBinding or ClusterRoleBinding, as the authorizer reads it. */
export interface BindingEntry {
  readonly namespace: string;
  readonly name: string;
  readonly subjects: readonly Subject[];
  readonly roleRef: RoleRef;
}

type Kind = "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings";

const KINDS: ReadonlyMap<string, Kind> = new Map(
  (["roles", "clusterroles", "rolebindings", "clusterrolebindings"] as const).map((k) => [`${RBAC_GROUP}/${k}`, k]),
);

/** namespace → name → entry, with each namespace's entries sorted by name on demand. */
class Table<T extends { namespace: string; name: string }> {
  readonly #byNamespace = new Map<string, Map<string, T>>();
  readonly #sorted = new Map<string, readonly T[]>();

  set(entry: T): void {
    let names = this.#byNamespace.get(entry.namespace);
    if (!names) this.#byNamespace.set(entry.namespace, (names = new Map()));
    names.set(entry.name, entry);
    this.#sorted.delete(entry.namespace);
  }

  delete(namespace: string, name: string): void {
    this.#byNamespace.get(namespace)?.delete(name);
    this.#sorted.delete(namespace);
  }

  get(namespace: string, name: string): T | undefined {
    return this.#byNamespace.get(namespace)?.get(name);
  }

  /** The entries of one namespace ("" for cluster-scoped ones), by name. */
  in(namespace: string): readonly T[] {
    let sorted = this.#sorted.get(namespace);
    if (!sorted) {
      sorted = [...(this.#byNamespace.get(namespace)?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.#sorted.set(namespace, sorted);
    }
    return sorted;
  }
}

/** Parsed RBAC objects, following the store. */
export class RbacIndex {
  readonly roles = new Table<RoleEntry>();
  readonly clusterRoles = new Table<RoleEntry>();
  readonly roleBindings = new Table<BindingEntry>();
  readonly clusterRoleBindings = new Table<BindingEntry>();

  /** Starts following `store` (it holds no RBAC objects yet, or they are read now). */
  constructor(store: ObjectStore) {
    for (const key of KINDS.keys()) for (const o of store.list(key)) this.#apply(key, o.object(), false);
    store.onChange((change) => this.#onChange(change));
  }

  #onChange(change: Change): void {
    if (!KINDS.has(change.object.storageKey)) return;
    this.#apply(change.object.storageKey, change.object.object(), change.type === "DELETED");
  }

  #apply(key: string, obj: Record<string, any>, deleted: boolean): void {
    const kind = KINDS.get(key)!;
    const namespace: string = obj.metadata?.namespace ?? "";
    const name: string = obj.metadata?.name ?? "";
    const table: Table<any> = kind === "roles" ? this.roles : kind === "clusterroles" ? this.clusterRoles
      : kind === "rolebindings" ? this.roleBindings : this.clusterRoleBindings;
    if (deleted) {
      table.delete(namespace, name);
      return;
    }
    if (kind === "roles" || kind === "clusterroles") {
      table.set({ namespace, name, rules: Array.isArray(obj.rules) ? obj.rules : [] });
    } else {
      table.set({ namespace, name, subjects: Array.isArray(obj.subjects) ? obj.subjects : [], roleRef: obj.roleRef ?? {} });
    }
  }
}
