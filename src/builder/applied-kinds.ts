/**
 * The kinds this process's Builders have applied for each owner, so that a later pass that adds
 * no object of a kind (a variable set scaled to zero) still prunes what an earlier pass added,
 * without the author naming the kind in `manages`.
 *
 * Per process and bounded (least recently used owners are forgotten first): after a restart, a
 * kind is remembered again once a pass adds one of its objects. `manages` stays the way to name
 * a kind whose objects may all be gone before this process ever applied one.
 */
import type { KindRef } from "../client/types.ts";
import { LruMap } from "../util/lru-map.ts";

/** Owners remembered at most (about a hundred bytes each: the owners share their kind lists). */
const MAX_OWNERS = 50_000;

/**
 * Per owner key, its remembered kinds as a shared, frozen list: owners of one operator almost
 * always have the same kinds, so each keeps a pointer to one list instead of a Map of its own.
 */
const applied = new LruMap<string, readonly KindRef[]>(MAX_OWNERS);

/** Distinct kind lists shared at most; past this, lists are kept per owner (still correct, less shared). */
const MAX_LISTS = 1024;
/** Every distinct kind list in use, by its {@link listKey} (a handful per process). */
const lists = new Map<string, readonly KindRef[]>();
/** Every distinct kind, shared by the lists. */
const kindRefs = new Map<string, KindRef>();

const kindKey = (k: KindRef) => `${k.apiVersion}/${k.kind}`;
const listKey = (kinds: readonly KindRef[]) => kinds.map(kindKey).join("\u0000");

/** The shared frozen list with these kinds in this order. */
function internList(kinds: readonly KindRef[]): readonly KindRef[] {
  const key = listKey(kinds);
  let list = lists.get(key);
  if (list === undefined) {
    list = Object.freeze(kinds.map((k) => {
      let ref = kindRefs.get(kindKey(k));
      if (ref === undefined) kindRefs.set(kindKey(k), (ref = Object.freeze({ apiVersion: k.apiVersion, kind: k.kind })));
      return ref;
    }));
    if (lists.size < MAX_LISTS) lists.set(key, list);
  }
  return list;
}

/** The key of one Builder's objects: owner, field manager and component. */
export function appliedKindsKey(ownerUid: string, fieldManager: string, component: string | undefined): string {
  return `${ownerUid}\u0000${fieldManager}\u0000${component ?? ""}`;
}

/** Remembers `kinds` for `key` and returns every kind remembered for it (these included). */
export function rememberAppliedKinds(key: string, kinds: readonly KindRef[]): KindRef[] {
  const known = applied.get(key) ?? [];
  const merged = [...known];
  for (const k of kinds) if (!merged.some((m) => m.apiVersion === k.apiVersion && m.kind === k.kind)) merged.push(k);
  if (merged.length !== known.length || !applied.has(key)) applied.set(key, internList(merged));
  return [...applied.peek(key)!];
}

/** Every kind remembered for `key`, without remembering anything. */
export function appliedKinds(key: string): KindRef[] {
  return [...(applied.peek(key) ?? [])];
}

/** Forgets one kind remembered for `key` (its resource is no longer served). */
export function forgetAppliedKind(key: string, kind: KindRef): void {
  const known = applied.peek(key);
  if (known === undefined) return;
  const left = known.filter((k) => k.apiVersion !== kind.apiVersion || k.kind !== kind.kind);
  if (left.length !== known.length) applied.update(key, internList(left));
}
