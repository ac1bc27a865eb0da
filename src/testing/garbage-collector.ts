/**
 * A small stand-in for kube-controller-manager's garbage collector and namespace controller:
 * deletes dependents whose owners are gone (Background), honours `foregroundDeletion` and
 * `orphan` finalizers, and empties terminating namespaces before removing them.
 *
 * It runs shortly after relevant changes (never inside a request), in passes that repeat until
 * nothing more changes.
 */
import type { ApiContext } from "./api-context.ts";
import type { Change, StoredObject } from "./object-store.ts";
import type { KubeObject, ResourceType } from "./resource-type.ts";

const MANAGER = "generic-garbage-collector";

/** Runs collection passes after changes that may need them. */
export class GarbageCollector {
  readonly #ctx: ApiContext;
  #scheduled = false;
  #stopped = false;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
    ctx.store.onChange((c) => {
      if (this.#relevant(c)) this.schedule();
    });
  }

  /** Stops scheduling passes. */
  stop(): void {
    this.#stopped = true;
  }

  /** Schedules a pass on the next turn of the event loop. */
  schedule(): void {
    if (this.#scheduled || this.#stopped) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#stopped) return;
      try {
        if (this.runPass()) this.schedule();
      } catch {
        // A failed step (e.g. a racing write) is retried on the next pass.
        setTimeout(() => this.schedule(), 50).unref();
      }
    });
  }

  #relevant(c: Change): boolean {
    if (c.type === "DELETED") return true;
    const o = c.object;
    return o.deleting || o.ownerReferences !== undefined;
  }

  #typeOf(o: StoredObject): ResourceType | undefined {
    return this.#ctx.registry.byStorage(o.storageKey).find((t) => !t.storageVersion) ?? this.#ctx.registry.byStorage(o.storageKey)[0];
  }

  /** One pass; returns true when it changed something. */
  runPass(): boolean {
    const { store, writer } = this.#ctx;
    const byUid = new Map<string, StoredObject>();
    const all = [...store.all()];
    for (const o of all) byUid.set(o.uid, o);
    const dependents = new Map<string, StoredObject[]>();
    for (const o of all) {
      for (const ref of o.ownerReferences ?? []) {
        let list = dependents.get(ref.uid);
        if (!list) dependents.set(ref.uid, (list = []));
        list.push(o);
      }
    }
    let changed = false;
    const ownerOf = (o: StoredObject, uid: string): StoredObject | undefined => {
      const owner = byUid.get(uid);
      if (!owner) return undefined;
      // Owners must be cluster-scoped or in the dependent's namespace.
      return owner.namespace === "" || owner.namespace === o.namespace ? owner : undefined;
    };

    for (const o of all) {
      const refs = o.ownerReferences;
      if (!refs || o.deleting) continue;
      const type = this.#typeOf(o);
      if (!type) continue;
      const live = refs.filter((r) => ownerOf(o, r.uid) !== undefined);
      const foregroundOwner = refs.some((r) => ownerOf(o, r.uid)?.finalizers?.includes("foregroundDeletion"));
      const orphaning = refs.filter((r) => ownerOf(o, r.uid)?.finalizers?.includes("orphan") && ownerOf(o, r.uid)?.deleting);
      if (live.length === 0 || (foregroundOwner && refs.every((r) => ownerOf(o, r.uid)?.deleting !== false))) {
        const current = store.get(o.storageKey, o.namespace, o.name);
        if (current && current.uid === o.uid) {
          writer.delete(type, current, { propagationPolicy: foregroundOwner ? "Foreground" : "Background" });
          changed = true;
        }
        continue;
      }
      const dead = refs.filter((r) => ownerOf(o, r.uid) === undefined);
      const strip = [...dead, ...orphaning].map((r) => r.uid);
      if (strip.length) {
        const obj = o.object();
        obj.metadata!.ownerReferences = refs.filter((r) => !strip.includes(r.uid));
        writer.update(type, o, withRv(obj, o), { manager: MANAGER });
        changed = true;
      }
    }

    for (const o of all) {
      if (!o.deleting) continue;
      const type = this.#typeOf(o);
      if (!type) continue;
      const deps = (dependents.get(o.uid) ?? []).filter((d) => store.get(d.storageKey, d.namespace, d.name)?.uid === d.uid);
      if (o.finalizers?.includes("orphan") && deps.every((d) => !d.ownerReferences?.some((r) => r.uid === o.uid))) {
        changed = this.#removeFinalizer(type, o, "orphan") || changed;
      } else if (o.finalizers?.includes("foregroundDeletion")) {
        const blocking = deps.filter((d) => d.ownerReferences?.some((r) => r.uid === o.uid && r.blockOwnerDeletion));
        if (blocking.length === 0) changed = this.#removeFinalizer(type, o, "foregroundDeletion") || changed;
      }
      if (type.kind === "Namespace" && !type.storageVersion) changed = this.#drainNamespace(type, o) || changed;
    }
    return changed;
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
    for (const o of [...store.all()]) {
      if (o.namespace !== ns.name) continue;
      remaining++;
      if (o.deleting) continue;
      const type = this.#typeOf(o);
      if (!type) continue;
      writer.delete(type, o, {});
      changed = true;
    }
    if (remaining === 0) {
      const obj: KubeObject = ns.object();
      const current = store.get(ns.storageKey, "", ns.name);
      if (!current) return changed;
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

function withRv(obj: KubeObject, o: StoredObject): KubeObject {
  obj.metadata = { ...obj.metadata, resourceVersion: String(o.rv) };
  return obj;
}
