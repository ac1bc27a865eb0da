/**
 * Merges an applied configuration into the live object: the value half of server-side apply.
 */
import type { ListTypeLookup } from "../resource-type.ts";
import { listElements, type PathElement } from "./field-set.ts";
import { getMember, isJsonObject, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";

/**
 * The live object with the applied configuration merged in.
 *
 * Maps merge key by key; an empty applied map leaves the live map alone. Lists follow
 * `listType`: atomic lists are replaced; map-lists merge item by item on their keys (live
 * order kept, new items appended, item fields merged like maps); set-lists are unioned.
 * Scalars, and values whose type changed, are replaced.
 *
 * Guarantees: inputs are not mutated; the result shares no structure with them.
 * Caveats: nothing is removed here; removing fields a manager stopped applying is a separate
 * step. Lists whose items can't be named apart (duplicate keys) are treated as atomic.
 *
 * @example
 * mergeApplied({ spec: { a: 1 } }, { spec: { b: 2 } }, () => ({ type: "atomic" })); // { spec: { a: 1, b: 2 } }
 */
export function mergeApplied(live: JsonObject, applied: JsonObject, listType: ListTypeLookup): JsonObject {
  return mergeValue(live, applied, [], listType) as JsonObject;
}

function mergeValue(live: unknown, applied: unknown, names: readonly string[], listType: ListTypeLookup): unknown {
  if (applied === undefined) return structuredClone(live);
  if (isJsonObject(live) && isJsonObject(applied)) {
    const out = structuredClone(live);
    for (const [key, value] of Object.entries(applied)) {
      if (value === undefined) continue;
      setMember(out, key, mergeValue(getMember(live, key), value, [...names, key], listType));
    }
    return out;
  }
  if (Array.isArray(live) && Array.isArray(applied)) return mergeLists(live, applied, names, listType);
  return structuredClone(applied);
}

function mergeLists(live: unknown[], applied: unknown[], names: readonly string[], listType: ListTypeLookup): unknown[] {
  const type = listType(names);
  const liveElements = mergeableElements(live, type);
  const appliedElements = mergeableElements(applied, type);
  if (liveElements === undefined || appliedElements === undefined) return structuredClone(applied);
  const appliedByElement = new Map<PathElement, unknown>();
  appliedElements.forEach((element, i) => appliedByElement.set(element, applied[i]));
  const out = live.map((item, i) => {
    const element = liveElements[i] as PathElement;
    if (!appliedByElement.has(element)) return structuredClone(item);
    const appliedItem = appliedByElement.get(element);
    return type.type === "map" ? mergeValue(item, appliedItem, names, listType) : structuredClone(item);
  });
  const inLive = new Set(liveElements);
  appliedElements.forEach((element, i) => {
    if (!inLive.has(element)) out.push(structuredClone(applied[i]));
  });
  return out;
}

function mergeableElements(list: readonly unknown[], type: ReturnType<ListTypeLookup>): PathElement[] | undefined {
  if (type.type === "atomic") return undefined;
  return list.length === 0 ? [] : listElements(list, type);
}
