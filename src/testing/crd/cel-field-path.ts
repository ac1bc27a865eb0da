/**
 * The `fieldPath` of a CEL validation rule: a JSON path (`.spec.name`, `.labels['a.b']`) from
 * the rule's node, checked against the schema and rendered as kube-apiserver renders it in the
 * error's field (`spec.name`, `labels[a.b]`).
 *
 * @module
 */
import { additionalSchema, schemaProperties } from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";

const ESCAPES: Record<string, string> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "'": "'", "\\": "\\" };

/** Splits a path into `.`, `[`, `]` and the text between them (quoted strings kept whole). */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i]!;
    if (c === "." || c === "[" || c === "]") {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== "\\")) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !".[]".includes(path[j]!)) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/**
 * Checks `fieldPath` against the rule's schema node: the normalized path (`spec.name`,
 * `labels[a.b]`) or the reason it is not valid (kube-apiserver's `ValidFieldPath`).
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { name: { type: "string" } } };
 * ruleFieldPath(".name", schema);  // → { path: "name" }
 * ruleFieldPath(".other", schema); // → { error: "does not refer to a valid field" }
 * ```
 */
export function ruleFieldPath(fieldPath: string, schema: JsonSchema): { path: string } | { error: string } {
  const parts = tokens(fieldPath);
  let node: JsonSchema | undefined = schema;
  let path = "";
  const step = (name: string): string | undefined => {
    const properties = schemaProperties(node);
    const additional = additionalSchema(node);
    if (properties !== undefined) {
      if (!Object.hasOwn(properties, name)) return "does not refer to a valid field";
      node = properties[name];
      path = path === "" ? name : `${path}.${name}`;
      return undefined;
    }
    if (additional !== undefined) {
      node = additional === true ? undefined : additional;
      path = `${path}[${name}]`;
      return undefined;
    }
    return "does not refer to a valid field";
  };
  for (let i = 0; i < parts.length; i++) {
    const tok = parts[i]!;
    if (tok === "[") {
      const quoted = parts[++i];
      if (quoted === undefined) return { error: "unexpected end of JSON path" };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      let bad: string | undefined;
      const unescaped = quoted.slice(1, -1).replace(/\\(.)/g, (m, c: string) => {
        const e = ESCAPES[c];
        if (e === undefined) bad ??= m;
        return e ?? "";
      });
      if (bad !== undefined) return { error: `invalid string literal: invalid escape char ${bad}` };
      const problem = step(unescaped);
      if (problem !== undefined) return { error: problem };
      if (parts[++i] === undefined) return { error: "unexpected end of JSON path" };
      if (parts[i] !== "]") return { error: `expected ] but got ${parts[i]}` };
    } else if (tok === ".") {
      const name = parts[++i];
      if (name === undefined) return { error: "unexpected end of JSON path" };
      const problem = step(name);
      if (problem !== undefined) return { error: problem };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path };
}

/**
 * The normalized `fieldPath` appended to a failed rule's field, or undefined when it is not a
 * valid path (the CRD write refused it already).
 *
 * @example
 * ```ts
 * normalizeRuleFieldPath(".name", { type: "object", properties: { name: { type: "string" } } }); // → "name"
 * ```
 */
export function normalizeRuleFieldPath(fieldPath: string, schema: JsonSchema): string | undefined {
  const result = ruleFieldPath(fieldPath.trim(), schema);
  return "path" in result && result.path !== "" ? result.path : undefined;
}
