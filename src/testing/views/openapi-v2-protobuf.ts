/**
 * `/openapi/v2` as protobuf: the Swagger 2.0 document of `openapi.ts` encoded as gnostic's
 * `openapi.v2.Document`, the only form client-go's `OpenAPISchema()` reads (kubectl ≤ 1.28
 * before `apply -f`, kubectl ≤ 1.24 for client-side validation, and
 * `kubectl explain --output=plaintext-openapiv2`).
 *
 * Field numbers from gnostic's `OpenAPIv2.proto`. Every construct of kube-apiserver's document
 * is encoded: info, paths (path items, operations, body / query / path / header / form
 * parameters and `$ref`s to shared ones, responses with schemas), definitions (schemas with
 * properties, items, additionalProperties, allOf, enum, defaults and vendor extensions), shared
 * parameters, responses, security definitions and requirements, tags and vendor extensions.
 * Values without a message of their own (`default`, `enum` members, `example`, vendor
 * extensions) are `Any{yaml}`, written as JSON (a subset of YAML).
 *
 * kube-apiserver's own document is encoded once per process; custom kinds are appended as a
 * second `paths` and `definitions` field, which protobuf decoders merge into the first (an
 * embedded message seen twice is merged, its repeated fields concatenated).
 */
import type { ResourceType } from "../resource-type.ts";
import { builtinSwagger } from "../openapi/builtin-openapi.ts";
import { openApiV2Entry } from "./openapi.ts";

type Json = Record<string, unknown>;

let builtinBytes: Buffer | undefined;

/**
 * The Swagger 2.0 document for `types` (kube-apiserver's own plus the custom kinds) as a gnostic
 * `openapi.v2.Document` protobuf message. Cached while the custom types stay the same objects.
 *
 * @example
 * ```ts
 * import type { ServerResponse } from "node:http";
 * import type { Registry } from "../registry.ts";
 *
 * declare const registry: Registry, res: ServerResponse;
 * res.end(openApiV2Protobuf([...registry.all()]));
 * ```
 */
export function openApiV2Protobuf(types: ResourceType[]): Buffer {
  const entry = openApiV2Entry(types);
  if (entry.protobuf) return entry.protobuf;
  builtinBytes ??= encodeDocument(builtinSwagger() as unknown as Json);
  const { paths, definitions } = entry.part;
  const extra: Buffer[] = [];
  if (Object.keys(paths).length > 0) extra.push(sub(8, pathsMessage(paths)));
  if (Object.keys(definitions).length > 0) extra.push(sub(9, namedMap(definitions, schemaMessage)));
  entry.protobuf = extra.length === 0 ? builtinBytes : Buffer.concat([builtinBytes, ...extra]);
  return entry.protobuf;
}

/**
 * A whole Swagger 2.0 document as gnostic's `openapi.v2.Document`.
 *
 * @example
 * ```ts
 * encodeDocument({ swagger: "2.0", info: { title: "Kubernetes", version: "1.36" }, paths: {} });
 * ```
 */
export function encodeDocument(doc: Json): Buffer {
  const fields: Buffer[] = [str(1, text(doc["swagger"]))];
  if (isObject(doc["info"])) fields.push(sub(2, infoMessage(doc["info"])));
  fields.push(str(3, text(doc["host"])), str(4, text(doc["basePath"])));
  for (const [n, key] of [[5, "schemes"], [6, "consumes"], [7, "produces"]] as const) fields.push(...strings(doc[key]).map((v) => str(n, v)));
  if (isObject(doc["paths"])) fields.push(sub(8, pathsMessage(doc["paths"])));
  if (isObject(doc["definitions"])) fields.push(sub(9, namedMap(doc["definitions"], schemaMessage)));
  if (isObject(doc["parameters"])) fields.push(sub(10, namedMap(doc["parameters"], parameterMessage)));
  if (isObject(doc["responses"])) fields.push(sub(11, namedMap(doc["responses"], responseMessage)));
  if (Array.isArray(doc["security"])) for (const r of doc["security"]) if (isObject(r)) fields.push(sub(12, securityRequirement(r)));
  if (isObject(doc["securityDefinitions"])) fields.push(sub(13, namedMap(doc["securityDefinitions"], securityDefinition)));
  if (Array.isArray(doc["tags"])) for (const t of doc["tags"]) if (isObject(t)) fields.push(sub(14, tagMessage(t)));
  if (isObject(doc["externalDocs"])) fields.push(sub(15, externalDocs(doc["externalDocs"])));
  fields.push(...extensions(doc, 16));
  return message(fields);
}

function infoMessage(info: Json): Buffer {
  const fields = [str(1, text(info["title"])), str(2, text(info["version"])), str(3, text(info["description"])), str(4, text(info["termsOfService"]))];
  if (isObject(info["contact"])) {
    const c = info["contact"];
    fields.push(sub(5, message([str(1, text(c["name"])), str(2, text(c["url"])), str(3, text(c["email"])), ...extensions(c, 4)])));
  }
  if (isObject(info["license"])) {
    const l = info["license"];
    fields.push(sub(6, message([str(1, text(l["name"])), str(2, text(l["url"])), ...extensions(l, 3)])));
  }
  fields.push(...extensions(info, 7));
  return message(fields);
}

/** `Paths{vendor_extension = 1, repeated NamedPathItem path = 2}`. */
function pathsMessage(paths: Json): Buffer {
  const fields: Buffer[] = [...extensions(paths, 1)];
  for (const [name, item] of Object.entries(paths)) {
    if (name.startsWith("x-") || !isObject(item)) continue;
    fields.push(sub(2, message([str(1, name), sub(2, pathItem(item))])));
  }
  return message(fields);
}

const OPERATION_FIELDS: Readonly<Record<string, number>> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(item: Json): Buffer {
  const fields: Buffer[] = [str(1, text(item["$ref"]))];
  for (const [method, n] of Object.entries(OPERATION_FIELDS)) {
    const op = item[method];
    if (isObject(op)) fields.push(sub(n, operationMessage(op)));
  }
  if (Array.isArray(item["parameters"])) for (const p of item["parameters"]) if (isObject(p)) fields.push(sub(9, parametersItem(p)));
  fields.push(...extensions(item, 10));
  return message(fields);
}

function operationMessage(op: Json): Buffer {
  const fields: Buffer[] = [
    ...strings(op["tags"]).map((t) => str(1, t)),
    str(2, text(op["summary"])),
    str(3, text(op["description"])),
  ];
  if (isObject(op["externalDocs"])) fields.push(sub(4, externalDocs(op["externalDocs"])));
  fields.push(str(5, text(op["operationId"])));
  fields.push(...strings(op["produces"]).map((m) => str(6, m)), ...strings(op["consumes"]).map((m) => str(7, m)));
  if (Array.isArray(op["parameters"])) for (const p of op["parameters"]) if (isObject(p)) fields.push(sub(8, parametersItem(p)));
  if (isObject(op["responses"])) fields.push(sub(9, responsesMessage(op["responses"])));
  fields.push(...strings(op["schemes"]).map((m) => str(10, m)), bool(11, op["deprecated"]));
  if (Array.isArray(op["security"])) for (const r of op["security"]) if (isObject(r)) fields.push(sub(12, securityRequirement(r)));
  fields.push(...extensions(op, 13));
  return message(fields);
}

/** `ParametersItem{oneof {Parameter parameter = 1; JsonReference json_reference = 2}}`. */
function parametersItem(p: Json): Buffer {
  if (typeof p["$ref"] === "string") return sub(2, jsonReference(p));
  return sub(1, parameterMessage(p));
}

function jsonReference(r: Json): Buffer {
  return message([str(1, text(r["$ref"])), str(2, text(r["description"]))]);
}

/** `Parameter{oneof {BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2}}`. */
function parameterMessage(p: Json): Buffer {
  if (p["in"] === "body") {
    const fields = [str(1, text(p["description"])), str(2, text(p["name"])), str(3, text(p["in"])), bool(4, p["required"])];
    if (isObject(p["schema"])) fields.push(sub(5, schemaMessage(p["schema"])));
    fields.push(...extensions(p, 6));
    return sub(1, message(fields));
  }
  // NonBodyParameter{header = 1, formData = 2, query = 3, path = 4}; query and formData share a
  // layout (with allow_empty_value = 5), header and path another.
  const where = p["in"];
  const withEmpty = where === "query" || where === "formData";
  const which = where === "header" ? 1 : where === "formData" ? 2 : where === "path" ? 4 : 3;
  const base = withEmpty ? 6 : 5;
  const fields: Buffer[] = [bool(1, p["required"]), str(2, text(where)), str(3, text(p["description"])), str(4, text(p["name"]))];
  if (withEmpty) fields.push(bool(5, p["allowEmptyValue"]));
  fields.push(...primitiveFields(p, base));
  return sub(2, sub(which, message(fields)));
}

/**
 * The fields parameters, headers and primitive items share, numbered from `base`: type, format,
 * items, collectionFormat, default, maximum, exclusiveMaximum, minimum, exclusiveMinimum,
 * maxLength, minLength, pattern, maxItems, minItems, uniqueItems, enum, multipleOf, then (unless
 * `withExtensions` is false) vendor extensions.
 */
function primitiveFields(p: Json, base: number, withExtensions = true): Buffer[] {
  const fields: Buffer[] = [str(base, text(p["type"])), str(base + 1, text(p["format"]))];
  if (isObject(p["items"])) fields.push(sub(base + 2, primitivesItems(p["items"])));
  fields.push(str(base + 3, text(p["collectionFormat"])));
  if (p["default"] !== undefined) fields.push(sub(base + 4, anyMessage(p["default"])));
  fields.push(
    double(base + 5, p["maximum"]), bool(base + 6, p["exclusiveMaximum"]), double(base + 7, p["minimum"]), bool(base + 8, p["exclusiveMinimum"]),
    int(base + 9, p["maxLength"]), int(base + 10, p["minLength"]), str(base + 11, text(p["pattern"])),
    int(base + 12, p["maxItems"]), int(base + 13, p["minItems"]), bool(base + 14, p["uniqueItems"]),
  );
  if (Array.isArray(p["enum"])) for (const e of p["enum"]) fields.push(sub(base + 15, anyMessage(e)));
  fields.push(double(base + 16, p["multipleOf"]));
  if (withExtensions) fields.push(...extensions(p, base + 17));
  return fields;
}

function primitivesItems(p: Json): Buffer {
  return message(primitiveFields(p, 1));
}

/** `Responses{repeated NamedResponseValue response_code = 1; vendor_extension = 2}`. */
function responsesMessage(responses: Json): Buffer {
  const fields: Buffer[] = [];
  for (const [code, r] of Object.entries(responses)) {
    if (code.startsWith("x-") || !isObject(r)) continue;
    // ResponseValue{oneof {Response response = 1; JsonReference json_reference = 2}}
    const value = typeof r["$ref"] === "string" ? sub(2, jsonReference(r)) : sub(1, responseMessage(r));
    fields.push(sub(1, message([str(1, code), sub(2, value)])));
  }
  fields.push(...extensions(responses, 2));
  return message(fields);
}

function responseMessage(r: Json): Buffer {
  const fields: Buffer[] = [str(1, text(r["description"]))];
  // SchemaItem{oneof {Schema schema = 1; FileSchema file_schema = 2}}
  if (isObject(r["schema"])) fields.push(sub(2, sub(1, schemaMessage(r["schema"]))));
  if (isObject(r["headers"])) {
    // Header: the primitive fields from 1, then description = 18 and vendor extensions = 19.
    fields.push(sub(3, namedMap(r["headers"], (h) => message([...primitiveFields(h, 1, false), str(18, text(h["description"])), ...extensions(h, 19)]))));
  }
  if (isObject(r["examples"])) fields.push(sub(4, namedMap(r["examples"], anyMessage, true)));
  fields.push(...extensions(r, 5));
  return message(fields);
}

function securityRequirement(r: Json): Buffer {
  return namedMap(r, (v) => message(strings(v).map((s) => str(1, s))), true);
}

/** `SecurityDefinitionsItem`: basic (1), apiKey (2), or one of the OAuth2 flows (3–6). */
function securityDefinition(d: Json): Buffer {
  const type = text(d["type"]);
  if (type === "basic") return sub(1, message([str(1, type), str(2, text(d["description"])), ...extensions(d, 3)]));
  if (type === "apiKey") {
    return sub(2, message([str(1, type), str(2, text(d["name"])), str(3, text(d["in"])), str(4, text(d["description"])), ...extensions(d, 5)]));
  }
  const scopes = isObject(d["scopes"]) ? sub(3, namedMap(d["scopes"], (v) => Buffer.from(text(v), "utf8"), true, true)) : Buffer.alloc(0);
  const flow = text(d["flow"]);
  const head = [str(1, type), str(2, flow), scopes];
  switch (flow) {
    case "implicit":
      return sub(3, message([...head, str(4, text(d["authorizationUrl"])), str(5, text(d["description"])), ...extensions(d, 6)]));
    case "password":
      return sub(4, message([...head, str(4, text(d["tokenUrl"])), str(5, text(d["description"])), ...extensions(d, 6)]));
    case "application":
      return sub(5, message([...head, str(4, text(d["tokenUrl"])), str(5, text(d["description"])), ...extensions(d, 6)]));
    default:
      return sub(6, message([...head, str(4, text(d["authorizationUrl"])), str(5, text(d["tokenUrl"])), str(6, text(d["description"])), ...extensions(d, 7)]));
  }
}

function tagMessage(t: Json): Buffer {
  const fields = [str(1, text(t["name"])), str(2, text(t["description"]))];
  if (isObject(t["externalDocs"])) fields.push(sub(3, externalDocs(t["externalDocs"])));
  fields.push(...extensions(t, 4));
  return message(fields);
}

function externalDocs(d: Json): Buffer {
  return message([str(1, text(d["description"])), str(2, text(d["url"])), ...extensions(d, 3)]);
}

/** gnostic's `Schema`. */
function schemaMessage(s: Json): Buffer {
  const fields: Buffer[] = [str(1, text(s["$ref"])), str(2, text(s["format"])), str(3, text(s["title"])), str(4, text(s["description"]))];
  if (s["default"] !== undefined) fields.push(sub(5, anyMessage(s["default"])));
  fields.push(
    double(6, s["multipleOf"]), double(7, s["maximum"]), bool(8, s["exclusiveMaximum"]), double(9, s["minimum"]), bool(10, s["exclusiveMinimum"]),
    int(11, s["maxLength"]), int(12, s["minLength"]), str(13, text(s["pattern"])), int(14, s["maxItems"]), int(15, s["minItems"]),
    bool(16, s["uniqueItems"]), int(17, s["maxProperties"]), int(18, s["minProperties"]),
  );
  fields.push(...strings(s["required"]).map((r) => str(19, r)));
  if (Array.isArray(s["enum"])) for (const e of s["enum"]) fields.push(sub(20, anyMessage(e)));
  const additional = s["additionalProperties"];
  // AdditionalPropertiesItem{oneof {Schema schema = 1; bool boolean = 2}}: a false boolean is still written.
  if (isObject(additional)) fields.push(sub(21, sub(1, schemaMessage(additional))));
  else if (typeof additional === "boolean") fields.push(sub(21, Buffer.concat([varint(2 << 3), varint(additional ? 1 : 0)])));
  // TypeItem{repeated string value = 1}
  const type = s["type"];
  if (typeof type === "string" || Array.isArray(type)) fields.push(sub(22, message((Array.isArray(type) ? strings(type) : [type]).map((t) => str(1, t)))));
  // ItemsItem{repeated Schema schema = 1}
  const items = s["items"];
  if (isObject(items)) fields.push(sub(23, sub(1, schemaMessage(items))));
  else if (Array.isArray(items)) fields.push(sub(23, message(items.filter(isObject).map((i) => sub(1, schemaMessage(i))))));
  if (Array.isArray(s["allOf"])) for (const a of s["allOf"]) if (isObject(a)) fields.push(sub(24, schemaMessage(a)));
  if (isObject(s["properties"])) fields.push(sub(25, namedMap(s["properties"], schemaMessage)));
  fields.push(str(26, text(s["discriminator"])), bool(27, s["readOnly"]));
  if (isObject(s["xml"])) {
    const x = s["xml"];
    fields.push(sub(28, message([str(1, text(x["name"])), str(2, text(x["namespace"])), str(3, text(x["prefix"])), bool(4, x["attribute"]), bool(5, x["wrapped"]), ...extensions(x, 6)])));
  }
  if (isObject(s["externalDocs"])) fields.push(sub(29, externalDocs(s["externalDocs"])));
  if (s["example"] !== undefined) fields.push(sub(30, anyMessage(s["example"])));
  fields.push(...extensions(s, 31));
  return message(fields);
}

/**
 * A JSON object as gnostic's `repeated Named…{name = 1, value = 2} additional_properties = 1`.
 * `all` keeps `x-` keys (they are names there, not vendor extensions); `raw` writes the value's
 * bytes as given (a string value) instead of as a message.
 */
function namedMap(obj: Json, encode: (v: Json) => Buffer, all = false, raw = false): Buffer {
  const fields: Buffer[] = [];
  for (const [name, value] of Object.entries(obj)) {
    if (!all && name.startsWith("x-")) continue;
    if (!raw && encode !== anyMessage && !isObject(value) && !Array.isArray(value)) continue;
    const body = encode(value as Json);
    fields.push(sub(1, message([str(1, name), raw ? (body.length ? sub(2, body) : Buffer.alloc(0)) : sub(2, body)])));
  }
  return message(fields);
}

/** Vendor extensions (`x-…` keys) as `repeated NamedAny` at field `n`. */
function extensions(obj: Json, n: number): Buffer[] {
  const out: Buffer[] = [];
  for (const [key, value] of Object.entries(obj)) if (key.startsWith("x-")) out.push(sub(n, message([str(1, key), sub(2, anyMessage(value))])));
  return out;
}

/** gnostic's `Any{yaml = 2}`. */
function anyMessage(value: unknown): Buffer {
  return str(2, `${JSON.stringify(value)}\n`);
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function message(fields: Buffer[]): Buffer {
  return Buffer.concat(fields);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

const EMPTY = Buffer.alloc(0);

function bool(field: number, value: unknown): Buffer {
  return value === true ? Buffer.concat([varint(field << 3), varint(1)]) : EMPTY;
}

function int(field: number, value: unknown): Buffer {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? Buffer.concat([varint(field << 3), varint(value)]) : EMPTY;
}

function double(field: number, value: unknown): Buffer {
  if (typeof value !== "number" || value === 0) return EMPTY;
  const body = Buffer.alloc(8);
  body.writeDoubleLE(value);
  return Buffer.concat([varint((field << 3) | 1), body]);
}

function sub(field: number, body: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
}

function str(field: number, s: string): Buffer {
  return s === "" ? EMPTY : sub(field, Buffer.from(s, "utf8"));
}
