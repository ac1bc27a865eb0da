/**
 * Typed reads of one node of a CRD's `openAPIV3Schema`.
 *
 * Schemas arrive as untyped JSON (they are part of a user's CRD), so every read checks the shape
 * it expects and treats anything else as absent instead of trusting a cast.
 */
import { getMember, isJsonObject, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";

/** One node of an OpenAPI v3 schema as found in a CRD (`JSONSchemaProps`), untyped. */
export type JsonSchema = JsonObject;

/**
 * The node at `schema[key]` if it is a schema object.
 *
 * @example
 * ```ts
 * subSchema({ items: { type: "string" } }, "items"); // → { type: "string" }
 * ```
 */
export function subSchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  const value = schema === undefined ? undefined : getMember(schema, key);
  return isJsonObject(value) ? value : undefined;
}

/**
 * `schema.properties`, or undefined when the node declares none.
 *
 * @example
 * ```ts
 * schemaProperties({ properties: { size: { type: "integer" } } }); // → { size: {...} }
 * ```
 */
export function schemaProperties(schema: JsonSchema | undefined): Record<string, JsonSchema> | undefined {
  const props = subSchema(schema, "properties");
  if (props === undefined) return undefined;
  const cached = propertiesCache.get(props);
  if (cached !== undefined) return cached;
  const out: Record<string, JsonSchema> = {};
  // A property may be named `__proto__`: copy it as a member, not as a prototype change.
  for (const [key, value] of Object.entries(props)) if (isJsonObject(value)) setMember(out, key, value);
  propertiesCache.set(props, out);
  return out;
}

/**
 * The checked copy of each `properties` node, computed once: schemas are walked for every object
 * node of every write. Assumes, like the rest of LocalCluster, that a stored CRD's schema is
 * never mutated in place (updates replace the whole object).
 */
const propertiesCache = new WeakMap<JsonObject, Record<string, JsonSchema>>();

/**
 * `schema.additionalProperties`: a schema for every other key, `true` (any value), or
 * undefined when absent or `false`.
 *
 * @example
 * ```ts
 * additionalSchema({ additionalProperties: { type: "string" } }); // → { type: "string" }
 * ```
 */
export function additionalSchema(schema: JsonSchema | undefined): JsonSchema | true | undefined {
  const value = schema?.["additionalProperties"];
  if (value === true) return true;
  return isJsonObject(value) ? value : undefined;
}

/**
 * The sub-schemas of a junctor (`allOf`, `anyOf`, `oneOf`); empty when absent.
 *
 * @example
 * ```ts
 * schemaList({ anyOf: [{ type: "integer" }, { type: "string" }] }, "anyOf").length; // → 2
 * ```
 */
export function schemaList(schema: JsonSchema | undefined, key: "allOf" | "anyOf" | "oneOf"): JsonSchema[] {
  const value = schema?.[key];
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/**
 * True when the boolean extension or keyword `key` is set to `true`.
 *
 * @example
 * ```ts
 * schemaFlag({ "x-kubernetes-int-or-string": true }, "x-kubernetes-int-or-string"); // → true
 * ```
 */
export function schemaFlag(schema: JsonSchema | undefined, key: string): boolean {
  return schema?.[key] === true;
}

/**
 * A string keyword (`type`, `format`, `pattern`, `x-kubernetes-list-type`…), or undefined.
 *
 * @example
 * ```ts
 * schemaString({ type: "object" }, "type"); // → "object"
 * ```
 */
export function schemaString(schema: JsonSchema | undefined, key: string): string | undefined {
  const value = schema?.[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * A numeric keyword (`minimum`, `maxLength`…), or undefined.
 *
 * @example
 * ```ts
 * schemaNumber({ minimum: 1 }, "minimum"); // → 1
 * ```
 */
export function schemaNumber(schema: JsonSchema | undefined, key: string): number | undefined {
  const value = schema?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * A list-of-strings keyword (`required`, `x-kubernetes-list-map-keys`); empty when absent.
 *
 * @example
 * ```ts
 * schemaStrings({ required: ["spec"] }, "required"); // → ["spec"]
 * ```
 */
export function schemaStrings(schema: JsonSchema | undefined, key: string): string[] {
  const value = schema?.[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * True when the node preserves unknown fields (`x-kubernetes-preserve-unknown-fields: true`).
 *
 * @example
 * ```ts
 * preservesUnknownFields({ type: "object", "x-kubernetes-preserve-unknown-fields": true }); // → true
 * ```
 */
export function preservesUnknownFields(schema: JsonSchema | undefined): boolean {
  return schemaFlag(schema, "x-kubernetes-preserve-unknown-fields");
}

/**
 * True when the node is an embedded Kubernetes object (`x-kubernetes-embedded-resource: true`),
 * whose `apiVersion`, `kind` and `metadata` are always kept.
 *
 * @example
 * ```ts
 * isEmbeddedResource({ type: "object", "x-kubernetes-embedded-resource": true }); // → true
 * ```
 */
export function isEmbeddedResource(schema: JsonSchema | undefined): boolean {
  return schemaFlag(schema, "x-kubernetes-embedded-resource");
}

/**
 * True when the node accepts an integer or a string (`x-kubernetes-int-or-string: true`).
 *
 * @example
 * ```ts
 * isIntOrString({ "x-kubernetes-int-or-string": true }); // → true
 * ```
 */
export function isIntOrString(schema: JsonSchema | undefined): boolean {
  return schemaFlag(schema, "x-kubernetes-int-or-string");
}

/** `apiVersion`, `kind`, `metadata`: the members kept at a resource root and in embedded objects. */
export const RESOURCE_META_FIELDS: ReadonlySet<string> = new Set(["apiVersion", "kind", "metadata"]);
