/** Indexer: the in-memory object store of an informer, keyed `namespace/name`, with reverse indexes. */
import type { KubeObject } from "../client/types.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { IndexFunc } from "./types.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * The store key of an object: `namespace/name`, or `name` for cluster-scoped objects.
 *
 * @example
 * ```ts
 * objectKey({ metadata: { namespace: "default", name: "a" } }); // "default/a"
 * ```
 */
export function objectKey(obj: KubeObject): string {
  checkObject("objectKey(obj)", "obj", obj, "a Kubernetes object");
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

/**
 * The keys filed under one value: the key itself while it is the only one (most owner-index
 * values file one object per kind), a Set from the second on. A Set and its table cost a few
 * hundred bytes, which per object would rival the object.
 */
type Filed = string | Set<string>;

interface Index<T extends KubeObject> {
  fn: IndexFunc<T>;
  /** value → keys filed under it. */
  byValue: Map<string, Filed>;
  /** key → the value it is filed under, or the values when several (what to remove on change). */
  byKey: Map<string, string | string[]>;
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
 * declare const p: Person; // a Person with spec.surname "Smith"
 * const store = new Indexer<Person>();
 * store.addIndex("surname", (p) => [p.spec.surname]);
 * store.set(objectKey(p), p);
 * store.byIndex("surname", "Smith"); // [p]
 * ```
 */
export class Indexer<T extends KubeObject = KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #byNamespace = new Map<string, Filed>();
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
    return keys !== undefined ? this.#objects(keys) : [];
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
      for (const v of valuesOf(index.byKey.get(key))) unfile(index.byValue, v, key);
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
    return keys !== undefined ? this.#objects(keys) : [];
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
    const before = valuesOf(index.byKey.get(key));
    for (const v of before) if (!values.includes(v)) unfile(index.byValue, v, key);
    for (const v of values) fileUnder(index.byValue, v, key);
    if (values.length === 1) index.byKey.set(key, values[0]!);
    else if (values.length) index.byKey.set(key, values);
    else index.byKey.delete(key);
  }

  #objects(keys: Filed): T[] {
    const out: T[] = [];
    if (typeof keys === "string") {
      const o = this.#items.get(keys);
      return o ? [o] : [];
    }
    for (const k of keys) {
      const o = this.#items.get(k);
      if (o) out.push(o);
    }
    return out;
  }
}

function valuesOf(filed: string | string[] | undefined): readonly string[] {
  return filed === undefined ? [] : typeof filed === "string" ? [filed] : filed;
}

function fileUnder(map: Map<string, Filed>, value: string, key: string): void {
  const filed = map.get(value);
  if (filed === undefined) map.set(value, key);
  else if (typeof filed !== "string") filed.add(key);
  else if (filed !== key) map.set(value, new Set([filed, key]));
}

function unfile(map: Map<string, Filed>, value: string, key: string): void {
  const filed = map.get(value);
  if (filed === undefined) return;
  if (typeof filed === "string") {
    if (filed === key) map.delete(value);
    return;
  }
  filed.delete(key);
  if (filed.size === 0) map.delete(value);
  else if (filed.size === 1) map.set(value, filed.values().next().value!);
}
