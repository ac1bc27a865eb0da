/**
 * Publishes a CRD version's `openAPIV3Schema` as kube-apiserver's CRD OpenAPI builder does:
 * the kind's schema (`com.example.v1.Widget`) and its list's (`com.example.v1.WidgetList`), in
 * the OpenAPI v3 form (`/openapi/v3/apis/<group>/<version>`) or the Swagger 2.0 form
 * (`/openapi/v2`).
 *
 * Expected flow, per kind:
 * 1. Keep the structural part of the schema (types, descriptions, defaults, value validations,
 *    `x-kubernetes-*` extensions); drop anything else.
 * 2. Unfold: `x-kubernetes-int-or-string` gains `anyOf: [{type: integer}, {type: string}]`;
 *    an `x-kubernetes-embedded-resource` object gains `apiVersion`, `kind` and `metadata`
 *    (a reference to ObjectMeta), with `apiVersion` and `kind` required.
 * 3. v2 only: drop what Swagger 2.0 (and kubectl's v2 model parser) cannot express — `allOf`,
 *    `anyOf`, `oneOf`, `not`; a `nullable` node loses its type, properties and items (and is no
 *    longer required by its parent); a node preserving unknown fields loses its properties and
 *    items, and an object one its type; an array without items loses its type; `default`s
 *    are removed. A root that preserves unknown fields publishes as a bare `{type: object}`.
 * 4. The root gets `apiVersion`, `kind`, `metadata` (ObjectMeta) and the
 *    `x-kubernetes-group-version-kind` extension.
 */
import type { ResourceType } from "../resource-type.ts";
import {
  API_VERSION_PROPERTY,
  KIND_PROPERTY,
  LIST_META,
  LIST_METADATA_DESCRIPTION,
  OBJECT_META,
  OBJECT_METADATA_DESCRIPTION,
  refProperty,
  refTo,
} from "./openapi-meta.ts";
import type { OpenApiForm, OpenApiSchema } from "./openapi-meta.ts";
import { getMember, setMember } from "../json-value.ts";

/** Keys of a structural schema node whose values are copied as they are. */
const PLAIN_KEYS = new Set([
  "type", "format", "title", "description", "default", "nullable", "enum",
  "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "multipleOf",
  "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
  "maxProperties", "minProperties", "required",
  "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string",
  "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type", "x-kubernetes-validations",
]);
const JUNCTORS = ["allOf", "anyOf", "oneOf"] as const;

/**
 * The OpenAPI definition name of a custom kind: the group's DNS labels reversed, then version
 * and kind, e.g. `com.example.v1.Widget` for `example.com/v1, Kind=Widget`.
 *
 * @example
 * ```ts
 * crdDefinitionName("datainfra.io", "v1beta1", "Pinot"); // → "io.datainfra.v1beta1.Pinot"
 * ```
 */
export function crdDefinitionName(group: string, version: string, kind: string): string {
  return [...group.split(".").reverse(), version, kind].join(".");
}

/**
 * The kind and list schemas of a CRD-served type, by definition name, in the given form.
 * `undefined` for built-in types (their schemas come from kube-apiserver's vendored documents,
 * see `openapi.ts`).
 *
 * @example
 * ```ts
 * import type { ResourceType } from "../resource-type.ts";
 *
 * declare const widgetType: ResourceType; // the CRD's com.example/v1 Widget
 * const schemas = crdSchemas(widgetType, "v3");
 * schemas?.["com.example.v1.Widget"]?.["x-kubernetes-group-version-kind"];
 * // → [{ group: "example.com", version: "v1", kind: "Widget" }]
 * ```
 */
export function crdSchemas(t: ResourceType, form: OpenApiForm): Record<string, OpenApiSchema> | undefined {
  if (t.builtin) return undefined;
  const name = crdDefinitionName(t.group, t.version, t.kind);
  const listKind = t.listKind ?? `${t.kind}List`;
  return {
    [name]: kindSchema(t, form),
    [crdDefinitionName(t.group, t.version, listKind)]: {
      description: `${listKind} is a list of ${t.kind}`,
      required: ["items"],
      properties: {
        apiVersion: API_VERSION_PROPERTY,
        items: {
          type: "array",
          items: { $ref: refTo(name, form) },
          description: `List of ${t.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        },
        kind: KIND_PROPERTY,
        metadata: refProperty(LIST_META, LIST_METADATA_DESCRIPTION, form),
      },
      type: "object",
      "x-kubernetes-group-version-kind": [{ group: t.group, kind: listKind, version: t.version }],
    },
  };
}

function kindSchema(t: ResourceType, form: OpenApiForm): OpenApiSchema {
  const gvk = { "x-kubernetes-group-version-kind": [{ group: t.group, kind: t.kind, version: t.version }] };
  const source = t.schema;
  if (!isObject(source) || (form === "v2" && source["x-kubernetes-preserve-unknown-fields"] === true)) {
    // kubectl's v2 validation would reject every field outside the listed properties.
    return { type: "object", ...gvk };
  }
  let schema = unfold(structural(source), form);
  if (form === "v2") schema = toV2(schema);
  const properties = { ...(isObject(schema["properties"]) ? schema["properties"] : {}) };
  properties["apiVersion"] = API_VERSION_PROPERTY;
  properties["kind"] = KIND_PROPERTY;
  properties["metadata"] = refProperty(OBJECT_META, OBJECT_METADATA_DESCRIPTION, form);
  return { ...schema, properties, ...gvk };
}

/** Step 1: the structural subset of a schema node. */
function structural(node: OpenApiSchema): OpenApiSchema {
  const out: OpenApiSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (PLAIN_KEYS.has(key)) out[key] = value;
    else if (key === "properties" && isObject(value)) out[key] = mapValues(value, structural);
    else if ((key === "items" || key === "not") && isObject(value)) out[key] = structural(value);
    else if (key === "additionalProperties" && (isObject(value) || typeof value === "boolean")) {
      out[key] = isObject(value) ? structural(value) : value;
    } else if ((JUNCTORS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.filter(isObject).map(structural);
    }
  }
  return out;
}

/** Step 2: int-or-string alternatives and embedded-resource metadata (recursively). */
function unfold(node: OpenApiSchema, form: OpenApiForm): OpenApiSchema {
  const out = recurse(node, (child) => unfold(child, form));
  if (out["x-kubernetes-int-or-string"] === true && !hasIntOrStringAlternatives(out)) {
    out["anyOf"] = [{ type: "integer" }, { type: "string" }];
  }
  const preserves = out["x-kubernetes-preserve-unknown-fields"] === true;
  if (out["x-kubernetes-embedded-resource"] === true && !(form === "v2" && preserves)) {
    out["properties"] = {
      ...(isObject(out["properties"]) ? out["properties"] : {}),
      apiVersion: API_VERSION_PROPERTY,
      kind: KIND_PROPERTY,
      metadata: refProperty(OBJECT_META, OBJECT_METADATA_DESCRIPTION, form),
    };
    const required = strings(out["required"]);
    out["required"] = [...required, ...["kind", "apiVersion"].filter((k) => !required.includes(k))];
  }
  return out;
}

/** `anyOf: [{type: integer}, {type: string}]`, directly or inside an `allOf`, is already there. */
function hasIntOrStringAlternatives(node: OpenApiSchema): boolean {
  const isPair = (anyOf: unknown) =>
    Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some((s) => isObject(s) && s["type"] === "integer") && anyOf.some((s) => isObject(s) && s["type"] === "string");
  if (isPair(node["anyOf"])) return true;
  return Array.isArray(node["allOf"]) && node["allOf"].some((s) => isObject(s) && isPair(s["anyOf"]));
}

/** Step 3: what Swagger 2.0 can express (recursively). */
function toV2(node: OpenApiSchema): OpenApiSchema {
  const out = recurse(node, toV2);
  for (const key of [...JUNCTORS, "not", "default"]) delete out[key];
  const preserves = out["x-kubernetes-preserve-unknown-fields"] === true;
  if (out["nullable"] === true) {
    delete out["type"];
    delete out["nullable"];
  }
  if (node["nullable"] === true || preserves) {
    delete out["properties"];
    delete out["items"];
  }
  if (out["type"] === "array" && out["items"] === undefined) delete out["type"];
  if (preserves && out["type"] === "object") delete out["type"];
  const props = isObject(node["properties"]) ? node["properties"] : {};
  let required = strings(out["required"]).filter((name) => {
    const prop = getMember(props, name);
    return !(isObject(prop) && prop["nullable"] === true);
  });
  if (isObject(node["additionalProperties"]) && node["additionalProperties"]["nullable"] === true) required = [];
  if (out["required"] !== undefined) {
    if (required.length > 0) out["required"] = required;
    else delete out["required"];
  }
  return out;
}

/** A copy of `node` with `transform` applied to its properties, items and additionalProperties. */
function recurse(node: OpenApiSchema, transform: (child: OpenApiSchema) => OpenApiSchema): OpenApiSchema {
  const out = { ...node };
  if (isObject(out["properties"])) out["properties"] = mapValues(out["properties"], transform);
  if (isObject(out["items"])) out["items"] = transform(out["items"]);
  if (isObject(out["additionalProperties"])) out["additionalProperties"] = transform(out["additionalProperties"]);
  return out;
}

function mapValues(obj: Record<string, unknown>, f: (v: OpenApiSchema) => OpenApiSchema): Record<string, OpenApiSchema> {
  const out: Record<string, OpenApiSchema> = {};
  // A property may be named `__proto__`: copy it as a member, not as a prototype change.
  for (const [k, v] of Object.entries(obj)) if (isObject(v)) setMember(out, k, f(v));
  return out;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
