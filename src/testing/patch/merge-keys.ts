/**
 * How the lists of built-in kinds merge, for strategic merge patch and server-side apply.
 *
 * Mirrors the `patchMergeKey` / `listType` / `listMapKey` markers of the Kubernetes Go types
 * for the fields operators commonly touch. Any list not in the table is atomic.
 *
 * @module
 */

import type { ListType, ListTypeLookup } from "../resource-type.ts";

/** One row: the server-side apply list type and, when it differs, the strategic merge key. */
interface ListRule {
  listType: ListType;
  /** The single `patchMergeKey`, when the SSA keys are a compound key. */
  mergeKey?: string;
}

const ATOMIC: ListType = { type: "atomic" };

function mapBy(keys: string[], mergeKey?: string): ListRule {
  return mergeKey === undefined ? { listType: { type: "map", keys } } : { listType: { type: "map", keys }, mergeKey };
}

/** Lists of a single container (`containers[]`, `initContainers[]`, `ephemeralContainers[]`). */
const CONTAINER_RULES: Record<string, ListRule> = {
  env: mapBy(["name"]),
  ports: mapBy(["containerPort", "protocol"], "containerPort"),
  volumeMounts: mapBy(["mountPath"]),
  volumeDevices: mapBy(["devicePath"]),
};

/** Lists of a PodSpec, relative to the PodSpec. */
const POD_SPEC_RULES: Record<string, ListRule> = {
  volumes: mapBy(["name"]),
  imagePullSecrets: mapBy(["name"]),
  hostAliases: mapBy(["ip"]),
  topologySpreadConstraints: mapBy(["topologyKey", "whenUnsatisfiable"], "topologyKey"),
  resourceClaims: mapBy(["name"]),
  schedulingGates: mapBy(["name"]),
  tolerations: { listType: ATOMIC },
  ...Object.fromEntries(
    ["containers", "initContainers", "ephemeralContainers"].flatMap((field) => [
      [field, mapBy(["name"])],
      ...Object.entries(CONTAINER_RULES).map(([sub, rule]) => [`${field}.${sub}`, rule]),
    ]),
  ),
};

/** Where the PodSpec sits inside each workload kind. */
const POD_SPEC_PATHS: Record<string, string> = {
  Pod: "spec",
  PodTemplate: "template.spec",
  ReplicationController: "spec.template.spec",
  Deployment: "spec.template.spec",
  StatefulSet: "spec.template.spec",
  ReplicaSet: "spec.template.spec",
  DaemonSet: "spec.template.spec",
  Job: "spec.template.spec",
  CronJob: "spec.jobTemplate.spec.template.spec",
};

/** Kind-specific lists outside a PodSpec. */
const KIND_RULES: Record<string, Record<string, ListRule>> = {
  Service: { "spec.ports": mapBy(["port", "protocol"], "port") },
  ServiceAccount: { secrets: mapBy(["name"]), imagePullSecrets: { listType: ATOMIC } },
  StatefulSet: { "spec.volumeClaimTemplates": { listType: ATOMIC } },
};

/** Lists every kind has. */
const COMMON_RULES: Record<string, ListRule> = {
  "metadata.ownerReferences": mapBy(["uid"]),
  "metadata.finalizers": { listType: { type: "set" } },
};

const CONDITIONS_RULE = mapBy(["type"]);

const tables = new Map<string, Map<string, ListRule>>();

function tableFor(kind: string): Map<string, ListRule> {
  let table = tables.get(kind);
  if (table === undefined) {
    table = new Map(Object.entries(COMMON_RULES));
    const podSpec = POD_SPEC_PATHS[kind];
    if (podSpec !== undefined) {
      for (const [path, rule] of Object.entries(POD_SPEC_RULES)) table.set(`${podSpec}.${path}`, rule);
    }
    for (const [path, rule] of Object.entries(KIND_RULES[kind] ?? {})) table.set(path, rule);
    tables.set(kind, table);
  }
  return table;
}

function ruleFor(kind: string, path: readonly string[]): ListRule | undefined {
  const rule = tableFor(kind).get(path.join("."));
  if (rule !== undefined) return rule;
  // `conditions` lists (status.conditions of every kind) are keyed by `type`.
  if (path.length > 0 && path[path.length - 1] === "conditions") return CONDITIONS_RULE;
  return undefined;
}

/**
 * The list merge behaviour of a built-in kind, as a {@link ListTypeLookup}.
 *
 * `path` is the chain of field names from the object root with list indices removed, e.g.
 * `["spec", "template", "spec", "containers", "env"]` for a Deployment's container env.
 * Map lists report their server-side apply keys (`ports` in a container is keyed by
 * `containerPort` + `protocol`); use {@link strategicMergeKey} for the single strategic merge
 * key. Unknown kinds and paths are atomic.
 *
 * @example
 * ```ts
 * builtinListType("Pod")(["spec", "containers"]); // { type: "map", keys: ["name"] }
 * builtinListType("Pod")(["metadata", "finalizers"]); // { type: "set" }
 * builtinListType("Pod")(["spec", "tolerations"]); // { type: "atomic" }
 * ```
 */
export function builtinListType(kind: string): ListTypeLookup {
  return (path) => ruleFor(kind, path)?.listType ?? ATOMIC;
}

/**
 * The strategic merge `patchMergeKey` of a map list of a built-in kind, or undefined when the
 * list is not merged by key (atomic lists and sets of primitives).
 *
 * Usually the only SSA key; for compound SSA keys it is the key the Go types declare as
 * `patchMergeKey` (`containerPort` for container ports, `port` for Service ports,
 * `topologyKey` for topology spread constraints).
 *
 * @example
 * ```ts
 * strategicMergeKey("Deployment", ["spec", "template", "spec", "containers", "ports"]); // "containerPort"
 * strategicMergeKey("Service", ["spec", "ports"]); // "port"
 * ```
 */
export function strategicMergeKey(kind: string, path: readonly string[]): string | undefined {
  const rule = ruleFor(kind, path);
  if (rule === undefined || rule.listType.type !== "map") return undefined;
  return rule.mergeKey ?? rule.listType.keys[0];
}
