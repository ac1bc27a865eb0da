/**
 * Parses and matches Kubernetes label selectors, in string form (`?labelSelector=`) and as
 * `metav1.LabelSelector` objects (`matchLabels` / `matchExpressions`): the one parser of the
 * SDK's cache and LocalCluster.
 *
 * Bad input throws an {@link InvalidSelectorError} whose `problem` is worded like the
 * apiserver's (`unable to parse requirement: …`, `found ',', expected: …`).
 *
 * @module
 */
import { InvalidSelectorError } from "./selector-error.ts";
import { checkObject } from "./check-args.ts";

/**
 * A requirement's operator, spelled as apimachinery's `selection.Operator`:
 * `exists` is `k`, `!` is `!k`, `gt`/`lt` are `k>5`/`k<5`.
 *
 * @example
 * ```ts
 * parseLabelSelector("size>5").requirements[0]!.operator; // "gt"
 * ```
 */
export type LabelOperator = "=" | "==" | "!=" | "in" | "notin" | "exists" | "!" | "gt" | "lt";

/**
 * One comma-separated term of a selector. `values` is empty for `exists` and `!`, sorted for `in`/`notin`.
 *
 * @example
 * ```ts
 * const req: LabelRequirement = { key: "tier", operator: "in", values: ["back", "front"] };
 * ```
 */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/**
 * A parsed selector: the AND of its requirements, sorted by key as the apiserver sorts them.
 *
 * @example
 * ```ts
 * const sel = parseLabelSelector("app=web,tier in (front,back)");
 * sel.matches({ app: "web", tier: "front" }); // true
 * ```
 */
export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  /** True when the selector selects everything (no requirements). */
  readonly isEmpty: boolean;
  /** Whether an object with these labels is selected. `undefined` means no labels. */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** The canonical string form, e.g. `!f,a=b,c in (d,e)`. */
  toString(): string;
}

/**
 * A `metav1.LabelSelectorRequirement` (operator In, NotIn, Exists or DoesNotExist).
 *
 * @example
 * ```ts
 * const expr: LabelSelectorRequirementObject = { key: "tier", operator: "In", values: ["web"] };
 * ```
 */
export interface LabelSelectorRequirementObject {
  key: string;
  operator: string;
  values?: string[];
}

/**
 * A `metav1.LabelSelector`, as in a Deployment's `spec.selector`.
 *
 * @example
 * ```ts
 * const sel: LabelSelectorObject = { matchLabels: { app: "web" }, matchExpressions: [{ key: "canary", operator: "DoesNotExist" }] };
 * ```
 */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementObject[];
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const CHARSET =
  "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/**
 * Problems with a label key (`[dns-subdomain-prefix/]name`); empty when the key is valid.
 *
 * @example
 * ```ts
 * labelKeyProblems("example.com/app"); // → []
 * labelKeyProblems("-app").length;     // → 1 (the name part must start with an alphanumeric character)
 * ```
 */
export function labelKeyProblems(key: string): string[] {
  const parts = key.split("/");
  if (parts.length > 2) {
    return [`a qualified name must ${CHARSET} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const problems: string[] = [];
  const name = parts.at(-1)!;
  const prefix = parts.length === 2 ? parts[0]! : undefined;
  if (prefix === "") problems.push("prefix part must be non-empty");
  else if (prefix !== undefined && prefix.length > 253) problems.push("prefix part must be no more than 253 characters");
  else if (prefix !== undefined && !DNS_SUBDOMAIN.test(prefix)) {
    problems.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character");
  }
  if (name === "") problems.push("name part must be non-empty");
  else if (name.length > 63) problems.push("name part must be no more than 63 characters");
  if (!NAME.test(name)) problems.push(`name part must ${CHARSET}`);
  return problems;
}

/**
 * Problems with a label value (at most 63 characters, may be empty); empty when it is valid.
 *
 * @example
 * ```ts
 * labelValueProblems("v1.2");        // → []
 * labelValueProblems("-bad").length; // → 1
 * ```
 */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push("must be no more than 63 characters");
  if (!VALUE.test(value)) problems.push(`a valid label must be an empty string or ${CHARSET}`);
  return problems;
}

/** Go's `strconv.ParseInt(s, 10, 64)`, or undefined. */
function parseInt64(text: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

/** Validates like apimachinery's `NewRequirement`; throws a plain Error with the aggregate message. */
function requirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const errors: string[] = [];
  const invalid = (field: string, value: unknown, detail: string) =>
    errors.push(`${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`);
  const keyProblems = labelKeyProblems(key);
  if (keyProblems.length > 0) invalid("key", key, keyProblems.join("; "));
  const count = values.length;
  if ((operator === "in" || operator === "notin") && count === 0) {
    invalid("values", values, "for 'in', 'notin' operators, values set can't be empty");
  } else if ((operator === "=" || operator === "==" || operator === "!=") && count !== 1) {
    invalid("values", values, "exact-match compatibility requires one single value");
  } else if ((operator === "exists" || operator === "!") && count !== 0) {
    invalid("values", values, "values set must be empty for exists and does not exist");
  } else if (operator === "gt" || operator === "lt") {
    if (count !== 1) invalid("values", values, "for 'Gt', 'Lt' operators, exactly one value is required");
    values.forEach((v, i) => {
      if (parseInt64(v) === undefined) invalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer");
    });
  }
  values.forEach((v, i) => {
    const problems = labelValueProblems(v);
    if (problems.length > 0) invalid(`values[${i}][${key}]`, v, problems.join("; "));
  });
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`);
  const sorted = operator === "in" || operator === "notin" ? [...new Set(values)].sort() : values;
  return { key, operator, values: sorted };
}

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key]! : "";
  const op = r.operator;
  if (op === "=" || op === "==" || op === "in") return has && r.values.includes(value);
  if (op === "!=" || op === "notin") return !has || !r.values.includes(value);
  if (op === "exists" || op === "!") return has === (op === "exists");
  const actual = has ? parseInt64(value) : undefined;
  const bound = r.values.length === 1 ? parseInt64(r.values[0]!) : undefined;
  if (actual === undefined || bound === undefined) return false;
  return op === "gt" ? actual > bound : actual < bound;
}

const SYMBOL_OF: Partial<Record<LabelOperator, string>> = { gt: ">", lt: "<", in: " in ", notin: " notin " };

function requirementString(r: LabelRequirement): string {
  if (r.operator === "exists") return r.key;
  if (r.operator === "!") return `!${r.key}`;
  const list = r.operator === "in" || r.operator === "notin";
  return `${r.key}${SYMBOL_OF[r.operator] ?? r.operator}${list ? `(${r.values.join(",")})` : r.values[0]}`;
}

/** Builds a selector; `nothing` makes one that selects no object (a nil metav1 selector). */
function makeSelector(requirements: LabelRequirement[], nothing = false): LabelSelector {
  const sorted = requirements.toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements: sorted,
    isEmpty: !nothing && sorted.length === 0,
    matches: (labels) => !nothing && sorted.every((r) => requirementMatches(r, labels ?? {})),
    toString: () => sorted.map(requirementString).join(","),
  };
}

/** A token: `id` (identifier or keyword), `end`, or the symbol itself. */
interface Token {
  kind: "id" | "end" | "(" | ")" | "," | "!" | "=" | "==" | "!=" | ">" | "<";
  text: string;
}

const isSpace = (c: string) => c === " " || c === "\t" || c === "\r" || c === "\n";
const isSymbol = (c: string) => "=!(),><".includes(c);

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    let end = i + 1;
    if (isSymbol(c)) {
      if (text.startsWith("==", i) || text.startsWith("!=", i)) end++;
      tokens.push({ kind: text.slice(i, end) as Token["kind"], text: text.slice(i, end) });
    } else if (!isSpace(c)) {
      while (end < text.length && !isSpace(text[end]!) && !isSymbol(text[end]!)) end++;
      tokens.push({ kind: "id", text: text.slice(i, end) });
    }
    i = end;
  }
  tokens.push({ kind: "end", text: "" });
  return tokens;
}

const OPERATORS: Readonly<Record<string, LabelOperator>> = {
  "=": "=", "==": "==", "!=": "!=", ">": "gt", "<": "lt", in: "in", notin: "notin",
};

/**
 * Parses a label selector string (the `labelSelector` query parameter).
 *
 * Supports `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>5`, `k<5`, with
 * commas meaning AND and whitespace ignored between tokens. `""` selects everything.
 * `!=` and `notin` also select objects that lack the key; `>`/`<` compare 64-bit integers and
 * never select a label whose value is not one.
 *
 * @throws InvalidSelectorError on bad syntax, invalid keys/values or non-integer `>`/`<`.
 * @example
 * ```ts
 * parseLabelSelector("env!=prod,!legacy").matches({ env: "dev" }); // true
 * ```
 */
export function parseLabelSelector(text: string): LabelSelector {
  const tokens = lex(text);
  let pos = 0;
  const peek = (): Token => tokens[pos]!;
  const next = (): Token => (peek().kind === "end" ? peek() : tokens[pos++]!);
  const at = (...kinds: Token["kind"][]) => kinds.includes(peek().kind);
  const found = (t: Token, expected: string) => `found '${t.text}', expected: ${expected}`;
  const invalid = (problem: string) => new InvalidSelectorError("label", text, problem);

  const parseValues = (): string[] => {
    const open = next();
    if (open.kind !== "(") throw new Error(`found '${open.text}' expected: '('`);
    if (!at("id", ",", ")")) throw new Error(found(peek(), "',', ')' or identifier"));
    const values: string[] = [];
    while (!at(")")) {
      const t = next();
      if (t.kind === "id") {
        values.push(t.text);
        if (!at(",", ")")) throw new Error(found(peek(), "',' or ')'"));
      } else if (t.kind === ",") {
        // An empty slot (`(,a)`, `(a,,b)`, `(a,)`, `()`) stands for the empty value.
        if (values.length === 0 || at(",", ")")) values.push("");
      } else {
        throw new Error(found(t, "',', or identifier"));
      }
    }
    next();
    return values.length === 0 ? [""] : values;
  };

  const parseRequirement = (): LabelRequirement => {
    let t = next();
    const negated = t.kind === "!";
    if (negated) t = next();
    if (t.kind !== "id") throw new Error(found(t, "identifier"));
    const keyProblems = labelKeyProblems(t.text);
    if (keyProblems.length > 0) throw new Error(`Invalid value: ${JSON.stringify(t.text)}: ${keyProblems.join("; ")}`);
    if (negated) return requirement(t.text, "!", []);
    if (at("end", ",")) return requirement(t.text, "exists", []);
    const opToken = next();
    const operator = Object.hasOwn(OPERATORS, opToken.text) ? OPERATORS[opToken.text]! : undefined;
    if (operator === undefined) throw new Error(found(opToken, "in, notin, =, ==, !=, gt, lt"));
    if (operator === "in" || operator === "notin") return requirement(t.text, operator, parseValues());
    if (at("end", ",")) return requirement(t.text, operator, [""]);
    const value = next();
    if (value.kind !== "id") throw new Error(found(value, "identifier"));
    return requirement(t.text, operator, [value.text]);
  };

  const requirements: LabelRequirement[] = [];
  for (;;) {
    if (at("end")) return makeSelector(requirements);
    if (!at("id", "!")) throw invalid(found(peek(), "!, identifier, or 'end of string'"));
    try {
      requirements.push(parseRequirement());
    } catch (err) {
      throw invalid(`unable to parse requirement: ${(err as Error).message}`);
    }
    const after = next();
    if (after.kind === "end") return makeSelector(requirements);
    if (after.kind !== ",") throw invalid(found(after, "',' or 'end of string'"));
    if (!at("id", "!")) throw invalid(found(peek(), "identifier after ','"));
  }
}

/**
 * Compiles a label selector string into a predicate over an object's labels: the
 * {@link LabelSelector.matches} of {@link parseLabelSelector}.
 *
 * @throws InvalidSelectorError as {@link parseLabelSelector}.
 * @example
 * ```ts
 * const matches = labelSelectorMatcher("app=web,!canary");
 * matches({ app: "web" }); // true
 * matches({ app: "web", canary: "1" }); // false
 * ```
 */
export function labelSelectorMatcher(text: string): (labels: Readonly<Record<string, string>> | undefined) => boolean {
  return parseLabelSelector(text).matches;
}

const OBJECT_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: "in", NotIn: "notin", Exists: "exists", DoesNotExist: "!",
};

/**
 * Converts a `metav1.LabelSelector` object into a {@link LabelSelector}, like apimachinery's
 * `LabelSelectorAsSelector`: `null`/`undefined` selects nothing, `{}` selects everything.
 * @throws InvalidSelectorError for an unknown operator or invalid keys/values.
 *
 * @example
 * ```ts
 * labelSelectorFromObject({ matchLabels: { app: "web" } }).toString(); // → "app=web"
 * ```
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (sel === null || sel === undefined) return makeSelector([], true);
  checkObject("labelSelectorFromObject(sel)", "sel", sel, "a LabelSelector object ({ matchLabels?, matchExpressions? }), null or undefined", "For selector text such as \"app=web\", use parseLabelSelector(text)");
  const requirements: LabelRequirement[] = [];
  try {
    for (const [key, value] of Object.entries(sel.matchLabels ?? {})) requirements.push(requirement(key, "=", [value]));
    for (const expr of sel.matchExpressions ?? []) {
      const operator = Object.hasOwn(OBJECT_OPERATORS, expr.operator) ? OBJECT_OPERATORS[expr.operator]! : undefined;
      if (operator === undefined) throw new Error(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
      requirements.push(requirement(expr.key, operator, expr.values ?? []));
    }
  } catch (err) {
    throw new InvalidSelectorError("label", JSON.stringify(sel), (err as Error).message);
  }
  return makeSelector(requirements);
}

/**
 * Whether `labels` satisfy a `metav1.LabelSelector` object (`matchLabels` AND every
 * `matchExpressions` entry). A missing selector (`null`/`undefined`) matches nothing; an empty
 * one matches everything.
 * @throws InvalidSelectorError for an unknown operator or invalid keys/values.
 *
 * @example
 * ```ts
 * matchLabelSelectorObject({ matchLabels: { app: "web" } }, { app: "web", tier: "frontend" }); // → true
 * matchLabelSelectorObject(undefined, { app: "web" });                                        // → false
 * ```
 */
export function matchLabelSelectorObject(
  sel: LabelSelectorObject | null | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return labelSelectorFromObject(sel).matches(labels);
}

/**
 * The string form of a `metav1.LabelSelector` object, as put in a Scale's `status.selector`:
 * requirements sorted by key, `""` for an empty or missing selector.
 * @throws InvalidSelectorError for an unknown operator or invalid keys/values.
 * @example
 * ```ts
 * labelSelectorObjectToString({ matchLabels: { app: "web" }, matchExpressions: [{ key: "tier", operator: "In", values: ["b", "a"] }] });
 * // "app=web,tier in (a,b)"
 * ```
 */
export function labelSelectorObjectToString(sel: LabelSelectorObject | null | undefined): string {
  return labelSelectorFromObject(sel).toString();
}
