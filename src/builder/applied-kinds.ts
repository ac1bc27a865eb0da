/**
 * The kinds this process's Builders have applied for each owner, so that a later pass that adds
 * no object of a kind (a variable set scaled to zero) still prunes what an earlier pass added,
 * without the author naming the kind in `manages`.
 *
 * Per process and bounded (least recently used owners are forgotten first): after a restart, a
 * kind is remembered again once a pass adds one of its objects. `manages` stays the way to name
 * a kind whose objects may all be gone before this process ever applied one.
 */
import { LRUCache } from "lru-cache";
import type { KindRef } from "../client/types.ts";

/** Owners remembered at most (a few hundred bytes each). */
const MAX_OWNERS = 50_000;

const applied = new LRUCache<string, Map<string, KindRef>>({ max: MAX_OWNERS });

/** The key of one Builder's objects: owner, field manager and component. */
export function appliedKindsKey(ownerUid: string, fieldManager: string, component: string | undefined): string {
  return `${ownerUid}\u0000${fieldManager}\u0000${component ?? ""}`;
}

/** Remembers `kinds` for `key` and returns every kind remembered for it (these included). */
export function rememberAppliedKinds(key: string, kinds: readonly KindRef[]): KindRef[] {
  let known = applied.get(key);
  if (known === undefined) {
    known = new Map();
    applied.set(key, known);
  }
  for (const k of kinds) known.set(`${k.apiVersion}/${k.kind}`, { apiVersion: k.apiVersion, kind: k.kind });
  return [...known.values()];
}

/** Every kind remembered for `key`, without remembering anything. */
export function appliedKinds(key: string): KindRef[] {
  return [...(applied.peek(key)?.values() ?? [])];
}

/** Forgets one kind remembered for `key` (its resource is no longer served). */
export function forgetAppliedKind(key: string, kind: KindRef): void {
  applied.peek(key)?.delete(`${kind.apiVersion}/${kind.kind}`);
}
