/**
 * Removing and comparing the fields of an object by {@link FieldPath}.
 */
import type { KubeObject, ListTypeLookup } from "../resource-type.ts";
import { FieldSet, fieldElement, listElements, parseElement, systemFields, type FieldFilter, type FieldPath, type PathElement } from "./field-set.ts";
import { deducedFieldType, fieldTypeAt, itemTypeOf, keyDefaultsOf, listTypeOf, type FieldType } from "./field-types.ts";
import { getMember, isJsonObject, jsonEqual, setMember, sortedKeysJson } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";

/** Where one path element points inside a container (a map key or a list index). */
type Location = { found: false } | { found: true; value: unknown; key: string | number };

function locate(container: unknown, element: PathElement): Location {
  const parsed = parseElement(element);
  if (parsed === undefined) return { found: false };
  if (parsed.kind === "field") {
    if (!isJsonObject(container) || !Object.hasOwn(container, parsed.name) || container[parsed.name] === undefined) {
      return { found: false };
    }
    return { found: true, value: container[parsed.name], key: parsed.name };
  }
  if (!Array.isArray(container)) return { found: false };
  let index = -1;
  if (parsed.kind === "index") index = parsed.index < container.length ? parsed.index : -1;
  if (parsed.kind === "value") {
    const wanted = sortedKeysJson(parsed.value);
    index = container.findIndex((item) => sortedKeysJson(item) === wanted);
  }
  if (parsed.kind === "key") {
    const entries = Object.entries(parsed.keys);
    index = container.findIndex((item) => isJsonObject(item) && entries.every(([k, v]) => jsonEqual(item[k], v)));
  }
  return index < 0 ? { found: false } : { found: true, value: container[index], key: index };
}

/**
 * Removes the value at `path` from `root`, in place. Maps and lists that this removal leaves
 * empty are removed too (never `root` itself). Absent paths are ignored.
 *
 * Caveats: mutates `root`; callers pass a copy.
 */
export function removeAt(root: JsonObject, path: FieldPath): void {
  removeFrom(root, path, 0);
}

function removeFrom(container: unknown, path: FieldPath, depth: number): boolean {
  const element = path[depth];
  if (element === undefined) return false;
  const location = locate(container, element);
  if (!location.found) return false;
  if (depth === path.length - 1) {
    detach(container, location.key);
    return true;
  }
  const removed = removeFrom(location.value, path, depth + 1);
  if (removed && isEmptyContainer(location.value)) detach(container, location.key);
  return removed;
}

function detach(container: unknown, key: string | number): void {
  if (Array.isArray(container) && typeof key === "number") container.splice(key, 1);
  else if (isJsonObject(container) && typeof key === "string") delete container[key];
}

function isEmptyContainer(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isJsonObject(value) && Object.keys(value).length === 0;
}

/** What changed between two versions of an object, as field sets. */
export interface FieldComparison {
  /**
   * Paths in the new object only: leaves, and maps, lists and list items that did not exist
   * before (with their fields: FieldsV1 writes such a node as `".": {}` beside its children).
   */
  added: FieldSet;
  /** Leaves in both whose value differs (maps and list items present in both never are). */
  modified: FieldSet;
  /** Paths in the old object only, maps, lists and list items included. */
  removed: FieldSet;
}

/**
 * Compares two versions of an object node by node, as structured-merge-diff compares typed
 * values: scalars, atomic maps and atomic lists are leaves (added, removed or modified); a map
 * or list that is empty (or absent) on both sides is a leaf too; otherwise their children are
 * compared (list items matched by their `k:`/`v:` element), and the map, list or item itself
 * is added when it was absent before (`null` is not absent), removed when absent after.
 * `old` undefined compares against an empty object. Fields `skip` selects are left out with
 * their subtree.
 *
 * Caveats: the root is never a path. Lists whose items can't be named apart are leaves.
 *
 * @example
 * ```ts
 * compareObjects({ data: { a: "1" } }, { data: { a: "1" }, metadata: { labels: { x: "y" } } }, () => ({ type: "atomic" }))
 *   .added.toFieldsV1(); // → { "f:metadata": { ".": {}, "f:labels": { ".": {}, "f:x": {} } } }
 * ```
 */
export function compareObjects(
  old: KubeObject | undefined,
  next: KubeObject,
  types: FieldType | ListTypeLookup,
  skip: FieldFilter = systemFields,
): FieldComparison {
  const ctx: CompareContext = { skip, added: FieldSet.builder(), modified: FieldSet.builder(), removed: FieldSet.builder() };
  const type = typeof types === "function" ? deducedFieldType(types) : types;
  compareMaps(old ?? {}, next, type, [], [], ctx);
  return { added: ctx.added.build(), modified: ctx.modified.build(), removed: ctx.removed.build() };
}

/** Where a path found to be added, modified or removed goes (each set filled as found). */
interface PathSink {
  add(path: FieldPath): void;
}

interface CompareContext {
  skip: FieldFilter;
  added: PathSink & { build(): FieldSet };
  modified: PathSink & { build(): FieldSet };
  removed: PathSink & { build(): FieldSet };
}

function compareMaps(lhs: JsonObject, rhs: JsonObject, type: FieldType, names: readonly string[], path: FieldPath, ctx: CompareContext): void {
  // Every key of either side once: lhs's keys, then rhs's new ones.
  for (const key of Object.keys(lhs)) compareMember(lhs, rhs, key, type, names, path, ctx);
  for (const key of Object.keys(rhs)) if (!Object.hasOwn(lhs, key)) compareMember(lhs, rhs, key, type, names, path, ctx);
}

function compareMember(lhs: JsonObject, rhs: JsonObject, key: string, type: FieldType, names: readonly string[], path: FieldPath, ctx: CompareContext): void {
  const l = getMember(lhs, key);
  const r = getMember(rhs, key);
  // The same scalar (or null) on both sides adds, changes and removes nothing, whatever its type.
  if (l === r && (l === null || typeof l !== "object")) return;
  const childNames = [...names, key];
  if (ctx.skip(childNames)) return;
  compareNodes(l, r, fieldTypeAt(type, key), childNames, [...path, fieldElement(key)], ctx);
}

/** `undefined` = absent; `null` is a value. */
function compareNodes(lhs: unknown, rhs: unknown, type: FieldType, names: readonly string[], path: FieldPath, ctx: CompareContext): void {
  if (lhs === undefined && rhs === undefined) return;
  const shape = shapeOf(type, lhs, rhs);
  if (shape === "map") {
    const l = isJsonObject(lhs) ? lhs : undefined;
    const r = isJsonObject(rhs) ? rhs : undefined;
    if (isEmptyOrAbsent(l) && isEmptyOrAbsent(r)) return compareLeaves(lhs, rhs, path, ctx);
    compareMaps(l ?? {}, r ?? {}, type, names, path, ctx);
  } else if (shape === "list") {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    if (isEmptyOrAbsent(l) && isEmptyOrAbsent(r)) return compareLeaves(lhs, rhs, path, ctx);
    const listType = listTypeOf(type);
    const defaults = keyDefaultsOf(type);
    const lElements = listElements(l ?? [], listType, defaults);
    const rElements = listElements(r ?? [], listType, defaults);
    if (lElements === undefined || rElements === undefined) return compareLeaves(lhs, rhs, path, ctx);
    const itemType = itemTypeOf(type);
    const lByElement = new Map<PathElement, unknown>();
    lElements.forEach((element, i) => lByElement.set(element, (l ?? [])[i]));
    const inRhs = new Set(rElements);
    rElements.forEach((element, i) => compareNodes(lByElement.get(element), (r ?? [])[i], itemType, names, [...path, element], ctx));
    lElements.forEach((element, i) => {
      if (!inRhs.has(element)) compareNodes((l ?? [])[i], undefined, itemType, names, [...path, element], ctx);
    });
  } else {
    return compareLeaves(lhs, rhs, path, ctx);
  }
  if (lhs === undefined) ctx.added.add(path);
  else if (rhs === undefined) ctx.removed.add(path);
}

function compareLeaves(lhs: unknown, rhs: unknown, path: FieldPath, ctx: CompareContext): void {
  if (lhs === undefined) ctx.added.add(path);
  else if (rhs === undefined) ctx.removed.add(path);
  else if (!jsonEqual(lhs, rhs)) ctx.modified.add(path);
}

/** How a node is compared: by its type, or (untyped) by the values; a value of another shape than its type is a leaf. */
function shapeOf(type: FieldType, lhs: unknown, rhs: unknown): "map" | "list" | "leaf" {
  if (type.kind === "leaf") return "leaf";
  // Absent and null values take no part: the shape is what every present value is.
  const l = lhs !== undefined && lhs !== null;
  const r = rhs !== undefined && rhs !== null;
  const isMap = (!l || isJsonObject(lhs)) && (!r || isJsonObject(rhs));
  const isList = (!l || Array.isArray(lhs)) && (!r || Array.isArray(rhs));
  if (type.kind === "map") return isMap ? "map" : "leaf";
  if (type.kind === "list") return isList ? "list" : "leaf";
  if (!l && !r) return "leaf";
  return isMap ? "map" : isList ? "list" : "leaf";
}

function isEmptyOrAbsent(value: unknown[] | JsonObject | undefined): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  // Without listing the keys: a map can have 100,000s.
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/**
 * A copy of `value` without the fields `skip` selects (map fields, at any depth, including
 * inside list items) and without map fields set to `null`.
 *
 * @example
 * ```ts
 * withoutFields({ spec: { a: 1 }, status: { b: 2 } }, (n) => n[0] === "status"); // → { spec: { a: 1 } }
 * ```
 */
export function withoutFields<T>(value: T, skip: FieldFilter, names: readonly string[] = []): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withoutFields(item, skip, names)) as T;
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const childNames = [...names, key];
    if (child === undefined || child === null || skip(childNames)) continue;
    setMember(out, key, withoutFields(child, skip, childNames));
  }
  return out as T;
}
