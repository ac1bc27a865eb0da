/**
 * Validates a custom resource against its CRD version's `openAPIV3Schema`, with the apiserver's
 * field paths and messages.
 */
import { RE2JS } from "@bufbuild/re2";
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
 * {@link StatusCause} per violation, sorted by field path as the apiserver reports them (causes
 * on one field keep kube-openapi's validator order: type, junctors, string, format, number,
 * array, enum, object); an empty list means valid. Of `maxLength`, `minLength` and `pattern`
 * only the first failing one is reported, as kube-openapi's string validator stops there.
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
 * Caveats: `x-kubernetes-validations` (CEL rules) are not this function's: they run after it,
 * in `celRuleCauses` (cel-validate.ts), unless one of its errors blocks them (then
 * `celNotCheckedCause` adds the apiserver's "some validation rules were not checked"). A value
 * of the wrong type is reported once and not checked further. Validation ratcheting (tolerating
 * unchanged invalid fields on update) is not implemented. List-type duplicates come last.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } };
 * validateAgainstSchema({ spec: { size: "big" } }, schema);
 * // → [{ reason: "FieldValueTypeInvalid", field: "spec.size",
 * //      message: 'Invalid value: "string": spec.size in body must be of type integer: "string"' }]
 * ```
 */
export function validateAgainstSchema(obj: unknown, schema: JsonSchema): StatusCause[] {
  const { schemaCauses, listCauses } = validateCustomResourceSchema(obj, schema);
  return listCauses.length === 0 ? schemaCauses : [...schemaCauses, ...listCauses];
}

/** What {@link validateCustomResourceSchema} returns: the two kinds of schema errors apart. */
export interface SchemaValidationResult {
  /** The OpenAPI schema errors, sorted by field path (the apiserver's order); duplicates dropped. */
  schemaCauses: StatusCause[];
  /** `x-kubernetes-list-type: set|map` duplicates, in traversal order (reported after the rest). */
  listCauses: StatusCause[];
}

/**
 * Validates like {@link validateAgainstSchema} but keeps the list-type duplicate errors apart:
 * the apiserver reports the OpenAPI errors (sorted by field path) first, then its scale
 * subresource checks, then the list-type ones.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 * import type { JsonSchema } from "./schema-node.ts";
 *
 * declare const cr: KubeObject, schema: JsonSchema;
 * const { schemaCauses, listCauses } = validateCustomResourceSchema(cr, schema);
 * ```
 */
export function validateCustomResourceSchema(obj: unknown, schema: JsonSchema): SchemaValidationResult {
  const sink: Sink = { causes: [], listCauses: [] };
  validateValue(obj, schema, "", sink);
  const sorted = sink.causes.length > 1 ? stableSortByField(dedupe(sink.causes)) : sink.causes;
  return { schemaCauses: sorted, listCauses: dedupe(sink.listCauses) };
}

/** Where one validation run collects its causes. */
interface Sink {
  causes: StatusCause[];
  listCauses: StatusCause[];
}

function dedupe(causes: StatusCause[]): StatusCause[] {
  if (causes.length < 2) return causes;
  const seen = new Set<string>();
  return causes.filter((c) => {
    const key = `${c.field ?? ""}\u0000${c.reason ?? ""}\u0000${c.message ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Sorts by field path in byte order, keeping the emission order of causes on one field. */
function stableSortByField(causes: StatusCause[]): StatusCause[] {
  return causes
    .map((cause, i) => ({ cause, i, field: cause.field ?? "" }))
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : a.i - b.i))
    .map((e) => e.cause);
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

function validateValue(value: unknown, schema: JsonSchema, path: string, sink: Sink): void {
  // x-kubernetes-validations (CEL) rules run afterwards, over the whole object (cel-validate.ts).
  const out = sink.causes;
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
  // kube-openapi's validator order: type, junctors, string, format, number, slice, enum, object.
  validateJunctors(value, schema, path, sink);
  if (typeof value === "string") validateString(value, schema, path, out);
  else if (typeof value === "number") validateNumber(value, schema, path, out);
  else if (Array.isArray(value)) validateArray(value, schema, path, sink);
  validateEnum(value, schema, path, out);
  if (isJsonObject(value)) validateObject(value, schema, path, sink);
}

function validateEnum(value: unknown, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const allowed = schema["enum"];
  if (!Array.isArray(allowed)) return;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    if (allowed.includes(value)) return;
  } else {
    const canonical = canonicalJson(value);
    if (allowed.some((a) => canonicalJson(a) === canonical)) return;
  }
  out.push(unsupportedValue(path, value, allowed.map((a) => (typeof a === "string" ? a : JSON.stringify(a)))));
}

const patternCache = new Map<string, RE2JS | null>();

/**
 * A schema `pattern` compiled with RE2, as kube-apiserver compiles it with Go's regexp: linear
 * time on any input (a JavaScript RegExp backtracks, and `^(a+)+$` would stall LocalCluster),
 * Go's syntax (`(?i)` and the other flags included). A pattern RE2 cannot parse never gets
 * here: the CRD that declares it is refused when written (`structural.ts`).
 */
function compilePattern(pattern: string): RE2JS | null {
  const cached = patternCache.get(pattern);
  if (cached !== undefined) return cached;
  let compiled: RE2JS | null = null;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    compiled = null;
  }
  patternCache.set(pattern, compiled);
  return compiled;
}

/** The length in code points (Go's `utf8.RuneCountInString`), without building an array. */
function codePointLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/**
 * maxLength, minLength, pattern: like kube-openapi's string validator, only the first failing
 * one is reported. `format` is a validator of its own and is always checked.
 */
function validateString(value: string, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const stringCause = firstStringCause(value, schema, path);
  if (stringCause !== undefined) out.push(stringCause);
  const format = schemaString(schema, "format");
  if (format !== undefined && !matchesFormat(format, value)) {
    out.push(typeInvalid(path, value, `${subject(path)} must be of type ${format}: ${JSON.stringify(value)}`));
  }
}

function firstStringCause(value: string, schema: JsonSchema, path: string): StatusCause | undefined {
  const maxLength = schemaNumber(schema, "maxLength");
  const minLength = schemaNumber(schema, "minLength");
  const length = maxLength === undefined && minLength === undefined ? 0 : codePointLength(value);
  if (maxLength !== undefined && length > maxLength) {
    return {
      reason: "FieldValueTooLong",
      field: path,
      message: `Too long: may not be more than ${maxLength} ${maxLength === 1 ? "byte" : "bytes"}`,
    };
  }
  if (minLength !== undefined && length < minLength) {
    return invalidValue(path, value, `${subject(path)} should be at least ${minLength} chars long`);
  }
  const pattern = schemaString(schema, "pattern");
  const regexp = pattern === undefined ? null : compilePattern(pattern);
  if (regexp !== null && !regexp.test(value)) {
    return invalidValue(path, value, `${subject(path)} should match '${pattern}'`);
  }
  return undefined;
}

/** multipleOf, minimum, maximum, in kube-openapi's number validator order. */
function validateNumber(value: number, schema: JsonSchema, path: string, out: StatusCause[]): void {
  const multipleOf = schemaNumber(schema, "multipleOf");
  if (multipleOf !== undefined && multipleOf > 0) {
    const quotient = value / multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9) {
      out.push(invalidValue(path, value, `${subject(path)} should be a multiple of ${multipleOf}`));
    }
  }
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
}

function validateArray(value: unknown[], schema: JsonSchema, path: string, sink: Sink): void {
  const out = sink.causes;
  const minItems = schemaNumber(schema, "minItems");
  if (minItems !== undefined && value.length < minItems) {
    out.push(invalidValue(path, value.length, `${subject(path)} should have at least ${minItems} items`));
  }
  const maxItems = schemaNumber(schema, "maxItems");
  if (maxItems !== undefined && value.length > maxItems) out.push(tooMany(path, value.length, maxItems));
  const uniqueness = listUniquenessCauses(value, schema, path);
  for (const cause of uniqueness) sink.listCauses.push(cause);
  const items = subSchema(schema, "items");
  if (items !== undefined) {
    for (let i = 0; i < value.length; i++) validateValue(value[i], items, indexPath(path, i), sink);
  }
}

function validateObject(value: JsonObject, schema: JsonSchema, path: string, sink: Sink): void {
  const out = sink.causes;
  const minProperties = schemaNumber(schema, "minProperties");
  const maxProperties = schemaNumber(schema, "maxProperties");
  if (minProperties !== undefined || maxProperties !== undefined) {
    const count = Object.keys(value).length;
    if (minProperties !== undefined && count < minProperties) {
      out.push(invalidValue(path, count, `${subject(path)} should have at least ${minProperties} properties`));
    }
    if (maxProperties !== undefined && count > maxProperties) out.push(tooMany(path, count, maxProperties));
  }
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
  if (additional === undefined || additional === true) {
    // Only declared members have a schema: walk the (few) properties, not the (many) members.
    if (properties === undefined) return;
    for (const key of Object.keys(properties)) {
      if (Object.hasOwn(value, key)) validateValue(value[key], properties[key]!, childPath(path, key), sink);
    }
    return;
  }
  for (const key of Object.keys(value)) {
    const prop = properties !== undefined && Object.hasOwn(properties, key) ? properties[key]! : additional;
    validateValue(value[key], prop, childPath(path, key), sink);
  }
}

/** The causes `value` produces against `schema` alone (for junctor branches). */
function causesFor(value: unknown, schema: JsonSchema, path: string): StatusCause[] {
  const sink: Sink = { causes: [], listCauses: [] };
  validateValue(value, schema, path, sink);
  return sink.causes;
}

/** The failures of the branch that came closest (fewest causes), as the apiserver reports. */
function closest(failures: StatusCause[][]): StatusCause[] {
  return failures.reduce<StatusCause[] | undefined>((best, c) => (best === undefined || c.length < best.length ? c : best), undefined) ?? [];
}

function validateJunctors(value: unknown, schema: JsonSchema, path: string, sink: Sink): void {
  if (schema["allOf"] === undefined && schema["anyOf"] === undefined && schema["oneOf"] === undefined && schema["not"] === undefined) {
    return;
  }
  const out = sink.causes;
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
