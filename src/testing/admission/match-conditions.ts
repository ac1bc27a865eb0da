/**
 * CEL in admission, as kube-apiserver's `k8s.io/apiserver/pkg/admission/plugin/cel` evaluates
 * it: the variables an admission expression sees (`object`, `oldObject`, `request`, and for
 * policies `params`, `namespaceObject`, `variables`), one expression's evaluation with the
 * cost limits and kube-apiserver's error wording, and `matchConditions` (of webhooks and of
 * ValidatingAdmissionPolicies): all true → matches; any false → skipped; otherwise an
 * evaluation error, which `failurePolicy: Fail` makes an error and `Ignore` a skip.
 *
 * The `authorizer` variable is declared by kube-apiserver but LocalCluster has no authorizer
 * library: an expression naming it is a compile error saying so (under `failurePolicy: Fail`,
 * a refusal; under `Ignore`, the condition is skipped).
 *
 * @module
 */
import { isCelError } from "@bufbuild/cel";
import type { CelInput } from "@bufbuild/cel";
import { compileCelExpression } from "../cel/compile.ts";
import type { CelCompileOptions, CompiledExpression } from "../cel/compile.ts";
import { celValueOf } from "../cel/cel-value.ts";
import { CostLimitExceeded, CostMeter, PER_CALL_COST_LIMIT, RUNTIME_COST_BUDGET, withActiveMeter } from "../cel/cost-meter.ts";
import type { KubeObject } from "../resource-type.ts";
import type { NamedExpression } from "./policy-types.ts";

/** Why `authorizer` is a compile error in LocalCluster. */
const NO_AUTHORIZER =
  "kube-apiserver declares it (the authz library: authorizer.group(…).resource(…).check(…)), LocalCluster does not implement it; use an expression without it";

/**
 * The environment of webhook `matchConditions`: `object`, `oldObject`, `request` (and
 * `authorizer`, which LocalCluster lacks).
 *
 * @example
 * ```ts
 * import { compileCelExpression } from "../cel/compile.ts";
 * compileCelExpression("request.operation == 'CREATE'", WEBHOOK_CEL_ENVIRONMENT).error; // → undefined
 * ```
 */
export const WEBHOOK_CEL_ENVIRONMENT: CelCompileOptions = {
  variables: ["object", "oldObject", "request"],
  unavailable: new Map([["authorizer", NO_AUTHORIZER]]),
};

/**
 * The environment of a ValidatingAdmissionPolicy's expressions, whose `variables` declares
 * the names given (a policy's variables, in order: each sees the ones before it).
 *
 * @example
 * ```ts
 * import { compileCelExpression } from "../cel/compile.ts";
 * compileCelExpression("variables.replicas > 5", policyCelEnvironment(["replicas"])).error; // → undefined
 * compileCelExpression("variables.other > 5", policyCelEnvironment(["replicas"])).error; // → "compilation failed: ERROR: <input>:1:10: undefined field 'other'"
 * ```
 */
export function policyCelEnvironment(variableNames: readonly string[]): CelCompileOptions {
  return {
    variables: ["object", "oldObject", "request", "params", "namespaceObject", "variables"],
    unavailable: new Map([["authorizer", NO_AUTHORIZER]]),
    fields: new Map([["variables", new Set(variableNames)]]),
  };
}

/**
 * What one admission expression is evaluated with, as JSON (undefined / null become CEL
 * `null`, as kube-apiserver binds an absent object).
 *
 * @example
 * ```ts
 * const input: AdmissionCelInput = { object: { metadata: { name: "web" } }, oldObject: undefined, request: { operation: "CREATE" } };
 * ```
 */
export interface AdmissionCelInput {
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  /** `request`: the AdmissionRequest as kube-apiserver's CEL sees it (no `object`/`oldObject`). */
  readonly request: Record<string, unknown>;
  readonly params?: KubeObject | undefined;
  readonly namespaceObject?: KubeObject | undefined;
  /** `variables` (a lazily evaluated map), for policies. */
  readonly variables?: CelInput;
}

/**
 * The CEL bindings of an input: JSON converted as kube-apiserver's `UnstructuredToVal` does
 * without a schema (integral numbers are ints).
 *
 * @example
 * ```ts
 * const bindings = admissionBindings({ object: { spec: { replicas: 3 } }, oldObject: undefined, request: {} });
 * // bindings.object is a CEL map whose spec.replicas is 3n; bindings.oldObject is null
 * ```
 */
export function admissionBindings(input: AdmissionCelInput): Record<string, CelInput> {
  const value = (v: unknown): CelInput => (v === undefined || v === null ? null : celValueOf(v, undefined));
  return {
    object: value(input.object),
    oldObject: value(input.oldObject),
    request: value(input.request),
    params: value(input.params),
    namespaceObject: value(input.namespaceObject),
    ...(input.variables !== undefined ? { variables: input.variables } : {}),
  };
}

/**
 * The cost budget of one set of expressions (kube-apiserver's `RuntimeCELCostBudget`), shared
 * by the expressions evaluated against it.
 *
 * @example
 * ```ts
 * const budget = new CostBudget();
 * budget.remaining; // → 10000000
 * ```
 */
export class CostBudget {
  remaining: number;

  constructor(total = RUNTIME_COST_BUDGET) {
    this.remaining = total;
  }
}

/** The message kube-apiserver's filter fails with when the budget runs out (no further expression runs). */
export const OUT_OF_BUDGET = "validation failed due to running out of cost budget, no further validation rules will be run";

/**
 * One evaluation's outcome: a value, an error in kube-apiserver's words (`expression '…'
 * resulted in error: …`, `compilation error: …`), or the budget exhausted.
 *
 * @example
 * ```ts
 * declare const outcome: Evaluated;
 * const ok = "value" in outcome && outcome.value === true;
 * ```
 */
export type Evaluated = { readonly value: unknown } | { readonly error: string } | { readonly outOfBudget: true };

/**
 * Evaluates one compiled expression: a compile error is `compilation error: <error>`, a
 * runtime error `expression '<source>' resulted in error: <error>`; the cost is charged to
 * `budget` (past it: `outOfBudget`), and one evaluation stops at kube-apiserver's per-call
 * limit.
 *
 * @example
 * ```ts
 * import { compileCelExpression } from "../cel/compile.ts";
 * const compiled = compileCelExpression("object.spec.replicas <= 5", WEBHOOK_CEL_ENVIRONMENT);
 * evaluateAdmissionExpression(compiled, admissionBindings({ object: { spec: { replicas: 7 } }, oldObject: undefined, request: {} }), new CostBudget());
 * // → { value: false }
 * ```
 */
export function evaluateAdmissionExpression(compiled: CompiledExpression, bindings: Record<string, CelInput>, budget: CostBudget): Evaluated {
  if (compiled.error !== undefined || compiled.evaluate === undefined) return { error: `compilation error: ${compiled.error ?? "unexpected internal error compiling expression"}` };
  const meter = new CostMeter(Math.min(PER_CALL_COST_LIMIT, budget.remaining + 1));
  let result: unknown;
  try {
    result = withActiveMeter(meter, () => {
      meter.charge(1);
      return compiled.evaluate!(bindings);
    });
  } catch (err) {
    if (!(err instanceof CostLimitExceeded)) throw err;
    result = err;
  }
  budget.remaining -= Math.min(meter.spent, budget.remaining + 1);
  if (budget.remaining < 0) return { outOfBudget: true };
  if (meter.exceeded) return { error: `expression '${compiled.source}' resulted in error: operation cancelled: actual cost limit exceeded` };
  if (isCelError(result)) return { error: `expression '${compiled.source}' resulted in error: ${celErrorText(result)}` };
  if (result instanceof Error) return { error: `expression '${compiled.source}' resulted in error: ${result.message}` };
  return { value: result };
}

/**
 * A CEL error's text in cel-go's words where `@bufbuild/cel` words it differently (and without
 * its wrapping of errors thrown inside a value).
 *
 * @example
 * ```ts
 * celErrorText(new Error("field not found: replicas")); // → "no such key: replicas"
 * ```
 */
export function celErrorText(err: Error): string {
  const message = err.message.replace(/^Unsupported input Error: /, "");
  const noKey = /^field not found: (.*)$/.exec(message);
  if (noKey) return `no such key: ${noKey[1]}`;
  // Objects are dynamically typed at runtime: cel-go's dispatch finds no overload.
  if (/^found no matching overload for /.test(message)) return "no such overload";
  if (/overflow/.test(message)) return "integer overflow";
  if (/divide by zero|division by zero/.test(message)) return "division by zero";
  if (/modulus by zero|modulo by zero/.test(message)) return "modulus by zero";
  return message;
}

/**
 * Compiled `matchConditions`.
 *
 * @example
 * ```ts
 * const conditions = compileMatchConditions([{ name: "creates", expression: "request.operation == 'CREATE'" }], WEBHOOK_CEL_ENVIRONMENT);
 * conditions[0]!.compiled.error; // → undefined
 * ```
 */
export function compileMatchConditions(conditions: readonly NamedExpression[] | undefined, env: CelCompileOptions): CompiledCondition[] {
  return (conditions ?? []).map((c) => ({ name: c.name, compiled: compileCelExpression(c.expression ?? "", env) }));
}

/**
 * One compiled match condition.
 *
 * @example
 * ```ts
 * declare const c: CompiledCondition;
 * const broken = c.compiled.error !== undefined;
 * ```
 */
export interface CompiledCondition {
  readonly name: string;
  readonly compiled: CompiledExpression;
}

/**
 * What `matchConditions` decided: `matches`, or `error` (the failure policy was `Fail`);
 * `failed` names the first condition that was false.
 *
 * @example
 * ```ts
 * declare const m: MatchDecision;
 * if ("error" in m) throw new Error(m.error);
 * ```
 */
export type MatchDecision = { readonly matches: boolean; readonly failed?: string } | { readonly error: string };

/**
 * Evaluates `matchConditions` as kube-apiserver's `matchconditions.Matcher`: any condition
 * false → no match (even if others failed); otherwise evaluation errors (and a result that is
 * not a bool) → `error` under `failurePolicy: Fail` (one error's text, several as `[a, b]`),
 * no match under `Ignore`; else a match.
 *
 * @example
 * ```ts
 * const conditions = compileMatchConditions([{ name: "big", expression: "object.spec.replicas > 5" }], WEBHOOK_CEL_ENVIRONMENT);
 * evaluateMatchConditions(conditions, admissionBindings({ object: { spec: { replicas: 7 } }, oldObject: undefined, request: {} }), "Fail");
 * // → { matches: true }
 * ```
 */
export function evaluateMatchConditions(
  conditions: readonly CompiledCondition[], bindings: Record<string, CelInput>, failurePolicy: string | undefined, budget = new CostBudget(),
): MatchDecision {
  if (conditions.length === 0) return { matches: true };
  const ignore = failurePolicy === "Ignore";
  const errors: string[] = [];
  for (const condition of conditions) {
    const outcome = evaluateAdmissionExpression(condition.compiled, bindings, budget);
    if ("outOfBudget" in outcome) return ignore ? { matches: false } : { error: OUT_OF_BUDGET };
    if ("error" in outcome) {
      errors.push(outcome.error);
      continue;
    }
    if (outcome.value === false) return { matches: false, failed: condition.name };
    if (outcome.value !== true) {
      errors.push(`expression '${condition.compiled.source}' resulted in error: no such overload: a match condition must evaluate to bool, got ${celTypeName(outcome.value)}`);
    }
  }
  if (errors.length > 0) return ignore ? { matches: false } : { error: errors.length === 1 ? errors[0]! : `[${errors.join(", ")}]` };
  return { matches: true };
}

/**
 * The CEL type name of a value, for messages.
 *
 * @example
 * ```ts
 * celTypeName(3n); // → "int"
 * ```
 */
export function celTypeName(v: unknown): string {
  if (v === null || v === undefined) return "null_type";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "double";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (v instanceof Uint8Array) return "bytes";
  if (typeof v === "object" && Symbol.iterator in v && !("get" in v)) return "list";
  return "map";
}
