/**
 * Plain JSON values as the apply, custom-resource and patch code see them: guard, equality, text, type names, copies.
 *
 * Equality, canonical text and type names each come in two variants, because their callers
 * rely on different behaviour; each variant's TSDoc says how it differs from its twin:
 * - {@link jsonEqual} ignores members set to `undefined`; {@link jsonEqualCountingUndefined}
 *   counts them.
 * - {@link canonicalJson} is an equality key (keys in code-unit order, `undefined` as `null`);
 *   {@link sortedKeysJson} is the `JSON.stringify` text of a key-sorted copy, as spelled in
 *   FieldsV1 path elements.
 * - {@link openApiTypeName} names types as OpenAPI validation errors do; {@link goJsonKind} as
 *   Go's JSON decoder does.
 *
 * @module
 */

import { setMember } from "../util/own-member.ts";

export { getMember, setMember } from "../util/own-member.ts";

/** A JSON object: a non-null object that is not an array, as decoded from a request body. */
export type JsonObject = Record<string, unknown>;

/**
 * True for a plain JSON object (not an array, not null).
 *
 * @example
 * ```ts
 * isJsonObject({ a: 1 }); // → true
 * isJsonObject([1]);      // → false
 * ```
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Structural equality of two JSON values, as their JSON text would compare: object key order
 * does not matter, list order does, and an object member set to `undefined` counts as absent.
 *
 * @example
 * ```ts
 * jsonEqual({ a: [1, 2] }, { a: [1, 2] }); // → true
 * jsonEqual({ a: 1, b: undefined }, { a: 1 }); // → true
 * ```
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  // Member by member, without listing the defined members of either side first.
  let defined = 0;
  for (const key of Object.keys(a)) {
    const value = a[key];
    if (value === undefined) continue;
    defined++;
    if (!Object.hasOwn(b, key) || !jsonEqual(value, b[key])) return false;
  }
  for (const key of Object.keys(b)) if (b[key] !== undefined) defined--;
  return defined === 0;
}

/**
 * Structural equality of two JSON values in which every own member counts, including one set
 * to `undefined`. Otherwise as {@link jsonEqual}: key order does not matter, list order does.
 *
 * Used by the patch code, which has always compared this way (e.g. a JSON Patch `test`
 * against a value holding an `undefined` member).
 *
 * @example
 * ```ts
 * jsonEqualCountingUndefined({ a: 1, b: undefined }, { a: 1 }); // → false
 * ```
 */
export function jsonEqualCountingUndefined(a: unknown, b: unknown): boolean {
  return deepEqual(a, b, Object.keys);
}

function deepEqual(a: unknown, b: unknown, members: (obj: JsonObject) => string[]): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i], members));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = members(a);
  return keys.length === members(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k], members));
}

/**
 * A canonical string for a JSON value, so that two values are equal exactly when their strings
 * are. Object keys are sorted in code-unit order at every depth, every own key is kept (also
 * `__proto__`), and `undefined` (at the top or as a member) prints as `null`. Used for enum
 * membership and list uniqueness of custom resources.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2] }) === canonicalJson({ a: [2], b: 1 }); // → true
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The `JSON.stringify` text of a copy of `value` whose object keys were inserted in sorted
 * order at every depth, so equal values always print the same; the spelling of FieldsV1
 * `k:`/`v:` path elements.
 *
 * Differs from {@link canonicalJson} as `JSON.stringify` does: members set to `undefined` are
 * left out, integer-like keys print first in numeric order, and a
 * top-level `undefined` gives `undefined` rather than a string.
 *
 * @example
 * ```ts
 * sortedKeysJson({ b: 1, a: "x" }); // → '{"a":"x","b":1}'
 * ```
 */
export function sortedKeysJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    if (value[key] !== undefined) setMember(out, key, sortKeys(value[key]));
  }
  return out;
}

/**
 * The OpenAPI type name of a JSON value, as the apiserver reports it in validation errors:
 * `null`, `boolean`, `string`, `integer` (a whole number), `number`, `array` or `object`.
 *
 * @example
 * ```ts
 * openApiTypeName(3);   // → "integer"
 * openApiTypeName(1.5); // → "number"
 * ```
 */
export function openApiTypeName(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "string":
      return "string";
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    default:
      return "object";
  }
}

/**
 * The kind of a JSON value as named in a Go decoder error (`json: cannot unmarshal <kind> into
 * Go value of type ...`): `array`, `null`, `object`, `bool`, or the `typeof` name (every
 * number is `number`, unlike {@link openApiTypeName}).
 *
 * @example
 * ```ts
 * goJsonKind([1]);  // → "array"
 * goJsonKind(3);    // → "number"
 * goJsonKind(true); // → "bool"
 * ```
 */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return "bool";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * A deep copy of a JSON value.
 *
 * @example
 * ```ts
 * const copy = cloneJson({ spec: { size: 1 } });
 * ```
 */
export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}

