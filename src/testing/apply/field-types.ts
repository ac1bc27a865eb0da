/**
 * The schema managedFields bookkeeping walks an object with, as structured-merge-diff sees it:
 * for every node, whether it is a granular map, one atomic leaf, a list (and how its items are
 * named) or a scalar; and, for built-in kinds, which fields the Go zero value of the type holds.
 *
 * Three sources, best first: a CRD's `openAPIV3Schema` ({@link crdFieldType}); the vendored
 * kube-apiserver v1.36.2 OpenAPI v3 documents for built-in kinds ({@link builtinFieldType});
 * a {@link ListTypeLookup} alone ({@link deducedFieldType}: maps granular, lists as it says).
 *
 * @module
 */
import type { ListType, ListTypeLookup } from "../resource-type.ts";
import { builtinOpenApiV3Text, definitionOfKind, type SwaggerSchema } from "../openapi/builtin-openapi.ts";
import { isJsonObject, setMember } from "../json-value.ts";

/** One node of an object's type. */
export type FieldType = MapFieldType | ListFieldType | LeafFieldType | DeducedFieldType;

/** A granular map: a struct or a `map[string]T`. Atomic maps are {@link LeafFieldType}s. */
export interface MapFieldType {
  readonly kind: "map";
  /** The type of the value at key `name`. */
  field(name: string): FieldType;
  /** For Go structs of built-in kinds: what the type's zero value holds. */
  readonly goStruct?: GoStruct;
}

/**
 * What a Go struct's zero value holds once converted to JSON the way the API server converts
 * it for managedFields: value-struct fields are present (as their own zero), required fields
 * without a default (nil pointers, slices, maps without `omitempty`) are `null`, and optional
 * maps and lists (`omitempty`) are left out when empty.
 */
export interface GoStruct {
  /** Fields present in the zero value: a nested struct (`"struct"`) or `null` (`"null"`). */
  readonly zeroFields: ReadonlyMap<string, "struct" | "null">;
  /** Map and list fields dropped when empty. */
  readonly omitEmpty: ReadonlySet<string>;
}

/** A list: atomic, a set, or a map-list named by key fields (absent keys take their schema default). */
export interface ListFieldType {
  readonly kind: "list";
  readonly listType: ListType;
  /** Schema defaults of key fields: an item without the field is named with the default. */
  readonly keyDefaults: Readonly<Record<string, unknown>>;
  item(): FieldType;
}

/** A scalar, or an atomic map (one leaf, replaced as a whole). */
export interface LeafFieldType {
  readonly kind: "leaf";
}

/** Untyped: objects are granular maps, lists follow `listType`, anything else is a leaf. */
export interface DeducedFieldType {
  readonly kind: "deduced";
  readonly listType: ListType;
  field(name: string): FieldType;
  item(): FieldType;
}

const LEAF: LeafFieldType = { kind: "leaf" };
const ATOMIC: ListType = { type: "atomic" };
const NO_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The untyped node of structured-merge-diff: granular maps, atomic lists. */
export const UNTYPED: DeducedFieldType = {
  kind: "deduced",
  listType: ATOMIC,
  field: () => UNTYPED,
  item: () => UNTYPED,
};

/**
 * A type from a {@link ListTypeLookup} alone: every object a granular map, every list as the
 * lookup says for its field-name chain, no key defaults and no zero value.
 *
 * @example
 * ```ts
 * deducedFieldType(() => ({ type: "set" })).field("metadata"); // → { kind: "deduced", … }
 * ```
 */
export function deducedFieldType(lookup: ListTypeLookup, names: readonly string[] = []): DeducedFieldType {
  const fields = new Map<string, DeducedFieldType>();
  const node: DeducedFieldType = {
    kind: "deduced",
    get listType() {
      return lookup(names);
    },
    field(name) {
      let child = fields.get(name);
      if (child === undefined) fields.set(name, (child = deducedFieldType(lookup, [...names, name])));
      return child;
    },
    item: () => node,
  };
  return node;
}

// --- built-in kinds: the OpenAPI v3 documents (they carry the defaults the Go types declare)

const schemasByGroupVersion = new Map<string, Record<string, SwaggerSchema> | null>();
const builtinTypes = new Map<string, FieldType | null>();

function schemasOf(gvPath: string): Record<string, SwaggerSchema> | undefined {
  if (!schemasByGroupVersion.has(gvPath)) {
    const text = builtinOpenApiV3Text(gvPath);
    const doc = text === undefined ? undefined : (JSON.parse(text) as { components?: { schemas?: Record<string, SwaggerSchema> } });
    schemasByGroupVersion.set(gvPath, doc?.components?.schemas ?? null);
  }
  return schemasByGroupVersion.get(gvPath) ?? undefined;
}

/**
 * The type of a built-in kind (`apiVersion` as in objects: `v1`, `apps/v1`), from kube-apiserver
 * v1.36.2's OpenAPI v3 document of its group/version; `undefined` for kinds it does not serve.
 *
 * @example
 * ```ts
 * builtinFieldType("apps/v1", "Deployment")?.kind; // → "map"
 * ```
 */
export function builtinFieldType(apiVersion: string, kind: string): FieldType | undefined {
  const key = `${apiVersion}/${kind}`;
  if (!builtinTypes.has(key)) builtinTypes.set(key, loadBuiltin(apiVersion, kind) ?? null);
  return builtinTypes.get(key) ?? undefined;
}

function loadBuiltin(apiVersion: string, kind: string): FieldType | undefined {
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const name = definitionOfKind(group, version, kind);
  if (name === undefined) return undefined;
  const schemas = schemasOf(group === "" ? `api/${version}` : `apis/${group}/${version}`);
  const root = schemas?.[name];
  if (schemas === undefined || root === undefined) return undefined;
  return new OpenApiTypes(schemas).typeOf(root);
}

let objectMeta: FieldType | undefined;

/** The ObjectMeta type (a custom resource's `metadata` is typed as the built-in one). */
function objectMetaType(): FieldType {
  if (objectMeta === undefined) {
    const schemas = schemasOf("api/v1");
    const meta = schemas?.["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"];
    objectMeta = schemas === undefined || meta === undefined ? UNTYPED : new OpenApiTypes(schemas, false).typeOf(meta);
  }
  return objectMeta;
}

/** Builds {@link FieldType}s from OpenAPI schemas (`$ref`s and `allOf: [{$ref}]` wrappers resolved lazily). */
class OpenApiTypes {
  readonly #schemas: Record<string, SwaggerSchema>;
  readonly #goTyped: boolean;
  readonly #byRef = new Map<string, FieldType>();

  constructor(schemas: Record<string, SwaggerSchema>, goTyped = true) {
    this.#schemas = schemas;
    this.#goTyped = goTyped;
  }

  /** The schema a property points at: itself, or the definition its `$ref` / `allOf[0].$ref` names. */
  resolve(schema: SwaggerSchema): SwaggerSchema {
    const ref = schema.$ref ?? refOfAllOf(schema);
    if (ref === undefined) return schema;
    return this.#schemas[ref.replace(/^#\/(components\/schemas|definitions)\//, "")] ?? {};
  }

  typeOf(schema: SwaggerSchema): FieldType {
    const ref = schema.$ref ?? refOfAllOf(schema);
    // A property's own extensions (list type, atomic map) decide over the definition's.
    if (ref !== undefined && !hasShapeExtensions(schema)) {
      // Children are built on first use, so recursive definitions (JSONSchemaProps) terminate.
      let type = this.#byRef.get(ref);
      if (type === undefined) this.#byRef.set(ref, (type = this.build(this.resolve(schema), schema)));
      return type;
    }
    return this.build(this.resolve(schema), schema);
  }

  build(resolved: SwaggerSchema, property: SwaggerSchema): FieldType {
    const mapType = property["x-kubernetes-map-type"] ?? resolved["x-kubernetes-map-type"];
    if (resolved.type === "array" || property.type === "array") {
      const items = resolved.items ?? property.items;
      const listKind = property["x-kubernetes-list-type"] ?? resolved["x-kubernetes-list-type"];
      const keys = property["x-kubernetes-list-map-keys"] ?? resolved["x-kubernetes-list-map-keys"] ?? [];
      const listType: ListType = listKind === "map" && keys.length > 0 ? { type: "map", keys: [...keys] } : listKind === "set" ? { type: "set" } : ATOMIC;
      const keyDefaults: Record<string, unknown> = {};
      const itemSchema = items === undefined ? undefined : this.resolve(items);
      for (const key of listType.type === "map" ? listType.keys : []) {
        const field = ownProperty(itemSchema?.properties, key);
        if (field !== undefined && field.default !== undefined) setMember(keyDefaults, key, field.default);
      }
      let item: FieldType | undefined;
      return { kind: "list", listType, keyDefaults, item: () => (item ??= items === undefined ? UNTYPED : this.typeOf(items)) };
    }
    if (mapType === "atomic") return LEAF;
    const properties = resolved.properties;
    if (properties !== undefined) return this.struct(resolved, properties);
    const additional = resolved.additionalProperties;
    if (isJsonObject(additional)) {
      let element: FieldType | undefined;
      return { kind: "map", field: () => (element ??= this.typeOf(additional as SwaggerSchema)) };
    }
    if (resolved.type === "object" || (resolved.type === undefined && resolved.oneOf === undefined && resolved.format === undefined)) return UNTYPED;
    return LEAF;
  }

  struct(resolved: SwaggerSchema, properties: Record<string, SwaggerSchema>): MapFieldType {
    const fields = new Map<string, FieldType>();
    const field = (name: string): FieldType => {
      const property = ownProperty(properties, name);
      // Undeclared fields are untyped: nothing to remember per name.
      if (property === undefined) return UNTYPED;
      let type = fields.get(name);
      if (type === undefined) fields.set(name, (type = this.typeOf(property)));
      return type;
    };
    if (!this.#goTyped) return { kind: "map", field };
    const required = new Set(resolved.required ?? []);
    const zeroFields = new Map<string, "struct" | "null">();
    const omitEmpty = new Set<string>();
    for (const [name, property] of Object.entries(properties)) {
      const target = this.resolve(property);
      const isStruct = target.properties !== undefined;
      const isCollection = target.type === "array" || (target.properties === undefined && isJsonObject(target.additionalProperties));
      if (isStruct && isJsonObject(property.default)) zeroFields.set(name, "struct");
      else if (required.has(name) && property.default === undefined && (isStruct || isCollection)) zeroFields.set(name, "null");
      if (isCollection && !required.has(name)) omitEmpty.add(name);
    }
    return { kind: "map", field, goStruct: { zeroFields, omitEmpty } };
  }
}

function ownProperty(properties: Record<string, SwaggerSchema> | undefined, name: string): SwaggerSchema | undefined {
  return properties !== undefined && Object.hasOwn(properties, name) ? properties[name] : undefined;
}

function refOfAllOf(schema: SwaggerSchema): string | undefined {
  const allOf = schema.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 1) return undefined;
  const only: unknown = allOf[0];
  return isJsonObject(only) && typeof only.$ref === "string" ? only.$ref : undefined;
}

function hasShapeExtensions(schema: SwaggerSchema): boolean {
  return schema["x-kubernetes-list-type"] !== undefined || schema["x-kubernetes-map-type"] !== undefined || schema["x-kubernetes-list-map-keys"] !== undefined;
}

// --- custom resources: the CRD's structural schema

/**
 * The type of a custom resource from its CRD version's `openAPIV3Schema`: `x-kubernetes-list-type`
 * / `-list-map-keys` / `-map-type` and key-field defaults as the schema declares them; `metadata`
 * typed as the built-in ObjectMeta; unknown fields (`x-kubernetes-preserve-unknown-fields`)
 * untyped. No zero value: an unstructured object starts empty.
 *
 * @example
 * ```ts
 * crdFieldType({ type: "object", properties: { spec: { type: "object" } } }).kind; // → "map"
 * ```
 */
export function crdFieldType(schema: Record<string, unknown>): FieldType {
  const root = crdType(schema as SwaggerSchema);
  if (root.kind !== "map") return root;
  return { kind: "map", field: (name) => (name === "metadata" ? objectMetaType() : root.field(name)) };
}

function crdType(schema: SwaggerSchema): FieldType {
  if (schema.type === "array") {
    const keys = schema["x-kubernetes-list-map-keys"] ?? [];
    const listKind = schema["x-kubernetes-list-type"];
    const listType: ListType = listKind === "map" && keys.length > 0 ? { type: "map", keys: [...keys] } : listKind === "set" ? { type: "set" } : ATOMIC;
    const keyDefaults: Record<string, unknown> = {};
    for (const key of listType.type === "map" ? listType.keys : []) {
      const field = ownProperty(schema.items?.properties, key);
      if (field?.default !== undefined) setMember(keyDefaults, key, field.default);
    }
    let item: FieldType | undefined;
    return { kind: "list", listType, keyDefaults, item: () => (item ??= schema.items === undefined ? UNTYPED : crdType(schema.items)) };
  }
  if (schema["x-kubernetes-int-or-string"] === true) return LEAF;
  if (schema.type === "object" || schema.properties !== undefined || schema.additionalProperties !== undefined) {
    if (schema["x-kubernetes-map-type"] === "atomic") return LEAF;
    const properties = schema.properties ?? {};
    const additional = isJsonObject(schema.additionalProperties) ? crdType(schema.additionalProperties as SwaggerSchema) : UNTYPED;
    const fields = new Map<string, FieldType>();
    return {
      kind: "map",
      field(name) {
        const property = ownProperty(properties, name);
        // Every undeclared member shares the additionalProperties type: nothing to remember per name.
        if (property === undefined) return additional;
        let type = fields.get(name);
        if (type === undefined) fields.set(name, (type = crdType(property)));
        return type;
      },
    };
  }
  if (schema.type === undefined) return UNTYPED;
  return LEAF;
}

/** Where a write's type comes from: a CRD schema, else the built-in kind, else the list lookup. */
export interface FieldTypeSource {
  /** `group/version` (or `v1`) of the object. */
  apiVersion: string;
  kind: string | undefined;
  listType: ListTypeLookup;
  /** A custom resource's `openAPIV3Schema`, when known. */
  schema?: Record<string, unknown> | undefined;
}

/**
 * The type to walk an object with, and whether it is a Go type (built-in kind: zero values and
 * `omitempty` apply, see {@link goValue}). Without a schema or built-in type, objects are
 * deduced from `listType`, `metadata` typed as the built-in ObjectMeta.
 *
 * @example
 * ```ts
 * fieldTypeOf({ apiVersion: "v1", kind: "ConfigMap", listType: () => ({ type: "atomic" }) }).goTyped; // → true
 * ```
 */
export function fieldTypeOf(source: FieldTypeSource): { type: FieldType; goTyped: boolean } {
  if (source.schema !== undefined) return { type: crdFieldType(source.schema), goTyped: false };
  const builtin = source.kind === undefined ? undefined : builtinFieldType(source.apiVersion, source.kind);
  if (builtin !== undefined) return { type: builtin, goTyped: true };
  const deduced = deducedFieldType(source.listType);
  // Every object's metadata is an ObjectMeta (finalizers a set, ownerReferences keyed by uid).
  const root: DeducedFieldType = {
    kind: "deduced",
    listType: ATOMIC,
    field: (name) => (name === "metadata" ? objectMetaType() : deduced.field(name)),
    item: () => deduced.item(),
  };
  return { type: root, goTyped: false };
}

/**
 * The list type of a list node (a deduced node's list type, or atomic for anything else).
 */
export function listTypeOf(type: FieldType): ListType {
  return type.kind === "list" || type.kind === "deduced" ? type.listType : ATOMIC;
}

/** Key defaults of a list node (none for deduced lists). */
export function keyDefaultsOf(type: FieldType): Readonly<Record<string, unknown>> {
  return type.kind === "list" ? type.keyDefaults : NO_DEFAULTS;
}

/** The type of list items (untyped for non-lists). */
export function itemTypeOf(type: FieldType): FieldType {
  return type.kind === "list" || type.kind === "deduced" ? type.item() : UNTYPED;
}

/** The type of a map's field (untyped for leaves and lists). */
export function fieldTypeAt(type: FieldType, name: string): FieldType {
  return type.kind === "map" || type.kind === "deduced" ? type.field(name) : UNTYPED;
}

/**
 * An object as the API server holds it in Go, in JSON: every value struct present (as its own
 * zero value when absent), required pointers/lists/maps without a value `null`, and empty
 * optional maps and lists left out. Only nodes with a {@link GoStruct} are changed.
 *
 * Guarantees: `value` is not mutated.
 *
 * @example
 * ```ts
 * goValue({}, builtinFieldType("apps/v1", "Deployment")!);
 * // → { metadata: {}, spec: { selector: null, strategy: {}, template: { metadata: {}, spec: { containers: null } } }, status: {} }
 * ```
 */
export function goValue(value: unknown, type: FieldType): unknown {
  if (Array.isArray(value)) {
    if (type.kind !== "list" && type.kind !== "deduced") return value;
    const item = type.item();
    return value.map((v: unknown) => goValue(v, item));
  }
  if (!isJsonObject(value) || (type.kind !== "map" && type.kind !== "deduced")) return value;
  const out: Record<string, unknown> = {};
  const struct = type.kind === "map" ? type.goStruct : undefined;
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const converted = goValue(child, type.field(key));
    if (struct?.omitEmpty.has(key) && isEmptyCollection(converted)) continue;
    setMember(out, key, converted);
  }
  if (struct !== undefined) {
    for (const [key, zero] of struct.zeroFields) {
      if (Object.hasOwn(out, key)) continue;
      setMember(out, key, zero === "null" ? null : goValue({}, type.field(key)));
    }
  }
  return out;
}

function isEmptyCollection(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isJsonObject(value) && Object.keys(value).length === 0;
}
