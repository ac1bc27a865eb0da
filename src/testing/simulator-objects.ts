/**
 * What the simulator's controllers share: the resource types they touch, writes through the
 * `Writer` as the `localcluster-simulator` manager, and the small facts they read from
 * objects (controller owner, Pod readiness, template hashes).
 */
import { sortedKeysJson } from "./json-value.ts";
import { createHash } from "node:crypto";
import type { ApiContext } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { KubeObject, OwnerReference, ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import { wholeSeconds } from "./views/events.ts";

/** Field manager recorded on every simulator write. */
export const SIMULATOR_MANAGER = "localcluster-simulator";

/** The built-in types the simulator reads and writes. */
export interface SimulatedTypes {
  pod: ResourceType;
  claim: ResourceType;
  replicaSet: ResourceType;
  deployment: ResourceType;
  statefulSet: ResourceType;
}

/** A loosely typed JSON object (workload specs and statuses). */
export type Json = Record<string, any>;

/** Looks up the built-in types; they are always registered. */
export function simulatedTypes(ctx: ApiContext): SimulatedTypes {
  const type = (group: string, plural: string): ResourceType => {
    const t = ctx.registry.byPath(group, "v1", plural);
    if (!t) throw new Error(`LocalCluster simulator: built-in resource ${group}/v1/${plural} is not registered`);
    return t;
  };
  return {
    pod: type("", "pods"),
    claim: type("", "persistentvolumeclaims"),
    replicaSet: type("apps", "replicasets"),
    deployment: type("apps", "deployments"),
    statefulSet: type("apps", "statefulsets"),
  };
}

/**
 * Writes as the simulator. Each write re-reads the latest stored version of the object it is
 * given (same uid), so a sync that created children in between never sends a stale
 * resourceVersion; writes that would store nothing new are skipped.
 */
export class SimulatorWrites {
  readonly #ctx: ApiContext;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
  }

  /** Creates an object; returns the stored version. */
  create(type: ResourceType, namespace: string, body: KubeObject): StoredObject | undefined {
    const { object } = this.#ctx.writer.create(type, namespace, body, { manager: SIMULATOR_MANAGER });
    return this.#ctx.store.get(type.storageKey, namespace, object.metadata?.name ?? "");
  }

  /**
   * Replaces the main resource (status untouched) unless `mutate` leaves it as it was.
   * `binding` marks a scheduler's binding, which may set a Pod's `spec.nodeName`.
   */
  update(type: ResourceType, stored: StoredObject, mutate: (obj: KubeObject) => void, opts: { binding?: boolean } = {}): StoredObject | undefined {
    const latest = this.latest(type, stored);
    if (!latest) return undefined;
    const obj = latest.object();
    const before = sortedKeysJson(obj);
    mutate(obj);
    if (sortedKeysJson(obj) === before) return latest;
    obj.metadata = { ...obj.metadata, resourceVersion: String(latest.rv) };
    this.#ctx.writer.update(type, latest, obj, { manager: SIMULATOR_MANAGER, ...(opts.binding ? { binding: true } : {}) });
    return this.latest(type, latest);
  }

  /** Writes `status` through the status subresource unless it is already stored. */
  status(type: ResourceType, stored: StoredObject, status: Json): void {
    const latest = this.latest(type, stored);
    if (!latest) return;
    const obj = latest.object();
    if (sortedKeysJson(obj.status) === sortedKeysJson(status)) return;
    obj.status = status;
    obj.metadata = { ...obj.metadata, resourceVersion: String(latest.rv) };
    this.#ctx.writer.update(type, latest, obj, { manager: SIMULATOR_MANAGER, subresource: "status" });
  }

  /** Deletes an object (Background propagation) unless it is already gone or being deleted. */
  delete(type: ResourceType, stored: StoredObject): void {
    const latest = this.latest(type, stored);
    if (!latest || latest.deleting) return;
    this.#ctx.writer.delete(type, latest, { propagationPolicy: "Background", preconditions: { uid: latest.uid } });
  }

  /** The stored version of the same object (same uid), or undefined when it is gone. */
  latest(type: ResourceType, stored: StoredObject): StoredObject | undefined {
    const o = this.#ctx.store.get(type.storageKey, stored.namespace, stored.name);
    return o?.uid === stored.uid ? o : undefined;
  }
}

/** Objects of `type` in `namespace` whose controller owner reference points at `owner`. */
export function ownedBy(ctx: ApiContext, type: ResourceType, owner: StoredObject): StoredObject[] {
  return ctx.store.list(type.storageKey, owner.namespace).filter((o) => controllerOf(o)?.uid === owner.uid);
}

/** The owner reference with `controller: true`, if any. */
export function controllerOf(o: StoredObject): OwnerReference | undefined {
  return o.ownerReferences?.find((r) => r.controller === true);
}

/** A controller owner reference to `owner`, as kube-controller-manager writes it. */
export function controllerRef(type: ResourceType, owner: StoredObject): OwnerReference {
  return { apiVersion: apiVersionOf(type), kind: type.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true };
}

/** Whether a Pod is Running with its Ready condition True. */
export function isPodReady(pod: KubeObject): boolean {
  const status = (pod.status ?? {}) as Json;
  return status.phase === "Running" && (status.conditions ?? []).some((c: Json) => c.type === "Ready" && c.status === "True");
}

/** Whether an object is neither being deleted nor gone. */
export function isActive(o: StoredObject): boolean {
  return !o.deleting;
}

const HASH_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/**
 * A stable 10-character hash of a Pod template in the alphabet Kubernetes uses for
 * `pod-template-hash` (keys sorted first, so field order does not matter).
 */
export function templateHash(template: unknown): string {
  const digest = createHash("sha256").update(sortedKeysJson(template)).digest();
  let out = "";
  for (let i = 0; i < 10; i++) out += HASH_ALPHABET[digest[i]! % HASH_ALPHABET.length];
  return out;
}

/** The current time as the API server writes timestamps (whole seconds, UTC). */
export function now(): string {
  return wholeSeconds(new Date());
}

/** `counts` without the entries that are zero (the API server omits empty optional counts). */
export function nonZero(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, v]) => v !== 0));
}
