/**
 * Parses and matches Kubernetes field selectors (`?fieldSelector=`), and knows which fields each
 * resource can be selected by.
 *
 * Bad syntax and unsupported fields throw a 400 {@link StatusError} worded like the apiserver's.
 *
 * @module
 */
import { badRequest } from "../status.ts";

/** A field requirement's operator; `=` and `==` mean the same. */
export type FieldOperator = "=" | "==" | "!=";

/** One comma-separated term of a field selector; `value` is unescaped. */
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

/** The resource a field selector is applied to, as {@link fieldSelectorFor} needs it. */
export interface FieldSelectableResource {
  /** API group, `""` for core. */
  group: string;
  /** Lower-case plural, e.g. `pods`. */
  plural: string;
  /** False for custom resources (changes the unsupported-field message). */
  builtin: boolean;
}

/**
 * Escapes `\`, `,` and `=` in a value so it can be put in a field selector.
 * @example `escapeFieldValue("a,b") // "a\\,b"`
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

function unescapeValue(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\") {
      const escaped = value[i + 1];
      if (escaped !== "\\" && escaped !== "," && escaped !== "=") {
        throw badRequest(`invalid field selector: invalid escape sequence: \\${escaped ?? ""}`);
      }
      out += escaped;
      i++;
    } else if (c === "," || c === "=") {
      throw badRequest(`invalid field selector: unescaped character in value: ${c}`);
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
 * @throws StatusError 400 BadRequest for a term without an operator, a bad escape, or an
 *   unescaped `,`/`=` in a value.
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
        split = { field: term.slice(0, i), operator, value: unescapeValue(term.slice(i + operator.length)) };
      }
    }
    if (split === undefined) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
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

/** Where a selectable field lives in the stored object. */
type FieldPaths = Readonly<Record<string, readonly string[]>>;

const pathsOf = (...fields: string[]): FieldPaths =>
  Object.fromEntries(fields.map((f) => [f, f.split(".")]));

const COMMON = pathsOf("metadata.name", "metadata.namespace");

const EVENT_FIELDS: FieldPaths = {
  ...COMMON,
  ...pathsOf(
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "type",
  ),
  // Stored events are core/v1-shaped for both API groups; `source` means the component.
  source: ["source", "component"],
};

/** Extra selectable fields by `group/plural` (core group = empty group). */
const FIELDS_BY_RESOURCE: Readonly<Record<string, FieldPaths>> = {
  "/pods": {
    ...COMMON,
    ...pathsOf(
      "spec.nodeName",
      "spec.restartPolicy",
      "spec.schedulerName",
      "spec.serviceAccountName",
      "status.phase",
      "status.podIP",
      "status.nominatedNodeName",
    ),
  },
  "/events": EVENT_FIELDS,
  "events.k8s.io/events": EVENT_FIELDS,
  "/secrets": { ...COMMON, ...pathsOf("type") },
  "/namespaces": { ...COMMON, ...pathsOf("status.phase") },
};

/** The value at `path` as the apiserver's field set would hold it; missing or non-scalar → `""`. */
function valueAt(obj: Record<string, unknown>, path: readonly string[]): string {
  let current: unknown = obj;
  for (const key of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return "";
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === "string" || typeof current === "number" || typeof current === "boolean"
    ? String(current)
    : "";
}

/**
 * The field names a resource can be selected by: `metadata.name` and `metadata.namespace` for
 * every resource, plus the extra fields of core pods, events (both groups), secrets and
 * namespaces.
 * @example `selectableFields({ group: "", plural: "secrets", builtin: true }) // [..., "type"]`
 */
export function selectableFields(resource: FieldSelectableResource): string[] {
  return Object.keys(FIELDS_BY_RESOURCE[`${resource.group}/${resource.plural}`] ?? COMMON);
}

/**
 * Parses `text` for `resource`, checks that every field is selectable there, and returns a
 * predicate over stored objects.
 *
 * Guarantees: fields are read from the stored (core/v1-shaped, for events) object; a missing
 * value compares as `""`, so `spec.nodeName=` selects unscheduled pods.
 *
 * Caveats: CRD `selectableFields` are not supported; custom resources allow only the metadata
 * fields.
 *
 * @throws StatusError 400 BadRequest for bad syntax, or an unsupported field:
 *   `"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"` for
 *   built-in resources, `field label not supported: spec.x` for custom resources.
 * @example
 * ```ts
 * const match = fieldSelectorFor({ group: "", plural: "pods", builtin: true }, "status.phase=Running");
 * match({ metadata: { name: "p" }, status: { phase: "Running" } }); // true
 * ```
 */
export function fieldSelectorFor(
  resource: FieldSelectableResource,
  text: string,
): (obj: Record<string, unknown>) => boolean {
  const selector = parseFieldSelector(text);
  if (selector.isEmpty) return () => true;
  const known = FIELDS_BY_RESOURCE[`${resource.group}/${resource.plural}`] ?? COMMON;
  for (const { field } of selector.requirements) {
    if (Object.hasOwn(known, field)) continue;
    throw badRequest(
      resource.builtin
        ? `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`
        : `field label not supported: ${field}`,
    );
  }
  const used = [...new Set(selector.requirements.map((r) => r.field))];
  return (obj) => selector.matches(Object.fromEntries(used.map((f) => [f, valueAt(obj, known[f]!)])));
}
