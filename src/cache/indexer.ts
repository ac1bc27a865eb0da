/** Indexer: the in-memory object store of an informer, keyed `namespace/name`, with reverse indexes. */
import type { KubeObject } from "../client/types.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { IndexFunc } from "./types.ts";

/**
 * The store key of an object: `namespace/name`, or `name` for cluster-scoped objects.
 *
 * @example
 * ```ts
 * objectKey({ metadata: { namespace: "default", name: "a" } }); // "default/a"
 * ```
 */
export function objectKey(obj: KubeObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

interface Index<T extends KubeObject> {
  fn: IndexFunc<T>;
  /** value → keys filed under it. */
  byValue: Map<string, Set<string>>;
  /** key → the values it is filed under (what to remove on change). */
  byKey: Map<string, string[]>;
}

/**
 * A map of objects by key with a namespace index and named reverse indexes kept up to date on
 * every change.
 *
 * Guarantees: after `set`/`delete` returns, `byIndex` reflects the change for every index.
 * An index function that throws files the object under no value of that index and reports the
 * error through `onIndexError`.
 *
 * @example
 * ```ts
 * const store = new Indexer<Person>();
 * store.addIndex("surname", (p) => [p.spec.surname]);
 * store.set(objectKey(p), p);
 * store.byIndex("surname", "Smith"); // [p]
 * ```
 */
export class Indexer<T extends KubeObject = KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #byNamespace = new Map<string, Set<string>>();
  readonly #indices = new Map<string, Index<T>>();
  readonly #onIndexError: (index: string, obj: T, err: unknown) => void;

  constructor(onIndexError: (index: string, obj: T, err: unknown) => void = () => undefined) {
    this.#onIndexError = onIndexError;
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** Every key. */
  keys(): IterableIterator<string> {
    return this.#items.keys();
  }

  /** Every object, or those of one namespace. */
  list(namespace?: string): T[] {
    if (namespace === undefined) return [...this.#items.values()];
    const keys = this.#byNamespace.get(namespace);
    return keys ? this.#objects(keys) : [];
  }

  /** Stores `obj` under `key`, replacing (and returning) the previous copy. */
  set(key: string, obj: T): T | undefined {
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    if (!old) fileUnder(this.#byNamespace, obj.metadata?.namespace ?? "", key);
    for (const [name, index] of this.#indices) this.#reindex(name, index, key, obj);
    return old;
  }

  /** Removes `key`; returns the removed copy. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#items.delete(key);
    unfile(this.#byNamespace, old.metadata?.namespace ?? "", key);
    for (const index of this.#indices.values()) {
      for (const v of index.byKey.get(key) ?? []) unfile(index.byValue, v, key);
      index.byKey.delete(key);
    }
    return old;
  }

  /** Adds a named index and files every stored object under it. Throws if the name is taken. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.#indices.has(name)) {
      throw new OperatorRuntimeError(`index "${name}" already exists. Fix: give each index its own name (add it once).`);
    }
    const index: Index<T> = { fn, byValue: new Map(), byKey: new Map() };
    this.#indices.set(name, index);
    for (const [key, obj] of this.#items) this.#reindex(name, index, key, obj);
  }

  /** Objects filed under `value` in index `name`. Throws for an unknown index. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indices.get(name);
    if (!index) {
      throw new OperatorRuntimeError(`index "${name}" does not exist. Fix: call addIndex("${name}", fn) first.`);
    }
    const keys = index.byValue.get(value);
    return keys ? this.#objects(keys) : [];
  }

  /** The values of index `name` that have objects filed under them. */
  indexValues(name: string): string[] {
    return [...(this.#indices.get(name)?.byValue.keys() ?? [])];
  }

  #reindex(name: string, index: Index<T>, key: string, obj: T): void {
    let values: string[];
    try {
      values = [...new Set(index.fn(obj))];
    } catch (err) {
      this.#onIndexError(name, obj, err);
      values = [];
    }
    const before = index.byKey.get(key) ?? [];
    for (const v of before) if (!values.includes(v)) unfile(index.byValue, v, key);
    for (const v of values) fileUnder(index.byValue, v, key);
    if (values.length) index.byKey.set(key, values);
    else index.byKey.delete(key);
  }

  #objects(keys: Set<string>): T[] {
    const out: T[] = [];
    for (const k of keys) {
      const o = this.#items.get(k);
      if (o) out.push(o);
    }
    return out;
  }
}

function fileUnder(map: Map<string, Set<string>>, value: string, key: string): void {
  let set = map.get(value);
  if (!set) map.set(value, (set = new Set()));
  set.add(key);
}

function unfile(map: Map<string, Set<string>>, value: string, key: string): void {
  const set = map.get(value);
  if (!set) return;
  set.delete(key);
  if (set.size === 0) map.delete(value);
}
