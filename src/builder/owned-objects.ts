/**
 * One owner's live objects, found without looking at any other owner's: through the reader's
 * owner index (an informer cache) or through the owner-UID label the API server filters on.
 *
 * Guarantees: the objects examined per pass are this owner's, so the cost of a pass does not
 * grow with the number of other owners in the namespace. Every object a Builder writes carries
 * the owner-UID label (it always has), so a list by it holds all of the owner's children; one
 * whose label was edited away is not found by the list, is refused by its create as already
 * existing, and is then read by name (see the Builder).
 */
import type { Kind, KindRef, KubeObject, ObjectReader, ObjectRef, OwnerIndexedReader } from "../client/types.ts";

/**
 * The label every object a Builder writes carries: `operator-runtime.io/owner-uid: <owner UID>`.
 * Reading from the API, the Builder and `prune` list an owner's children with it (one request
 * per kind, filtered by the API server), never all managed objects of a namespace.
 */
export const OWNER_UID_LABEL = "operator-runtime.io/owner-uid";

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
}

/** One owner's live objects per kind, read once per pass. */
export class OwnedObjects {
  readonly #o: OwnedObjectsOptions;
  readonly #uid: string;
  readonly #lists = new Map<string, Promise<KubeObject[]>>();
  readonly #byName = new Map<string, Promise<Map<string, KubeObject>>>();
  /** Objects the reader answered with, for cost checks. */
  examined = 0;

  constructor(options: OwnedObjectsOptions) {
    this.#o = options;
    this.#uid = options.owner.metadata?.uid ?? "";
  }

  /** Whether the reader has an owner index (no list per kind). */
  get indexed(): boolean {
    return hasOwnerIndex(this.#o.reader);
  }

  /** Starts reading the owner's objects of `kinds`, all at once: one list per kind from the API, nothing from an index. */
  prefetch(kinds: readonly KindRef[]): void {
    if (this.indexed) return;
    for (const kind of kinds) void this.#byNameOf(kind).catch(() => undefined);
  }

  /**
   * The owner's live object `ref` names, and whether the answer is the owner's list of its kind
   * (`listed`: an object absent from it is not the owner's child, though another object may
   * hold its name). Without a list of the kind, or when the list failed, read by name.
   */
  async get(ref: ObjectRef): Promise<{ live: KubeObject | undefined; listed: boolean }> {
    if (!this.indexed && this.#lists.has(kindKey(ref))) {
      try {
        return { live: (await this.#byNameOf(ref)).get(nameKey(ref.namespace, ref.name)), listed: true };
      } catch {
        // The list failed: read by name, which reports its own error.
      }
    }
    const live = await this.#o.reader.get(ref);
    if (live) this.examined++;
    return { live, listed: false };
  }

  /** The owner's objects of `kind` that prune considers: by the owner index, or by the owner-UID label. Rejects when a list fails. */
  async candidates(kind: Kind): Promise<KubeObject[]> {
    const reader = this.#o.reader;
    if (hasOwnerIndex(reader)) {
      const found = await reader.listByOwner(kind, this.#uid, this.#o.namespace ? { namespace: this.#o.namespace } : {});
      this.examined += found.length;
      return found;
    }
    return this.#list(kind);
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
