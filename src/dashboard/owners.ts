/**
 * The owners tree: each primary of a controller with the objects it owns, as the caches hold
 * them, and what the Builder did (or plans to do) with each.
 */
import type { KubeObject } from "../client/types.ts";
import type { Informer } from "../cache/types.ts";
import { ownedIn } from "../cache/owner-index.ts";
import { NotOwnedError } from "../errors.ts";
import type { ObjectResult } from "../controller/results.ts";
import type { ChildAction, ChildNode, ChildState, OwnerNode, ReconcileOutcome } from "./types.ts";
import type { Trigger } from "../controller/triggers.ts";

/** The last Builder pass of a key: its objects, and whether it was a plan. */
export interface BuilderPass {
  at: number;
  planned: boolean;
  objects: readonly ObjectResult[];
}

/** What the tree is built from. */
export interface OwnersInput {
  controller: string;
  /** The controller's primary informer. */
  primary: Informer;
  /** Every informer whose objects may be children or grandchildren (deduplicated by the caller). */
  informers: readonly Informer[];
  /** The last Builder pass per key. */
  passes: ReadonlyMap<string, BuilderPass>;
  /** The last reconcile per key. */
  lastRuns: ReadonlyMap<string, { seq: number; outcome: ReconcileOutcome; endedAt?: number; trigger: Trigger }>;
  /** At most this many primaries (default 2,000). */
  limit?: number;
}

/** Grandchildren shown per child at most. */
const MAX_GRANDCHILDREN = 50;

/**
 * The primaries of a controller (sorted by namespace and name), each with its children:
 * the objects of `informers` whose controller owner reference is the primary, plus the objects
 * the last Builder pass named but the caches do not hold (pruned, failed, or foreign ones),
 * and, one level down, the children of each child that the caches hold (a StatefulSet's Pods).
 *
 * @example
 * ```ts
 * declare const input: OwnersInput;
 * const tree = ownersTree(input);
 * console.log(tree[0]?.children.map((c) => `${c.kind}/${c.name} ${c.action}`));
 * ```
 */
export function ownersTree(input: OwnersInput): OwnerNode[] {
  const primaries = [...input.primary.list()].sort(byName).slice(0, input.limit ?? 2000);
  return primaries.map((p) => ownerNode(p, input));
}

function ownerNode(primary: KubeObject, input: OwnersInput): OwnerNode {
  const m = primary.metadata ?? {};
  const namespace = m.namespace ?? "";
  const key = namespace ? `${namespace}/${m.name}` : (m.name ?? "");
  const kind = { apiVersion: primary.apiVersion ?? input.primary.kind.apiVersion, kind: primary.kind ?? input.primary.kind.kind };
  const pass = input.passes.get(key);
  const last = input.lastRuns.get(key);
  const { state, detail } = stateOf(primary, kind.kind);
  const children = m.uid ? childrenOf(m.uid, namespace, input, pass) : [];
  return {
    ...kind, namespace, name: m.name ?? "", controller: input.controller, key, state,
    ...(m.uid ? { uid: m.uid } : {}), ...(m.generation !== undefined ? { generation: m.generation } : {}),
    ...(detail ? { detail } : {}), ...(last ? { last } : {}), children,
  };
}

function childrenOf(ownerUid: string, namespace: string, input: OwnersInput, pass: BuilderPass | undefined): ChildNode[] {
  const nodes: ChildNode[] = [];
  const seen = new Set<string>();
  const results = new Map<string, ObjectResult>();
  for (const r of pass?.objects ?? []) results.set(refKey(r.kind, r.namespace ?? namespace, r.name), r);
  for (const informer of input.informers) {
    for (const obj of ownedIn(informer, ownerUid, undefined)) {
      const kind = obj.kind ?? informer.kind.kind;
      const apiVersion = obj.apiVersion ?? informer.kind.apiVersion;
      const k = refKey(kind, obj.metadata?.namespace ?? "", obj.metadata?.name ?? "");
      if (seen.has(k)) continue;
      seen.add(k);
      const node = childNode(obj, apiVersion, kind, results.get(k), pass);
      const uid = obj.metadata?.uid;
      if (uid) node.children = grandchildren(uid, input.informers);
      nodes.push(node);
    }
  }
  // What the Builder named that the caches do not hold as this owner's: pruned, failed, foreign.
  for (const [k, r] of results) {
    if (seen.has(k) || r.name === "*") continue;
    const foreign = r.error instanceof NotOwnedError;
    const live = foreign ? findLive(input.informers, r.kind, r.namespace ?? namespace, r.name) : undefined;
    nodes.push({
      apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? namespace, name: r.name,
      ...(live?.metadata?.uid ? { uid: live.metadata.uid } : {}),
      state: live ? stateOf(live, r.kind).state : "unknown",
      action: actionOf(r), ...(reasonOf(r) ? { reason: reasonOf(r) } : {}),
      ...(pass?.planned ? { planned: true } : {}), ...(live ? {} : { missing: true }), children: [],
    });
  }
  return nodes.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function grandchildren(uid: string, informers: readonly Informer[]): ChildNode[] {
  const out: ChildNode[] = [];
  for (const informer of informers) {
    for (const obj of ownedIn(informer, uid, undefined)) {
      if (out.length >= MAX_GRANDCHILDREN) return out;
      const kind = obj.kind ?? informer.kind.kind;
      const { state, detail } = stateOf(obj, kind);
      const m = obj.metadata ?? {};
      out.push({
        apiVersion: obj.apiVersion ?? informer.kind.apiVersion, kind, namespace: m.namespace ?? "", name: m.name ?? "",
        ...(m.uid ? { uid: m.uid } : {}), state, ...(detail ? { detail } : {}), action: "unmanaged", children: [],
      });
    }
  }
  return out.sort(byNode);
}

function childNode(obj: KubeObject, apiVersion: string, kind: string, result: ObjectResult | undefined, pass: BuilderPass | undefined): ChildNode {
  const m = obj.metadata ?? {};
  const { state, detail } = stateOf(obj, kind);
  const hashes = configHashes(obj);
  const action: ChildAction = result ? actionOf(result) : pass ? "unmanaged" : "unknown";
  const reason = result ? reasonOf(result) : undefined;
  return {
    apiVersion, kind, namespace: m.namespace ?? "", name: m.name ?? "", ...(m.uid ? { uid: m.uid } : {}),
    state, ...(detail ? { detail } : {}), ...(hashes ? { configHashes: hashes } : {}),
    action, ...(reason ? { reason } : {}), ...(result && pass?.planned ? { planned: true } : {}), children: [],
  };
}

/** The Builder's action, as the tree names it. */
export function actionOf(r: ObjectResult): ChildAction {
  switch (r.action) {
    case "unchanged": return "keep";
    case "created": return "create";
    case "updated": return "update";
    case "deleted": return "prune";
    case "waiting": return "wait";
    case "failed": return r.error instanceof NotOwnedError ? "foreign" : "failed";
  }
  return "unknown";
}

function reasonOf(r: ObjectResult): string | undefined {
  if (r.action === "failed" && r.error) return r.error.message;
  return r.reason;
}

/** How an object looks: ready, progressing, failed, deleting, or unknown, with a short detail. */
export function stateOf(obj: KubeObject, kind: string): { state: ChildState; detail?: string } {
  if (obj.metadata?.deletionTimestamp) return { state: "deleting", detail: "being deleted" };
  const spec = (obj as { spec?: Record<string, unknown> }).spec ?? {};
  const status = (obj as { status?: Record<string, unknown> }).status ?? {};
  const num = (v: unknown, d: number) => (typeof v === "number" ? v : d);
  if (kind === "Deployment" || kind === "StatefulSet" || kind === "ReplicaSet") {
    const want = num(spec.replicas, 1);
    const ready = num(status.readyReplicas, 0);
    const updated = num(status.updatedReplicas, kind === "ReplicaSet" ? ready : 0);
    const observed = num(status.observedGeneration, 0) >= num(obj.metadata?.generation, 0);
    const done = observed && ready >= want && updated >= want;
    return { state: done ? "ready" : "progressing", detail: `${ready}/${want} ready` };
  }
  if (kind === "Pod") {
    const phase = typeof status.phase === "string" ? status.phase : "Pending";
    const conditions = Array.isArray(status.conditions) ? (status.conditions as { type?: string; status?: string }[]) : [];
    const ready = conditions.some((c) => c.type === "Ready" && c.status === "True");
    if (phase === "Failed") return { state: "failed", detail: phase };
    if (phase === "Succeeded") return { state: "ready", detail: phase };
    return { state: phase === "Running" && ready ? "ready" : "progressing", detail: ready ? `${phase}, ready` : phase };
  }
  if (kind === "PersistentVolumeClaim") {
    const phase = typeof status.phase === "string" ? status.phase : "Pending";
    return { state: phase === "Bound" ? "ready" : phase === "Lost" ? "failed" : "progressing", detail: phase };
  }
  if (kind === "Job") {
    if (num(status.failed, 0) > 0 && !num(status.succeeded, 0)) return { state: "failed", detail: `${num(status.failed, 0)} failed` };
    return { state: num(status.succeeded, 0) > 0 ? "ready" : "progressing", detail: `${num(status.succeeded, 0)} succeeded` };
  }
  const conditions = Array.isArray(status.conditions) ? (status.conditions as { type?: string; status?: string; reason?: string }[]) : [];
  const ready = conditions.find((c) => c.type === "Ready" || c.type === "Available");
  if (ready) {
    if (ready.status === "True") return { state: "ready", detail: `${ready.type}` };
    return { state: ready.reason === "InvalidSpec" || ready.reason === "ReconcileFailed" ? "failed" : "progressing", detail: `${ready.type}=${ready.status}${ready.reason ? ` (${ready.reason})` : ""}` };
  }
  if (["ConfigMap", "Secret", "Service", "ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding", "PodDisruptionBudget", "Ingress", "NetworkPolicy"].includes(kind)) {
    return { state: "ready" };
  }
  return { state: "unknown" };
}

/** The config-hash env vars (`CONFIGMAP_…_HASH`, `SECRET_…_HASH`) of a workload's pod template. */
export function configHashes(obj: KubeObject): Record<string, string> | undefined {
  const template = (obj as { spec?: { template?: { spec?: { containers?: unknown; initContainers?: unknown } } } }).spec?.template?.spec;
  if (!template) return undefined;
  const out: Record<string, string> = {};
  for (const list of [template.initContainers, template.containers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list as { env?: { name?: string; value?: string }[] }[]) {
      for (const e of c.env ?? []) {
        if (e.name && e.value !== undefined && /^(CONFIGMAP|SECRET)_.*_HASH(_[0-9A-F]+)?$/.test(e.name)) out[e.name] = e.value;
      }
    }
  }
  return Object.keys(out).length ? out : undefined;
}

function findLive(informers: readonly Informer[], kind: string, namespace: string, name: string): KubeObject | undefined {
  for (const informer of informers) {
    if (informer.kind.kind !== kind) continue;
    const found = informer.get(name, namespace || undefined);
    if (found) return found;
  }
  return undefined;
}

function refKey(kind: string, namespace: string, name: string): string {
  return `${kind}|${namespace}|${name}`;
}

function byName(a: KubeObject, b: KubeObject): number {
  const ka = `${a.metadata?.namespace ?? ""}/${a.metadata?.name ?? ""}`;
  const kb = `${b.metadata?.namespace ?? ""}/${b.metadata?.name ?? ""}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function byNode(a: ChildNode, b: ChildNode): number {
  return a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
