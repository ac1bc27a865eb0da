/**
 * The structural-schema rules the apiserver enforces on a CRD's `openAPIV3Schema`
 * (apiextensions' `ValidateStructural` invariants), with its field paths and messages.
 *
 * @module
 */
import { RE2JS } from "@bufbuild/re2";
import type { StatusCause } from "../status.ts";
import { forbidden, invalidValue, requiredValue } from "../status.ts";
import { isJsonObject } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";

/** Where a schema node sits: the messages for a missing `type` differ per level. */
type Level = "root" | "item" | "field";

const MISSING_TYPE: Record<Level, string> = {
  root: "must not be empty at the root",
  item: "must not be empty for specified array items",
  field: "must not be empty for specified object fields",
};

function text(node: JsonObject, key: string): string {
  const value = node[key];
  return typeof value === "string" ? value : "";
}

function flag(node: JsonObject, key: string): boolean {
  return node[key] === true;
}

/**
 * Every structural-schema violation of `schema`, sorted by their text as the apiserver sorts
 * them (`<field>: <message>`), with fields under `path` (e.g. `spec.validation.openAPIV3Schema`).
 *
 * Checked: every node has a `type` (unless `x-kubernetes-int-or-string` or
 * `x-kubernetes-embedded-resource`), the root is `type: object`, arrays have `items`, root
 * `kind`/`apiVersion` are strings, a root `metadata` schema declares at most `name` and
 * `generateName`, embedded resources are objects with properties (or preserve unknown fields)
 * and no `additionalProperties`.
 *
 * Caveats: the completeness rules for `allOf`/`anyOf`/`oneOf`/`not` and the generic OpenAPI
 * checks (`$ref`, `uniqueItems`, defaults validity…) are not implemented.
 *
 * @example
 * ```ts
 * structuralCauses({ type: "object", properties: { spec: { properties: {} } } }, "spec.validation.openAPIV3Schema");
 * // → [spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields]
 * ```
 */
export function structuralCauses(schema: JsonObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  invariants(schema, "root", path, causes);
  const keyed = causes.map((c) => ({ c, key: `${c.field ?? ""}: ${c.message ?? ""}` }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.c);
}

/**
 * The apiserver's generic checks of a CRD schema that come before the structural ones:
 * `uniqueItems: true`, `$ref`, `properties` together with `additionalProperties`, and
 * `x-kubernetes-preserve-unknown-fields: false`, in a depth-first walk.
 *
 * @example
 * ```ts
 * genericSchemaCauses({ type: "object", properties: { a: { type: "array", uniqueItems: true, items: { type: "string" } } } }, "spec.validation.openAPIV3Schema");
 * // → [spec.validation.openAPIV3Schema.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic]
 * ```
 */
export function genericSchemaCauses(schema: JsonObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  generic(schema, path, causes);
  return causes;
}

function generic(node: JsonObject, path: string, out: StatusCause[]): void {
  if (node["uniqueItems"] === true) {
    out.push(forbidden(`${path}.uniqueItems`, "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
  }
  if (typeof node["$ref"] === "string") out.push(forbidden(`${path}.$ref`, "$ref is not supported"));
  const pattern = node["pattern"];
  if (typeof pattern === "string" && pattern !== "") {
    // kube-apiserver compiles it with Go's regexp, whose syntax RE2 is (no lookaround, no backreferences).
    try {
      RE2JS.compile(pattern);
    } catch (err) {
      out.push(invalidValue(`${path}.pattern`, pattern, `must be a valid regular expression, but isn't: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
  const properties = isJsonObject(node["properties"]) ? node["properties"] : undefined;
  const additional = node["additionalProperties"];
  if (properties !== undefined && Object.keys(properties).length > 0 && additional !== undefined && additional !== false) {
    out.push(forbidden(`${path}.additionalProperties`, "additionalProperties and properties are mutual exclusive"));
  }
  if (node["x-kubernetes-preserve-unknown-fields"] === false) {
    out.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, false, "must be true or undefined"));
  }
  if (isJsonObject(additional)) generic(additional, `${path}.additionalProperties`, out);
  if (properties !== undefined) {
    for (const key of Object.keys(properties)) {
      const child = properties[key];
      if (isJsonObject(child)) generic(child, `${path}.properties[${key}]`, out);
    }
  }
  if (isJsonObject(node["items"])) generic(node["items"], `${path}.items`, out);
  for (const junctor of ["allOf", "anyOf", "oneOf"]) {
    const list = node[junctor];
    if (Array.isArray(list)) list.forEach((branch, i) => isJsonObject(branch) && generic(branch, `${path}.${junctor}[${i}]`, out));
  }
  if (isJsonObject(node["not"])) generic(node["not"], `${path}.not`, out);
}

function invariants(node: JsonObject, level: Level, path: string, out: StatusCause[]): void {
  const type = text(node, "type");
  const embedded = flag(node, "x-kubernetes-embedded-resource");
  const intOrString = flag(node, "x-kubernetes-int-or-string");
  const items = node["items"];
  if (type === "array" && !isJsonObject(items)) out.push(requiredValue(`${path}.items`, "must be specified"));
  if (isJsonObject(items)) invariants(items, "item", `${path}.items`, out);
  const properties = isJsonObject(node["properties"]) ? node["properties"] : undefined;
  if (properties !== undefined) {
    for (const key of Object.keys(properties)) {
      const child = properties[key];
      if (isJsonObject(child)) invariants(child, "field", `${path}.properties[${key}]`, out);
    }
  }
  const additional = node["additionalProperties"];
  if (isJsonObject(additional)) invariants(additional, "field", `${path}.additionalProperties`, out);

  if (embedded && type !== "object") {
    const detail = "must be object if x-kubernetes-embedded-resource is true";
    out.push(type === "" ? requiredValue(`${path}.type`, detail) : invalidValue(`${path}.type`, type, detail));
  } else if (type === "" && !intOrString) {
    out.push(requiredValue(`${path}.type`, MISSING_TYPE[level]));
  }
  if (embedded && additional !== undefined && additional !== false) {
    out.push(requiredValue(`${path}.additionalProperties`, "must not be used if x-kubernetes-embedded-resource is set"));
  }
  if (level === "root" && type !== "" && type !== "object") out.push(invalidValue(`${path}.type`, type, "must be object at the root"));
  if (level === "root" && properties !== undefined) rootMemberCauses(properties, path, out);
  if (embedded && !flag(node, "x-kubernetes-preserve-unknown-fields") && (properties === undefined || Object.keys(properties).length === 0)) {
    out.push(
      requiredValue(`${path}.properties`, "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"),
    );
  }
}

/** `kind` and `apiVersion` must be strings; `metadata` may only restrict `name`/`generateName`. */
function rootMemberCauses(properties: JsonObject, path: string, out: StatusCause[]): void {
  for (const key of ["kind", "apiVersion"]) {
    const member = properties[key];
    if (!isJsonObject(member)) continue;
    const type = text(member, "type");
    if (type !== "string") out.push(invalidValue(`${path}.properties[${key}].type`, type, "must be string"));
  }
  const metadata = properties["metadata"];
  if (isJsonObject(metadata) && !isPlainMetadataSchema(metadata)) {
    out.push(forbidden(`${path}.properties[metadata]`, "must not specify anything other than name and generateName, but metadata is implicitly specified"));
  }
}

/** A root `metadata` schema the apiserver accepts: `type: object` and at most name/generateName. */
function isPlainMetadataSchema(metadata: JsonObject): boolean {
  for (const key of Object.keys(metadata)) {
    if (key === "type" || key === "description" || key === "default") continue;
    if (key !== "properties") return false;
    const properties = metadata["properties"];
    if (!isJsonObject(properties)) return false;
    if (Object.keys(properties).some((k) => k !== "name" && k !== "generateName")) return false;
  }
  return true;
}
