/**
 * Structural pruning: drops the fields of a custom resource that its schema does not declare.
 */
import type { KubeObject } from "../resource-type.ts";
import { isJsonObject, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";
import { childPath, indexPath } from "./field-path.ts";
import {
  RESOURCE_META_FIELDS,
  additionalSchema,
  isEmbeddedResource,
  preservesUnknownFields,
  schemaProperties,
  subSchema,
} from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";

/** What {@link pruneUnknownFields} returns. */
export interface PruneResult {
  /**
   * A new object holding only the declared (or preserved) fields. Subtrees kept whole by
   * `x-kubernetes-preserve-unknown-fields` (or `additionalProperties: true`) and the root's
   * `metadata.managedFields` are the input's own, not copies; everything else is new.
   */
  object: KubeObject;
  /**
   * The paths of the dropped fields in traversal order, e.g. `spec.x`, `spec.items[0].name`.
   * With `fieldValidation=Warn` each becomes a warning and with `Strict` an error; see
   * {@link unknownFieldMessage}.
   */
  prunedFields: string[];
}

/**
 * Prunes a custom resource against its version's `openAPIV3Schema`, the way the apiserver
 * does before defaulting and validation.
 *
 * Guarantees:
 * - At the root, `apiVersion`, `kind` and `metadata` are always kept; `metadata` is copied
 *   untouched (ObjectMeta is checked elsewhere).
 * - An object keeps the members named in `properties` (each pruned with its own schema), every
 *   member when `additionalProperties` is `true` or `x-kubernetes-preserve-unknown-fields` is
 *   set, and prunes each other member with the `additionalProperties` schema when there is one.
 *   Everything else is dropped and reported.
 * - Arrays are pruned element by element with `items`.
 * - `x-kubernetes-embedded-resource: true` keeps the embedded object's `apiVersion`, `kind` and
 *   `metadata` as at the root.
 * - Scalars are never touched, so `x-kubernetes-int-or-string` values (int or string) pass as is;
 *   a value whose type does not match the schema is left for validation to report.
 * - The input is not modified. Subtrees kept whole (preserved unknown fields) are shared with
 *   it rather than copied: a large preserved body costs no copy. The writer hands over bodies
 *   it owns and never changes such a subtree in place afterwards.
 *
 * Caveats: like the apiserver, an object schema with no `properties`, no `additionalProperties`
 * and no `x-kubernetes-preserve-unknown-fields` drops every member (e.g. a bare
 * `status: {type: object}`). Junctors (`allOf`/`anyOf`/`oneOf`) never declare fields here, as in
 * structural schemas.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } };
 * const cr = { apiVersion: "example.com/v1", kind: "Widget", spec: { size: 1, typo: true } };
 * const { object, prunedFields } = pruneUnknownFields(cr, schema);
 * // prunedFields → ["spec.typo"]
 * ```
 */
export function pruneUnknownFields(obj: KubeObject, schema: JsonSchema): PruneResult {
  const prunedFields: string[] = [];
  const object = pruneObject(obj, schema, "", prunedFields, true);
  return { object, prunedFields };
}

/**
 * The message the apiserver uses for a pruned field under `fieldValidation=Warn|Strict`.
 *
 * @example
 * ```ts
 * unknownFieldMessage("spec.x"); // → 'unknown field "spec.x"'
 * ```
 */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/**
 * A deep copy of a decoded JSON value: much faster than `structuredClone` on large bodies.
 * A `__proto__` member is copied as a member, never as a prototype change.
 */
export function copyJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const list: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) list[i] = copyJson(value[i]);
    return list as T;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === "__proto__") setMember(out, key, copyJson(source[key]));
    else out[key] = copyJson(source[key]);
  }
  return out as T;
}

function pruneValue(value: unknown, schema: JsonSchema | undefined, path: string, pruned: string[]): unknown {
  if (schema !== undefined && preservesUnknownFields(schema) && !describesStructure(schema)) {
    return value;
  }
  if (Array.isArray(value)) {
    const items = subSchema(schema, "items");
    if (items === undefined && preservesUnknownFields(schema)) return value;
    return value.map((element, i) => pruneValue(element, items, indexPath(path, i), pruned));
  }
  if (isJsonObject(value)) return pruneObject(value, schema, path, pruned, false);
  return value;
}

function pruneObject(
  obj: JsonObject,
  schema: JsonSchema | undefined,
  path: string,
  pruned: string[],
  isRoot: boolean,
): JsonObject {
  const properties = schemaProperties(schema);
  const additional = additionalSchema(schema);
  const preserve = preservesUnknownFields(schema);
  const keepMeta = isRoot || isEmbeddedResource(schema);
  const out: JsonObject = {};
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const declared = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (keepMeta && RESOURCE_META_FIELDS.has(key)) {
      setMember(out, key, isRoot && key === "metadata" ? copyMetadata(value) : copyJson(value));
    } else if (declared !== undefined) {
      setMember(out, key, pruneValue(value, declared, childPath(path, key), pruned));
    } else if (additional === true || (additional === undefined && preserve)) {
      setMember(out, key, value);
    } else if (additional !== undefined) {
      setMember(out, key, pruneValue(value, additional, childPath(path, key), pruned));
    } else {
      pruned.push(childPath(path, key));
    }
  }
  return out;
}

/**
 * A copy of the root's `metadata`, but for its `managedFields`, which are shared: the writer
 * changes metadata members in place, never managedFields entries, and those can be large (one
 * FieldsV1 member per field of the object).
 */
function copyMetadata(value: unknown): unknown {
  if (!isJsonObject(value)) return copyJson(value);
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setMember(out, key, key === "managedFields" ? value[key] : copyJson(value[key]));
  return out;
}

/** True when a preserve-unknown-fields node still declares members or items to recurse into. */
function describesStructure(schema: JsonSchema): boolean {
  return (
    schemaProperties(schema) !== undefined ||
    additionalSchema(schema) !== undefined ||
    subSchema(schema, "items") !== undefined
  );
}
