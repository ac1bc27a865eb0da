/**
 * The checks kube-apiserver runs on a CRD's CEL validation rules (`x-kubernetes-validations`)
 * when the CRD is written: the rule fields (`rule`, `message`, `messageExpression`, `reason`,
 * `fieldPath`, `optionalOldSelf`), that every expression compiles (here: parses and names only
 * functions LocalCluster implements), `oldSelf` only where old and new values correlate, and
 * the estimated cost limits (see `../cel/cost-estimate.ts`).
 *
 * @module
 */
import type { StatusCause } from "../status.ts";
import { forbidden, invalidValue, requiredValue, unsupportedValue } from "../status.ts";
import { isJsonObject } from "../json-value.ts";
import { compileCelExpression } from "../cel/compile.ts";
import { costErrorMessage, ruleCostInPlace, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from "../cel/cost-estimate.ts";
import { ruleFieldPath } from "./cel-field-path.ts";
import { listTypeOf } from "./list-type.ts";
import { additionalSchema, schemaList, schemaProperties, schemaString, subSchema } from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";

/** kube-apiserver's supported `reason` values, in its (sorted) order. */
const SUPPORTED_REASONS = ["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];

const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

/** Where the walk is: the schema path, the uncorrelatable ancestor, how often a rule can run. */
interface Place {
  path: string;
  /** The path of the nearest ancestor whose old and new values cannot be correlated. */
  uncorrelatable?: string;
  /** How many values this node can have in one object (undefined: unbounded). */
  cardinality?: number;
  /** False inside allOf/anyOf/oneOf/not: kube-apiserver compiles no rules there at CRD write. */
  compile: boolean;
}

interface Cost {
  path: string;
  cost: number;
}

/** Go's `%#v` of an `apiextensions.ValidationRule`, the value of kube-apiserver's compile errors. */
function goValidationRule(rule: Record<string, unknown>): string {
  const str = (key: string): string => JSON.stringify(typeof rule[key] === "string" ? rule[key] : "");
  const reason = typeof rule["reason"] === "string" ? "(*apiextensions.FieldValueErrorReason)(0xc000a1b2c0)" : "(*apiextensions.FieldValueErrorReason)(nil)";
  const optional = typeof rule["optionalOldSelf"] === "boolean" ? "(*bool)(0xc000a1b2c8)" : "(*bool)(nil)";
  return `apiextensions.ValidationRule{Rule:${str("rule")}, Message:${str("message")}, MessageExpression:${str("messageExpression")}, Reason:${reason}, FieldPath:${str("fieldPath")}, OptionalOldSelf:${optional}}`;
}

const NEWLINES = /[\n\r]+/;

/**
 * The causes of a version's schema rules, field paths under `schemaPath` (e.g.
 * `spec.validation.openAPIV3Schema`). With `compile` false (the schema has other errors, as
 * kube-apiserver skips CEL then) only the rule fields are checked.
 *
 * @example
 * ```ts
 * const schema = { type: "object", "x-kubernetes-validations": [{ rule: "self.a +" }] };
 * celSchemaCauses(schema, "spec.validation.openAPIV3Schema", true);
 * // → [{ field: "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule",
 * //      message: "Invalid value: apiextensions.ValidationRule{…}: compilation failed: ERROR: <input>:1:8: Syntax error: …" }]
 * ```
 */
export function celSchemaCauses(root: JsonSchema, schemaPath: string, compile: boolean): StatusCause[] {
  const fieldCauses: StatusCause[] = [];
  const celCauses: StatusCause[] = [];
  const costs: Cost[] = [];
  walk(root, { path: schemaPath, cardinality: 1, compile }, fieldCauses, celCauses, costs);
  const causes = [...fieldCauses, ...celCauses];
  const total = costs.reduce((sum, c) => sum + c.cost, 0);
  if (compile && total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const expensive = [...costs].sort((a, b) => b.cost - a.cost).slice(0, 4);
    for (const e of expensive) causes.push(forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"));
    causes.push(forbidden(schemaPath, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return causes;
}

function times(cardinality: number | undefined, size: number | undefined): number | undefined {
  return cardinality === undefined || size === undefined ? undefined : cardinality * size;
}

/** Walks children first (as kube-apiserver does), then the node's rules; true when the subtree had field errors. */
function walk(schema: JsonSchema, place: Place, fieldCauses: StatusCause[], celCauses: StatusCause[], costs: Cost[]): boolean {
  const before = fieldCauses.length;
  const properties = schemaProperties(schema);
  for (const [name, property] of Object.entries(properties ?? {})) {
    walk(property, { ...place, path: `${place.path}.properties[${name}]` }, fieldCauses, celCauses, costs);
  }
  const additional = additionalSchema(schema);
  if (additional !== undefined && additional !== true) {
    const max = typeof schema["maxProperties"] === "number" ? schema["maxProperties"] : undefined;
    walk(additional, { ...place, path: `${place.path}.additionalProperties`, cardinality: times(place.cardinality, max) }, fieldCauses, celCauses, costs);
  }
  const not = subSchema(schema, "not");
  if (not !== undefined) walk(not, { ...place, path: `${place.path}.not`, compile: false }, fieldCauses, celCauses, costs);
  for (const key of ["allOf", "oneOf", "anyOf"] as const) {
    schemaList(schema, key).forEach((branch, i) => walk(branch, { ...place, path: `${place.path}.${key}[${i}]`, compile: false }, fieldCauses, celCauses, costs));
  }
  const items = subSchema(schema, "items");
  if (items !== undefined) {
    const max = typeof schema["maxItems"] === "number" ? schema["maxItems"] : undefined;
    const uncorrelatable = place.uncorrelatable ?? (listTypeOf(schema).type === "map" ? undefined : place.path);
    walk(items, { ...place, path: `${place.path}.items`, cardinality: times(place.cardinality, max), ...(uncorrelatable ? { uncorrelatable } : {}) }, fieldCauses, celCauses, costs);
  }
  const subtreeErrors = fieldCauses.length > before;
  checkRules(schema, { ...place, compile: place.compile && !subtreeErrors }, fieldCauses, celCauses, costs);
  return fieldCauses.length > before;
}

/** How many values a node can have when its ancestors are unbounded: what fits in a request. */
function unboundedCardinality(schema: JsonSchema): number {
  const type = schemaString(schema, "type");
  const min = type === "boolean" ? 4 : type === "string" || type === "object" || type === "array" ? 2 : 1;
  return Math.floor(MAX_REQUEST_BYTES / (min + 1));
}

function checkRules(schema: JsonSchema, place: Place, fieldCauses: StatusCause[], celCauses: StatusCause[], costs: Cost[]): void {
  const list = schema["x-kubernetes-validations"];
  if (!Array.isArray(list) || list.length === 0) return;
  const base = `${place.path}.x-kubernetes-validations`;
  let fieldErrors = false;
  list.forEach((entry, i) => {
    const rule = isJsonObject(entry) ? entry : {};
    const at = (field: string): string => `${base}[${i}].${field}`;
    const ruleText = typeof rule["rule"] === "string" ? rule["rule"] : "";
    const message = typeof rule["message"] === "string" ? rule["message"] : "";
    const trimmedMessage = message.trim();
    const before = fieldCauses.length;
    if (ruleText.trim() === "") fieldCauses.push(requiredValue(at("rule"), "rule is not specified"));
    else if (message.length > 0 && trimmedMessage === "") fieldCauses.push(invalidValue(at("message"), message, "message must be non-empty if specified"));
    else if (NEWLINES.test(trimmedMessage)) fieldCauses.push(invalidValue(at("message"), message, "message must not contain line breaks"));
    else if (NEWLINES.test(ruleText.trim()) && trimmedMessage === "") fieldCauses.push(requiredValue(at("message"), "message must be specified if rule contains line breaks"));
    const messageExpression = typeof rule["messageExpression"] === "string" ? rule["messageExpression"] : "";
    if (messageExpression.length > 0 && messageExpression.trim() === "") {
      fieldCauses.push(requiredValue(at("messageExpression"), "messageExpression must be non-empty if specified"));
    }
    const reason = rule["reason"];
    if (reason !== undefined && (typeof reason !== "string" || !SUPPORTED_REASONS.includes(reason))) {
      fieldCauses.push(unsupportedValue(at("reason"), reason, SUPPORTED_REASONS));
    }
    const fieldPath = typeof rule["fieldPath"] === "string" ? rule["fieldPath"] : "";
    if (fieldPath.length > 0 && fieldPath.trim() === "") fieldCauses.push(invalidValue(at("fieldPath"), fieldPath, "fieldPath must be non-empty if specified"));
    if (NEWLINES.test(fieldPath)) fieldCauses.push(invalidValue(at("fieldPath"), fieldPath, "fieldPath must not contain line breaks"));
    if (fieldPath.length > 0 && "error" in ruleFieldPath(fieldPath, schema)) {
      fieldCauses.push(invalidValue(at("fieldPath"), fieldPath, "fieldPath must be a valid path"));
    }
    if (fieldCauses.length > before) fieldErrors = true;
  });
  if (!place.compile || fieldErrors) return;
  const cardinality = place.cardinality ?? unboundedCardinality(schema);
  list.forEach((entry, i) => {
    const rule = isJsonObject(entry) ? entry : {};
    const at = (field: string): string => `${base}[${i}].${field}`;
    const ruleText = typeof rule["rule"] === "string" ? rule["rule"] : "";
    const compiled = compileCelExpression(ruleText);
    if (compiled.ast !== undefined) {
      const cost = ruleCostInPlace(compiled.ast, schema, cardinality);
      if (cost > STATIC_ESTIMATED_COST_LIMIT) celCauses.push(forbidden(at("rule"), costErrorMessage("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT)));
      costs.push({ path: at("rule"), cost });
    }
    if (compiled.error !== undefined) {
      celCauses.push({ reason: "FieldValueInvalid", field: at("rule"), message: `Invalid value: ${goValidationRule(rule)}: ${compiled.error}` });
    }
    const messageExpression = typeof rule["messageExpression"] === "string" ? rule["messageExpression"] : "";
    if (messageExpression.trim() !== "") {
      const message = compileCelExpression(messageExpression);
      if (message.error !== undefined) {
        celCauses.push({
          reason: "FieldValueInvalid",
          field: at("messageExpression"),
          message: `Invalid value: ${goValidationRule(rule)}: messageExpression ${message.error}`,
        });
      } else if (message.ast !== undefined) {
        const cost = ruleCostInPlace(message.ast, schema, cardinality);
        if (cost > STATIC_ESTIMATED_COST_LIMIT) {
          celCauses.push(forbidden(at("messageExpression"), costErrorMessage("estimated messageExpression cost", cost, STATIC_ESTIMATED_COST_LIMIT)));
        }
        costs.push({ path: at("messageExpression"), cost });
      }
    }
    const optional = rule["optionalOldSelf"];
    if (compiled.usesOldSelf) {
      if (place.uncorrelatable !== undefined) {
        celCauses.push(invalidValue(at("rule"), ruleText, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${place.uncorrelatable}`));
      }
    } else if (typeof optional === "boolean") {
      celCauses.push(invalidValue(at("optionalOldSelf"), optional, "may not be set if oldSelf is not used in rule"));
    }
  });
}
