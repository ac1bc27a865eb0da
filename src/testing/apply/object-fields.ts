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
 * compareObjects({ data: { a: "1" } }, { data: { a: "1" }, metadata: { labels: { x: "y" } } }, () => ({ type: "atomic" }))
 *   .added.toFieldsV1(); // { "f:metadata": { ".": {}, "f:labels": { ".": {}, "f:x": {} } } }
 */
export function compareObjects(
  old: KubeObject | undefined,
  next: KubeObject,
  types: FieldType | ListTypeLookup,
  skip: FieldFilter = systemFields,
): FieldComparison {
  const ctx: CompareContext = { skip, added: [], modified: [], removed: [] };
  const type = typeof types === "function" ? deducedFieldType(types) : types;
  compareMaps(old ?? {}, next, type, [], [], ctx);
  return { added: FieldSet.of(ctx.added), modified: FieldSet.of(ctx.modified), removed: FieldSet.of(ctx.removed) };
}

interface CompareContext {
  skip: FieldFilter;
  added: FieldPath[];
  modified: FieldPath[];
  removed: FieldPath[];
}

function compareMaps(lhs: JsonObject, rhs: JsonObject, type: FieldType, names: readonly string[], path: FieldPath, ctx: CompareContext): void {
  const keys = new Set([...Object.keys(lhs), ...Object.keys(rhs)]);
  for (const key of keys) {
    const childNames = [...names, key];
    if (ctx.skip(childNames)) continue;
    compareNodes(getMember(lhs, key), getMember(rhs, key), fieldTypeAt(type, key), childNames, [...path, fieldElement(key)], ctx);
  }
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
  if (lhs === undefined) ctx.added.push(path);
  else if (rhs === undefined) ctx.removed.push(path);
}

function compareLeaves(lhs: unknown, rhs: unknown, path: FieldPath, ctx: CompareContext): void {
  if (lhs === undefined) ctx.added.push(path);
  else if (rhs === undefined) ctx.removed.push(path);
  else if (!jsonEqual(lhs, rhs)) ctx.modified.push(path);
}

/** How a node is compared: by its type, or (untyped) by the values; a value of another shape than its type is a leaf. */
function shapeOf(type: FieldType, lhs: unknown, rhs: unknown): "map" | "list" | "leaf" {
  const values = [lhs, rhs].filter((v) => v !== undefined && v !== null);
  const isMap = values.every(isJsonObject);
  const isList = values.every((v) => Array.isArray(v));
  if (type.kind === "leaf") return "leaf";
  if (type.kind === "map") return isMap ? "map" : "leaf";
  if (type.kind === "list") return isList ? "list" : "leaf";
  if (values.length === 0) return "leaf";
  return isMap ? "map" : isList ? "list" : "leaf";
}

function isEmptyOrAbsent(value: unknown[] | JsonObject | undefined): boolean {
  return value === undefined || (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);
}

/**
 * A copy of `value` without the fields `skip` selects (map fields, at any depth, including
 * inside list items) and without map fields set to `null`.
 *
 * @example
 * withoutFields({ spec: { a: 1 }, status: { b: 2 } }, (n) => n[0] === "status"); // { spec: { a: 1 } }
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
