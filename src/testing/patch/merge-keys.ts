/**
 * How the lists of built-in kinds merge, for strategic merge patch and server-side apply.
 *
 * Read from kube-apiserver v1.36.2's Swagger schemas (the markers of the Kubernetes Go types):
 * `x-kubernetes-list-type` / `x-kubernetes-list-map-keys` for server-side apply, and
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` for strategic merge patch. A
 * list without `x-kubernetes-list-type` is treated as server-side apply's schema converter
 * does: keyed by its patch merge key when its patch strategy merges, a set when it merges
 * without a key, atomic otherwise. Paths the schema does not know are atomic, except a
 * `conditions` list, which is keyed by `type`.
 *
 * @module
 */

import type { ListType, ListTypeLookup } from "../resource-type.ts";
import { builtinDefinitions, definitionOfKind, resolveRef } from "../openapi/builtin-openapi.ts";
import type { SwaggerSchema } from "../openapi/builtin-openapi.ts";

/** One list field: the server-side apply list type and the strategic merge key, if it merges by key. */
interface ListRule {
  listType: ListType;
  /** The `patchMergeKey`, when the patch strategy merges by key. */
  mergeKey?: string;
  /** The patch strategy merges (by key, or as a set of primitives). */
  strategicMerge: boolean;
}

const ATOMIC: ListType = { type: "atomic" };
const CONDITIONS_RULE: ListRule = { listType: { type: "map", keys: ["type"] }, mergeKey: "type", strategicMerge: true };

/** Lists every object has, for kinds without a definition. */
const COMMON_RULES: Readonly<Record<string, ListRule>> = {
  "metadata.ownerReferences": { listType: { type: "map", keys: ["uid"] }, mergeKey: "uid", strategicMerge: true },
  "metadata.finalizers": { listType: { type: "set" }, strategicMerge: true },
};

let kindIndex: Map<string, string[]> | undefined;

/** Definition names by kind, core group first, then GA before beta before alpha. */
function definitionsOfKind(kind: string): string[] {
  if (!kindIndex) {
    kindIndex = new Map();
    for (const [name, schema] of Object.entries(builtinDefinitions())) {
      for (const gvk of schema["x-kubernetes-group-version-kind"] ?? []) {
        if (!name.endsWith(`.${gvk.kind}`)) continue;
        const list = kindIndex.get(gvk.kind) ?? [];
        if (!list.includes(name)) list.push(name);
        kindIndex.set(gvk.kind, list);
      }
    }
    const rank = (name: string) => {
      const core = name.startsWith("io.k8s.api.core.") ? 0 : 1;
      const level = /\.v\d+alpha\d+\./.test(name) ? 2 : /\.v\d+beta\d+\./.test(name) ? 1 : 0;
      return core * 10 + level;
    };
    for (const list of kindIndex.values()) list.sort((a, b) => rank(a) - rank(b));
  }
  return kindIndex.get(kind) ?? [];
}

/** The definition name of `kind` at `apiVersion` (or its preferred one when no apiVersion is given). */
function definitionFor(kind: string, apiVersion: string | undefined): string | undefined {
  if (apiVersion !== undefined) {
    const i = apiVersion.indexOf("/");
    const found = i < 0 ? definitionOfKind("", apiVersion, kind) : definitionOfKind(apiVersion.slice(0, i), apiVersion.slice(i + 1), kind);
    if (found !== undefined) return found;
  }
  return definitionsOfKind(kind)[0];
}

function deref(node: SwaggerSchema | undefined): SwaggerSchema | undefined {
  let cur = node;
  for (let i = 0; cur?.$ref !== undefined && i < 8; i++) cur = resolveRef(cur.$ref);
  return cur;
}

/** The schema of the field at `path` (list indices removed; map values entered by any key). */
function fieldSchema(definition: string, path: readonly string[]): SwaggerSchema | undefined {
  let node: SwaggerSchema | undefined = builtinDefinitions()[definition];
  for (const seg of path) {
    let cur = deref(node);
    if (cur?.type === "array" && cur.items) cur = deref(cur.items);
    if (!cur) return undefined;
    const props = cur.properties;
    if (props && Object.hasOwn(props, seg)) node = props[seg];
    else if (typeof cur.additionalProperties === "object") node = cur.additionalProperties;
    else return undefined;
  }
  return node;
}

function ruleOfSchema(node: SwaggerSchema): ListRule {
  const strategy = (node["x-kubernetes-patch-strategy"] ?? "").split(",");
  const strategicMerge = strategy.includes("merge");
  let mergeKey = strategicMerge ? node["x-kubernetes-patch-merge-key"] : undefined;
  const mapKeys = node["x-kubernetes-list-map-keys"];
  // A map list without a patch strategy (a CRD's status.conditions) merges by its single key, as
  // LocalCluster always did (kube-apiserver's Go struct tags would replace it).
  if (mergeKey === undefined && node["x-kubernetes-list-type"] === "map" && mapKeys?.length === 1) mergeKey = mapKeys[0];
  const base = mergeKey === undefined ? { strategicMerge } : { mergeKey, strategicMerge: true };
  switch (node["x-kubernetes-list-type"]) {
    case "map":
      return { ...base, listType: { type: "map", keys: mapKeys ?? (mergeKey !== undefined ? [mergeKey] : []) } };
    case "set":
      return { ...base, listType: { type: "set" } };
    case "atomic":
      return { ...base, listType: ATOMIC };
    default:
      if (!strategicMerge) return { ...base, listType: ATOMIC };
      return { ...base, listType: mergeKey !== undefined ? { type: "map", keys: [mergeKey] } : { type: "set" } };
  }
}

const rules = new Map<string, ListRule | null>();

function ruleFor(kind: string, apiVersion: string | undefined, path: readonly string[]): ListRule | undefined {
  const definition = definitionFor(kind, apiVersion);
  const key = `${definition ?? kind}|${path.join(".")}`;
  let rule = rules.get(key);
  if (rule === undefined) {
    rule = null;
    if (definition !== undefined) {
      const node = fieldSchema(definition, path);
      if (node !== undefined) rule = deref(node)?.type === "array" ? ruleOfSchema(node) : null;
      else if (path.length > 0 && path[path.length - 1] === "conditions") rule = CONDITIONS_RULE;
    } else {
      const joined = path.join(".");
      rule = Object.hasOwn(COMMON_RULES, joined) ? COMMON_RULES[joined]! : path[path.length - 1] === "conditions" ? CONDITIONS_RULE : null;
    }
    rules.set(key, rule);
  }
  return rule ?? undefined;
}

/**
 * The list merge behaviour of a built-in kind, as a {@link ListTypeLookup}.
 *
 * `path` is the chain of field names from the object root with list indices removed, e.g.
 * `["spec", "template", "spec", "containers", "env"]` for a Deployment's container env.
 * Map lists report their server-side apply keys (`ports` in a container is keyed by
 * `containerPort` + `protocol`); use {@link strategicMergeKey} for the single strategic merge
 * key. `apiVersion` picks the schema when a kind is served at several (`autoscaling/v1`
 * HorizontalPodAutoscaler); without it the core group's, else the GA version's. Unknown kinds
 * and paths are atomic.
 *
 * @example
 * ```ts
 * builtinListType("Pod")(["spec", "containers"]); // → { type: "map", keys: ["name"] }
 * builtinListType("Pod")(["metadata", "finalizers"]); // → { type: "set" }
 * builtinListType("Pod")(["spec", "tolerations"]); // → { type: "atomic" }
 * ```
 */
export function builtinListType(kind: string, apiVersion?: string): ListTypeLookup {
  return (path) => ruleFor(kind, apiVersion, path)?.listType ?? ATOMIC;
}

/**
 * The strategic merge `patchMergeKey` of a list of a built-in kind, or undefined when the
 * list is not merged by key (its patch strategy is not `merge`, or it is a set of primitives).
 *
 * Usually the only SSA key; for compound SSA keys it is the key the Go types declare as
 * `patchMergeKey` (`containerPort` for container ports, `port` for Service ports,
 * `topologyKey` for topology spread constraints). It may differ from the SSA list type: a
 * Job's `status.conditions` is atomic for server-side apply but merges by `type`.
 *
 * @example
 * ```ts
 * strategicMergeKey("Deployment", ["spec", "template", "spec", "containers", "ports"]); // → "containerPort"
 * strategicMergeKey("Service", ["spec", "ports"]); // → "port"
 * ```
 */
export function strategicMergeKey(kind: string, path: readonly string[], apiVersion?: string): string | undefined {
  return ruleFor(kind, apiVersion, path)?.mergeKey;
}

/**
 * How strategic merge patch treats a list of a built-in kind: merged by key, merged as a set
 * of primitives, or replaced — from the patch strategy alone (server-side apply's list type
 * may differ, see {@link strategicMergeKey}).
 *
 * @example
 * ```ts
 * strategicListType("Job", ["status", "conditions"], "batch/v1"); // → { type: "map", keys: ["type"] }
 * strategicListType("Pod", ["metadata", "finalizers"]); // → { type: "set" }
 * ```
 */
export function strategicListType(kind: string, path: readonly string[], apiVersion?: string): ListType {
  const rule = ruleFor(kind, apiVersion, path);
  if (rule === undefined || !rule.strategicMerge) return ATOMIC;
  return rule.mergeKey !== undefined ? { type: "map", keys: [rule.mergeKey] } : { type: "set" };
}
