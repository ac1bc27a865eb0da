/**
 * A static estimate of what one CEL validation rule may cost, in the spirit of cel-go's
 * `EstimateCost` as kube-apiserver uses it when a CRD is written: iterating a list, map or
 * string costs in proportion to its largest possible size, which is its `maxItems`,
 * `maxProperties` or `maxLength`, or — when unbounded — as many elements as fit in the largest
 * request (3 MiB). The rule's cost is then multiplied by how many times it can run (the
 * product of the sizes of the lists and maps above its node).
 *
 * Cruder than cel-go: every node costs 1; a comprehension costs its range's size times its
 * step, condition and one; comparisons (`==`, `!=`, `<`…, `startsWith`, `endsWith`) cost a tenth
 * of the smaller operand's size, string scans (`contains`, `indexOf`, `split`, `replace`,
 * `find`, `lowerAscii`, `+`…) a tenth of both sizes, `matches` a tenth of the string's size
 * times a quarter of the pattern's, `in` the list's size (cel-go's factors); values neither
 * from the schema nor string literals (function results, say) count as size 1. So it
 * rejects the same kinds of rules (unbounded nested iteration, regexes over unbounded lists of
 * unbounded strings) but the factor it reports differs from kube-apiserver's.
 *
 * @module
 */
import type { CelExpr } from "./compile.ts";
import { additionalSchema, schemaNumber, schemaProperties, schemaString, subSchema } from "../crd/schema-node.ts";
import type { JsonSchema } from "../crd/schema-node.ts";

/** kube-apiserver's `StaticEstimatedCostLimit`: the most one rule may be estimated to cost. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

/** kube-apiserver's `StaticEstimatedCRDCostLimit`: the most all rules of a schema may. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

/** The largest request kube-apiserver accepts, which bounds unbounded lists and strings. */
const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

/** O(min(m, n)) comparisons: they stop at the first difference or the shorter operand's end. */
const COMPARISONS: ReadonlySet<string> = new Set(["_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "startsWith", "endsWith"]);

/** O(m + n) string functions: they may read all of both operands. */
const TRAVERSALS: ReadonlySet<string> = new Set([
  "contains", "indexOf", "lastIndexOf", "split", "replace", "find", "findAll", "lowerAscii", "upperAscii", "trim", "_+_",
]);

/** The smallest JSON a value of this schema can take (for unbounded sizes). */
function minSerializedSize(schema: JsonSchema | undefined): number {
  switch (schemaString(schema, "type")) {
    case "string":
      return 2;
    case "boolean":
      return 4;
    case "object":
    case "array":
      return 2;
    default:
      return 1;
  }
}

/**
 * The largest number of elements (list items, map entries, string characters) a value of
 * `schema` can hold.
 *
 * @example
 * ```ts
 * maxSizeOf({ type: "array", maxItems: 10, items: { type: "string" } }); // → 10
 * maxSizeOf({ type: "array", items: { type: "string" } });               // → 1048576
 * ```
 */
export function maxSizeOf(schema: JsonSchema | undefined): number {
  switch (schemaString(schema, "type")) {
    case "array":
      return schemaNumber(schema, "maxItems") ?? Math.floor(MAX_REQUEST_BYTES / (minSerializedSize(subSchema(schema, "items")) + 1));
    case "object": {
      const max = schemaNumber(schema, "maxProperties");
      if (max !== undefined) return max;
      const additional = additionalSchema(schema);
      if (additional === undefined) return Object.keys(schemaProperties(schema) ?? {}).length || 1;
      return Math.floor(MAX_REQUEST_BYTES / (minSerializedSize(additional === true ? undefined : additional) + 4));
    }
    case "string":
      return schemaNumber(schema, "maxLength") ?? MAX_REQUEST_BYTES - 2;
    default:
      return 1;
  }
}

/** What the estimator knows of a sub-expression's value: the schema it comes from, or a literal's size. */
interface Shape {
  schema?: JsonSchema;
  literal?: number;
}

interface Estimate {
  cost: number;
  shape: Shape;
}

function sizeOf(shape: Shape): number {
  if (shape.literal !== undefined) return Math.max(1, shape.literal);
  return shape.schema === undefined ? 1 : maxSizeOf(shape.schema);
}

function elementShape(shape: Shape): Shape {
  const schema = shape.schema;
  if (schema === undefined) return {};
  if (schemaString(schema, "type") === "array") {
    const items = subSchema(schema, "items");
    return items === undefined ? {} : { schema: items };
  }
  // A map's comprehension variable is its key.
  return {};
}

function memberShape(shape: Shape, field: string): Shape {
  const schema = shape.schema;
  if (schema === undefined) return {};
  const property = schemaProperties(schema)?.[field];
  if (property !== undefined) return { schema: property };
  const additional = additionalSchema(schema);
  return additional === undefined || additional === true ? {} : { schema: additional };
}

function estimate(expr: CelExpr | undefined, scope: ReadonlyMap<string, Shape>): Estimate {
  if (expr === undefined) return { cost: 0, shape: {} };
  const kind = expr.exprKind;
  switch (kind.case) {
    case "constExpr": {
      const c = kind.value.constantKind;
      return { cost: 0, shape: c.case === "stringValue" ? { literal: c.value.length } : {} };
    }
    case "identExpr":
      return { cost: 1, shape: scope.get(kind.value.name) ?? {} };
    case "selectExpr": {
      const operand = estimate(kind.value.operand, scope);
      return { cost: operand.cost + 1, shape: kind.value.testOnly ? {} : memberShape(operand.shape, kind.value.field) };
    }
    case "callExpr": {
      const call = kind.value;
      const target = estimate(call.target, scope);
      const args = call.args.map((a) => estimate(a, scope));
      let cost = 1 + target.cost + args.reduce((sum, a) => sum + a.cost, 0);
      const operands = [...(call.target === undefined ? [] : [target.shape]), ...args.map((a) => a.shape)].map(sizeOf);
      if (COMPARISONS.has(call.function)) cost += Math.ceil(Math.min(...operands) / 10);
      else if (TRAVERSALS.has(call.function)) cost += Math.ceil(operands.reduce((sum, n) => sum + n, 0) / 10);
      else if (call.function === "matches") cost += saturatingMultiply(Math.ceil((operands[0] ?? 1) / 10), Math.max(1, Math.ceil((operands[1] ?? 1) / 4)));
      else if (call.function === "@in") cost += operands[1] ?? 1;
      if (call.function === "_[_]" && args[0] !== undefined) {
        const index = call.args[1]?.exprKind;
        const field = index?.case === "constExpr" && index.value.constantKind.case === "stringValue" ? index.value.constantKind.value : "";
        const container = args[0].shape;
        const element = schemaString(container.schema, "type") === "array" ? elementShape(container) : memberShape(container, field);
        return { cost, shape: element };
      }
      return { cost, shape: {} };
    }
    case "listExpr": {
      const elements = kind.value.elements.map((e) => estimate(e, scope));
      return { cost: 1 + elements.reduce((sum, e) => sum + e.cost, 0), shape: {} };
    }
    case "structExpr": {
      let cost = 1;
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === "mapKey") cost += estimate(entry.keyKind.value, scope).cost;
        cost += estimate(entry.value, scope).cost;
      }
      return { cost, shape: {} };
    }
    case "comprehensionExpr": {
      const c = kind.value;
      const range = estimate(c.iterRange, scope);
      const size = sizeOf(range.shape);
      const inner = new Map(scope);
      inner.set(c.iterVar, elementShape(range.shape));
      inner.set(c.accuVar, {});
      if (c.iterVar2) inner.set(c.iterVar2, {});
      const perItem = estimate(c.loopCondition, inner).cost + estimate(c.loopStep, inner).cost + 1;
      const init = estimate(c.accuInit, scope).cost;
      const result = estimate(c.result, inner).cost;
      return { cost: range.cost + init + result + saturatingMultiply(size, perItem), shape: {} };
    }
    default:
      return { cost: 1, shape: {} };
  }
}

function saturatingMultiply(a: number, b: number): number {
  const product = a * b;
  return Number.isFinite(product) && product < Number.MAX_SAFE_INTEGER ? product : Number.MAX_SAFE_INTEGER;
}

/**
 * The estimated cost of one evaluation of `expr` with `self` (and `oldSelf`) of `schema`.
 *
 * @example
 * ```ts
 * import { compileCelExpression } from "./compile.ts";
 *
 * const list = { type: "array", items: { type: "string" } };
 * estimateCelCost(compileCelExpression("self.all(x, x.matches('^a'))").ast!, list); // → far above 10,000,000
 * ```
 */
export function estimateCelCost(expr: CelExpr, schema: JsonSchema): number {
  const self: Shape = { schema };
  return estimate(expr, new Map([["self", self], ["oldSelf", self]])).cost;
}

/**
 * The estimated cost of a rule in its place: one evaluation times how many times it can run.
 *
 * @example
 * ```ts
 * import { compileCelExpression } from "./compile.ts";
 *
 * ruleCostInPlace(compileCelExpression("self.size() > 0").ast!, { type: "string", maxLength: 10 }, 100); // → 400
 * ```
 */
export function ruleCostInPlace(expr: CelExpr, schema: JsonSchema, cardinality: number): number {
  return saturatingMultiply(estimateCelCost(expr, schema), Math.max(1, cardinality));
}

/**
 * kube-apiserver's cost error text: `<name> exceeds budget by factor of <f> (try simplifying
 * the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings
 * are declared)`, the factor `more than 100x`, `%.1fx`, or (below 1.5) Go's `%fx`.
 *
 * @example
 * ```ts
 * costErrorMessage("estimated rule cost", 30_000_000, 10_000_000);
 * // → "estimated rule cost exceeds budget by factor of 3.0x (try simplifying …)"
 * ```
 */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? "more than 100x" : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
