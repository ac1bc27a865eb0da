/**
 * Checks a CRD's OpenAPI schema before `gen types` reads it: a CRD is untrusted data, so
 * nothing in it may make generation read a file, fetch a URL, loop or run out of stack.
 */
import { quoted } from "./untrusted-text.ts";

/**
 * How deep a schema may nest, counted in JSON levels (a field's schema is two levels below its
 * object's: `properties`, then the name). Real CRDs stay under 40; YAML aliases could
 * otherwise nest without bound.
 */
export const MAX_SCHEMA_DEPTH = 256;

/**
 * How many JSON values a schema may hold, each alias counted every time it is used. The API
 * server stores at most about 1.5 MiB per CRD, far fewer values; YAML aliases that point at
 * aliases ("billion laughs") would otherwise expand beyond any memory.
 */
export const MAX_SCHEMA_VALUES = 2_000_000;

/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "dependencies"]);

/** Keywords whose value is a schema. */
const SCHEMA_KEYWORDS = new Set(["additionalProperties", "additionalItems", "not", "items"]);

/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "items"]);

/** What a value is, where the walk meets it: a schema, or plain data (an enum's values, a default). */
type Position = "schema" | "data";

/**
 * A key appended to a JSON path: `.name` for plain keys (letters, digits, `_`, `$`, `-`, not
 * starting with a digit or `-`), `["a.b"]` for any other.
 */
const pathKey = (key: string): string => (/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${quoted(key)}]`);

/** Thrown inside the walk with the problem; `schemaProblem` returns its text. */
class Refused {
  readonly problem: string;
  constructor(problem: string) {
    this.problem = problem;
  }
}

/**
 * The first problem of a CRD version's `openAPIV3Schema` that `gen types` refuses, as
 * `<path>: <problem>; <fix>` with `path` extended to the culprit; undefined when there is none.
 * Refused:
 * - a `$ref` key anywhere: the API server forbids references in a CRD schema, and a `$ref`
 *   handed on would make the type generator read the file or fetch the URL it names. A
 *   field *named* `$ref` (a key of `properties`) is a name, not a reference, and stays;
 * - a schema that contains itself (a YAML alias inside its own anchor);
 * - nesting deeper than {@link MAX_SCHEMA_DEPTH} levels or more than
 *   {@link MAX_SCHEMA_VALUES} values (YAML aliases multiply both).
 *
 * @example
 * ```ts
 * schemaProblem({ type: "object", properties: { mode: { enum: [{ $ref: "/etc/passwd" }] } } }, "spec.versions[0].schema.openAPIV3Schema");
 * // "spec.versions[0].schema.openAPIV3Schema.properties.mode.enum[0]: $ref is not allowed in a CRD schema, not even in a value (gen types never follows references); remove it"
 * ```
 */
export function schemaProblem(root: unknown, path: string): string | undefined {
  const ancestors = new Set<object>();
  let values = 0;

  const walk = (value: unknown, at: string, depth: number, position: Position): void => {
    values += 1;
    if (values > MAX_SCHEMA_VALUES) {
      throw new Refused(`${path}: the schema holds more than ${MAX_SCHEMA_VALUES} values (counting each use of a YAML alias); write it out without aliases`);
    }
    if (typeof value !== "object" || value === null) return;
    if (depth > MAX_SCHEMA_DEPTH) throw new Refused(`${at}: the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels; flatten it`);
    if (ancestors.has(value)) {
      throw new Refused(`${at}: the schema contains itself (a YAML alias inside its own anchor); Kubernetes schemas cannot be recursive, so write the nested part out`);
    }
    ancestors.add(value);
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${at}[${i}]`, depth + 1, position));
    } else {
      const entries = Object.entries(value);
      if (Object.hasOwn(value, "$ref")) {
        throw new Refused(
          position === "schema"
            ? `${at}: $ref is not allowed in a CRD schema (Kubernetes forbids it); remove it`
            : `${at}: $ref is not allowed in a CRD schema, not even in a value (gen types never follows references); remove it`,
        );
      }
      for (const [key, child] of entries) {
        const childAt = `${at}${pathKey(key)}`;
        if (position === "data") walk(child, childAt, depth + 1, "data");
        else if (SCHEMA_MAPS.has(key) && typeof child === "object" && child !== null && !Array.isArray(child)) {
          values += 1;
          // The keys here are names: a field may be called "$ref".
          for (const [name, schema] of Object.entries(child)) walk(schema, `${childAt}${pathKey(name)}`, depth + 2, "schema");
        } else if (SCHEMA_LISTS.has(key) && Array.isArray(child)) walk(child, childAt, depth + 1, "schema");
        else if (SCHEMA_KEYWORDS.has(key) && typeof child === "object" && child !== null) walk(child, childAt, depth + 1, "schema");
        else walk(child, childAt, depth + 1, "data");
      }
    }
    ancestors.delete(value);
  };

  try {
    walk(root, path, 0, "schema");
    return undefined;
  } catch (err) {
    if (err instanceof Refused) return err.problem;
    throw err;
  }
}
