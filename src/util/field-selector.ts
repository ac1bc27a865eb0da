/**
 * Parses and matches Kubernetes field selectors (`?fieldSelector=`): the one parser of the SDK's
 * cache and LocalCluster. Which fields a resource can be selected by is the caller's business.
 *
 * Bad syntax throws an {@link InvalidSelectorError} whose `problem` is worded like the apiserver's.
 *
 * @module
 */
import { InvalidSelectorError } from "./selector-error.ts";

/**
 * A field requirement's operator; `=` and `==` mean the same.
 *
 * @example
 * ```ts
 * parseFieldSelector("status.phase!=Running").requirements[0]!.operator; // "!="
 * ```
 */
export type FieldOperator = "=" | "==" | "!=";

/**
 * One comma-separated term of a field selector; `value` is unescaped.
 *
 * @example
 * ```ts
 * const req: FieldRequirement = { field: "metadata.name", operator: "=", value: "a,b" };
 * ```
 */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/**
 * A parsed field selector: the AND of its requirements.
 *
 * @example
 * ```ts
 * parseFieldSelector("status.phase!=Running").matches({ "status.phase": "Pending" }); // true
 * ```
 */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  /** True when the selector selects everything (no requirements). */
  readonly isEmpty: boolean;
  /** Whether an object with these field values is selected; a missing field counts as `""`. */
  matches(fields: Readonly<Record<string, string>>): boolean;
  /** The string form, values escaped, e.g. `metadata.name=a\,b`. */
  toString(): string;
}

/**
 * Escapes `\`, `,` and `=` in a value so it can be put in a field selector.
 *
 * @example
 * ```ts
 * escapeFieldValue("a,b"); // → "a\\,b" (the string a\,b)
 * const selector = `metadata.name=${escapeFieldValue("a,b")}`; // "metadata.name=a\\,b"
 * ```
 */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Splits on commas that are not escaped; escapes stay in the parts. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === ",") {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

function unescapeValue(text: string, value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\") {
      const escaped = value[i + 1];
      if (escaped !== "\\" && escaped !== "," && escaped !== "=") {
        throw new InvalidSelectorError("field", text, `invalid field selector: invalid escape sequence: \\${escaped ?? ""}`);
      }
      out += escaped;
      i++;
    } else if (c === "," || c === "=") {
      throw new InvalidSelectorError("field", text, `invalid field selector: unescaped character in value: ${c}`);
    } else {
      out += c;
    }
  }
  return out;
}

const TERM_OPERATORS: readonly FieldOperator[] = ["!=", "==", "="];

/**
 * Parses a field selector string (the `fieldSelector` query parameter).
 *
 * Terms are `field=value`, `field==value` or `field!=value`, joined by commas (AND). In values,
 * `\,`, `\=` and `\\` stand for `,`, `=` and `\`. Empty terms are skipped, so `""` selects
 * everything. Whitespace is significant, as on a real API server.
 *
 * @throws InvalidSelectorError for a term without an operator, a bad escape, or an unescaped
 *   `,`/`=` in a value.
 * @example
 * ```ts
 * parseFieldSelector("metadata.name=web,metadata.namespace!=kube-system").requirements.length; // 2
 * ```
 */
export function parseFieldSelector(text: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const term of text === "" ? [] : splitTerms(text)) {
    if (term === "") continue;
    let split: FieldRequirement | undefined;
    for (let i = 0; i < term.length && split === undefined; i++) {
      const operator = TERM_OPERATORS.find((op) => term.startsWith(op, i));
      if (operator !== undefined) {
        split = { field: term.slice(0, i), operator, value: unescapeValue(text, term.slice(i + operator.length)) };
      }
    }
    if (split === undefined) throw new InvalidSelectorError("field", text, `invalid selector: '${text}'; can't understand '${term}'`);
    requirements.push(split);
  }
  return {
    requirements,
    isEmpty: requirements.length === 0,
    matches: (fields) =>
      requirements.every((r) => {
        const actual = Object.hasOwn(fields, r.field) ? fields[r.field]! : "";
        return r.operator === "!=" ? actual !== r.value : actual === r.value;
      }),
    toString: () => requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(","),
  };
}
