/**
 * Structural defaulting: fills in the `default` values a CRD schema declares.
 */
import type { KubeObject } from "../resource-type.ts";
import { isJsonObject, setMember } from "../json-value.ts";
import { copyJson } from "./prune.ts";
import type { JsonObject } from "../json-value.ts";
import { additionalSchema, schemaFlag, schemaProperties, subSchema } from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";

/**
 * Applies a schema's `default`s to a (pruned) custom resource and returns a new object; the
 * apiserver does this on create, on update and whenever it reads an object from storage.
 *
 * Expected flow, per object node: first every declared property that is missing gets a deep copy
 * of its `default`; then every member is defaulted recursively with its property schema or the
 * `additionalProperties` schema. So a parent's default is itself defaulted further down (a
 * default `{}` picks up its children's defaults). Arrays are defaulted element by element with
 * `items`.
 *
 * Guarantees:
 * - A value that is present is never replaced, except `null` where the schema is not
 *   `nullable`: it is replaced by the default, or, for a declared property without a default,
 *   removed (the apiserver prunes such nulls before defaulting).
 * - The input is not modified.
 *
 * Caveats: defaults inside `allOf`/`anyOf`/`oneOf`/`not` are ignored (structural schemas do not
 * allow them there).
 *
 * @example
 * ```ts
 * applyDefaults({ spec: {} }, { type: "object", properties: { spec: { type: "object",
 *   properties: { size: { type: "integer", default: 1 } } } } });
 * // → { spec: { size: 1 } }
 * ```
 */
export function applyDefaults(obj: KubeObject, schema: JsonSchema): KubeObject {
  const copy = copyJson(obj);
  defaultInPlace(copy, schema);
  return copy;
}

/**
 * {@link applyDefaults} on `obj` itself, for a copy the caller owns (e.g. the result of
 * pruning): saves a second deep copy of a large body. Only the schema-described parts are
 * visited, so members kept by `x-kubernetes-preserve-unknown-fields` cost nothing.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 * import { pruneUnknownFields } from "./prune.ts";
 * import type { JsonSchema } from "./schema-node.ts";
 *
 * declare const body: KubeObject, schema: JsonSchema;
 * const { object } = pruneUnknownFields(body, schema);
 * applyDefaultsInPlace(object, schema);
 * ```
 */
export function applyDefaultsInPlace(obj: KubeObject, schema: JsonSchema): void {
  defaultInPlace(obj, schema);
}

function hasDefault(schema: JsonSchema): boolean {
  return Object.hasOwn(schema, "default") && schema["default"] !== undefined;
}

function isNullable(schema: JsonSchema): boolean {
  return schemaFlag(schema, "nullable");
}

function defaultInPlace(value: unknown, schema: JsonSchema | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    defaultArray(value, schema);
  } else if (isJsonObject(value)) {
    defaultObject(value, schema);
  }
}

function defaultArray(list: unknown[], schema: JsonSchema): void {
  const items = subSchema(schema, "items");
  if (items === undefined) return;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === null && !isNullable(items) && hasDefault(items)) list[i] = copyJson(items["default"]);
    defaultInPlace(list[i], items);
  }
}

function defaultObject(obj: JsonObject, schema: JsonSchema): void {
  const properties = schemaProperties(schema) ?? {};
  for (const [key, prop] of Object.entries(properties)) {
    const present = Object.hasOwn(obj, key);
    if (present && !(obj[key] === null && !isNullable(prop))) continue;
    if (hasDefault(prop)) {
      setMember(obj, key, copyJson(prop["default"]));
    } else if (present) {
      delete obj[key];
    }
  }
  const additional = additionalSchema(schema);
  if (!isJsonObject(additional)) {
    // Only declared members have a schema: walk the (few) properties, not the (many) members.
    for (const key of Object.keys(properties)) if (Object.hasOwn(obj, key)) defaultInPlace(obj[key], properties[key]);
    return;
  }
  for (const key of Object.keys(obj)) {
    const prop = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (prop !== undefined) {
      defaultInPlace(obj[key], prop);
    } else {
      if (obj[key] === null && !isNullable(additional) && hasDefault(additional)) {
        setMember(obj, key, copyJson(additional["default"]));
      }
      defaultInPlace(obj[key], additional);
    }
  }
}
