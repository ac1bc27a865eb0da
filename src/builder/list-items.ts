/**
 * How the lists of a live object merge, read from its `metadata.managedFields`, and which live
 * item stands for a desired one. Server-side apply merges a keyed list item by item and keeps
 * the items other managers added, so the Builder compares its own items only: by key in a map
 * list, by value in a set, by position only in an atomic list (which apply replaces whole).
 */
import type { KubeObject } from "../client/types.ts";

/** How one list merges: by key fields, as a set of values, or as a whole. */
export type ListKind = { type: "map"; keys: readonly string[] } | { type: "set" } | { type: "atomic" };

/**
 * The kind of the list at a chain of field names from the object root (list positions left
 * out, e.g. `["spec","template","spec","containers","env"]`); `undefined` when no manager
 * records items of it.
 */
export type ListKinds = (names: readonly string[]) => ListKind | undefined;

/** No knowledge of any list: every list compares by position (the safe, old behaviour). */
export const POSITIONAL: ListKinds = () => undefined;

/**
 * The list kinds every manager's `fieldsV1` of `live` reveals: a list whose items appear as
 * `k:{...}` is a map keyed by those fields, as `v:...` a set; lists recorded as a leaf (atomic)
 * or by `i:<n>` compare by position. The schema decides a list's kind, so all managers agree.
 */
export function listKindsOf(live: KubeObject | undefined): ListKinds {
  const kinds = new Map<string, ListKind>();
  recordListKinds(live, kinds);
  return listKindsIn(kinds);
}

/**
 * Adds the list kinds `obj`'s managedFields reveal to `kinds` (keyed by the field names joined
 * with NUL); a path already recorded keeps its kind. An object without managedFields adds none.
 */
export function recordListKinds(obj: KubeObject | undefined, kinds: Map<string, ListKind>): void {
  const visit = (node: unknown, names: readonly string[]): void => {
    if (node === null || typeof node !== "object") return;
    for (const [element, child] of Object.entries(node as Record<string, unknown>)) {
      const tag = element.slice(0, 2);
      if (tag === "f:") visit(child, [...names, element.slice(2)]);
      else if (tag === "k:" || tag === "v:") {
        const at = names.join("\u0000");
        if (!kinds.has(at)) kinds.set(at, tag === "v:" ? { type: "set" } : { type: "map", keys: keyNames(element) });
        visit(child, names);
      } else if (tag === "i:") visit(child, names);
    }
  };
  for (const entry of obj?.metadata?.managedFields ?? []) visit(entry.fieldsV1, []);
}

/** The {@link ListKinds} lookup over kinds recorded by {@link recordListKinds}. */
export function listKindsIn(kinds: ReadonlyMap<string, ListKind>): ListKinds {
  return (names) => kinds.get(names.join("\u0000"));
}

function keyNames(element: string): string[] {
  try {
    const keys: unknown = JSON.parse(element.slice(2));
    return keys !== null && typeof keys === "object" ? Object.keys(keys) : [];
  } catch {
    return [];
  }
}

/**
 * The positions in `live` of the items that stand for the desired `item`: in a map list the
 * items with the same key values (a key field the desired item leaves out, like a defaulted
 * `protocol`, matches any value), in a set the equal values. Other items are another
 * manager's, and never compared.
 */
export function matchingItems(item: unknown, live: readonly unknown[], kind: ListKind): number[] {
  const found: number[] = [];
  live.forEach((candidate, i) => {
    if (kind.type === "set" ? sameJson(item, candidate) : kind.type === "map" && sameKeys(item, candidate, kind.keys)) found.push(i);
  });
  return found;
}

function sameKeys(item: unknown, candidate: unknown, keys: readonly string[]): boolean {
  if (item === null || typeof item !== "object" || candidate === null || typeof candidate !== "object") return false;
  const d = item as Record<string, unknown>;
  const l = candidate as Record<string, unknown>;
  return keys.length > 0 && keys.every((k) => d[k] === undefined || sameJson(d[k], l[k]));
}

function sameJson(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || (typeof a === "object" && a !== null && JSON.stringify(sorted(a)) === JSON.stringify(sorted(b)));
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}
