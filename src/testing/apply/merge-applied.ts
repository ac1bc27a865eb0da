/**
 * Merges an applied configuration into the live object: the value half of server-side apply.
 */
import type { ListTypeLookup } from "../resource-type.ts";
import { listElements, type PathElement } from "./field-set.ts";
import { deducedFieldType, fieldTypeAt, itemTypeOf, keyDefaultsOf, listTypeOf, type FieldType } from "./field-types.ts";
import { getMember, isJsonObject, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";

/**
 * The live object with the applied configuration merged in.
 *
 * Maps merge key by key; an empty applied map leaves the live map alone; atomic maps (per
 * `types`, e.g. a LabelSelector) are replaced. Lists follow the type: atomic lists are
 * replaced; map-lists merge item by item on their keys (live order kept, new items appended,
 * item fields merged like maps; a key field an applied item leaves out is its schema default,
 * and a new item gets that default); set-lists are unioned. Scalars, and values whose type
 * changed, are replaced. `types` is a {@link FieldType} or, untyped, a {@link ListTypeLookup}.
 *
 * Guarantees: inputs are not mutated; the result shares no structure with them.
 * Caveats: nothing is removed here; removing fields a manager stopped applying is a separate
 * step. Lists whose items can't be named apart (duplicate keys) are treated as atomic.
 *
 * @example
 * ```ts
 * mergeApplied({ spec: { a: 1 } }, { spec: { b: 2 } }, () => ({ type: "atomic" })); // → { spec: { a: 1, b: 2 } }
 * ```
 */
export function mergeApplied(live: JsonObject, applied: JsonObject, types: FieldType | ListTypeLookup): JsonObject {
  return mergeValue(live, applied, typeof types === "function" ? deducedFieldType(types) : types) as JsonObject;
}

function mergeValue(live: unknown, applied: unknown, type: FieldType): unknown {
  if (applied === undefined) return structuredClone(live);
  if (type.kind !== "leaf" && isJsonObject(live) && isJsonObject(applied)) {
    const out = structuredClone(live);
    for (const [key, value] of Object.entries(applied)) {
      if (value === undefined) continue;
      setMember(out, key, mergeValue(getMember(live, key), value, fieldTypeAt(type, key)));
    }
    return out;
  }
  if (type.kind !== "leaf" && Array.isArray(live) && Array.isArray(applied)) return mergeLists(live, applied, type);
  return withKeyDefaults(structuredClone(applied), type);
}

function mergeLists(live: unknown[], applied: unknown[], type: FieldType): unknown[] {
  const listType = listTypeOf(type);
  const liveElements = mergeableElements(live, type);
  const appliedElements = mergeableElements(applied, type);
  if (liveElements === undefined || appliedElements === undefined) return withKeyDefaults(structuredClone(applied) as unknown[], type);
  const itemType = itemTypeOf(type);
  const appliedByElement = new Map<PathElement, unknown>();
  appliedElements.forEach((element, i) => appliedByElement.set(element, applied[i]));
  const out = live.map((item, i) => {
    const element = liveElements[i] as PathElement;
    if (!appliedByElement.has(element)) return structuredClone(item);
    const appliedItem = appliedByElement.get(element);
    return listType.type === "map" ? mergeValue(item, appliedItem, itemType) : structuredClone(item);
  });
  const inLive = new Set(liveElements);
  appliedElements.forEach((element, i) => {
    if (!inLive.has(element)) out.push(withKeyDefaults(structuredClone(applied[i]), itemType));
  });
  return out;
}

/**
 * Fills absent key fields of the map-list items in `value` (at any depth) with their schema
 * defaults, as defaulting would; in place. Returns `value`.
 */
function withKeyDefaults<T>(value: T, type: FieldType): T {
  if (type.kind === "leaf") return value;
  if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) withKeyDefaults(child, fieldTypeAt(type, key));
    return value;
  }
  if (!Array.isArray(value)) return value;
  const listType = listTypeOf(type);
  const defaults = keyDefaultsOf(type);
  const itemType = itemTypeOf(type);
  for (const item of value as unknown[]) {
    if (listType.type === "map" && isJsonObject(item)) {
      for (const key of listType.keys) {
        const current = getMember(item, key);
        if ((current === undefined || current === null) && Object.hasOwn(defaults, key)) setMember(item, key, structuredClone(defaults[key]));
      }
    }
    withKeyDefaults(item, itemType);
  }
  return value;
}

function mergeableElements(list: readonly unknown[], type: FieldType): PathElement[] | undefined {
  const listType = listTypeOf(type);
  if (listType.type === "atomic") return undefined;
  return list.length === 0 ? [] : listElements(list, listType, keyDefaultsOf(type));
}
