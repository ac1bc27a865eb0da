/**
 * Reading, removing and comparing the fields of an object by {@link FieldPath}.
 */
import type { KubeObject, ListTypeLookup } from "../resource-type.ts";
import { fieldsOf, parseElement, systemFields, type FieldFilter, type FieldPath, type FieldSet, type PathElement } from "./field-set.ts";
import { isJsonObject, jsonEqual, setMember, sortedKeysJson } from "../json-value.ts";
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
 * The value at `path` inside `root`.
 *
 * @example
 * valueAt({ spec: { replicas: 2 } }, ["f:spec", "f:replicas"]); // { found: true, value: 2 }
 */
export function valueAt(root: unknown, path: FieldPath): { found: boolean; value: unknown } {
  let current = root;
  for (const element of path) {
    const location = locate(current, element);
    if (!location.found) return { found: false, value: undefined };
    current = location.value;
  }
  return { found: true, value: current };
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
  /** Leaves in the new object only. */
  added: FieldSet;
  /** Leaves in both whose value differs (list items count as present, never modified). */
  modified: FieldSet;
  /** Leaves in the old object only. */
  removed: FieldSet;
}

/**
 * Compares two versions of an object field by field, with the same list rules and skipped
 * fields as {@link fieldsOf}. `old` undefined means everything was added.
 */
export function compareObjects(
  old: KubeObject | undefined,
  next: KubeObject,
  listType: ListTypeLookup,
  skip: FieldFilter = systemFields,
): FieldComparison {
  const before = fieldsOf(old ?? {}, listType, skip);
  const after = fieldsOf(next, listType, skip);
  const modified = after.intersection(before).filter((path) => {
    const last = path[path.length - 1] ?? "";
    if (last.startsWith("k:") || last.startsWith("v:")) return false;
    return !jsonEqual(valueAt(old, path).value, valueAt(next, path).value);
  });
  return { added: after.difference(before), modified, removed: before.difference(after) };
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
