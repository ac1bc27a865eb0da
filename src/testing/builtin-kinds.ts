/**
 * The built-in kinds LocalCluster serves, with the discovery facts a real API server reports.
 *
 * The resources, their scope, verbs and `status` / `scale` subresources are read from
 * kube-apiserver v1.36.2's own Swagger document (`builtinSwagger().paths`: each operation's
 * `x-kubernetes-action` and `x-kubernetes-group-version-kind`); what the document does not say
 * (short names, categories, whether `metadata.generation` is kept, shared storage, …) comes from
 * the {@link OVERRIDES} table, as kube-apiserver's discovery and registry strategies report it.
 *
 * Left out, because they need machinery LocalCluster does not have (see {@link EXCLUDED}):
 * ComponentStatus (computed from component health, read-only), Binding (`pods/binding`,
 * `namespaces/{ns}/bindings`: a scheduler action on a Pod), TokenReview (token authentication),
 * and the subresources other than `status`, `scale` and `namespaces/{name}/finalize`
 * (`pods/log|exec|attach|portforward|proxy|eviction|ephemeralcontainers|resize`,
 * `services|nodes/proxy`, `serviceaccounts/token`, `certificatesigningrequests/approval`).
 */
import type { ListTypeLookup, ResourceType } from "./resource-type.ts";
import { builtinListType } from "./patch/merge-keys.ts";
import { builtinSwagger } from "./openapi/builtin-openapi.ts";

/** Facts the Swagger document does not carry, by `group/version/plural` (or `group/plural` for every version). */
interface Override {
  shortNames?: string[];
  categories?: string[];
  hasGeneration?: boolean;
  requireResourceVersion?: boolean;
  storageKey?: string;
  /** The version objects are stored at, when another version shares the storage. */
  storageVersion?: string;
  verbs?: string[];
}

const ALL: string[] = ["all"];
const API_EXTENSIONS: string[] = ["api-extensions"];

/**
 * Per resource (`group/plural`, core group as `/plural`): short names and categories as
 * kube-apiserver v1.36.2's discovery lists them; `hasGeneration` where the registry strategy
 * sets `metadata.generation` to 1 on create and bumps it on spec changes.
 */
const OVERRIDES: Readonly<Record<string, Override>> = {
  "/configmaps": { shortNames: ["cm"] },
  "/endpoints": { shortNames: ["ep"] },
  "/events": { shortNames: ["ev"], storageKey: "events" },
  "/limitranges": { shortNames: ["limits"] },
  "/namespaces": { shortNames: ["ns"] },
  "/nodes": { shortNames: ["no"] },
  "/persistentvolumeclaims": { shortNames: ["pvc"] },
  "/persistentvolumes": { shortNames: ["pv"] },
  "/pods": { shortNames: ["po"], categories: ALL, hasGeneration: true },
  "/replicationcontrollers": { shortNames: ["rc"], categories: ALL, hasGeneration: true },
  "/resourcequotas": { shortNames: ["quota"] },
  "/serviceaccounts": { shortNames: ["sa"] },
  "/services": { shortNames: ["svc"], categories: ALL },
  "admissionregistration.k8s.io/mutatingadmissionpolicies": { categories: API_EXTENSIONS, hasGeneration: true },
  "admissionregistration.k8s.io/mutatingadmissionpolicybindings": { categories: API_EXTENSIONS, hasGeneration: true },
  "admissionregistration.k8s.io/mutatingwebhookconfigurations": { categories: API_EXTENSIONS, hasGeneration: true },
  "admissionregistration.k8s.io/validatingadmissionpolicies": { categories: API_EXTENSIONS, hasGeneration: true },
  "admissionregistration.k8s.io/validatingadmissionpolicybindings": { categories: API_EXTENSIONS, hasGeneration: true },
  "admissionregistration.k8s.io/validatingwebhookconfigurations": { categories: API_EXTENSIONS, hasGeneration: true },
  "apiextensions.k8s.io/customresourcedefinitions": {
    shortNames: ["crd", "crds"], categories: API_EXTENSIONS, hasGeneration: true, requireResourceVersion: true,
  },
  "apiregistration.k8s.io/apiservices": { categories: API_EXTENSIONS },
  "apps/daemonsets": { shortNames: ["ds"], categories: ALL, hasGeneration: true },
  "apps/deployments": { shortNames: ["deploy"], categories: ALL, hasGeneration: true },
  "apps/replicasets": { shortNames: ["rs"], categories: ALL, hasGeneration: true },
  "apps/statefulsets": { shortNames: ["sts"], categories: ALL, hasGeneration: true },
  // autoscaling/v1 and v2 are two views of one storage (kept at v2).
  "autoscaling/horizontalpodautoscalers": { shortNames: ["hpa"], categories: ALL, hasGeneration: true, storageVersion: "v2" },
  "batch/cronjobs": { shortNames: ["cj"], categories: ALL, hasGeneration: true },
  "batch/jobs": { categories: ALL, hasGeneration: true },
  "certificates.k8s.io/certificatesigningrequests": { shortNames: ["csr"] },
  "coordination.k8s.io/leases": { requireResourceVersion: true },
  "discovery.k8s.io/endpointslices": { hasGeneration: true },
  "events.k8s.io/events": { shortNames: ["ev"], storageKey: "events" },
  "flowcontrol.apiserver.k8s.io/flowschemas": { hasGeneration: true },
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": { hasGeneration: true },
  "networking.k8s.io/ingressclasses": { hasGeneration: true },
  "networking.k8s.io/ingresses": { shortNames: ["ing"], hasGeneration: true },
  "networking.k8s.io/ipaddresses": { shortNames: ["ip"] },
  "networking.k8s.io/networkpolicies": { shortNames: ["netpol"], hasGeneration: true },
  "policy/poddisruptionbudgets": { shortNames: ["pdb"], hasGeneration: true },
  "resource.k8s.io/deviceclasses": { hasGeneration: true },
  "resource.k8s.io/resourceslices": { hasGeneration: true },
  "scheduling.k8s.io/priorityclasses": { shortNames: ["pc"] },
  "storage.k8s.io/storageclasses": { shortNames: ["sc"] },
  "storage.k8s.io/volumeattributesclasses": { shortNames: ["vac"] },
};

/**
 * Resources of the Swagger document LocalCluster does not serve, by `group/plural`, and why.
 * Subresources other than `status` and `scale` are never served.
 */
export const EXCLUDED: Readonly<Record<string, string>> = {
  "/componentstatuses": "virtual: computed from the health of control-plane components, read-only",
  "/bindings": "a scheduler action on a Pod, not a stored object",
  "authentication.k8s.io/tokenreviews": "needs bearer-token authentication of the reviewed token",
};

/**
 * The API groups in the order kube-apiserver v1.36.2 lists them (`/apis`): kube-aggregator's
 * group priorities. Groups of custom resources follow, by name.
 */
export const BUILTIN_GROUP_ORDER: readonly string[] = [
  "apiregistration.k8s.io", "apps", "events.k8s.io", "authentication.k8s.io", "authorization.k8s.io", "autoscaling",
  "batch", "certificates.k8s.io", "networking.k8s.io", "policy", "rbac.authorization.k8s.io", "storage.k8s.io",
  "admissionregistration.k8s.io", "apiextensions.k8s.io", "scheduling.k8s.io", "coordination.k8s.io", "node.k8s.io",
  "discovery.k8s.io", "resource.k8s.io", "flowcontrol.apiserver.k8s.io",
];

/** Swagger `x-kubernetes-action` → API verb. */
const ACTION_VERBS: Readonly<Record<string, string>> = {
  get: "get", list: "list", watch: "watch", watchlist: "watch", post: "create", put: "update", patch: "patch",
  delete: "delete", deletecollection: "deletecollection",
};

/** What the Swagger paths say about one resource. */
export interface SwaggerResource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  verbs: Set<string>;
  subresources: Set<string>;
}

let derived: SwaggerResource[] | undefined;

/**
 * The resources (not subresources) of kube-apiserver v1.36.2's Swagger document, with scope,
 * verbs and subresource names, in the document's path order.
 *
 * @example
 * ```ts
 * swaggerResources().find((r) => r.plural === "jobs"); // → { group: "batch", kind: "Job", namespaced: true, … }
 * ```
 */
export function swaggerResources(): SwaggerResource[] {
  if (derived) return derived;
  const byKey = new Map<string, SwaggerResource>();
  for (const [path, item] of Object.entries(builtinSwagger().paths)) {
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(.*)$/.exec(path);
    if (!m) continue;
    const group = m[2] ?? "";
    const version = m[1] ?? m[3]!;
    let rest = m[4]!.split("/");
    if (rest[0] === "watch") rest = rest.slice(1);
    let namespaced = false;
    if (rest[0] === "namespaces" && rest[1] === "{namespace}" && rest.length > 2) {
      namespaced = true;
      rest = rest.slice(2);
    }
    const [plural, name, sub] = rest;
    if (!plural || plural.startsWith("{") || rest.length > 3 || (name !== undefined && !name.startsWith("{"))) continue;
    const key = `${group}/${version}/${plural}`;
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters" || typeof op !== "object" || op === null) continue;
      const action = (op as Record<string, unknown>)["x-kubernetes-action"] as string | undefined;
      const gvk = (op as Record<string, unknown>)["x-kubernetes-group-version-kind"] as { kind: string } | undefined;
      if (action === undefined || gvk === undefined) continue;
      let r = byKey.get(key);
      if (!r) {
        r = { group, version, kind: "", plural, namespaced, verbs: new Set(), subresources: new Set() };
        byKey.set(key, r);
      }
      r.namespaced ||= namespaced;
      if (sub !== undefined) {
        r.subresources.add(sub);
        continue;
      }
      r.kind ||= gvk.kind;
      const verb = ACTION_VERBS[action];
      if (verb) r.verbs.add(verb);
    }
  }
  derived = [...byKey.values()].filter((r) => r.kind !== "");
  return derived;
}

function overrideOf(group: string, plural: string): Override {
  const key = `${group}/${plural}`;
  return Object.hasOwn(OVERRIDES, key) ? OVERRIDES[key]! : {};
}

function toResourceType(r: SwaggerResource): ResourceType {
  const o = overrideOf(r.group, r.plural);
  const listType: ListTypeLookup = builtinListType(r.kind, r.group === "" ? r.version : `${r.group}/${r.version}`);
  const storageVersion = o.storageVersion !== undefined && o.storageVersion !== r.version ? o.storageVersion : undefined;
  const scaled = r.subresources.has("scale");
  return {
    group: r.group,
    version: r.version,
    kind: r.kind,
    plural: r.plural,
    singular: r.kind.toLowerCase(),
    namespaced: r.namespaced,
    shortNames: o.shortNames ?? [],
    categories: o.categories ?? [],
    verbs: o.verbs ?? [...r.verbs].sort(),
    status: r.subresources.has("status"),
    scale: scaled
      ? { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" }
      : undefined,
    builtin: true,
    hasGeneration: o.hasGeneration ?? false,
    requireResourceVersion: o.requireResourceVersion ?? false,
    storageKey: o.storageKey ?? `${r.group}/${r.plural}`,
    printerColumns: [],
    schema: undefined,
    listType,
    ...(storageVersion !== undefined ? { storageVersion } : {}),
  };
}

/** Kube version order (GA > beta > alpha, higher first). */
function versionRank(v: string): number {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return 0;
  const level = m[2] === undefined ? 3 : m[2] === "beta" ? 2 : 1;
  return level * 1e6 + Number(m[1]) * 1e3 + Number(m[3] ?? 0);
}

/**
 * The built-in resource types, in discovery order: groups as kube-apiserver lists them
 * ({@link BUILTIN_GROUP_ORDER}, core first), preferred version first, resources by name.
 */
export function builtinResourceTypes(): ResourceType[] {
  const groupRank = (g: string) => (g === "" ? -1 : BUILTIN_GROUP_ORDER.indexOf(g));
  const served = swaggerResources().filter((r) => {
    if (Object.hasOwn(EXCLUDED, `${r.group}/${r.plural}`)) return false;
    // Create-only kinds other than the reviews LocalCluster answers (auth/reviews.ts).
    return !(r.verbs.size === 1 && r.verbs.has("create") && !r.kind.endsWith("Review"));
  });
  served.sort((a, b) => groupRank(a.group) - groupRank(b.group) || versionRank(b.version) - versionRank(a.version)
    || (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
  return served.map(toResourceType);
}
