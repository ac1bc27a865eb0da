/** Label selectors evaluated in memory: parse a Kubernetes selector string into a predicate. */
import { OperatorRuntimeError } from "../errors.ts";

/**
 * One parsed requirement of a label selector.
 *
 * @example
 * ```ts
 * const req: LabelRequirement = { key: "tier", op: "in", values: ["front", "back"] };
 * ```
 */
export type LabelRequirement =
  | { key: string; op: "=" | "!="; value: string }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!exists" }
  | { key: string; op: ">" | "<"; value: number };

const KEY = String.raw`[A-Za-z0-9](?:[-A-Za-z0-9_./]*[A-Za-z0-9])?`;
const VALUE = String.raw`(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?`;
const EQUALITY = new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*(${VALUE})$`);
const SET = new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(([^()]*)\\)$`);
const NUMERIC = new RegExp(`^(${KEY})\\s*(>|<)\\s*(-?\\d+)$`);
const EXISTS = new RegExp(`^(${KEY})$`);
const NOT_EXISTS = new RegExp(`^!\\s*(${KEY})$`);
const SET_VALUE = new RegExp(`^${VALUE}$`);

/**
 * Parses a label selector: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`,
 * `k>5`, `k<5`, comma = AND; "" selects everything. Semantics as the API server's: `!=` and
 * `notin` also match objects without the key.
 *
 * Errors: throws {@link OperatorRuntimeError} naming the part it cannot parse.
 *
 * @example
 * ```ts
 * parseLabelSelector("app=web,tier!=db,!canary");
 * // [{ key: "app", op: "=", value: "web" }, { key: "tier", op: "!=", value: "db" }, { key: "canary", op: "!exists" }]
 * ```
 */
export function parseLabelSelector(selector: string): LabelRequirement[] {
  const out: LabelRequirement[] = [];
  for (const raw of splitTopLevel(selector)) {
    const part = raw.trim();
    if (part === "") {
      if (selector.trim() === "") continue;
      throw invalid(selector, raw, "empty requirement");
    }
    let m: RegExpExecArray | null;
    if ((m = EQUALITY.exec(part))) out.push({ key: m[1]!, op: m[2] === "!=" ? "!=" : "=", value: m[3]! });
    else if ((m = SET.exec(part))) {
      const values = m[3]!.split(",").map((v) => v.trim());
      if (values.some((v) => !SET_VALUE.test(v))) throw invalid(selector, part, "bad value in the set");
      out.push({ key: m[1]!, op: m[2] as "in" | "notin", values });
    } else if ((m = NUMERIC.exec(part))) out.push({ key: m[1]!, op: m[2] as ">" | "<", value: Number(m[3]) });
    else if ((m = NOT_EXISTS.exec(part))) out.push({ key: m[1]!, op: "!exists" });
    else if ((m = EXISTS.exec(part))) out.push({ key: m[1]!, op: "exists" });
    else throw invalid(selector, part, "not a requirement");
  }
  return out;
}

/**
 * Compiles a label selector into a predicate over an object's labels.
 *
 * @example
 * ```ts
 * const matches = labelSelectorMatcher("app=web,!canary");
 * matches({ app: "web" }); // true
 * matches({ app: "web", canary: "1" }); // false
 * ```
 */
export function labelSelectorMatcher(selector: string): (labels: Record<string, string> | undefined) => boolean {
  const reqs = parseLabelSelector(selector);
  return (labels = {}) => reqs.every((r) => matchesRequirement(r, labels));
}

function matchesRequirement(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case "=": return has && v === r.value;
    case "!=": return !has || v !== r.value;
    case "in": return has && r.values.includes(v!);
    case "notin": return !has || !r.values.includes(v!);
    case "exists": return has;
    case "!exists": return !has;
    case ">":
    case "<": {
      if (!has || !/^-?\d+$/.test(v!)) return false;
      return r.op === ">" ? Number(v) > r.value : Number(v) < r.value;
    }
  }
}

/** Splits on commas outside parentheses. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function invalid(selector: string, part: string, why: string): OperatorRuntimeError {
  return new OperatorRuntimeError(
    `invalid label selector "${selector}": cannot parse "${part.trim()}" (${why}). ` +
      "Supported: k=v, k==v, k!=v, k in (a,b), k notin (a,b), k, !k, k>n, k<n; comma means AND.",
  );
}
