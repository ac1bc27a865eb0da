/**
 * Turns a CRD's structural OpenAPI schema into the plain JSON schema json-schema-to-typescript
 * reads, spelling out what Kubernetes means by its extensions.
 */
import type { JSONSchema } from "json-schema-to-typescript";
import { isJsonObject } from "./crd-source.ts";
import type { JsonObject } from "./crd-source.ts";
import { RUNTIME } from "./runtime-import.ts";
import { commentText } from "./untrusted-text.ts";

const SCALAR_TYPES = new Set(["string", "integer", "number", "boolean"]);

/**
 * The JSON schema for one node of a structural schema (and, recursively, its children), with
 * the meaning an API server gives it:
 * - an object has exactly its `properties`: no index signature, unless it has
 *   `additionalProperties` (a map: an index signature of that type) or
 *   `x-kubernetes-preserve-unknown-fields: true` (`[k: string]: unknown`). An object with
 *   neither and no properties keeps nothing, so it is `{ [k: string]: never }`;
 * - `x-kubernetes-int-or-string: true` is `number | string`;
 * - `x-kubernetes-embedded-resource: true` adds a required `apiVersion` and `kind` and
 *   `metadata?: runtime.ObjectMeta`;
 * - a node without a type (that does not preserve fields) is any value, `unknown`;
 * - `enum` stays (a union of literals), `nullable: true` stays (`| null`), `description`
 *   stays (TSDoc, escaped by {@link commentText}: it cannot end the comment), a `default`
 *   is added to it as `@defaultValue`, and the CEL validation rules (`x-kubernetes-validations`)
 *   as `@remarks`, one line per rule: `` CEL: `<rule>` — "<message>" `` (see {@link celRemarks});
 * - other validation-only keywords (`allOf`/`anyOf`/`oneOf`/`not`, `pattern`, bounds, `format`,
 *   list and map types) and `title` (which would make a named declaration) are dropped.
 *
 * @example
 * ```ts
 * toJsonSchema({ type: "object", properties: { port: { "x-kubernetes-int-or-string": true } } });
 * // { type: "object", properties: { port: { type: ["integer", "string"] } }, additionalProperties: false }
 * ```
 */
export function toJsonSchema(node: unknown): JSONSchema {
  if (!isJsonObject(node)) return {};
  const out: JSONSchema = {};
  const description = describe(node);
  if (description !== undefined) out.description = description;
  if (node["nullable"] === true) out["nullable"] = true;
  if (Array.isArray(node["enum"])) out.enum = node["enum"];
  const type = typeof node["type"] === "string" ? node["type"] : undefined;
  if (node["x-kubernetes-int-or-string"] === true) {
    out.type = ["integer", "string"];
  } else if (type === "object" || (type === undefined && (isJsonObject(node["properties"]) || node["x-kubernetes-embedded-resource"] === true))) {
    Object.assign(out, objectSchema(node));
  } else if (type === "array") {
    out.type = "array";
    out.items = toJsonSchema(node["items"]);
  } else if (type !== undefined && SCALAR_TYPES.has(type)) {
    out.type = type as "string";
  }
  return out;
}

/** The object part of a node: properties, required, and what other keys it keeps. */
function objectSchema(node: JsonObject): JSONSchema {
  let entries = Object.entries(isJsonObject(node["properties"]) ? node["properties"] : {}).map(
    ([key, child]): [string, JSONSchema] => [key, toJsonSchema(child)],
  );
  const required = Array.isArray(node["required"]) ? node["required"].filter((k): k is string => typeof k === "string") : [];
  if (node["x-kubernetes-embedded-resource"] === true) {
    // The API server requires apiVersion and kind in an embedded object and checks its metadata as ObjectMeta.
    const given = new Map(entries);
    const meta: [string, JSONSchema][] = [
      ["apiVersion", given.get("apiVersion") ?? { type: "string" }],
      ["kind", given.get("kind") ?? { type: "string" }],
      ["metadata", { tsType: `${RUNTIME}.ObjectMeta` }],
    ];
    entries = [...meta, ...entries.filter(([key]) => !meta.some(([m]) => m === key))];
    required.push(...["apiVersion", "kind"].filter((k) => !required.includes(k)));
  }
  const additional = node["additionalProperties"];
  const keepsUnknown = node["x-kubernetes-preserve-unknown-fields"] === true || additional === true;
  if (entries.length === 0 && !keepsUnknown && !isJsonObject(additional)) {
    // Not `Record<…>`: a kind named Record would shadow it.
    return { tsType: "{ [k: string]: never }" };
  }
  const out: JSONSchema = {
    type: "object",
    // Object.fromEntries defines own properties, so a field named "__proto__" stays a field.
    properties: Object.fromEntries(entries),
    additionalProperties: isJsonObject(additional) ? toJsonSchema(additional) : keepsUnknown,
  };
  if (required.length > 0) out.required = required;
  return out;
}

/** The node's description with its default as a TSDoc `@defaultValue` and its CEL rules as `@remarks`, as comment text; undefined for none. */
function describe(node: JsonObject): string | undefined {
  const parts: string[] = [];
  if (typeof node["description"] === "string" && node["description"].trim() !== "") parts.push(node["description"].trim());
  if (node["default"] !== undefined) parts.push(`@defaultValue \`${JSON.stringify(node["default"])}\``);
  const remarks = celRemarks(node);
  if (remarks !== undefined) parts.push(remarks);
  return parts.length > 0 ? commentText(parts.join("\n\n")) : undefined;
}

/** Text on one line: runs of whitespace (line breaks included) become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** An inline code span of `text`, with a fence longer than any run of backticks in it. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * The node's CEL validation rules (`x-kubernetes-validations`) as a TSDoc `@remarks` block,
 * one line per rule: the rule as code, then its message (quoted) or message expression,
 * `(transition rule)` when it reads `oldSelf`, and its `fieldPath`/`reason` when set. Not yet
 * comment-safe: {@link describe} escapes the whole description. Undefined without rules.
 *
 * @example
 * ```ts
 * celRemarks({ type: "object", "x-kubernetes-validations": [
 *   { rule: "has(self.name) != has(self.surname)", message: "exactly one of name and surname" },
 * ] });
 * // '@remarks\nCEL: `has(self.name) != has(self.surname)` — "exactly one of name and surname"'
 * ```
 */
export function celRemarks(node: JsonObject): string | undefined {
  const rules = Array.isArray(node["x-kubernetes-validations"]) ? node["x-kubernetes-validations"].filter(isJsonObject) : [];
  const lines: string[] = [];
  for (const rule of rules) {
    if (typeof rule["rule"] !== "string" || rule["rule"].trim() === "") continue;
    const text = oneLine(rule["rule"]);
    let line = `CEL: ${codeSpan(text)}`;
    if (/\boldSelf\b/.test(text)) line += " (transition rule)";
    if (typeof rule["message"] === "string" && rule["message"].trim() !== "") line += ` — ${JSON.stringify(oneLine(rule["message"]))}`;
    else if (typeof rule["messageExpression"] === "string" && rule["messageExpression"].trim() !== "") {
      line += ` — message: ${codeSpan(oneLine(rule["messageExpression"]))}`;
    }
    const extras = [
      ...(typeof rule["fieldPath"] === "string" && rule["fieldPath"].trim() !== "" ? [`fieldPath ${codeSpan(oneLine(rule["fieldPath"]))}`] : []),
      ...(typeof rule["reason"] === "string" && rule["reason"].trim() !== "" ? [`reason ${oneLine(rule["reason"])}`] : []),
    ];
    if (extras.length > 0) line += ` (${extras.join(", ")})`;
    lines.push(line);
  }
  return lines.length > 0 ? `@remarks\n${lines.join("\n")}` : undefined;
}
