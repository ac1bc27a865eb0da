/**
 * Compiles the CEL expressions of CRD validation rules (`rule`, `messageExpression`) for
 * LocalCluster, on `@bufbuild/cel`: parses once, checks that every function and variable the
 * expression names exists (a rule calling something LocalCluster lacks is a compile error,
 * never a rule that silently passes), notes whether it reads `oldSelf`, and plans it with
 * every comprehension metered (see {@link CostMeter}).
 *
 * `cel.bind(x, init, expr)` (cel-go's bindings extension) is expanded here, as cel-go expands
 * it. The two-variable comprehensions (`l.all(i, v, …)`, `transformList`…) and the optional
 * syntax (`x.?f`) are compile errors saying LocalCluster lacks them.
 *
 * The variables in scope are CRD rules' `self` and `oldSelf` unless the caller declares the
 * set of its environment ({@link CelCompileOptions}: ValidatingAdmissionPolicy and
 * `matchConditions` expressions have `object`, `oldObject`, `request`…).
 *
 * Caveats: `@bufbuild/cel` parses but this compiler does not type-check against the schema
 * (cel-go does): a rule comparing a string with an int, or not returning a bool, compiles here
 * and fails when evaluated. Syntax error texts are `@bufbuild/cel`'s, not cel-go's ANTLR ones.
 *
 * @module
 */
import { celEnv, celFunc, CelScalar, isCelList, isCelMap, parse, plan } from "@bufbuild/cel";
import type { CelEnv, CelResult, CelValue } from "@bufbuild/cel";
import { chargeActiveMeter } from "./cost-meter.ts";
import { KUBERNETES_CEL_FUNCS, SUPPORTED_CEL_FUNCTIONS, UNSUPPORTED_KUBERNETES_FUNCTIONS } from "./library.ts";

/** The name of the (internal) function every comprehension range goes through, for metering. */
const METER_FUNCTION = "@localcluster_meter_range";

/** Operators the planner handles itself (not through the function resolver). */
const PLANNER_OPERATORS: ReadonlySet<string> = new Set([
  "_&&_", "_||_", "_?_:_", "_[_]", "_[?_]", "_?._", "@not_strictly_false", "__not_strictly_false__",
]);

/** Type names usable as identifiers (`type(x) == int`). */
const TYPE_IDENTIFIERS: ReadonlySet<string> = new Set([
  "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type", "dyn",
]);

/** A parsed expression tree node (the `cel.expr.Expr` message). */
export type CelExpr = ReturnType<typeof parse>["expr"];

/** What a CEL program evaluates with: the variables in scope. */
export type CelBindings = Record<string, unknown>;

/** One compiled expression; `error` set means it cannot run. */
export interface CompiledExpression {
  /** The source text. */
  source: string;
  /** The parsed tree (for cost estimates); undefined when it did not parse. */
  ast?: CelExpr;
  /** Evaluates with the given variables; undefined when {@link error} is set. */
  evaluate?: (bindings: CelBindings) => CelResult;
  /** True when the expression reads `oldSelf` (a transition rule). */
  usesOldSelf: boolean;
  /** kube-apiserver's compile error detail (`compilation failed: ERROR: …`), when it cannot run. */
  error?: string;
}

const meterRange = celFunc(METER_FUNCTION, [CelScalar.DYN], CelScalar.DYN, (range: CelValue) => {
  if (isCelList(range) || isCelMap(range)) chargeActiveMeter(1 + range.size);
  return range as never;
});

let sharedEnv: CelEnv | undefined;

/** The environment rules run in: standard CEL, the Kubernetes libraries, the range meter. */
function environment(): CelEnv {
  sharedEnv ??= celEnv({ funcs: [...KUBERNETES_CEL_FUNCS, meterRange] });
  return sharedEnv;
}

const cache = new Map<string, CompiledExpression>();

/**
 * The environment an expression compiles in, when it is not a CRD validation rule's.
 *
 * @example
 * ```ts
 * const admission: CelCompileOptions = {
 *   variables: ["object", "oldObject", "request", "params", "namespaceObject", "variables"],
 *   unavailable: new Map([["authorizer", "LocalCluster does not implement the authorizer variable"]]),
 *   fields: new Map([["variables", new Set(["replicas"])]]),
 * };
 * ```
 */
export interface CelCompileOptions {
  /** The variables the environment declares (default: `self` and `oldSelf`, as CRD rules). */
  readonly variables?: readonly string[];
  /** Variables kube-apiserver declares but LocalCluster cannot provide, name → why (a compile error naming it). */
  readonly unavailable?: ReadonlyMap<string, string>;
  /**
   * Variables that are objects with a known set of fields (`variables` of a policy): selecting
   * any other field is cel-go's compile error `undefined field '<name>'`.
   */
  readonly fields?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The names a compilation checks against. */
interface Declared {
  readonly variables: ReadonlySet<string>;
  readonly unavailable: ReadonlyMap<string, string>;
  readonly fields: ReadonlyMap<string, ReadonlySet<string>>;
}

const CRD_RULE_VARIABLES: Declared = { variables: new Set(["self", "oldSelf"]), unavailable: new Map(), fields: new Map() };

/**
 * Compiles one expression (cached by source and environment), with `self` (and, for rules,
 * `oldSelf`) in scope, or the variables `options` declares.
 *
 * @example
 * ```ts
 * const compiled = compileCelExpression("has(self.name) != has(self.surname)");
 * compiled.error;       // → undefined
 * compiled.usesOldSelf; // → false
 * compileCelExpression("self.a +").error; // → "compilation failed: ERROR: <input>:1:8: Syntax error: …"
 * compileCelExpression("object.spec.replicas <= 5", { variables: ["object", "oldObject", "request"] }).error; // → undefined
 * ```
 */
export function compileCelExpression(source: string, options?: CelCompileOptions): CompiledExpression {
  const declared = options === undefined ? CRD_RULE_VARIABLES : declaredOf(options);
  const key = options === undefined ? source : `${environmentKey(declared)}\u0000${source}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const compiled = compile(source, declared);
  if (cache.size > 2000) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

function declaredOf(options: CelCompileOptions): Declared {
  return {
    variables: new Set(options.variables ?? ["self", "oldSelf"]),
    unavailable: options.unavailable ?? new Map(),
    fields: options.fields ?? new Map(),
  };
}

/** A cache key for an environment (the same declarations give the same key). */
function environmentKey(d: Declared): string {
  const fields = [...d.fields].map(([name, set]) => `${name}:${[...set].sort().join(",")}`).sort();
  return JSON.stringify([[...d.variables].sort(), [...d.unavailable.keys()].sort(), fields]);
}

function compile(source: string, declared: Declared): CompiledExpression {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(source);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const located = /^(<input>:\d+:\d+): (.*)$/s.exec(message);
    const detail = located ? `${located[1]}: Syntax error: ${located[2]}` : `Syntax error: ${message}`;
    return { source, usesOldSelf: false, error: `compilation failed: ERROR: ${detail}` };
  }
  const positions = positionsOf(parsed, source);
  const problems: string[] = [];
  const usage = { oldSelf: false };
  const expanded = expandBind(parsed.expr);
  checkNames(expanded, new Set(), problems, positions, usage, declared);
  if (problems.length > 0) {
    problems.sort(byPosition);
    return { source, ast: expanded, usesOldSelf: usage.oldSelf, error: `compilation failed: ${problems.map((p) => `ERROR: ${p}`).join("\n")}` };
  }
  const program = plan(environment(), meterComprehensions(expanded));
  return { source, ast: expanded, usesOldSelf: usage.oldSelf, evaluate: (bindings) => program(bindings as never) };
}

/** Orders `<input>:line:column: …` texts by position, as cel-go lists its errors. */
function byPosition(a: string, b: string): number {
  const at = (s: string): number[] => (/^<input>:(\d+):(\d+)/.exec(s) ?? ["", "0", "0"]).slice(1).map(Number);
  const [la = 0, ca = 0] = at(a);
  const [lb = 0, cb = 0] = at(b);
  return la - lb || ca - cb;
}

/** `<input>:line:column` of each node id, from the parser's offsets. */
function positionsOf(parsed: ReturnType<typeof parse>, source: string): (id: bigint) => string {
  const info = (parsed as unknown as { sourceInfo?: { positions?: Record<string, number> } }).sourceInfo;
  return (id) => {
    const offset = info?.positions?.[String(id)];
    if (offset === undefined) return "<input>:1:1";
    const before = source.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    return `<input>:${line}:${column}`;
  };
}

/** `format.named` for a call `format.named(…)` whose target is a plain identifier chain. */
function qualifiedName(target: CelExpr | undefined, fn: string): string | undefined {
  const parts: string[] = [fn];
  let node = target;
  while (node !== undefined) {
    const kind = node.exprKind;
    if (kind.case === "identExpr") return [kind.value.name, ...parts].join(".");
    if (kind.case !== "selectExpr" || kind.value.testOnly) return undefined;
    parts.unshift(kind.value.field);
    node = kind.value.operand;
  }
  return undefined;
}

function functionKnown(name: string): boolean {
  return PLANNER_OPERATORS.has(name) || SUPPORTED_CEL_FUNCTIONS.has(name) || environment().funcs.find(name) !== undefined;
}

function unsupportedReason(name: string): string | undefined {
  const why = UNSUPPORTED_KUBERNETES_FUNCTIONS.get(name);
  return why === undefined ? undefined : `LocalCluster does not implement the Kubernetes CEL function ${name}${why === "" ? "" : ` (${why})`}`;
}

/** The macros cel-go also has in a two-variable form (`l.all(i, v, …)`). */
const TWO_VARIABLE_MACROS: ReadonlySet<string> = new Set(["all", "exists", "existsOne", "exists_one"]);

function isVariable(name: string, scope: ReadonlySet<string>, declared: Declared): boolean {
  return declared.variables.has(name) || scope.has(name);
}

/**
 * The tree with every `cel.bind(x, init, expr)` (cel-go's bindings extension, which
 * `@bufbuild/cel` does not expand) turned into the comprehension cel-go expands it to: no
 * iteration, accumulator `x` = `init`, result `expr`.
 */
function expandBind(expr: CelExpr): CelExpr {
  const kind = expr.exprKind;
  if (kind.case === "callExpr") {
    const call = kind.value;
    const target = call.target?.exprKind;
    const variable = call.args[0]?.exprKind;
    if (call.function === "bind" && target?.case === "identExpr" && target.value.name === "cel" && call.args.length === 3 && variable?.case === "identExpr") {
      const rangeExpr: CelExpr = {
        ...expr,
        exprKind: { case: "listExpr", value: { $typeName: "cel.expr.Expr.CreateList", elements: [], optionalIndices: [] } },
      };
      const never: CelExpr = {
        ...expr,
        exprKind: { case: "constExpr", value: { $typeName: "cel.expr.Constant", constantKind: { case: "boolValue", value: false } } },
      };
      return {
        ...expr,
        exprKind: {
          case: "comprehensionExpr",
          value: {
            $typeName: "cel.expr.Expr.Comprehension",
            iterVar: "#unused",
            iterVar2: "",
            iterRange: rangeExpr,
            accuVar: variable.value.name,
            accuInit: expandBind(call.args[1]!),
            loopCondition: never,
            loopStep: call.args[0]!,
            result: expandBind(call.args[2]!),
          },
        },
      };
    }
  }
  return mapChildren(expr, expandBind);
}

/** `expr` with each direct sub-expression replaced by `f` of it (the node itself unchanged otherwise). */
function mapChildren(expr: CelExpr, f: (e: CelExpr) => CelExpr): CelExpr {
  const kind = expr.exprKind;
  switch (kind.case) {
    case "selectExpr":
      return { ...expr, exprKind: { case: "selectExpr", value: { ...kind.value, operand: kind.value.operand && f(kind.value.operand) } } };
    case "callExpr":
      return { ...expr, exprKind: { case: "callExpr", value: { ...kind.value, target: kind.value.target && f(kind.value.target), args: kind.value.args.map(f) } } };
    case "listExpr":
      return { ...expr, exprKind: { case: "listExpr", value: { ...kind.value, elements: kind.value.elements.map(f) } } };
    case "structExpr":
      return {
        ...expr,
        exprKind: {
          case: "structExpr",
          value: {
            ...kind.value,
            entries: kind.value.entries.map((e) => ({
              ...e,
              keyKind: e.keyKind.case === "mapKey" ? { case: "mapKey" as const, value: f(e.keyKind.value) } : e.keyKind,
              value: e.value && f(e.value),
            })),
          },
        },
      };
    case "comprehensionExpr": {
      const c = kind.value;
      return {
        ...expr,
        exprKind: {
          case: "comprehensionExpr",
          value: {
            ...c,
            iterRange: c.iterRange && f(c.iterRange),
            accuInit: c.accuInit && f(c.accuInit),
            loopCondition: c.loopCondition && f(c.loopCondition),
            loopStep: c.loopStep && f(c.loopStep),
            result: c.result && f(c.result),
          },
        },
      };
    }
    default:
      return expr;
  }
}

/** Collects undeclared functions and variables, and whether `oldSelf` is read. */
function checkNames(
  expr: CelExpr | undefined, scope: ReadonlySet<string>, problems: string[], at: (id: bigint) => string, usage: { oldSelf: boolean }, declared: Declared,
): void {
  if (expr === undefined) return;
  const kind = expr.exprKind;
  switch (kind.case) {
    case "identExpr": {
      const name = kind.value.name;
      if (name === "oldSelf" && declared.variables.has("oldSelf")) usage.oldSelf = true;
      if (scope.has(name) || TYPE_IDENTIFIERS.has(name)) return;
      const missing = declared.unavailable.get(name);
      if (missing !== undefined && !declared.variables.has(name)) {
        problems.push(`${at(expr.id)}: LocalCluster cannot evaluate the variable '${name}': ${missing}`);
        return;
      }
      if (isVariable(name, scope, declared)) return;
      problems.push(`${at(expr.id)}: undeclared reference to '${name}' (in container '')`);
      return;
    }
    case "selectExpr": {
      const operand = kind.value.operand?.exprKind;
      if (operand?.case === "identExpr" && !scope.has(operand.value.name)) {
        const known = declared.fields.get(operand.value.name);
        if (known !== undefined && !known.has(kind.value.field)) problems.push(`${at(expr.id)}: undefined field '${kind.value.field}'`);
      }
      checkNames(kind.value.operand, scope, problems, at, usage, declared);
      return;
    }
    case "callExpr": {
      const call = kind.value;
      if (TWO_VARIABLE_MACROS.has(call.function) && call.target !== undefined && call.args.length === 3 && call.args.slice(0, 2).every((a) => a.exprKind.case === "identExpr")) {
        problems.push(
          `${at(expr.id)}: LocalCluster does not implement the two-variable form of ${call.function}() (cel-go's two-variable comprehensions, which @bufbuild/cel 0.6 does not parse); use the one-variable form`,
        );
        checkNames(call.target, scope, problems, at, usage, declared);
        return;
      }
      const qualified = qualifiedName(call.target, call.function);
      const qualifiedKnown = qualified !== undefined && !isVariable(qualified.split(".")[0]!, scope, declared) && functionKnown(qualified);
      const qualifiedLacking = qualified !== undefined && !qualifiedKnown ? unsupportedReason(qualified) : undefined;
      const lacking = qualifiedLacking ?? unsupportedReason(call.function);
      if (lacking !== undefined && !qualifiedKnown) {
        problems.push(`${at(expr.id)}: undeclared reference to '${qualifiedLacking === undefined ? call.function : qualified}' (in container ''): ${lacking}`);
      } else if (!qualifiedKnown && !functionKnown(call.function)) {
        // `math.greatest(…)`: a namespaced function, unless its target is a variable.
        const namespaced = qualified !== undefined && !isVariable(qualified.split(".")[0]!, scope, declared);
        problems.push(`${at(expr.id)}: undeclared reference to '${namespaced ? qualified : call.function}' (in container '')`);
        if (namespaced) {
          for (const arg of call.args) checkNames(arg, scope, problems, at, usage, declared);
          return;
        }
      }
      if (!qualifiedKnown && qualifiedLacking === undefined) checkNames(call.target, scope, problems, at, usage, declared);
      for (const arg of call.args) checkNames(arg, scope, problems, at, usage, declared);
      return;
    }
    case "listExpr":
      for (const element of kind.value.elements) checkNames(element, scope, problems, at, usage, declared);
      return;
    case "structExpr":
      for (const entry of kind.value.entries) {
        if (entry.keyKind.case === "mapKey") checkNames(entry.keyKind.value, scope, problems, at, usage, declared);
        checkNames(entry.value, scope, problems, at, usage, declared);
      }
      return;
    case "comprehensionExpr": {
      const c = kind.value;
      checkNames(c.iterRange, scope, problems, at, usage, declared);
      checkNames(c.accuInit, scope, problems, at, usage, declared);
      const inner = new Set([...scope, c.iterVar, c.accuVar, ...(c.iterVar2 ? [c.iterVar2] : [])]);
      checkNames(c.loopCondition, inner, problems, at, usage, declared);
      checkNames(c.loopStep, inner, problems, at, usage, declared);
      checkNames(c.result, new Set([...scope, c.accuVar]), problems, at, usage, declared);
      return;
    }
    default:
      return;
  }
}

/**
 * A copy of the tree where every comprehension's range is wrapped in the metering function,
 * so each iteration is charged to the active {@link CostMeter}.
 */
function meterComprehensions(expr: CelExpr): CelExpr {
  const mapped = mapChildren(expr, meterComprehensions);
  const kind = mapped.exprKind;
  if (kind.case !== "comprehensionExpr" || !kind.value.iterRange) return mapped;
  const range = kind.value.iterRange;
  const metered: CelExpr = { ...range, exprKind: { case: "callExpr", value: { $typeName: "cel.expr.Expr.Call", function: METER_FUNCTION, args: [range] } } };
  return { ...mapped, exprKind: { case: "comprehensionExpr", value: { ...kind.value, iterRange: metered } } };
}
