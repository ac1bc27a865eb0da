/**
 * `/openapi/v2` as protobuf: {@link openApiV2} encoded as gnostic's `openapi.v2.Document`, the
 * only form client-go's `OpenAPISchema()` reads (kubectl ≤ 1.28 before `apply -f`, kubectl ≤
 * 1.24 for client-side validation, and `kubectl explain --output=plaintext-openapiv2`).
 * Field numbers from gnostic's `OpenAPIv2.proto`; values without a message of their own
 * (vendor extensions, `enum` members) are `Any{yaml}`, written as JSON (a subset of YAML).
 */
import type { ResourceType } from "../resource-type.ts";
import type { OpenApiSchema } from "./openapi-meta.ts";
import { openApiV2 } from "./openapi.ts";
import type { V2Operation } from "./openapi.ts";

/**
 * {@link openApiV2} as a gnostic `openapi.v2.Document` protobuf message.
 *
 * @example
 * res.end(openApiV2Protobuf([...registry.all()]));
 */
export function openApiV2Protobuf(types: ResourceType[]): Buffer {
  const doc = openApiV2(types);
  const pathItems = Object.entries(doc.paths).map(([name, item]) =>
    message([str(1, name), sub(2, message([sub(8, operationMessage(item.patch))]))]));
  return message([
    str(1, doc.swagger),
    sub(2, message([str(1, doc.info.title!), str(2, doc.info.version!)])),
    sub(8, message(pathItems.map((p) => sub(2, p)))),
    // Definitions{repeated NamedSchema additional_properties = 1}
    ...(doc.definitions ? [sub(9, namedSchemas(doc.definitions))] : []),
  ]);
}

/** `repeated NamedSchema{name = 1, value = 2}` as field 1 of the enclosing message. */
function namedSchemas(schemas: Record<string, unknown>): Buffer {
  return message(Object.entries(schemas).filter(([, s]) => isObject(s)).map(([name, s]) =>
    sub(1, message([str(1, name), sub(2, schemaMessage(s as OpenApiSchema))]))));
}

/** gnostic's `Schema` message; keys it has no field for (and `default`, never published in v2) are left out. */
function schemaMessage(s: OpenApiSchema): Buffer {
  const fields: Buffer[] = [];
  const text = (n: number, key: string) => typeof s[key] === "string" && fields.push(str(n, s[key]));
  const double = (n: number, key: string) => typeof s[key] === "number" && fields.push(doubleField(n, s[key]));
  const int = (n: number, key: string) => typeof s[key] === "number" && Number.isInteger(s[key]) && s[key] >= 0 && fields.push(varintField(n, s[key]));
  const bool = (n: number, key: string) => s[key] === true && fields.push(varintField(n, 1));
  text(1, "$ref");
  text(2, "format");
  text(3, "title");
  text(4, "description");
  double(6, "multipleOf");
  double(7, "maximum");
  bool(8, "exclusiveMaximum");
  double(9, "minimum");
  bool(10, "exclusiveMinimum");
  int(11, "maxLength");
  int(12, "minLength");
  text(13, "pattern");
  int(14, "maxItems");
  int(15, "minItems");
  bool(16, "uniqueItems");
  int(17, "maxProperties");
  int(18, "minProperties");
  if (Array.isArray(s["required"])) for (const r of s["required"]) if (typeof r === "string") fields.push(str(19, r));
  if (Array.isArray(s["enum"])) for (const e of s["enum"]) fields.push(sub(20, anyMessage(e)));
  const additional = s["additionalProperties"];
  // AdditionalPropertiesItem{oneof {Schema schema = 1; bool boolean = 2}}: a false boolean is still written.
  if (isObject(additional)) fields.push(sub(21, sub(1, schemaMessage(additional))));
  else if (typeof additional === "boolean") fields.push(sub(21, Buffer.concat([varint(2 << 3), varint(additional ? 1 : 0)])));
  if (typeof s["type"] === "string") fields.push(sub(22, str(1, s["type"])));
  if (isObject(s["items"])) fields.push(sub(23, sub(1, schemaMessage(s["items"]))));
  if (Array.isArray(s["allOf"])) for (const a of s["allOf"]) if (isObject(a)) fields.push(sub(24, schemaMessage(a)));
  if (isObject(s["properties"])) fields.push(sub(25, namedSchemas(s["properties"])));
  for (const [key, value] of Object.entries(s)) {
    if (key.startsWith("x-")) fields.push(sub(31, message([str(1, key), sub(2, anyMessage(value))])));
  }
  return message(fields);
}

/** gnostic's `Any{yaml = 2}`. */
function anyMessage(value: unknown): Buffer {
  return str(2, `${JSON.stringify(value)}\n`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function operationMessage(op: V2Operation): Buffer {
  const gvk = op["x-kubernetes-group-version-kind"];
  const params = op.parameters.map((p) =>
    // ParametersItem.parameter(1) → Parameter.non_body_parameter(2) → query_parameter_sub_schema(3)
    sub(8, message([sub(1, message([sub(2, message([sub(3, message([
      str(2, p.in), str(4, p.name), str(6, p.type), varintField(20, p.uniqueItems ? 1 : 0),
    ]))]))]))])));
  const responses = Object.entries(op.responses).map(([code, r]) =>
    // NamedResponseValue{name, ResponseValue.response(1){description}}
    sub(1, message([str(1, code), sub(2, message([sub(1, message([str(1, r.description)]))]))])));
  const extension = (name: string, yaml: string) => sub(13, message([str(1, name), sub(2, message([str(2, yaml)]))]));
  return message([
    str(3, op.description),
    str(5, op.operationId),
    ...op.produces.map((m) => str(6, m)),
    ...op.consumes.map((m) => str(7, m)),
    ...params,
    sub(9, message(responses)),
    extension("x-kubernetes-action", `${op["x-kubernetes-action"]}\n`),
    extension("x-kubernetes-group-version-kind", `group: ${JSON.stringify(gvk.group)}\nkind: ${gvk.kind}\nversion: ${gvk.version}\n`),
  ]);
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

function varintField(field: number, value: number): Buffer {
  return value === 0 ? Buffer.alloc(0) : Buffer.concat([varint(field << 3), varint(value)]);
}

function doubleField(field: number, value: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeDoubleLE(value);
  return Buffer.concat([varint((field << 3) | 1), body]);
}

function sub(field: number, body: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
}

function str(field: number, s: string): Buffer {
  return s === "" ? Buffer.alloc(0) : sub(field, Buffer.from(s, "utf8"));
}
