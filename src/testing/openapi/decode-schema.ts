/**
 * The Go types behind kube-apiserver v1.36.2's built-in kinds, compiled once per Swagger
 * definition from the vendored OpenAPI document ({@link builtinDefinitions}) into the shape the
 * body decoders ({@link decodeBuiltin} in `decode-builtin.ts`, the apply check in
 * `decode-apply.ts`) walk: structs with their fields, maps, lists and scalars, named as Go's JSON
 * decoder names them in its errors (`v1.DeploymentSpec`, `[]v1.Container`, `int32`).
 *
 * Compiled types are cached for the life of the process and shared: callers must not modify them.
 */
import { builtinDefinitions, definitionOfKind } from "./builtin-openapi.ts";
import type { SwaggerSchema } from "./builtin-openapi.ts";

/** A struct field: its type and whether Go encodes it without `omitempty` (Swagger `required`). */
export interface GoField {
  readonly type: GoType;
  readonly required: boolean;
}

/** A Go struct (a Swagger definition with `properties`, or an empty struct). */
export interface GoStruct {
  readonly kind: "struct";
  /** The type as `%v` prints it: `v1.DeploymentSpec`. */
  readonly goType: string;
  /** The bare type name, as the decoder names the struct of a field: `DeploymentSpec`. */
  readonly name: string;
  readonly fields: Map<string, GoField>;
}

/** A `map[string]T` (Swagger `additionalProperties`). */
export interface GoMap {
  readonly kind: "map";
  readonly goType: string;
  readonly values: GoType;
}

/** A slice, with the list semantics structured-merge-diff reads from the schema. */
export interface GoList {
  readonly kind: "list";
  readonly goType: string;
  readonly items: GoType;
  /** `x-kubernetes-list-type` (atomic when absent). */
  readonly listType: "atomic" | "set" | "map";
  /** `x-kubernetes-list-map-keys` of a `map` list. */
  readonly keys: readonly string[];
}

/** A JSON scalar: `string`, `[]uint8` (base64), `int32`, `int64`, `float64` or `bool`. */
export interface GoScalar {
  readonly kind: "scalar";
  readonly goType: string;
  readonly json: "string" | "bytes" | "integer" | "number" | "boolean";
}

/**
 * Types with their own JSON decoding: `intstr.IntOrString` (a string or an int32),
 * `resource.Quantity` (a string or a number), `v1.Time`/`v1.MicroTime` (a string), and free-form
 * values (`runtime.RawExtension`, `v1.FieldsV1`, `apiextensions/v1.JSON`, …) that take any JSON.
 */
export interface GoSpecial {
  readonly kind: "intOrString" | "quantity" | "time" | "any";
  readonly goType: string;
}

/** One compiled Go type. */
export type GoType = GoStruct | GoMap | GoList | GoScalar | GoSpecial;

const SPECIAL: ReadonlyMap<string, GoSpecial> = new Map<string, GoSpecial>([
  ["io.k8s.apimachinery.pkg.util.intstr.IntOrString", { kind: "intOrString", goType: "intstr.IntOrString" }],
  ["io.k8s.apimachinery.pkg.api.resource.Quantity", { kind: "quantity", goType: "resource.Quantity" }],
  ["io.k8s.apimachinery.pkg.apis.meta.v1.Time", { kind: "time", goType: "v1.Time" }],
  ["io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime", { kind: "time", goType: "v1.MicroTime" }],
  ["io.k8s.apimachinery.pkg.runtime.RawExtension", { kind: "any", goType: "runtime.RawExtension" }],
  ["io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1", { kind: "any", goType: "v1.FieldsV1" }],
  ["io.k8s.apimachinery.pkg.apis.meta.v1.Patch", { kind: "any", goType: "v1.Patch" }],
]);

const ANY: GoSpecial = { kind: "any", goType: "interface {}" };

const compiled = new Map<string, GoType>();
const byKind = new Map<string, GoType | null>();

/**
 * The compiled Go type of a built-in kind, or `undefined` when kube-apiserver v1.36.2 serves no
 * such kind. Compiled on first use and cached.
 *
 * @example
 * ```ts
 * goTypeOfKind("apps", "v1", "Deployment")?.goType; // → "v1.Deployment"
 * ```
 */
export function goTypeOfKind(group: string, version: string, kind: string): GoType | undefined {
  const key = `${group}/${version}/${kind}`;
  let type = byKind.get(key);
  if (type === undefined) {
    const name = definitionOfKind(group, version, kind);
    type = name === undefined ? null : goTypeOfDefinition(name);
    byKind.set(key, type);
  }
  return type ?? undefined;
}

/**
 * The compiled Go type of a Swagger definition (`io.k8s.api.apps.v1.DeploymentSpec`). Recursive
 * definitions (`JSONSchemaProps`) compile to cyclic structs.
 */
export function goTypeOfDefinition(name: string): GoType {
  const done = compiled.get(name);
  if (done) return done;
  const special = SPECIAL.get(name);
  if (special) return special;
  const schema = builtinDefinitions()[name];
  if (!schema) return ANY;
  const segments = name.split(".");
  const bare = segments[segments.length - 1]!;
  const goType = `${segments[segments.length - 2]}.${bare}`;
  if (schema.type !== "object" || schema.additionalProperties !== undefined) {
    // Not a struct: a named map, or a value with its own decoding (`JSON`, `JSONSchemaPropsOr…`).
    const type = schema.type === "object" ? compileSchema(schema) : ANY;
    compiled.set(name, type);
    return type;
  }
  const fields = new Map<string, GoField>();
  const struct: GoStruct = { kind: "struct", goType, name: bare, fields };
  // Registered before its fields compile, so a field of its own type finds it.
  compiled.set(name, struct);
  const required = new Set(schema.required ?? []);
  for (const [field, sub] of Object.entries(schema.properties ?? {})) {
    fields.set(field, { type: compileSchema(sub), required: required.has(field) });
  }
  return struct;
}

function compileSchema(schema: SwaggerSchema): GoType {
  if (schema.$ref !== undefined) return goTypeOfDefinition(schema.$ref.replace(/^#\/definitions\//, ""));
  switch (schema.type) {
    case "string":
      if (schema.format === "byte") return { kind: "scalar", goType: "[]uint8", json: "bytes" };
      if (schema.format === "int-or-string") return SPECIAL.get("io.k8s.apimachinery.pkg.util.intstr.IntOrString")!;
      return { kind: "scalar", goType: "string", json: "string" };
    case "integer":
      return { kind: "scalar", goType: schema.format === "int32" ? "int32" : "int64", json: "integer" };
    case "number":
      return { kind: "scalar", goType: "float64", json: "number" };
    case "boolean":
      return { kind: "scalar", goType: "bool", json: "boolean" };
    case "array": {
      const items = schema.items ? compileSchema(schema.items) : ANY;
      return {
        kind: "list",
        goType: `[]${items.goType}`,
        items,
        listType: schema["x-kubernetes-list-type"] ?? "atomic",
        keys: schema["x-kubernetes-list-map-keys"] ?? [],
      };
    }
    case "object":
      if (typeof schema.additionalProperties === "object") {
        const values = compileSchema(schema.additionalProperties);
        return { kind: "map", goType: `map[string]${values.goType}`, values };
      }
      return ANY;
    default:
      return ANY;
  }
}
