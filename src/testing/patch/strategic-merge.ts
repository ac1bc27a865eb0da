/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds.
 *
 * A merge patch that knows the schema: lists with a merge key merge element by element, sets
 * of primitives merge as a union, and the `$patch`, `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>` directives are honoured.
 * Custom resources have no strategic merge schema; the API server answers them with 415
 * before a patch gets here.
 *
 * @module
 */

import { StatusError, badRequest } from "../status.ts";
import type { KubeObject, ListType, ListTypeLookup } from "../resource-type.ts";
import { getMember, goJsonKind, isJsonObject, jsonEqualCountingUndefined, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";
import { builtinListType, strategicMergeKey } from "./merge-keys.ts";

type Json = unknown;

/** What the merge needs to know about a list field. */
interface ListSchema {
  listType(path: readonly string[]): ListType;
  mergeKey(path: readonly string[]): string | undefined;
}

const PATCH = "$patch";
const RETAIN_KEYS = "$retainKeys";
const DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
const SET_ELEMENT_ORDER = "$setElementOrder/";

/**
 * Applies a strategic merge patch to `doc` and returns the patched copy. `doc` is never mutated.
 *
 * `schema` is either a built-in Kind (`"Deployment"`; lists merge per {@link builtinListType}
 * and {@link strategicMergeKey}) or a {@link ListTypeLookup} (a map list merges by its first
 * key).
 *
 * Expected flow, per object level:
 * - `$patch: replace` replaces the stored map with the patch; `$patch: delete` empties it.
 * - `$retainKeys: [..]` drops stored keys not listed (then the patch merges in).
 * - `$deleteFromPrimitiveList/<field>: [..]` removes those values from the stored list.
 * - each other key: `null` deletes it, maps merge recursively, lists merge per their type,
 *   scalars replace.
 * - `$setElementOrder/<field>: [..]` reorders the merged list: listed elements take the order
 *   given, unlisted (server-only) elements keep their positions.
 *
 * Lists: keyed lists merge each patch element into the stored element with the same key or
 * append it; an element with `$patch: delete` removes its match; an element
 * `{ $patch: replace }` makes the rest of the patch list replace the stored list. Sets of
 * primitives (`metadata.finalizers`) merge as a union. Other lists are replaced.
 *
 * Guarantees: no directive key survives into the result.
 *
 * Errors: 400 BadRequest for a body that is not a JSON object, a malformed directive, or a
 * keyed-list element without its merge key; 422 Invalid when a patched key is missing from
 * `$retainKeys`.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const deployment: KubeObject;
 * const next = applyStrategicMergePatch(deployment, {
 *   spec: { template: { spec: { containers: [{ name: "app", image: "app:v2" }] } } },
 * }, "Deployment");
 * ```
 */
export function applyStrategicMergePatch(doc: KubeObject, patch: unknown, schema: string | ListTypeLookup): KubeObject {
  if (!isJsonObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${goJsonKind(patch)} into Go value of type map[string]interface {}`);
  }
  return mergeMap(structuredClone(doc), structuredClone(patch), [], toSchema(schema)) as KubeObject;
}

function toSchema(schema: string | ListTypeLookup): ListSchema {
  if (typeof schema === "string") {
    const lookup = builtinListType(schema);
    return { listType: lookup, mergeKey: (path) => strategicMergeKey(schema, path) };
  }
  return {
    listType: schema,
    mergeKey: (path) => {
      const t = schema(path);
      return t.type === "map" ? t.keys[0] : undefined;
    },
  };
}

function isDirective(key: string): boolean {
  return (
    key === PATCH || key === RETAIN_KEYS || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ELEMENT_ORDER)
  );
}

/** Merges `patch` into `original` (both owned by the caller and mutated freely). */
function mergeMap(original: JsonObject | undefined, patch: JsonObject, path: readonly string[], schema: ListSchema): JsonObject {
  const directive = getMember(patch, PATCH);
  if (directive !== undefined) {
    delete patch[PATCH];
    if (directive === "replace") return mergeMap(undefined, patch, path, schema);
    if (directive === "delete") return {};
    if (directive !== "merge") throw badRequest(`Unknown patch type: ${String(directive)} in map`);
  }
  const result: JsonObject = original ?? {};

  const retain = getMember(patch, RETAIN_KEYS);
  if (retain !== undefined) {
    if (!Array.isArray(retain) || !retain.every((k) => typeof k === "string")) {
      throw badRequest("invalid patch format of retainKeys");
    }
    for (const [key, value] of Object.entries(patch)) {
      if (!isDirective(key) && value !== null && !retain.includes(key)) {
        throw new StatusError(422, "Invalid", "patch content doesn't match retainKeys list");
      }
    }
    for (const key of Object.keys(result)) if (!retain.includes(key)) delete result[key];
  }

  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
    if (!Array.isArray(value)) throw badRequest("invalid patch format of primitive list");
    const stored = getMember(result, field);
    if (Array.isArray(stored)) {
      setMember(result, field, stored.filter((item) => !value.some((v) => jsonEqualCountingUndefined(v, item))));
    }
  }

  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) continue;
    if (value === null) delete result[key];
    else setMember(result, key, mergeValue(getMember(result, key), value, [...path, key], schema));
  }

  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const field = key.slice(SET_ELEMENT_ORDER.length);
    if (!Array.isArray(value)) throw badRequest("invalid patch format of setElementOrder list");
    const stored = getMember(result, field);
    if (Array.isArray(stored)) reorder(stored, value, schema.mergeKey([...path, field]));
  }
  return result;
}

function mergeValue(original: Json, patch: Json, path: readonly string[], schema: ListSchema): Json {
  if (isJsonObject(patch)) return mergeMap(isJsonObject(original) ? original : undefined, patch, path, schema);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : undefined, patch, path, schema);
  return patch;
}

function mergeList(original: Json[] | undefined, patch: Json[], path: readonly string[], schema: ListSchema): Json[] {
  const replaceAt = patch.findIndex((el) => isJsonObject(el) && getMember(el, PATCH) === "replace" && Object.keys(el).length === 1);
  if (replaceAt >= 0) {
    const rest = patch.filter((_, i) => i !== replaceAt);
    return rest.map((el) => fresh(el, path, schema));
  }
  const listType = schema.listType(path);
  const mergeKey = schema.mergeKey(path);
  if (listType.type === "map" && mergeKey !== undefined) return mergeKeyedList(original ?? [], patch, mergeKey, path, schema);
  if (listType.type === "set") {
    const result = original ?? [];
    for (const el of patch) {
      if (!result.some((item) => jsonEqualCountingUndefined(item, el))) result.push(fresh(el, path, schema));
    }
    return result;
  }
  return patch.map((el) => fresh(el, path, schema));
}

function mergeKeyedList(original: Json[], patch: Json[], key: string, path: readonly string[], schema: ListSchema): Json[] {
  let result = original;
  for (const el of patch) {
    if (!isJsonObject(el) || getMember(el, key) === undefined || getMember(el, key) === null) {
      throw badRequest(`map: ${JSON.stringify(el)} does not contain declared merge key: ${key}`);
    }
    const id = getMember(el, key);
    const matches = (item: Json): boolean => isJsonObject(item) && jsonEqualCountingUndefined(getMember(item, key), id);
    if (getMember(el, PATCH) === "delete") {
      result = result.filter((item) => !matches(item));
      continue;
    }
    const index = result.findIndex(matches);
    if (index >= 0) result[index] = mergeMap(result[index] as JsonObject, el, path, schema);
    else result.push(mergeMap(undefined, el, path, schema));
  }
  return result;
}

/** A patch value with nothing to merge into: directives are applied against an empty value. */
function fresh(value: Json, path: readonly string[], schema: ListSchema): Json {
  return mergeValue(undefined, value, path, schema);
}

/**
 * Sorts the elements of `list` named in `order` into that order, in place, keeping the
 * positions of the elements `order` does not name.
 */
function reorder(list: Json[], order: Json[], key: string | undefined): void {
  const identity = (item: Json): Json => (key === undefined ? item : isJsonObject(item) ? getMember(item, key) : undefined);
  const wanted = order.map(identity);
  const rank = (item: Json): number =>
    wanted.findIndex((w) => w !== undefined && jsonEqualCountingUndefined(w, identity(item)));
  const slots = list.flatMap((item, i) => (rank(item) >= 0 ? [i] : []));
  const sorted = slots.map((i) => list[i]).sort((a, b) => rank(a) - rank(b));
  slots.forEach((slot, i) => {
    list[slot] = sorted[i];
  });
}
