/**
 * Label selectors of workloads: structural checks, matching a pod template's labels, and changes.
 */
import type { KubeObject } from "../src/client/types.ts";
import { at, formatLabels, isRecord, jsonType, sameJson } from "./json.ts";
import type { JsonRecord } from "./json.ts";
import type { Problems } from "./validation.ts";
import { checkLabels, labelKey } from "./validation.ts";

const OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"];

/**
 * Checks an apps/v1 selector at `field`: present, non-empty, valid `matchLabels` and
 * `matchExpressions`. Returns whether it is usable for matching.
 *
 * @example
 * ```ts
 * import { problemsFor } from "./validation.ts";
 *
 * const spec = { selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } } } };
 * const p = problemsFor({ metadata: { name: "web" }, spec }, "Deployment");
 * if (checkSelector(p, "spec.selector", spec.selector)) {
 *   checkSelectorMatches(p, "spec.selector", spec.selector, "spec.template.metadata.labels", spec.template.metadata.labels);
 * }
 * // p.list → [] (the selector is valid and matches the template)
 * ```
 */
export function checkSelector(p: Problems, field: string, selector: unknown): boolean {
  const fix = `set ${field}.matchLabels to labels of the pod template, e.g. { app: "web" }`;
  if (selector === undefined) {
    p.add(field, "is required in apps/v1", fix);
    return false;
  }
  if (!isRecord(selector)) {
    p.add(field, `is ${jsonType(selector)}`, fix);
    return false;
  }
  const labels = selector.matchLabels;
  const expressions = selector.matchExpressions;
  const before = p.list.length;
  checkLabels(p, `${field}.matchLabels`, labels);
  if (expressions !== undefined && !Array.isArray(expressions)) {
    p.add(`${field}.matchExpressions`, `is ${jsonType(expressions)}`, "make matchExpressions a list of { key, operator, values }");
  } else {
    (Array.isArray(expressions) ? expressions : []).forEach((e, i) => checkExpression(p, `${field}.matchExpressions[${i}]`, e));
  }
  if (p.list.length > before) return false;
  const empty = Object.keys(isRecord(labels) ? labels : {}).length === 0 && (Array.isArray(expressions) ? expressions.length : 0) === 0;
  if (empty) {
    p.add(field, "is empty: it has neither matchLabels nor matchExpressions, which apps/v1 refuses", fix);
    return false;
  }
  return true;
}

function checkExpression(p: Problems, field: string, expr: unknown): void {
  if (!isRecord(expr)) {
    p.add(field, `is ${jsonType(expr)}`, 'write the expression as { key: "tier", operator: "In", values: ["web"] }');
    return;
  }
  const { key, operator, values } = expr;
  if (typeof key !== "string" || labelKey(key) !== undefined) {
    const why = typeof key === "string" ? `key ${JSON.stringify(key)} is not a valid label key: ${labelKey(key)}` : "key is missing";
    p.add(`${field}.key`, why, "set key to the label key to test");
  }
  if (typeof operator !== "string" || !OPERATORS.includes(operator)) {
    p.add(`${field}.operator`, `${JSON.stringify(operator ?? null)} is not a selector operator`, `use one of ${OPERATORS.join(", ")}`);
    return;
  }
  const list = Array.isArray(values) ? values : [];
  if (values !== undefined && !Array.isArray(values)) {
    p.add(`${field}.values`, `is ${jsonType(values)}`, "make values a list of strings");
  } else if ((operator === "In" || operator === "NotIn") && list.length === 0) {
    p.add(`${field}.values`, `must not be empty for operator ${operator}`, "list the label values to match");
  } else if ((operator === "Exists" || operator === "DoesNotExist") && list.length > 0) {
    p.add(`${field}.values`, `must be empty for operator ${operator}`, "remove values, or use In/NotIn");
  } else if (list.some((v) => typeof v !== "string")) {
    p.add(`${field}.values`, "has a value that is not a string", "quote every value");
  }
}

/**
 * Reports every selector term the template labels do not satisfy (the workload would never
 * own its own pods, and the API server refuses it).
 *
 * @example
 * ```ts
 * import { problemsFor } from "./validation.ts";
 *
 * const p = problemsFor({ metadata: { name: "web" } }, "Deployment");
 * checkSelectorMatches(p, "spec.selector", { matchLabels: { app: "web" } }, "spec.template.metadata.labels", { app: "api" });
 * // p.list[0].field → "spec.selector.matchLabels": app=web does not match the template labels
 * ```
 */
export function checkSelectorMatches(p: Problems, field: string, selector: JsonRecord, labelsField: string, labels: JsonRecord): void {
  const shown = `${labelsField} (${formatLabels(labels)})`;
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {};
  const missing = Object.entries(matchLabels).filter(([k, v]) => labels[k] !== v);
  if (missing.length > 0) {
    const terms = formatLabels(Object.fromEntries(missing));
    p.add(`${field}.matchLabels`, `${terms} does not match ${shown}`, "make the template labels include every selector label");
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((expr, i) => {
    if (!isRecord(expr) || expressionMatches(expr, labels)) return;
    p.add(`${field}.matchExpressions[${i}]`, `${describeExpression(expr)} does not match ${shown}`, "make the template labels satisfy every selector expression");
  });
}

/**
 * Whether one `matchExpressions` term holds for a label set.
 *
 * @example
 * ```ts
 * expressionMatches({ key: "tier", operator: "In", values: ["web"] }, { tier: "web" }); // true
 * ```
 */
export function expressionMatches(expr: JsonRecord, labels: JsonRecord): boolean {
  const key = String(expr.key);
  const values = Array.isArray(expr.values) ? expr.values : [];
  const has = Object.hasOwn(labels, key);
  switch (expr.operator) {
    case "In":
      return has && values.includes(labels[key]);
    case "NotIn":
      return !has || !values.includes(labels[key]);
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    default:
      return false;
  }
}

/**
 * A selector expression as text: `tier In (web, api)`, `canary DoesNotExist`.
 *
 * @example
 * ```ts
 * describeExpression({ key: "tier", operator: "In", values: ["web", "api"] }); // "tier In (web, api)"
 * ```
 */
export function describeExpression(expr: JsonRecord): string {
  const values = Array.isArray(expr.values) && expr.values.length > 0 ? ` (${expr.values.map(String).join(", ")})` : "";
  return `${String(expr.key)} ${String(expr.operator)}${values}`;
}

/**
 * Whether the desired `spec.selector` differs from the live one (ignored when either is unset).
 *
 * @example
 * ```ts
 * import type { Deployment } from "operator-runtime";
 *
 * declare const live: Deployment;
 * const desired: Deployment = { ...live, spec: { ...live.spec!, selector: { matchLabels: { app: "web-v2" } } } };
 * selectorChanged(live, desired); // → true when the live matchLabels are not exactly { app: "web-v2" }
 * ```
 */
export function selectorChanged(live: KubeObject, desired: KubeObject): boolean {
  const before = at(live, "spec", "selector");
  const after = at(desired, "spec", "selector");
  if (!isRecord(before) || !isRecord(after)) return false;
  return !sameJson(normalSelector(before), normalSelector(after));
}

/** A selector without empty parts, so `{ matchLabels: {…}, matchExpressions: [] }` equals `{ matchLabels: {…} }`. */
function normalSelector(selector: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isRecord(selector.matchLabels) && Object.keys(selector.matchLabels).length > 0) out.matchLabels = selector.matchLabels;
  if (Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0) out.matchExpressions = selector.matchExpressions;
  return out;
}
