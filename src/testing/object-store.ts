/**
 * The object store: one global resourceVersion counter, objects kept as their JSON text (cheap
 * to serve and small in memory), and a bounded history of changes for watch resumption.
 */
import type { KubeObject, OwnerReference } from "./resource-type.ts";
import { expired } from "./status.ts";

/** One stored object: its serialized form plus the fields read on hot paths. */
export class StoredObject {
  readonly storageKey: string;
  readonly json: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly rv: number;
  readonly labels: Record<string, string> | undefined;
  readonly ownerReferences: readonly OwnerReference[] | undefined;
  readonly finalizers: readonly string[] | undefined;
  readonly deleting: boolean;

  constructor(storageKey: string, obj: KubeObject) {
    const m = obj.metadata ?? {};
    this.storageKey = storageKey;
    this.json = JSON.stringify(obj);
    this.name = m.name ?? "";
    this.namespace = m.namespace ?? "";
    this.uid = m.uid ?? "";
    this.rv = Number(m.resourceVersion ?? 0);
    this.labels = m.labels;
    this.ownerReferences = m.ownerReferences?.length ? m.ownerReferences : undefined;
    this.finalizers = m.finalizers?.length ? m.finalizers : undefined;
    this.deleting = m.deletionTimestamp !== undefined;
  }

  /** A fresh, mutable copy of the object. */
  object(): KubeObject {
    return JSON.parse(this.json) as KubeObject;
  }
}

/** A change in the history: `object` is the new state (the last state for DELETED). */
export interface Change {
  readonly rv: number;
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  readonly object: StoredObject;
  readonly previous: StoredObject | undefined;
}

/** Called for every committed change, in resourceVersion order. */
export type ChangeListener = (change: Change) => void;

/** Changes the history keeps by default. */
export const DEFAULT_HISTORY_SIZE = 50_000;

/**
 * Bytes of changed objects the history keeps by default (64 MiB): 50,000 changes of 1.3 KB
 * objects, so at typical sizes the count bound comes first. The byte bound is for big
 * objects: without it, 200 updates of a 512 KiB ConfigMap held about 104 MB of heap; with it,
 * about 60 MB (`npm run bench -- memory`).
 */
export const DEFAULT_HISTORY_BYTES = 64 * 1024 * 1024;

/** Options for the store. */
export interface ObjectStoreOptions {
  /** Changes kept for watch resumption (default {@link DEFAULT_HISTORY_SIZE}). */
  historySize?: number;
  /**
   * Bytes of changes kept for watch resumption, counted as the length of each change's
   * serialized object (default {@link DEFAULT_HISTORY_BYTES}). The newest change is kept
   * even when it alone is bigger.
   */
  historyBytes?: number;
}

/** One namespace's objects of one resource, with its names kept sorted between additions. */
class NamespaceBucket {
  readonly byName = new Map<string, StoredObject>();
  /** Sorted names, or undefined after a name came or went (updates keep it). */
  sorted: string[] | undefined;

  /** Appends the objects in name order (only those named `from` or later, when given) to `out`. */
  inOrder(from: string | undefined, out: StoredObject[]): void {
    const names = (this.sorted ??= [...this.byName.keys()].sort(cmp));
    let i = 0;
    if (from !== undefined) {
      // Binary search the first name not before `from`.
      let hi = names.length;
      while (i < hi) {
        const mid = (i + hi) >>> 1;
        if (names[mid]! < from) i = mid + 1;
        else hi = mid;
      }
    }
    for (; i < names.length; i++) out.push(this.byName.get(names[i]!)!);
  }
}

/** One resource's objects, by namespace ("" for cluster-scoped ones). */
class ResourceBucket {
  readonly namespaces = new Map<string, NamespaceBucket>();
  sortedNamespaces: string[] | undefined;
  size = 0;

  /** Namespaces in the order of their storage keys (`ns/`: `a-b` before `a`, as etcd). */
  namespaceOrder(): string[] {
    return (this.sortedNamespaces ??= [...this.namespaces.keys()].sort((a, b) => cmp(`${a}/`, `${b}/`)));
  }
}

/**
 * Work counters: objects handed to lists (and watches' initial state) and examined by the
 * garbage collector. Tests read them (through `costProbe` in `cost-probe.ts`) to assert that a
 * request's cost does not grow with objects it does not concern.
 */
export interface StoreCost {
  /** Objects a list or a watch's initial state walked through, before selectors. */
  listed: number;
  /** Objects the garbage collector looked at. */
  collected: number;
}

/**
 * Objects by storage key and namespace/name, with history.
 *
 * Indexes: each resource's objects by namespace (lists and namespace deletion touch only the
 * namespace asked for), every object by UID, dependents by owner UID (the garbage collector
 * visits only the dependents of an owner that changed), and, for label keys that lists select
 * on by equality, objects by label value (built on first use, at most {@link MAX_LABEL_INDEXES}
 * keys per resource).
 *
 * The history is bounded by count and by bytes: the oldest changes are dropped until both
 * bounds hold (the byte bound never drops the newest change). A watch or a `continue` token
 * from an RV older than the oldest kept change gets 410 Expired.
 */
export class ObjectStore {
  #rv = 0;
  #buckets = new Map<string, ResourceBucket>();
  /** Every stored object by UID. */
  #byUid = new Map<string, StoredObject>();
  /** Owner UID → dependent UID → dependent, from each stored object's ownerReferences. */
  #dependents = new Map<string, Map<string, StoredObject>>();
  /**
   * Storage key → label key → `namespace\0value` → name → object: built on the first list by
   * that label key (see {@link ObjectStore.listByLabel}), then kept up to date.
   */
  #labelIndexes = new Map<string, Map<string, Map<string, Map<string, StoredObject>>>>();
  #history: Change[] = [];
  #historyStart = 0;
  /** Sum of {@link changeBytes} over the kept history. */
  #historyBytesUsed = 0;
  /** The oldest RV a watch may resume from (changes after it are all in the history). */
  #oldestResumable = 0;
  readonly #historySize: number;
  readonly #historyBytes: number;
  readonly #listeners: ChangeListener[] = [];
  /** Work counters (for tests; see {@link StoreCost}). */
  readonly cost: StoreCost = { listed: 0, collected: 0 };

  constructor(options: ObjectStoreOptions = {}) {
    this.#historySize = options.historySize ?? DEFAULT_HISTORY_SIZE;
    this.#historyBytes = options.historyBytes ?? DEFAULT_HISTORY_BYTES;
  }

  /** The current global resourceVersion. */
  get resourceVersion(): number {
    return this.#rv;
  }

  /** Subscribes to committed changes; returns the unsubscribe. */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  get(storageKey: string, namespace: string, name: string): StoredObject | undefined {
    return this.#buckets.get(storageKey)?.namespaces.get(namespace)?.byName.get(name);
  }

  /**
   * Objects of one resource, optionally of one namespace, in the order of their storage keys
   * (namespace, then name: see {@link startIn}); with `from`, only those whose key relative
   * to the listed prefix is `from` or later (the rest of a paged list). Only the namespace
   * asked for is walked.
   */
  list(storageKey: string, namespace?: string, from?: string): StoredObject[] {
    const bucket = this.#buckets.get(storageKey);
    if (!bucket) return [];
    const out: StoredObject[] = [];
    for (const ns of namespace !== undefined ? [namespace] : bucket.namespaceOrder()) {
      const start = startIn(ns, namespace !== undefined, from);
      if (start === SKIP) continue;
      const objects = bucket.namespaces.get(ns);
      if (objects) objects.inOrder(start, out);
    }
    this.cost.listed += out.length;
    return out;
  }

  /**
   * As {@link list}, restricted to objects carrying one of `labels` (a `key=value` each; the
   * caller gives those its selector requires, and filters by the whole selector anyway): only
   * the objects with the rarest of them, in the namespaces asked for, are walked. Each label
   * key is looked up in an index built on the first such list of the resource (one walk of
   * it) and kept up to date on every write. Keys past {@link MAX_LABEL_INDEXES} for a resource
   * are not indexed; with none indexed, this is {@link list}.
   */
  listByLabel(storageKey: string, namespace: string | undefined, labels: readonly { key: string; value: string }[],
    from?: string): StoredObject[] {
    const bucket = this.#buckets.get(storageKey);
    if (!bucket) return [];
    const namespaces = namespace !== undefined ? [namespace] : bucket.namespaceOrder();
    let best: { slots: (Map<string, StoredObject> | undefined)[]; count: number } | undefined;
    for (const { key, value } of labels) {
      const index = this.#labelIndex(storageKey, bucket, key);
      if (!index) continue;
      const slots = namespaces.map((ns) => index.get(`${ns}\0${value}`));
      const count = slots.reduce((n, m) => n + (m?.size ?? 0), 0);
      if (!best || count < best.count) best = { slots, count };
    }
    if (!best) return this.list(storageKey, namespace, from);
    const out: StoredObject[] = [];
    namespaces.forEach((ns, i) => {
      const objects = best.slots[i];
      const start = startIn(ns, namespace !== undefined, from);
      if (!objects || start === SKIP) return;
      for (const name of [...objects.keys()].sort(cmp)) if (start === undefined || name >= start) out.push(objects.get(name)!);
    });
    this.cost.listed += out.length;
    return out;
  }

  /** The index of one label key of one resource, built now if it is new; undefined past the bound. */
  #labelIndex(storageKey: string, bucket: ResourceBucket, key: string): Map<string, Map<string, StoredObject>> | undefined {
    let byKey = this.#labelIndexes.get(storageKey);
    if (!byKey) this.#labelIndexes.set(storageKey, (byKey = new Map()));
    let index = byKey.get(key);
    if (index) return index;
    if (byKey.size >= MAX_LABEL_INDEXES) return undefined;
    byKey.set(key, (index = new Map()));
    for (const ns of bucket.namespaces.values()) for (const o of ns.byName.values()) addLabelled(index, key, o);
    return index;
  }

  /** Every object of one namespace, of every resource (namespace deletion). */
  *inNamespace(namespace: string): Iterable<StoredObject> {
    for (const bucket of this.#buckets.values()) {
      const ns = bucket.namespaces.get(namespace);
      if (ns) yield* [...ns.byName.values()];
    }
  }

  /** The stored object with this UID. */
  byUid(uid: string): StoredObject | undefined {
    return this.#byUid.get(uid);
  }

  /** Stored objects whose ownerReferences name `ownerUid` (in no particular order). */
  dependentsOf(ownerUid: string): StoredObject[] {
    const deps = this.#dependents.get(ownerUid);
    return deps ? [...deps.values()] : [];
  }

  /** Count of stored objects. */
  size(): number {
    let n = 0;
    for (const b of this.#buckets.values()) n += b.size;
    return n;
  }

  /**
   * Persists `obj` (a create or an update) with the next resourceVersion and notifies
   * listeners. The object is modified: `metadata.resourceVersion` is set.
   */
  put(storageKey: string, obj: KubeObject): StoredObject {
    const rv = ++this.#rv;
    obj.metadata = { ...obj.metadata, resourceVersion: String(rv) };
    const stored = new StoredObject(storageKey, obj);
    let bucket = this.#buckets.get(storageKey);
    if (!bucket) this.#buckets.set(storageKey, (bucket = new ResourceBucket()));
    let ns = bucket.namespaces.get(stored.namespace);
    if (!ns) {
      bucket.namespaces.set(stored.namespace, (ns = new NamespaceBucket()));
      bucket.sortedNamespaces = undefined;
    }
    const previous = ns.byName.get(stored.name);
    ns.byName.set(stored.name, stored);
    if (!previous) {
      ns.sorted = undefined;
      bucket.size++;
    }
    if (previous) this.#unindex(previous);
    this.#index(stored);
    this.#record({ rv, type: previous ? "MODIFIED" : "ADDED", object: stored, previous });
    return stored;
  }

  /** Removes an object; the DELETED change carries its last state with the deletion's RV. */
  remove(existing: StoredObject): StoredObject {
    const bucket = this.#buckets.get(existing.storageKey);
    const ns = bucket?.namespaces.get(existing.namespace);
    if (!bucket || ns?.byName.get(existing.name) !== existing) return existing;
    this.#forget(bucket, ns, existing);
    const rv = ++this.#rv;
    const last = existing.object();
    last.metadata = { ...last.metadata, resourceVersion: String(rv) };
    const stored = new StoredObject(existing.storageKey, last);
    this.#record({ rv, type: "DELETED", object: stored, previous: existing });
    return stored;
  }

  /** Drops a whole resource's storage (CRD deletion) without history events. */
  dropStorage(storageKey: string): void {
    const bucket = this.#buckets.get(storageKey);
    if (!bucket) return;
    for (const ns of bucket.namespaces.values()) for (const o of ns.byName.values()) this.#unindex(o);
    this.#buckets.delete(storageKey);
    this.#labelIndexes.delete(storageKey);
  }

  #forget(bucket: ResourceBucket, ns: NamespaceBucket, o: StoredObject): void {
    ns.byName.delete(o.name);
    ns.sorted = undefined;
    bucket.size--;
    if (ns.byName.size === 0) {
      bucket.namespaces.delete(o.namespace);
      bucket.sortedNamespaces = undefined;
    }
    this.#unindex(o);
  }

  #index(o: StoredObject): void {
    if (o.uid) this.#byUid.set(o.uid, o);
    for (const ref of o.ownerReferences ?? []) {
      let deps = this.#dependents.get(ref.uid);
      if (!deps) this.#dependents.set(ref.uid, (deps = new Map()));
      deps.set(o.uid, o);
    }
    const byKey = this.#labelIndexes.get(o.storageKey);
    if (byKey && o.labels) for (const [key, index] of byKey) addLabelled(index, key, o);
  }

  #unindex(o: StoredObject): void {
    if (this.#byUid.get(o.uid) === o) this.#byUid.delete(o.uid);
    for (const ref of o.ownerReferences ?? []) {
      const deps = this.#dependents.get(ref.uid);
      if (deps?.get(o.uid) !== o) continue;
      deps.delete(o.uid);
      if (deps.size === 0) this.#dependents.delete(ref.uid);
    }
    const byKey = this.#labelIndexes.get(o.storageKey);
    if (!byKey || !o.labels) return;
    for (const [key, index] of byKey) {
      if (!Object.hasOwn(o.labels, key)) continue;
      const slot = `${o.namespace}\0${o.labels[key]}`;
      const objects = index.get(slot);
      if (objects?.get(o.name) !== o) continue;
      objects.delete(o.name);
      if (objects.size === 0) index.delete(slot);
    }
  }

  /**
   * Changes with RV greater than `since` for a storage key. Throws 410 Expired when `since`
   * is older than the retained history.
   */
  changesSince(storageKey: string, since: number): Change[] {
    if (since < this.#oldestResumable) {
      throw expired(`too old resource version: ${since} (${this.#oldestResumable + 1})`);
    }
    const out: Change[] = [];
    const h = this.#history;
    // Binary search the first change with rv > since.
    let lo = this.#historyStart;
    let hi = h.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (h[mid]!.rv <= since) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < h.length; i++) if (h[i]!.object.storageKey === storageKey) out.push(h[i]!);
    return out;
  }

  /** Whether a watch could resume from `rv`. */
  isResumable(rv: number): boolean {
    return rv >= this.#oldestResumable;
  }

  /** Forgets all history: every resume from an RV older than now gets 410 Expired. */
  compact(): void {
    this.#history = [];
    this.#historyStart = 0;
    this.#historyBytesUsed = 0;
    this.#oldestResumable = this.#rv;
  }

  #record(change: Change): void {
    this.#history.push(change);
    this.#historyBytesUsed += changeBytes(change);
    let kept = this.#history.length - this.#historyStart;
    while (kept > this.#historySize || (kept > 1 && this.#historyBytesUsed > this.#historyBytes)) {
      const dropped = this.#history[this.#historyStart]!;
      this.#history[this.#historyStart] = undefined as unknown as Change;
      this.#historyStart++;
      this.#historyBytesUsed -= changeBytes(dropped);
      this.#oldestResumable = dropped.rv;
      kept--;
    }
    if (this.#historyStart > 4096 && this.#historyStart * 2 > this.#history.length) {
      this.#history = this.#history.slice(this.#historyStart);
      this.#historyStart = 0;
    }
    for (const l of [...this.#listeners]) l(change);
  }
}

/**
 * What a change costs the history: its object's JSON length (one byte per character for the
 * ASCII text objects mostly are). `previous` is not counted: it is the object of the change
 * before (or, for the oldest kept change, one more object).
 */
function changeBytes(change: Change): number {
  return change.object.json.length;
}

/** Label keys a resource keeps an index of, at most (further keys are served by a walk). */
export const MAX_LABEL_INDEXES = 16;

function addLabelled(index: Map<string, Map<string, StoredObject>>, key: string, o: StoredObject): void {
  if (!o.labels || !Object.hasOwn(o.labels, key)) return;
  const slot = `${o.namespace}\0${o.labels[key]}`;
  let objects = index.get(slot);
  if (!objects) index.set(slot, (objects = new Map()));
  objects.set(o.name, o);
}

/** {@link startIn}: no object of the namespace is at or after the start key. */
const SKIP = Symbol("skip");

/**
 * Where a list that starts at key `from` starts within namespace `ns`: `undefined` for the
 * whole namespace, {@link SKIP} for none of it, else the first name. Keys are relative to the
 * listed prefix: the name alone when one namespace (or a cluster-scoped resource, namespace
 * "") is listed, `ns/name` across namespaces; they compare as byte strings, as etcd keys do.
 */
function startIn(ns: string, oneNamespace: boolean, from: string | undefined): string | undefined | typeof SKIP {
  if (from === undefined) return undefined;
  if (oneNamespace || ns === "") return from;
  const prefix = `${ns}/`;
  if (from.startsWith(prefix)) return from.slice(prefix.length);
  return prefix < from ? SKIP : undefined;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
