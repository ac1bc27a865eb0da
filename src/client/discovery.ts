/** Maps apiVersion + kind to the REST resource (group, version, plural, scope) from API discovery. */
import { NotFoundError, OperatorRuntimeError } from "../errors.ts";
import type { KindRef } from "./types.ts";
import type { Transport } from "./transport.ts";

/**
 * Where a kind lives in the REST API.
 *
 * @example
 * ```ts
 * import type { ResourceInfo } from "operator-runtime/client";
 * const deployments: ResourceInfo = { group: "apps", version: "v1", kind: "Deployment", plural: "deployments", namespaced: true };
 * ```
 */
export interface ResourceInfo {
  /** API group; `""` for the core group. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/**
 * Splits an apiVersion into group and version: `"apps/v1"` → `["apps", "v1"]`, `"v1"` → `["", "v1"]`.
 *
 * @example
 * ```ts
 * splitApiVersion("apps/v1"); // ["apps", "v1"]
 * ```
 */
export function splitApiVersion(apiVersion: string): [group: string, version: string] {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? ["", apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/**
 * A small REST mapper over legacy discovery (`/api/v1`, `/apis/{group}/{version}`).
 *
 * Guarantees: one discovery request per group/version while every kind asked for is found;
 * concurrent lookups of one group/version share a request. A kind missing from the cached list
 * triggers one refetch (a CRD may have been created since), then a clear error.
 * Caveats: a kind removed from the server stays cached until {@link Discovery.forget}.
 *
 * @example
 * ```ts
 * import { RequestCounter } from "operator-runtime/client";
 * import { Transport } from "./transport.ts";
 *
 * const discovery = new Discovery(new Transport(kubeConfig, "my-operator", new RequestCounter()));
 * const info = await discovery.resourceFor({ apiVersion: "apps/v1", kind: "Deployment" });
 * // { group: "apps", version: "v1", kind: "Deployment", plural: "deployments", namespaced: true }
 * ```
 */
export class Discovery {
  readonly #transport: Transport;
  readonly #cache = new Map<string, Promise<Map<string, ResourceInfo>>>();

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The resource of a kind; throws OperatorRuntimeError when the server does not serve it. */
  async resourceFor(ref: KindRef): Promise<ResourceInfo> {
    if (!ref.apiVersion || !ref.kind) {
      throw new OperatorRuntimeError(
        `ResourceClient: an object needs apiVersion and kind (got apiVersion "${ref.apiVersion ?? ""}", kind "${ref.kind ?? ""}"): ` +
        `set both, e.g. { apiVersion: "v1", kind: "ConfigMap", … } or spread a kind handle ({ ...ConfigMap, … }); ` +
        `client-node's model constructors (new V1ConfigMap()) leave them unset`,
      );
    }
    const cached = this.#cache.get(ref.apiVersion);
    if (cached) {
      const hit = (await cached).get(ref.kind);
      if (hit) return hit;
      // Refetch once, unless someone else already replaced the entry meanwhile.
      if (this.#cache.get(ref.apiVersion) === cached) this.#cache.delete(ref.apiVersion);
    }
    const found = (await this.#load(ref.apiVersion)).get(ref.kind);
    if (found) return found;
    throw new OperatorRuntimeError(
      `ResourceClient: the server does not serve kind "${ref.kind}" in apiVersion "${ref.apiVersion}". ` +
        "Check the apiVersion and kind spelling; for a custom resource, its CustomResourceDefinition may not be installed (yet).",
    );
  }

  /** Drops cached discovery (one apiVersion, or everything). */
  forget(apiVersion?: string): void {
    if (apiVersion === undefined) this.#cache.clear();
    else this.#cache.delete(apiVersion);
  }

  #load(apiVersion: string): Promise<Map<string, ResourceInfo>> {
    let entry = this.#cache.get(apiVersion);
    if (!entry) {
      entry = this.#fetch(apiVersion);
      this.#cache.set(apiVersion, entry);
      // A failed fetch must not stay cached.
      entry.catch(() => {
        if (this.#cache.get(apiVersion) === entry) this.#cache.delete(apiVersion);
      });
    }
    return entry;
  }

  async #fetch(apiVersion: string): Promise<Map<string, ResourceInfo>> {
    const [group, version] = splitApiVersion(apiVersion);
    const path = group === "" ? `/api/${encodeURIComponent(version)}` : `/apis/${encodeURIComponent(group)}/${encodeURIComponent(version)}`;
    const kinds = new Map<string, ResourceInfo>();
    let body: unknown;
    try {
      body = (await this.#transport.send({ method: "GET", path, verb: "discovery", resource: apiVersion })).body;
    } catch (err) {
      if (err instanceof NotFoundError) return kinds; // group/version not served (yet)
      throw err;
    }
    const resources = ((body as { resources?: ApiResource[] } | undefined)?.resources ?? []);
    for (const r of resources) {
      if (r.name.includes("/") || kinds.has(r.kind)) continue; // subresources; first entry wins
      kinds.set(r.kind, { group, version, kind: r.kind, plural: r.name, namespaced: r.namespaced });
    }
    return kinds;
  }
}
