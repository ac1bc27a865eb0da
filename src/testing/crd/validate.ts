/**
 * Validates a custom resource against its CRD version's `openAPIV3Schema`, with the apiserver's
 * field paths and messages.
 */
import type { StatusCause } from "../status.ts";
import { formatValue, invalidValue, requiredValue, unsupportedValue } from "../status.ts";
import { matchesFormat } from "./formats.ts";
import { canonicalJson, isJsonObject, openApiTypeName } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";
import { childPath, indexPath } from "./field-path.ts";
import { listUniquenessCauses } from "./list-type.ts";
import {
  additionalSchema,
  isEmbeddedResource,
  isIntOrString,
  schemaFlag,
  schemaList,
  schemaNumber,
  schemaProperties,
  schemaString,
  schemaStrings,
  subSchema,
} from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";

/**
 * Checks a custom resource (already pruned and defaulted) against a schema and returns one
 * {@link StatusCause} per violation, in traversal order; an empty list means valid.
 *
 * Checked: `type` (object, array, string, integer, number, boolean) and `nullable`;
 * `x-kubernetes-int-or-string`; `required`; `enum`; `minimum`/`maximum` with
 * `exclusiveMinimum`/`exclusiveMaximum`; `multipleOf`; `minLength`/`maxLength` (in characters);
 * `pattern` (as an ECMAScript RegExp; a leading `(?i)` becomes the `i` flag);
 * `format` (see {@link matchesFormat}); `minItems`/`maxItems`; `minProperties`/`maxProperties`;
 * `allOf`/`anyOf`/`oneOf`/`not`; `x-kubernetes-list-type: set|map` uniqueness; `apiVersion` and
 * `kind` inside `x-kubernetes-embedded-resource` objects.
 *
 * Messages follow the apiserver, e.g. field `spec.size` with
 * `Invalid value: "string": spec.size in body must be of type integer: "string"`,
 * `Required value`, `Unsupported value: "x": supported values: "a", "b"`,
 * `Invalid value: 0: spec.replicas in body should be greater than or equal to 1`,
 * `Invalid value: "ABC": spec.name in body should match '^[a-z]+$'`,
 * `Too long: may not be more than 5 bytes`, `Too many: 4: must have at most 3 items`,
 * `Duplicate value: "a"`.
 *
 * Caveats: `x-kubernetes-validations` (CEL rules) are skipped, never failed: LocalCluster has no
 * CEL evaluator. A value of the wrong type is reported once and not checked further. Validation
 * ratcheting (tolerating unchanged invalid fields on update) is not implemented.
 *
 * @example
 * validateAgainstSchema({ spec: { size: "big" } }, schema);
 * // → [{ reason: "FieldValueTypeInvalid", field: "spec.size",
 * //      message: 'Invalid value: "string": spec.size in body must be of type integer: "string"' }]
 */
export function validateAgainstSchema(obj: unknown, schema: JsonSchema): StatusCause[] {
  const causes: StatusCause[] = [];
  validateValue(obj, schema, "", causes);
  const seen = new Set<string>();
  return causes.filter((c) => {
    const key = `${c.field ?? ""}\u0000${c.reason ?? ""}\u0000${c.message ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `spec.size in body`, the subject of the apiserver's schema messages. */
function subject(path: string): string {
  return path === "" ? "in body" : `${path} in body`;
}

/** `Invalid value: <v>: <detail>` with reason FieldValueTypeInvalid (type and format errors). */
function typeInvalid(field: string, value: unknown, detail: string): StatusCause {
  return { reason: "FieldValueTypeInvalid", field, message: `Invalid value: ${formatValue(value)}: ${detail}` };
}

/** `Too many: <n>: must have at most <max> items` (reason FieldValueTooMany). */
function tooMany(field: string, actual: number, max: number): StatusCause {
  return { reason: "FieldValueTooMany", field, message: `Too many: ${actual}: must have at most ${max} ${max === 1 ? "item" : "items"}` };
}

function declaredTypes(schema: JsonSchema): string[] {
  if (isIntOrString(schema)) return ["integer", "string"];
  const type = schemaString(schema, "type");
  return type === undefined || type === "" ? [] : [type];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "object":
      return isJsonObject(value);
    case "array":
      return Array.isArray(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    default:
      return true;
  }
}

function validateValue(value: unknown, schema: JsonSchema, path: string, out: StatusCause[]): void {
  // x-kubernetes-validations (CEL) rules are deliberately not evaluated: they never fail here.
  const types = declaredTypes(schema);
  if (value === null || value === undefined) {
    if (!schemaFlag(schema, "nullable") && types.length > 0) {
      out.push(typeInvalid(path, "null", `${subject(path)} must be of type ${types.join(",")}: "null"`));
    }
    return;
  }
  if (types.length > 0 && !types.some((t) => hasType(value, t))) {
    const actual = openApiTypeName(value);
    out.push(typeInvalid(path, actual, `${subject(path)} must be of type ${types.join(",")}: ${JSON.stringify(actual)}`));
    return;
  }
  validateEnum(value, schema, path, out);
  if (typeof value === "string") validateString(value, schema, path, out);
  else if (typeof value === "number") validateNumber(value, schema, path, out);
  else if (Array.isArray(value)) validateArray(value, schema, path, out);
  else if (isJsonObject(value)) validateObject(value, schema, path, out);
  validateJunctors(value, schema, path, out);
}

function validateEnum(value: unknown, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const allowed = schema["enum"];
  if (!Array.isArray(allowed)) return;
  const canonical = canonicalJson(value);
  if (allowed.some((a) => canonicalJson(a) === canonical)) return;
  out.push(unsupportedValue(path, value, allowed.map((a) => (typeof a === "string" ? a : JSON.stringify(a)))));
}

const patternCache = new Map<string, RegExp | null>();

/** Compiles a schema pattern once; null when it is not a usable ECMAScript RegExp. */
function compilePattern(pattern: string): RegExp | null {
  const cached = patternCache.get(pattern);
  if (cached !== undefined) return cached;
  const caseless = pattern.startsWith("(?i)");
  const source = caseless ? pattern.slice(4) : pattern;
  const flags = caseless ? "i" : "";
  let compiled: RegExp | null = null;
  for (const extra of ["u", ""]) {
    try {
      compiled = new RegExp(source, flags + extra);
      break;
    } catch {
      // try the next flag set; a pattern no flag set accepts is skipped
    }
  }
  patternCache.set(pattern, compiled);
  return compiled;
}

function validateString(value: string, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const length = [...value].length;
  const maxLength = schemaNumber(schema, "maxLength");
  if (maxLength !== undefined && length > maxLength) {
    out.push({
      reason: "FieldValueTooLong",
      field: path,
      message: `Too long: may not be more than ${maxLength} ${maxLength === 1 ? "byte" : "bytes"}`,
    });
  }
  const minLength = schemaNumber(schema, "minLength");
  if (minLength !== undefined && length < minLength) {
    out.push(invalidValue(path, value, `${subject(path)} should be at least ${minLength} chars long`));
  }
  const pattern = schemaString(schema, "pattern");
  const regexp = pattern === undefined ? null : compilePattern(pattern);
  if (regexp !== null && !regexp.test(value)) {
    out.push(invalidValue(path, value, `${subject(path)} should match '${pattern}'`));
  }
  const format = schemaString(schema, "format");
  if (format !== undefined && !matchesFormat(format, value)) {
    out.push(typeInvalid(path, value, `${subject(path)} must be of type ${format}: ${JSON.stringify(value)}`));
  }
}

function validateNumber(value: number, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const minimum = schemaNumber(schema, "minimum");
  if (minimum !== undefined) {
    const exclusive = schemaFlag(schema, "exclusiveMinimum");
    if (exclusive ? value <= minimum : value < minimum) {
      const relation = exclusive ? "greater than" : "greater than or equal to";
      out.push(invalidValue(path, value, `${subject(path)} should be ${relation} ${minimum}`));
    }
  }
  const maximum = schemaNumber(schema, "maximum");
  if (maximum !== undefined) {
    const exclusive = schemaFlag(schema, "exclusiveMaximum");
    if (exclusive ? value >= maximum : value > maximum) {
      const relation = exclusive ? "less than" : "less than or equal to";
      out.push(invalidValue(path, value, `${subject(path)} should be ${relation} ${maximum}`));
    }
  }
  const multipleOf = schemaNumber(schema, "multipleOf");
  if (multipleOf !== undefined && multipleOf > 0) {
    const quotient = value / multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9) {
      out.push(invalidValue(path, value, `${subject(path)} should be a multiple of ${multipleOf}`));
    }
  }
}

function validateArray(value: unknown[], schema: JsonSchema, path: string, out: StatusCause[]): void {
  const minItems = schemaNumber(schema, "minItems");
  if (minItems !== undefined && value.length < minItems) {
    out.push(invalidValue(path, value.length, `${subject(path)} should have at least ${minItems} items`));
  }
  const maxItems = schemaNumber(schema, "maxItems");
  if (maxItems !== undefined && value.length > maxItems) out.push(tooMany(path, value.length, maxItems));
  out.push(...listUniquenessCauses(value, schema, path));
  const items = subSchema(schema, "items");
  if (items !== undefined) value.forEach((element, i) => validateValue(element, items, indexPath(path, i), out));
}

function validateObject(value: JsonObject, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const count = Object.keys(value).length;
  const minProperties = schemaNumber(schema, "minProperties");
  if (minProperties !== undefined && count < minProperties) {
    out.push(invalidValue(path, count, `${subject(path)} should have at least ${minProperties} properties`));
  }
  const maxProperties = schemaNumber(schema, "maxProperties");
  if (maxProperties !== undefined && count > maxProperties) out.push(tooMany(path, count, maxProperties));
  for (const key of schemaStrings(schema, "required")) {
    if (!Object.hasOwn(value, key)) out.push(requiredValue(childPath(path, key)));
  }
  if (isEmbeddedResource(schema)) {
    for (const key of ["apiVersion", "kind"]) {
      if (value[key] === undefined || value[key] === "") out.push(requiredValue(childPath(path, key), "must not be empty"));
    }
  }
  const properties = schemaProperties(schema);
  const additional = additionalSchema(schema);
  for (const [key, member] of Object.entries(value)) {
    const prop = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
    const memberSchema = prop ?? (additional === true ? undefined : additional);
    if (memberSchema !== undefined) validateValue(member, memberSchema, childPath(path, key), out);
  }
}

/** The causes `value` produces against `schema` alone (for junctor branches). */
function causesFor(value: unknown, schema: JsonSchema, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  validateValue(value, schema, path, causes);
  return causes;
}

/** The failures of the branch that came closest (fewest causes), as the apiserver reports. */
function closest(failures: StatusCause[][]): StatusCause[] {
  return failures.reduce<StatusCause[] | undefined>((best, c) => (best === undefined || c.length < best.length ? c : best), undefined) ?? [];
}

function validateJunctors(value: unknown, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const allOf = schemaList(schema, "allOf").map((s) => causesFor(value, s, path));
  if (allOf.some((c) => c.length > 0)) {
    out.push(invalidValue(path, "", `${subject(path)} must validate all the schemas (allOf)`), ...allOf.flat());
  }
  const anyOf = schemaList(schema, "anyOf").map((s) => causesFor(value, s, path));
  if (anyOf.length > 0 && anyOf.every((c) => c.length > 0)) {
    out.push(invalidValue(path, "", `${subject(path)} must validate at least one schema (anyOf)`), ...closest(anyOf));
  }
  const oneOf = schemaList(schema, "oneOf").map((s) => causesFor(value, s, path));
  const passing = oneOf.filter((c) => c.length === 0).length;
  if (oneOf.length > 0 && passing !== 1) {
    out.push(invalidValue(path, "", `${subject(path)} must validate one and only one schema (oneOf)`));
    if (passing === 0) out.push(...closest(oneOf));
  }
  const not = subSchema(schema, "not");
  if (not !== undefined && causesFor(value, not, path).length === 0) {
    out.push(invalidValue(path, "", `${subject(path)} must not validate the schema (not)`));
  }
}
