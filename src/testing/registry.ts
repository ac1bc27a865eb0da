/**
 * The resource registry: which resources are served, found by URL or by kind, and the
 * discovery documents (`/api`, `/apis`, `/api/v1`, `/apis/{g}/{v}`) that describe them.
 */
import type { ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import { builtinResourceTypes } from "./builtin-kinds.ts";

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
      for (const t of this.#types) {
        if (t.group !== group || t.version !== version) continue;
        // client-node picks the first entry whose kind matches: the main resource comes first.
        resources.push({
          name: t.plural,
          singularName: t.singular,
          namespaced: t.namespaced,
          kind: t.kind,
          verbs: t.verbs,
          ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
          ...(t.categories.length ? { categories: t.categories } : {}),
          storageVersionHash: storageHash(t.storageKey),
        });
        if (t.status) {
          resources.push({ name: `${t.plural}/status`, singularName: "", namespaced: t.namespaced, kind: t.kind, verbs: ["get", "patch", "update"] });
        }
        if (t.scale) {
          resources.push({
            name: `${t.plural}/scale`, singularName: "", namespaced: t.namespaced, group: "autoscaling", version: "v1",
            kind: "Scale", verbs: ["get", "patch", "update"],
          });
        }
      }
      return { kind: "APIResourceList", apiVersion: "v1", groupVersion: apiVersionOf({ group, version }), resources };
    });
  }

  #groups(): string[] {
    const groups: string[] = [];
    for (const t of this.#types) if (t.group !== "" && !groups.includes(t.group)) groups.push(t.group);
    return groups;
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

function storageHash(key: string): string {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return Buffer.from(String(h >>> 0)).toString("base64").slice(0, 11);
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
