/**
 * Runs a CRD schema's CEL validation rules (`x-kubernetes-validations`) against a custom
 * resource, as kube-apiserver's apiextensions CEL validator does after the OpenAPI checks.
 *
 * @module
 */
import { isCelError } from "@bufbuild/cel";
import type { CelResult, CelValue } from "@bufbuild/cel";
import type { StatusCause } from "../status.ts";
import { forbidden, formatValue, invalidValue, requiredValue } from "../status.ts";
import { isJsonObject, jsonEqual } from "../json-value.ts";
import { celValueOf } from "../cel/cel-value.ts";
import { compileCelExpression } from "../cel/compile.ts";
import type { CompiledExpression } from "../cel/compile.ts";
import { CostMeter, PER_CALL_COST_LIMIT, RUNTIME_COST_BUDGET, withActiveMeter } from "../cel/cost-meter.ts";
import { optionalOf } from "../cel/lib-format.ts";
import { childPath, indexPath } from "./field-path.ts";
import { listTypeOf } from "./list-type.ts";
import { additionalSchema, isIntOrString, schemaList, schemaProperties, schemaString, schemaStrings, subSchema } from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";
import { normalizeRuleFieldPath } from "./cel-field-path.ts";

/** One `x-kubernetes-validations` entry, as written in the schema. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** What {@link celRuleCauses} returns. */
export interface CelValidationResult {
  /** Failed rules and evaluation errors, kube-apiserver's causes, in schema walk order. */
  causes: StatusCause[];
  /** Failures of unchanged values on update (ratcheted): kube-apiserver sends them as warnings. */
  warnings: string[];
}

/** Options of {@link celRuleCauses}. */
export interface CelValidationOptions {
  /** The budget for every rule of the request (kube-apiserver's `RuntimeCELCostBudget`). */
  budget?: number;
  /** The limit of one rule evaluation (kube-apiserver's `PerCallLimit`). */
  perCallLimit?: number;
}

interface CompiledRule {
  spec: ValidationRule;
  program: CompiledExpression;
  message?: CompiledExpression;
  fieldPath?: string;
}

const compiledBySchema = new WeakMap<JsonSchema, CompiledRule[]>();

/**
 * The schema node's `x-kubernetes-validations`, read leniently (the CRD was validated when it
 * was written): missing or mistyped fields are left out.
 *
 * @example
 * ```ts
 * validationRulesOf({ type: "string", "x-kubernetes-validations": [{ rule: "self != ''", message: "not empty" }] });
 * // → [{ rule: "self != ''", message: "not empty" }]
 * ```
 */
export function validationRulesOf(schema: JsonSchema | undefined): ValidationRule[] {
  const list = schema?.["x-kubernetes-validations"];
  if (!Array.isArray(list)) return [];
  return list.filter(isJsonObject).map((r) => ({
    rule: typeof r["rule"] === "string" ? r["rule"] : "",
    ...(typeof r["message"] === "string" ? { message: r["message"] } : {}),
    ...(typeof r["messageExpression"] === "string" ? { messageExpression: r["messageExpression"] } : {}),
    ...(typeof r["reason"] === "string" ? { reason: r["reason"] } : {}),
    ...(typeof r["fieldPath"] === "string" ? { fieldPath: r["fieldPath"] } : {}),
    ...(typeof r["optionalOldSelf"] === "boolean" ? { optionalOldSelf: r["optionalOldSelf"] } : {}),
  }));
}

function compiledRules(schema: JsonSchema): CompiledRule[] {
  let compiled = compiledBySchema.get(schema);
  if (compiled === undefined) {
    compiled = validationRulesOf(schema)
      .filter((spec) => spec.rule.trim() !== "")
      .map((spec) => {
        const fieldPath = spec.fieldPath === undefined ? undefined : normalizeRuleFieldPath(spec.fieldPath, schema);
        return {
          spec,
          program: compileCelExpression(spec.rule),
          ...(spec.messageExpression?.trim() ? { message: compileCelExpression(spec.messageExpression) } : {}),
          ...(fieldPath ? { fieldPath } : {}),
        };
      });
    compiledBySchema.set(schema, compiled);
  }
  return compiled;
}

/** kube-apiserver's `ruleErrorString`: the trimmed message, else the trimmed rule. */
function ruleErrorString(rule: ValidationRule): string {
  const message = rule.message?.trim() ?? "";
  return message !== "" ? message : rule.rule.trim();
}

/** kube-apiserver's `ruleMessageOrDefault`. */
function ruleMessageOrDefault(rule: ValidationRule): string {
  const message = rule.message?.trim() ?? "";
  return message !== "" ? message : `failed rule: ${ruleErrorString(rule)}`;
}

/** The node's schema type as kube-apiserver shows it in `Invalid value: "<type>"` (empty when untyped). */
function nodeType(schema: JsonSchema): string {
  if (isIntOrString(schema)) return "";
  return schemaString(schema, "type") ?? "";
}

/**
 * The cause of a failed rule, as kube-apiserver's `fieldErrorForReason` words it: the value is
 * shown for scalars (`Invalid value: "abc": …`, `Invalid value: -1: …`) and omitted for objects
 * and lists (`Invalid value: <message>`).
 */
function causeForReason(field: string, type: string, value: unknown, detail: string, reason: string | undefined): StatusCause {
  const omit = type === "object" || type === "array";
  switch (reason) {
    case "FieldValueForbidden":
      return forbidden(field, detail);
    case "FieldValueRequired":
      return requiredValue(field, detail);
    case "FieldValueDuplicate":
      return { reason: "FieldValueDuplicate", field, message: omit ? "Duplicate value" : `Duplicate value: ${formatValue(value)}` };
    default:
      return omit ? { reason: "FieldValueInvalid", field, message: `Invalid value: ${detail}` } : invalidValue(field, value, detail);
  }
}

/** `field: message`, how kube-apiserver words a ratcheted error in its warning. */
function causeText(cause: StatusCause): string {
  return cause.field ? `${cause.field}: ${cause.message ?? ""}` : (cause.message ?? "");
}

/** cel-go's wording for the evaluation errors `@bufbuild/cel` reports in its own words. */
function celGoError(message: string): string {
  const noKey = /^field not found: (.*)$/.exec(message);
  if (noKey) return `no such key: ${noKey[1]}`;
  if (/overflow/.test(message)) return "integer overflow";
  if (/divide by zero|division by zero/.test(message)) return "division by zero";
  if (/modulus by zero|modulo by zero/.test(message)) return "modulus by zero";
  return message;
}

interface Walk {
  causes: StatusCause[];
  warnings: string[];
  remaining: number;
  perCall: number;
  stopped: boolean;
}

/** Ratcheting state: the correlated old value of this node, else of its nearest correlated ancestor. */
interface Correlation {
  /** True when this node has an old value to compare with (`old` is it). */
  correlated: boolean;
  /** Whether the nearest correlated node (this one or an ancestor) equals its old value. */
  unchanged: boolean;
}

/**
 * Evaluates every rule of `schema` against `obj` (and, on update, `old`), walking the value and
 * the schema together, with `self` bound at each rule's node. Transition rules (reading
 * `oldSelf`) run only where an old value correlates (same property path; `listType=map` items by
 * their keys), except those with `optionalOldSelf: true`, which always run with `oldSelf` an
 * optional (`oldSelf.hasValue()`, `oldSelf.value()`, `oldSelf.orValue(x)`; the `oldSelf.?f`
 * syntax does not parse in `@bufbuild/cel`). On update a failing rule without `oldSelf` on a
 * value equal to its old value (or, where nothing correlates, whose nearest correlated ancestor
 * is unchanged) is ratcheted: a warning, not an error (kube-apiserver's CRDValidationRatcheting,
 * on since 1.30). allOf branches' rules run on the same value, never ratcheted.
 *
 * Causes: `Invalid value: <message>` for objects and lists, `Invalid value: <value>: <message>`
 * for scalars (or the rule's `reason`: `Forbidden: …`, `Required value: …`), field = the node's
 * path with the rule's `fieldPath` appended; evaluation errors `<error> evaluating rule: <rule>`;
 * runtime cost: `… call cost exceeds limit for rule: …` and `validation failed due to running
 * out of cost budget, no further validation rules will be run`.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { spec: { type: "object",
 *   "x-kubernetes-validations": [{ rule: "has(self.name) != has(self.surname)", message: "exactly one of name and surname" }],
 *   properties: { name: { type: "string" }, surname: { type: "string" } } } } };
 * celRuleCauses({ spec: {} }, undefined, schema).causes;
 * // → [{ reason: "FieldValueInvalid", field: "spec", message: "Invalid value: exactly one of name and surname" }]
 * ```
 */
export function celRuleCauses(obj: unknown, old: unknown, schema: JsonSchema, options: CelValidationOptions = {}): CelValidationResult {
  const walk: Walk = {
    causes: [],
    warnings: [],
    remaining: options.budget ?? RUNTIME_COST_BUDGET,
    perCall: options.perCallLimit ?? PER_CALL_COST_LIMIT,
    stopped: false,
  };
  const hasOld = old !== undefined && old !== null;
  validateNode(obj, hasOld ? old : undefined, schema, "", { correlated: hasOld, unchanged: hasOld && jsonEqual(obj, old) }, walk, true);
  return { causes: walk.causes, warnings: walk.warnings };
}

function childCorrelation(parent: Correlation, correlated: boolean, value: unknown, old: unknown): Correlation {
  if (correlated) return { correlated: true, unchanged: jsonEqual(value, old) };
  return { correlated: false, unchanged: parent.unchanged };
}

function validateNode(value: unknown, old: unknown, schema: JsonSchema, path: string, correlation: Correlation, walk: Walk, root = false): void {
  if (walk.stopped || value === null || value === undefined) return;
  evaluateRules(value, old, schema, path, correlation, walk, root);
  // allOf branches' rules apply to the same value; kube-apiserver does not ratchet them.
  for (const branch of schemaList(schema, "allOf")) {
    validateNode(value, old, branch, path, { correlated: false, unchanged: false }, walk, root);
  }
  if (walk.stopped) return;
  if (Array.isArray(value)) {
    const items = subSchema(schema, "items");
    if (items === undefined || !schemaHasRules(items)) return;
    const oldList = Array.isArray(old) ? old : undefined;
    const listType = listTypeOf(schema).type;
    const byKeys = listType === "map" && oldList !== undefined ? mapListLookup(schema, oldList) : undefined;
    for (let i = 0; i < value.length && !walk.stopped; i++) {
      const oldItem = byKeys?.(value[i]);
      // A set's item correlates (for ratcheting only, never for oldSelf) with an equal old item.
      const itemCorrelation =
        listType === "set" && oldList !== undefined
          ? oldList.some((o) => jsonEqual(o, value[i])) ? { correlated: true, unchanged: true } : { correlated: false, unchanged: correlation.unchanged }
          : childCorrelation(correlation, oldItem !== undefined, value[i], oldItem);
      validateNode(value[i], oldItem, items, indexPath(path, i), itemCorrelation, walk);
    }
    return;
  }
  if (!isJsonObject(value)) return;
  const oldObject = isJsonObject(old) ? old : undefined;
  const properties = schemaProperties(schema);
  const additional = additionalSchema(schema);
  const additionalRules = additional !== undefined && additional !== true && schemaHasRules(additional) ? additional : undefined;
  for (const [key, member] of Object.entries(value)) {
    if (walk.stopped) return;
    const property = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
    const memberSchema = property !== undefined ? (schemaHasRules(property) ? property : undefined) : additionalRules;
    if (memberSchema === undefined) continue;
    const oldMember = oldObject !== undefined && Object.hasOwn(oldObject, key) ? oldObject[key] : undefined;
    const memberCorrelation = childCorrelation(correlation, oldMember !== undefined, member, oldMember);
    validateNode(member, oldMember, memberSchema, property !== undefined ? childPath(path, key) : `${path}[${key}]`, memberCorrelation, walk);
  }
}

const hasRulesCache = new WeakMap<JsonSchema, boolean>();

/** True when the node or anything below it has rules (so the walk can skip the rest). */
function schemaHasRules(schema: JsonSchema): boolean {
  const cached = hasRulesCache.get(schema);
  if (cached !== undefined) return cached;
  hasRulesCache.set(schema, false);
  let result = validationRulesOf(schema).length > 0;
  if (!result) {
    const items = subSchema(schema, "items");
    const additional = additionalSchema(schema);
    result =
      (items !== undefined && schemaHasRules(items)) ||
      (additional !== undefined && additional !== true && schemaHasRules(additional)) ||
      Object.values(schemaProperties(schema) ?? {}).some(schemaHasRules) ||
      schemaList(schema, "allOf").some(schemaHasRules);
  }
  hasRulesCache.set(schema, result);
  return result;
}

/** Finds the old item of a `listType=map` list with the same key values. */
function mapListLookup(schema: JsonSchema, oldList: unknown[]): (item: unknown) => unknown {
  const keys = schemaStrings(schema, "x-kubernetes-list-map-keys");
  const keyOf = (item: unknown): string | undefined => (isJsonObject(item) ? JSON.stringify(keys.map((k) => item[k] ?? null)) : undefined);
  const index = new Map<string, unknown>();
  for (const item of oldList) {
    const key = keyOf(item);
    if (key !== undefined && !index.has(key)) index.set(key, item);
  }
  return (item) => {
    const key = keyOf(item);
    return key === undefined ? undefined : index.get(key);
  };
}

/** Runs one program under a fresh meter bounded by the per-call limit and the remaining budget. */
function runMetered(program: CompiledExpression, bindings: Record<string, unknown>, walk: Walk): { result?: CelResult; outOfCall?: boolean; outOfBudget?: boolean } {
  const limit = Math.min(walk.perCall, walk.remaining);
  const meter = new CostMeter(limit);
  let result: CelResult | undefined;
  try {
    result = withActiveMeter(meter, () => {
      meter.charge(1);
      return program.evaluate!(bindings);
    });
  } catch {
    // CostLimitExceeded escaping the program: handled below through meter.exceeded.
  }
  if (meter.exceeded) {
    return walk.remaining < walk.perCall && meter.spent > walk.remaining ? { outOfBudget: true } : { outOfCall: true };
  }
  walk.remaining -= meter.spent;
  return { result: result! };
}

function evaluateRules(value: unknown, old: unknown, schema: JsonSchema, path: string, correlation: Correlation, walk: Walk, root: boolean): void {
  const rules = compiledRules(schema);
  if (rules.length === 0) return;
  const type = nodeType(schema);
  // The root's field path is Go's nil *field.Path, printed "<nil>".
  const at = path === "" ? "<nil>" : path;
  if (walk.remaining <= 0) {
    walk.causes.push(invalidValue(at, type, "validation failed due to running out of cost budget, no further validation rules will be run"));
    walk.stopped = true;
    return;
  }
  const self = celValueOf(value, schema, root);
  const oldSelf = old === undefined || old === null ? undefined : celValueOf(old, schema, root);
  const bindings: Record<string, unknown> = oldSelf === undefined ? { self } : { self, oldSelf };
  const ratchet = correlation.unchanged;
  for (const rule of rules) {
    if (rule.program.error !== undefined) {
      walk.causes.push(invalidValue(at, type, `rule compile error: ${rule.program.error}`));
      continue;
    }
    // Transition rules run only with a correlated old value, unless optionalOldSelf makes
    // oldSelf an optional (optional.none() on create and where nothing correlates).
    const optionalOldSelf = rule.program.usesOldSelf && rule.spec.optionalOldSelf === true;
    if (rule.program.usesOldSelf && oldSelf === undefined && !optionalOldSelf) continue;
    const ruleBindings = optionalOldSelf ? { self, oldSelf: optionalOf(oldSelf as CelValue | undefined) } : bindings;
    const run = runMetered(rule.program, ruleBindings, walk);
    if (run.outOfBudget) {
      walk.causes.push(invalidValue(at, type, "validation failed due to running out of cost budget, no further validation rules will be run"));
      walk.stopped = true;
      return;
    }
    if (run.outOfCall) {
      walk.causes.push(
        invalidValue(at, type, `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule.spec)}`),
      );
      walk.stopped = true;
      return;
    }
    const result = run.result;
    if (isCelError(result)) {
      const message = result.message;
      if (/no matching overload|no such overload|unbound function/.test(message)) {
        walk.causes.push(invalidValue(at, type, `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule.spec)}`));
      } else {
        walk.causes.push(invalidValue(at, type, `${celGoError(message)} evaluating rule: ${ruleErrorString(rule.spec)}`));
      }
      continue;
    }
    if (result === true) continue;
    const field = rule.fieldPath === undefined ? at : childPath(path, rule.fieldPath);
    let detail: string | undefined;
    if (rule.message !== undefined && rule.message.error === undefined) {
      const evaluated = runMetered(rule.message, bindings, walk);
      if (evaluated.outOfBudget || evaluated.outOfCall) {
        const text = evaluated.outOfBudget
          ? "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
          : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.spec.messageExpression)}`;
        walk.causes.push(invalidValue(field, type, text));
        walk.stopped = true;
        return;
      }
      const text = evaluated.result;
      if (typeof text === "string" && text.trim() !== "" && !/\n/.test(text.trim()) && text.trim().length <= 5120) detail = text.trim();
    }
    const cause = causeForReason(field, type, value, detail ?? ruleMessageOrDefault(rule.spec), rule.spec.reason);
    if (!rule.program.usesOldSelf && ratchet) walk.warnings.push(causeText(cause));
    else walk.causes.push(cause);
  }
}
