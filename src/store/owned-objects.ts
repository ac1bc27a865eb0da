/**
 * One owner's live objects, found without looking at any other owner's: through the reader's
 * owner index (an informer cache) or through the owner-UID label the API server filters on.
 *
 * Guarantees: the objects examined per pass are this owner's (plus, once per process and owner,
 * the managed objects written before the label existed: see Caveats), so the cost of a pass
 * does not grow with the number of other owners in the namespace.
 *
 * Caveats: children written by versions before the {@link OWNER_UID_LABEL} existed lack the
 * label. A desired one is read by name (GET) and gets the label with its next apply. One that is
 * no longer desired is found by a "legacy sweep": a list by the managed-by label of the objects
 * without the owner-UID label, filtered by owner UID. It runs on the first pass of each owner in
 * a process (an empty answer once every child carries the label) and on any pass that met an
 * unlabelled child of the owner; readers with an owner index never need it.
 */
import type { Kind, KindRef, KubeObject, ObjectReader, ObjectRef, OwnerIndexedReader } from "../client/types.ts";
import { isRetainedBy } from "./retained.ts";
import { LruMap } from "../util/lru-map.ts";

/**
 * The label every object a Builder writes carries: `operator-runtime.io/owner-uid: <owner UID>`.
 * Reading from the API, the Builder and `prune` list an owner's children with it (one request
 * per kind, filtered by the API server), never all managed objects of a namespace.
 */
export const OWNER_UID_LABEL = "operator-runtime.io/owner-uid";

/** Owner × kind pairs remembered as swept (about a hundred bytes each, only for readers without an owner index). */
const MAX_SWEPT = 250_000;
const swept = new LruMap<string, true>(MAX_SWEPT);

/** Whether `reader` can find an owner's objects through an owner index. */
export function hasOwnerIndex(reader: ObjectReader): reader is OwnerIndexedReader {
  return typeof (reader as Partial<OwnerIndexedReader>).listByOwner === "function";
}

/** Options of {@link OwnedObjects}. */
export interface OwnedObjectsOptions {
  reader: ObjectReader;
  owner: KubeObject;
  /** Namespace of the owner's namespaced children (undefined: every namespace). */
  namespace: string | undefined;
  managedBy: { key: string; value: string };
  component: { key: string; value: string | undefined };
}

/** One owner's live objects per kind, read once per pass. */
export class OwnedObjects {
  readonly #o: OwnedObjectsOptions;
  readonly #uid: string;
  readonly #lists = new Map<string, Promise<KubeObject[]>>();
  readonly #byName = new Map<string, Promise<Map<string, KubeObject>>>();
  /** This pass's legacy sweeps, by kind. */
  readonly #legacy = new Map<string, Promise<KubeObject[]>>();
  /** A GET met an object of this owner without the owner-UID label: a legacy sweep is due. */
  #unlabelled = false;
  /** Objects the reader answered with, for cost checks. */
  examined = 0;

  constructor(options: OwnedObjectsOptions) {
    this.#o = options;
    this.#uid = options.owner.metadata?.uid ?? "";
  }

  /** Whether the reader has an owner index (no list per kind, no legacy sweep). */
  get indexed(): boolean {
    return hasOwnerIndex(this.#o.reader);
  }

  /**
   * Starts reading the owner's objects of `kinds` (one list per kind from the API; nothing from
   * an index), and the legacy sweeps due for the kinds to prune, all at once.
   */
  prefetch(kinds: readonly KindRef[], pruneKinds: readonly KindRef[] = []): void {
    if (this.indexed) return;
    for (const kind of kinds) void this.#byNameOf(kind).catch(() => undefined);
    for (const kind of pruneKinds) if (this.#sweepDue(kind)) void this.#legacyList(kind).catch(() => undefined);
  }

  /**
   * The live object `ref` names: from this pass's list when it holds it, else read by name (an
   * object that lacks the owner-UID label: new, written by an older version, or someone else's).
   */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    if (!this.indexed && this.#lists.has(kindKey(ref))) {
      try {
        const hit = (await this.#byNameOf(ref)).get(nameKey(ref.namespace, ref.name));
        if (hit) return hit;
      } catch {
        // The list failed: read by name, which reports its own error.
      }
    }
    const live = await this.#o.reader.get(ref);
    if (live) {
      this.examined++;
      if (live.metadata?.labels?.[OWNER_UID_LABEL] !== this.#uid && this.#ours(live, ref.kind)) this.#unlabelled = true;
    }
    return live;
  }

  /**
   * The owner's objects of `kind` that prune considers: by the owner index, or by the owner-UID
   * label plus (when due) the legacy sweep. Rejects when a list fails.
   */
  async candidates(kind: Kind): Promise<KubeObject[]> {
    const reader = this.#o.reader;
    const ns = this.#o.namespace ? { namespace: this.#o.namespace } : {};
    if (hasOwnerIndex(reader)) {
      const found = await reader.listByOwner(kind, this.#uid, ns);
      this.examined += found.length;
      return found;
    }
    const labelled = await this.#list(kind);
    if (!this.#sweepDue(kind)) return labelled;
    return [...labelled, ...(await this.#legacyList(kind))];
  }

  /** One legacy sweep per kind and pass: managed objects without the owner-UID label. */
  #legacyList(kind: KindRef): Promise<KubeObject[]> {
    const k = kindKey(kind);
    let listed = this.#legacy.get(k);
    if (!listed) {
      const { key, value } = this.#o.managedBy;
      const component = this.#o.component;
      listed = this.#o.reader.list({ apiVersion: kind.apiVersion, kind: kind.kind }, {
        ...(this.#o.namespace ? { namespace: this.#o.namespace } : {}),
        labelSelector: `${key}=${value},${component.value === undefined ? `!${component.key}` : `${component.key}=${component.value}`},!${OWNER_UID_LABEL}`,
      }).then((items) => {
        this.examined += items.length;
        return items;
      });
      this.#legacy.set(k, listed);
    }
    return listed;
  }

  /** Records that `kind` was swept for this owner without failure: later passes skip the sweep. */
  swept(kind: KindRef): void {
    if (!this.indexed) swept.set(this.#sweepKey(kind), true);
  }

  #sweepDue(kind: KindRef): boolean {
    return this.#unlabelled || !swept.has(this.#sweepKey(kind));
  }

  #sweepKey(kind: KindRef): string {
    return [this.#uid, this.#o.managedBy.value, this.#o.component.value ?? "", kindKey(kind)].join("\u0000");
  }

  #ours(obj: KubeObject, kind: string): boolean {
    if ((obj.metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.uid === this.#uid)) return true;
    return kind === "PersistentVolumeClaim" && isRetainedBy(obj, this.#o.owner, this.#o.managedBy);
  }

  /** One list per kind and pass, by the owner-UID label. */
  #list(kind: KindRef): Promise<KubeObject[]> {
    const k = kindKey(kind);
    let listed = this.#lists.get(k);
    if (!listed) {
      listed = this.#o.reader.list({ apiVersion: kind.apiVersion, kind: kind.kind }, {
        ...(this.#o.namespace ? { namespace: this.#o.namespace } : {}),
        labelSelector: `${OWNER_UID_LABEL}=${this.#uid}`,
      }).then((items) => {
        this.examined += items.length;
        return items;
      });
      this.#lists.set(k, listed);
    }
    return listed;
  }

  #byNameOf(kind: KindRef): Promise<Map<string, KubeObject>> {
    const k = kindKey(kind);
    let map = this.#byName.get(k);
    if (!map) {
      map = this.#list(kind).then((items) => new Map(items.map((o) => [nameKey(o.metadata?.namespace, o.metadata?.name ?? ""), o])));
      this.#byName.set(k, map);
    }
    return map;
  }
}

function kindKey(kind: KindRef): string {
  return `${kind.apiVersion}/${kind.kind}`;
}

function nameKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ""}/${name}`;
}
