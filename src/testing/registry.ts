/**
 * The resource registry: which resources are served, found by URL or by kind, and the
 * discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/{g}/{v}`) that describe them.
 */
import type { ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import { createHash } from "node:crypto";
import { BUILTIN_GROUP_ORDER, builtinResourceTypes } from "./builtin-kinds.ts";

/** Served resources, built-in and from CRDs. */
export class Registry {
  #types: ResourceType[] = [];
  #byPath = new Map<string, ResourceType>();
  /** Discovery documents are cached until the set of types changes. */
  #discoveryCache = new Map<string, string>();

  constructor() {
    for (const t of builtinResourceTypes()) this.add(t);
  }

  /** Every served type. */
  all(): readonly ResourceType[] {
    return this.#types;
  }

  /** Adds (or replaces, by group/version/plural) a served type. */
  add(t: ResourceType): void {
    const key = pathKey(t.group, t.version, t.plural);
    const existing = this.#byPath.get(key);
    if (existing) this.#types = this.#types.filter((x) => x !== existing);
    this.#types.push(t);
    this.#byPath.set(key, t);
    this.#discoveryCache.clear();
  }

  /** Stops serving every version of a CRD's resource (by storage key). */
  removeStorage(storageKey: string): void {
    for (const t of this.#types.filter((x) => x.storageKey === storageKey)) {
      this.#byPath.delete(pathKey(t.group, t.version, t.plural));
    }
    this.#types = this.#types.filter((x) => x.storageKey !== storageKey);
    this.#discoveryCache.clear();
  }

  /** The type served at `/apis/{group}/{version}/{plural}`. */
  byPath(group: string, version: string, plural: string): ResourceType | undefined {
    return this.#byPath.get(pathKey(group, version, plural));
  }

  /** The type for an apiVersion + kind, if served. */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.#types.find((t) => t.kind === kind && apiVersionOf(t) === apiVersion);
  }

  /** All versions sharing one storage. */
  byStorage(storageKey: string): ResourceType[] {
    return this.#types.filter((t) => t.storageKey === storageKey);
  }

  /** Whether any type is served at group/version. */
  hasGroupVersion(group: string, version: string): boolean {
    return this.#types.some((t) => t.group === group && t.version === version);
  }

  /** `GET /api` */
  apiVersions(serverAddress: string): string {
    return this.#cached(`api|${serverAddress}`, () => ({
      kind: "APIVersions",
      versions: ["v1"],
      serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
    }));
  }

  /** `GET /apis` */
  apiGroupList(): string {
    return this.#cached("apis", () => ({
      kind: "APIGroupList",
      apiVersion: "v1",
      groups: this.#groups().map((g) => this.#groupDoc(g)),
    }));
  }

  /** `GET /apis/{group}`, or undefined when not served. */
  apiGroup(group: string): string | undefined {
    if (!this.#groups().includes(group)) return undefined;
    return this.#cached(`group|${group}`, () => ({ kind: "APIGroup", apiVersion: "v1", ...this.#groupDoc(group) }));
  }

  /** `GET /api/v1` or `/apis/{g}/{v}`, or undefined when not served. */
  apiResourceList(group: string, version: string): string | undefined {
    if (group !== "" && !this.hasGroupVersion(group, version)) return undefined;
    if (group === "" && version !== "v1") return undefined;
    return this.#cached(`rl|${group}|${version}`, () => {
      const resources: Record<string, unknown>[] = [];
      // Built-in resources by name, as kube-apiserver lists them (a resource before its
      // subresources, which follow in name order); custom resources after, in the order their
      // CRDs were established.
      const members = this.#types.filter((t) => t.group === group && t.version === version)
        .sort((a, b) => Number(a.builtin === false) - Number(b.builtin === false)
          || (a.builtin && b.builtin ? (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0) : 0));
      for (const t of members) {
        resources.push({
          name: t.plural,
          singularName: t.singular,
          namespaced: t.namespaced,
          kind: t.kind,
          verbs: t.verbs,
          ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
          ...(t.categories.length ? { categories: t.categories } : {}),
          storageVersionHash: storageVersionHash(t),
        });
        const status = { name: `${t.plural}/status`, singularName: "", namespaced: t.namespaced, kind: t.kind, verbs: ["get", "patch", "update"] };
        const scale = {
          name: `${t.plural}/scale`, singularName: "", namespaced: t.namespaced, group: "autoscaling", version: "v1",
          kind: "Scale", verbs: ["get", "patch", "update"],
        };
        if (!t.builtin) {
          // apiextensions-apiserver lists a CRD's subresources status first, then scale.
          if (t.status) resources.push(status);
          if (t.scale) resources.push(scale);
          continue;
        }
        if (t.kind === "Namespace") {
          resources.push({ name: `${t.plural}/finalize`, singularName: "", namespaced: false, kind: t.kind, verbs: ["update"] });
        }
        if (t.scale) resources.push(scale);
        if (t.status) resources.push(status);
      }
      return { kind: "APIResourceList", apiVersion: "v1", groupVersion: apiVersionOf({ group, version }), resources };
    });
  }

  /**
   * Served groups in kube-apiserver's order: built-in groups by their aggregator priority
   * ({@link BUILTIN_GROUP_ORDER}), then custom resource groups (all of equal priority) by
   * their APIService name (`<version>.<group>`).
   */
  #groups(): string[] {
    const groups: string[] = [];
    for (const t of this.#types) if (t.group !== "" && !groups.includes(t.group)) groups.push(t.group);
    const builtinRank = (g: string) => {
      const i = BUILTIN_GROUP_ORDER.indexOf(g);
      return i < 0 ? BUILTIN_GROUP_ORDER.length : i;
    };
    const serviceName = (g: string) => {
      const names = this.#types.filter((t) => t.group === g).map((t) => `${t.version}.${g}`).sort();
      return names[0] ?? g;
    };
    return groups.sort((a, b) => builtinRank(a) - builtinRank(b) || (serviceName(a) < serviceName(b) ? -1 : serviceName(a) > serviceName(b) ? 1 : 0));
  }

  #groupDoc(group: string): Record<string, unknown> {
    const versions = [...new Set(this.#types.filter((t) => t.group === group).map((t) => t.version))];
    versions.sort(compareKubeVersions);
    const gv = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
    return { name: group, versions: gv, preferredVersion: gv[0] };
  }

  #cached(key: string, build: () => unknown): string {
    let doc = this.#discoveryCache.get(key);
    if (doc === undefined) {
      doc = JSON.stringify(build());
      this.#discoveryCache.set(key, doc);
    }
    return doc;
  }
}

function pathKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}

/**
 * kube-apiserver's `storageVersionHash`: the first 8 bytes of the SHA-256 of the storage
 * version's `group/version/kind`, base64 (`/v1/Pod` → `xPOwRZ+Yhw8=`). Every view of one
 * storage (core and events.k8s.io Events, the versions of a CRD) reports the same hash.
 */
function storageVersionHash(t: ResourceType): string {
  const gvk = t.storageKey === "events" ? "/v1/Event" : `${t.group}/${t.storageVersion ?? t.version}/${t.kind}`;
  return createHash("sha256").update(gvk).digest().subarray(0, 8).toString("base64");
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first (v2 > v1 > v1beta2). */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [-1, 0, 0];
    const level = m[2] === undefined ? 3 : m[2] === "beta" ? 2 : 1;
    return [level, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [la, ma, na] = rank(a);
  const [lb, mb, nb] = rank(b);
  if (la !== lb) return lb - la;
  if (ma !== mb) return mb - ma;
  if (na !== nb) return nb - na;
  return a.localeCompare(b);
}
