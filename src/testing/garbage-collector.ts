/**
 * A small stand-in for kube-controller-manager's garbage collector, namespace controller and
 * storage-object-in-use protection: deletes dependents whose owners are gone (Background),
 * honours `foregroundDeletion` and `orphan` finalizers, empties terminating namespaces before
 * removing them, and removes `kubernetes.io/pvc-protection` from a deleting claim once no Pod
 * that has not finished uses it (`kubernetes.io/pv-protection` from a deleting volume that is
 * not bound).
 *
 * It works from the store's indexes (objects by UID, dependents by owner UID, objects by
 * namespace), never from a walk over every stored object: a change queues only what it can
 * affect — the changed object as a dependent (its own ownerReferences), the dependents of a
 * deleted or deleting owner, the deleting owners it references, and its namespace when that is
 * terminating. Passes run shortly after changes (never inside a request) until the queues are
 * empty; a pass's own writes queue the next one.
 */
import type { ApiContext } from "./api-context.ts";
import type { Change, StoredObject } from "./object-store.ts";
import type { KubeObject, ResourceType } from "./resource-type.ts";

const MANAGER = "generic-garbage-collector";
const PVC_PROTECTION = "kubernetes.io/pvc-protection";
const PV_PROTECTION = "kubernetes.io/pv-protection";

/** An owner reference that can never resolve (a namespaced owner of a cluster-scoped dependent). */
const INVALID = Symbol("invalid owner reference");

/** Runs collection passes after changes that may need them. */
export class GarbageCollector {
  readonly #ctx: ApiContext;
  readonly #namespaceKey: string | undefined;
  readonly #podKey: string | undefined;
  readonly #claimKey: string | undefined;
  /** UIDs of objects whose ownerReferences are to be checked against their owners. */
  #dependents = new Set<string>();
  /** UIDs of deleting objects whose `orphan`/`foregroundDeletion` finalizers (or namespace contents) are to be checked. */
  #owners = new Set<string>();
  #scheduled = false;
  #retrying = false;
  #stopped = false;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
    this.#namespaceKey = ctx.registry.byPath("", "v1", "namespaces")?.storageKey;
    this.#podKey = ctx.registry.byPath("", "v1", "pods")?.storageKey;
    this.#claimKey = ctx.registry.byPath("", "v1", "persistentvolumeclaims")?.storageKey;
    ctx.store.onChange((c) => this.#enqueue(c));
  }

  /** Stops scheduling passes. */
  stop(): void {
    this.#stopped = true;
  }

  /** True when nothing is queued, scheduled or waiting for a retry (for tests). */
  get idle(): boolean {
    return !this.#scheduled && !this.#retrying && this.#dependents.size === 0 && this.#owners.size === 0;
  }

  /** Schedules a pass on the next turn of the event loop. */
  schedule(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (!this.#stopped) this.runPass();
    });
  }

  /** Queues what a change can affect (see the module doc). */
  #enqueue(c: Change): void {
    const { store } = this.#ctx;
    const o = c.object;
    const before = this.#dependents.size + this.#owners.size;
    if (c.type === "DELETED" || o.deleting) {
      // Dependents of a gone or going owner: collect, orphan or delete in the foreground.
      for (const d of store.dependentsOf(o.uid)) this.#dependents.add(d.uid);
    }
    if (c.type !== "DELETED") {
      if (o.ownerReferences) this.#dependents.add(o.uid);
      if (o.deleting) this.#owners.add(o.uid);
    }
    // A deleting owner waits on its dependents' references: recheck it when they change.
    for (const refs of [c.previous?.ownerReferences, c.type === "DELETED" ? undefined : o.ownerReferences]) {
      for (const ref of refs ?? []) if (store.byUid(ref.uid)?.deleting) this.#owners.add(ref.uid);
    }
    // A terminating namespace waits until it is empty.
    if (c.type === "DELETED" && o.namespace !== "" && this.#namespaceKey !== undefined) {
      const ns = store.get(this.#namespaceKey, "", o.namespace);
      if (ns?.deleting) this.#owners.add(ns.uid);
    }
    // A deleting claim waits for the Pods that use it: recheck its claims when a Pod goes or finishes.
    if (o.storageKey === this.#podKey && this.#claimKey !== undefined) {
      const deletingClaims = store.list(this.#claimKey, o.namespace).filter((pvc) => pvc.deleting);
      if (deletingClaims.length > 0 && (c.type === "DELETED" || podFinished(o.object()))) {
        const used = claimNames(c.previous?.object() ?? o.object());
        for (const pvc of deletingClaims) if (used.includes(pvc.name)) this.#owners.add(pvc.uid);
      }
    }
    if (this.#dependents.size + this.#owners.size > before) this.schedule();
  }

  #typeOf(o: StoredObject): ResourceType | undefined {
    return this.#ctx.registry.byStorage(o.storageKey).find((t) => !t.storageVersion) ?? this.#ctx.registry.byStorage(o.storageKey)[0];
  }

  /**
   * One pass over what is queued; returns true when it changed something. A step that fails
   * (e.g. a racing write) is queued again and retried after 50 ms.
   */
  runPass(): boolean {
    const { store } = this.#ctx;
    const dependents = this.#dependents;
    const owners = this.#owners;
    this.#dependents = new Set();
    this.#owners = new Set();
    let changed = false;
    let failed = false;
    for (const uid of dependents) {
      const o = store.byUid(uid);
      if (!o) continue;
      try {
        changed = this.#checkDependent(o) || changed;
      } catch {
        this.#dependents.add(uid);
        failed = true;
      }
    }
    for (const uid of owners) {
      const o = store.byUid(uid);
      if (!o?.deleting) continue;
      try {
        changed = this.#checkOwner(o) || changed;
      } catch {
        this.#owners.add(uid);
        failed = true;
      }
    }
    if (failed && !this.#retrying) {
      this.#retrying = true;
      setTimeout(() => {
        this.#retrying = false;
        this.schedule();
      }, 50).unref();
    }
    return changed;
  }

  /**
   * The owner a reference of `o` names, as kube-controller-manager resolves it: the object with
   * that UID, name and kind, cluster-scoped or in the dependent's namespace; `undefined` when
   * absent; `INVALID` for a namespaced owner of a cluster-scoped dependent (a reference that
   * can never resolve, and so never makes the dependent garbage).
   */
  #ownerOf(o: StoredObject, ref: { uid: string; name: string; kind: string }): StoredObject | typeof INVALID | undefined {
    const owner = this.#ctx.store.byUid(ref.uid);
    if (!owner || owner.name !== ref.name || this.#typeOf(owner)?.kind !== ref.kind) return undefined;
    if (owner.namespace !== "" && o.namespace === "") return INVALID;
    return owner.namespace === "" || owner.namespace === o.namespace ? owner : undefined;
  }

  /**
   * Deletes `o` when its owners are gone (or all going, one in the foreground); strips references
   * to owners that are gone, orphaning, or deleting in the foreground while another owner stays.
   * A terminating dependent only loses its references to orphaning owners.
   */
  #checkDependent(o: StoredObject): boolean {
    const { store, writer } = this.#ctx;
    store.cost.collected++;
    const refs = o.ownerReferences;
    if (!refs) return false;
    const type = this.#typeOf(o);
    if (!type) return false;
    const resolved = refs.map((r) => this.#ownerOf(o, r));
    store.cost.collected += refs.length;
    const orphaning = (w: StoredObject | undefined) => w !== undefined && w.deleting && w.finalizers?.includes("orphan") === true;
    const inForeground = (w: StoredObject | undefined) => w !== undefined && w.finalizers?.includes("foregroundDeletion") === true;
    // References that can never resolve take no part in the decision.
    const valid = refs.flatMap((r, i) => (resolved[i] === INVALID ? [] : [{ ref: r, owner: resolved[i] as StoredObject | undefined }]));
    if (o.deleting) {
      const strip = valid.filter((v) => orphaning(v.owner)).map((v) => v.ref.uid);
      return strip.length > 0 && this.#stripRefs(type, o, strip);
    }
    if (valid.length === 0) return false;
    const owners = valid.map((v) => v.owner);
    const foregroundOwner = owners.some(inForeground);
    if (owners.every((w) => w === undefined) || (foregroundOwner && owners.every((w) => w === undefined || w.deleting))) {
      writer.delete(type, o, { propagationPolicy: foregroundOwner ? "Foreground" : "Background" });
      return true;
    }
    const stays = owners.some((w) => w !== undefined && !w.deleting);
    const strip = valid.filter((v) => v.owner === undefined || orphaning(v.owner) || (stays && inForeground(v.owner))).map((v) => v.ref.uid);
    return strip.length > 0 && this.#stripRefs(type, o, strip);
  }

  #stripRefs(type: ResourceType, o: StoredObject, strip: readonly string[]): boolean {
    const refs = o.ownerReferences ?? [];
    const obj = o.object();
    obj.metadata!.ownerReferences = refs.filter((r) => !strip.includes(r.uid));
    this.#ctx.writer.update(type, o, withRv(obj, o), { manager: MANAGER });
    return true;
  }

  /** Removes a deleting owner's `orphan`/`foregroundDeletion` finalizer once its dependents allow; drains a namespace. */
  #checkOwner(o: StoredObject): boolean {
    const { store } = this.#ctx;
    store.cost.collected++;
    const type = this.#typeOf(o);
    if (!type) return false;
    const deps = store.dependentsOf(o.uid);
    store.cost.collected += deps.length;
    let changed = false;
    if (o.finalizers?.includes("orphan") && deps.length === 0) {
      changed = this.#removeFinalizer(type, o, "orphan");
    } else if (o.finalizers?.includes("foregroundDeletion")) {
      const blocking = deps.filter((d) => d.ownerReferences?.some((r) => r.uid === o.uid && r.blockOwnerDeletion));
      if (blocking.length === 0) changed = this.#removeFinalizer(type, o, "foregroundDeletion");
    }
    if (type.kind === "Namespace" && !type.storageVersion) changed = this.#drainNamespace(type, o) || changed;
    if (o.finalizers?.includes(PVC_PROTECTION) && type.kind === "PersistentVolumeClaim" && !this.#claimInUse(o)) {
      changed = this.#removeFinalizer(type, o, PVC_PROTECTION) || changed;
    }
    if (o.finalizers?.includes(PV_PROTECTION) && type.kind === "PersistentVolume" && (o.object().status as { phase?: string } | undefined)?.phase !== "Bound") {
      changed = this.#removeFinalizer(type, o, PV_PROTECTION) || changed;
    }
    return changed;
  }

  /** Whether a Pod in the claim's namespace that has not finished mounts it. */
  #claimInUse(claim: StoredObject): boolean {
    if (this.#podKey === undefined) return false;
    for (const pod of this.#ctx.store.list(this.#podKey, claim.namespace)) {
      const obj = pod.object();
      if (!podFinished(obj) && claimNames(obj).includes(claim.name)) return true;
    }
    return false;
  }

  #removeFinalizer(type: ResourceType, o: StoredObject, finalizer: string): boolean {
    const current = this.#ctx.store.get(o.storageKey, o.namespace, o.name);
    if (!current || current.uid !== o.uid) return false;
    const obj = current.object();
    obj.metadata!.finalizers = (obj.metadata!.finalizers ?? []).filter((f) => f !== finalizer);
    this.#ctx.writer.update(type, current, withRv(obj, current), { manager: MANAGER });
    return true;
  }

  #drainNamespace(nsType: ResourceType, ns: StoredObject): boolean {
    const { store, writer } = this.#ctx;
    let remaining = 0;
    let changed = false;
    for (const o of store.inNamespace(ns.name)) {
      remaining++;
      if (o.deleting) continue;
      const type = this.#typeOf(o);
      if (!type) continue;
      writer.delete(type, o, {});
      changed = true;
    }
    store.cost.collected += remaining;
    if (remaining === 0) {
      const current = store.get(ns.storageKey, "", ns.name);
      if (!current) return changed;
      const obj: KubeObject = current.object();
      obj.spec = { ...(obj.spec as object), finalizers: [] };
      const finalizers = obj.metadata!.finalizers ?? [];
      if (finalizers.length === 0) {
        store.remove(current);
      } else {
        writer.update(nsType, current, withRv(obj, current), { manager: MANAGER, subresource: "finalize" });
      }
      changed = true;
    }
    return changed;
  }
}

/** The claims a Pod mounts: `persistentVolumeClaim` volumes and generic ephemeral volumes (`<pod>-<volume>`). */
function claimNames(pod: KubeObject): string[] {
  const volumes = ((pod.spec as { volumes?: Record<string, any>[] } | undefined)?.volumes ?? []);
  return volumes.flatMap((v) => {
    if (typeof v?.persistentVolumeClaim?.claimName === "string") return [v.persistentVolumeClaim.claimName as string];
    if (v?.ephemeral && typeof v.name === "string") return [`${pod.metadata?.name}-${v.name}`];
    return [];
  });
}

/** A Pod that succeeded or failed no longer uses its volumes. */
function podFinished(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === "Succeeded" || phase === "Failed";
}

function withRv(obj: KubeObject, o: StoredObject): KubeObject {
  obj.metadata = { ...obj.metadata, resourceVersion: String(o.rv) };
  return obj;
}
