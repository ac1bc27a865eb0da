/**
 * Where a CRD schema declares CEL rules (`x-kubernetes-validations`), and the cause the
 * apiserver adds when earlier errors keep those rules from running.
 *
 * @module
 */
import type { StatusCause } from "../status.ts";
import { invalidValue } from "../status.ts";
import { isJsonObject } from "../json-value.ts";
import type { JsonSchema } from "./schema-node.ts";

const hasRulesCache = new WeakMap<JsonSchema, boolean>();

/** The reasons that stop CEL rules from running (the apiserver's "blocking" errors). */
const BLOCKING_REASONS: ReadonlySet<string> = new Set([
  "FieldValueNotSupported",
  "FieldValueRequired",
  "FieldValueTooLong",
  "FieldValueTooMany",
  "FieldValueTypeInvalid",
]);

/**
 * True when any node of the schema has a non-empty `x-kubernetes-validations` list (then the
 * apiserver runs a CEL validator for the kind). Cached per schema object.
 *
 * @example
 * ```ts
 * schemaHasCelRules({ type: "object", "x-kubernetes-validations": [{ rule: "true" }] }); // → true
 * ```
 */
export function schemaHasCelRules(schema: JsonSchema): boolean {
  const cached = hasRulesCache.get(schema);
  if (cached !== undefined) return cached;
  const result = walk(schema);
  hasRulesCache.set(schema, result);
  return result;
}

function walk(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(walk);
  if (!isJsonObject(node)) return false;
  const rules = node["x-kubernetes-validations"];
  if (Array.isArray(rules) && rules.length > 0) return true;
  for (const key of ["items", "additionalProperties", "not"]) if (walk(node[key])) return true;
  for (const key of ["allOf", "anyOf", "oneOf"]) if (walk(node[key])) return true;
  const properties = node["properties"];
  return isJsonObject(properties) && Object.values(properties).some(walk);
}

/**
 * The cause the apiserver appends when a kind has CEL rules but the object already has an error
 * that keeps them from running (not supported, required, too long, too many, wrong type):
 * `<nil>: Invalid value: "null": some validation rules were not checked because the object was
 * invalid; correct the existing errors to complete validation`. Undefined when none applies.
 *
 * @example
 * ```ts
 * import { requiredValue } from "../status.ts";
 *
 * celNotCheckedCause([requiredValue("spec.size")]); // → the "<nil>" cause
 * ```
 */
export function celNotCheckedCause(causes: readonly StatusCause[]): StatusCause | undefined {
  if (!causes.some((c) => c.reason !== undefined && BLOCKING_REASONS.has(c.reason))) return undefined;
  return invalidValue(
    "<nil>",
    "null",
    "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
  );
}
