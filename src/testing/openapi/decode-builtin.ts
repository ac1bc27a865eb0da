/**
 * Decoding a request body of a built-in kind the way kube-apiserver v1.36.2 reads it into the
 * kind's Go struct (`sigs.k8s.io/json`, strict mode): fields the struct does not declare are
 * dropped and reported (`unknown field "spec.foo"`), values of the wrong JSON type are decode
 * errors (`json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of
 * type int32`), and what Go's encoder would leave out of the stored object (`omitempty` maps
 * and slices that are empty, optional fields that are `null`) is left out.
 *
 * Pure: the input is not modified (the result shares well-typed string maps and free-form
 * values with it). Linear in the size of the object; the types come from `decode-schema.ts`
 * (compiled once per kind).
 */
import type { KubeObject } from "../resource-type.ts";
import { goJsonKind, isJsonObject, setMember } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";
import { base64ErrorOffset } from "../string-maps.ts";
import type { GoStruct, GoType } from "./decode-schema.ts";

/** What {@link decodeBuiltin} returns. */
export interface DecodeResult {
  /** A new object: declared fields only, `omitempty` fields that are empty or `null` left out. */
  object: KubeObject;
  /**
   * Paths of the undeclared fields in document order (`spec`, `spec.template.spec.containers[0].bogus`),
   * without duplicates and at most 100, as `sigs.k8s.io/json` reports them; see
   * {@link unknownFieldWarning}.
   */
  unknownFields: string[];
  /**
   * Decode errors, the one kube-apiserver reports first: Go's decoder stops at an error of a
   * type with its own decoding (`IntOrString`, `Quantity`, `Time`) and otherwise reports the
   * first mismatch in document order.
   */
  typeErrors: string[];
}

/** The most unknown fields `sigs.k8s.io/json` reports for one body. */
const MAX_UNKNOWN = 100;

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${QUANTITY.source}'`;

const INT_RANGE: Readonly<Record<string, [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Where a value sits, as Go's decoder names it in a type error. */
interface Where {
  /** The struct holding the field (`DeploymentSpec`). */
  struct: string;
  /** JSON field names from the root, without list indexes or map keys (`spec.replicas`). */
  field: string;
}

interface State {
  unknown: Set<string>;
  soft: string[];
  hard: string | undefined;
}

/**
 * Decodes `obj` against the compiled Go type of its kind ({@link goTypeOfKind}).
 *
 * Guarantees:
 * - Every member of a struct that the struct does not declare is dropped and its path reported;
 *   nothing inside it is looked at. Member names match case-sensitively.
 * - A value of the wrong JSON type is reported and left out; `IntOrString` takes a string or an
 *   integer, `Quantity` a string or a number in quantity syntax, `[]byte` standard base64.
 * - An optional (`omitempty`) field holding `null`, an empty map or an empty list is left out;
 *   required fields and empty structs (`securityContext: {}`) are kept. A `null` value in a
 *   `map[string]string` becomes `""`.
 * - Free-form values (`RawExtension`, `FieldsV1`, `JSON`) are kept as they are.
 *
 * @example
 * ```ts
 * import { goTypeOfKind } from "./decode-schema.ts";
 *
 * const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, spec: { a: 1 } };
 * const { object, unknownFields, typeErrors } = decodeBuiltin(goTypeOfKind("", "v1", "ConfigMap")!, body);
 * // unknownFields → ["spec"]; object has no spec
 * ```
 */
export function decodeBuiltin(type: GoType, obj: KubeObject): DecodeResult {
  const state: State = { unknown: new Set(), soft: [], hard: undefined };
  const root = type.kind === "struct" ? decodeStruct(obj, type, "", "", state) : obj;
  const typeErrors = state.hard !== undefined ? [state.hard, ...state.soft] : state.soft;
  return { object: (root ?? {}) as KubeObject, unknownFields: [...state.unknown], typeErrors };
}

/**
 * The warning (and, with `fieldValidation=Strict`, the error part) kube-apiserver sends for an
 * unknown field.
 *
 * @example
 * ```ts
 * unknownFieldWarning("spec.foo"); // → 'unknown field "spec.foo"'
 * ```
 */
export function unknownFieldWarning(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}

/**
 * The error kube-apiserver's strict decoder returns for `fieldValidation=Strict`.
 *
 * @example
 * ```ts
 * strictDecodingError(["spec", "x"]); // → 'strict decoding error: unknown field "spec", unknown field "x"'
 * ```
 */
export function strictDecodingError(unknownFields: readonly string[]): string {
  return `strict decoding error: ${unknownFields.map(unknownFieldWarning).join(", ")}`;
}

function childPath(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/** Go's `UnmarshalTypeError` text; `value` is the JSON kind (`string`) or `number <text>`. */
function typeError(value: string, goType: string, where: Where): string {
  return `json: cannot unmarshal ${value} into Go struct field ${where.struct}.${where.field} of type ${goType}`;
}

/**
 * `path` is the strict path of the struct (with list indexes and map keys), `goPath` the Go
 * decoder's (JSON field names only).
 */
function decodeStruct(value: JsonObject, type: GoStruct, path: string, goPath: string, state: State): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const field = type.fields.get(key);
    const fieldPath = childPath(path, key);
    if (field === undefined) {
      if (state.unknown.size < MAX_UNKNOWN) state.unknown.add(fieldPath);
      continue;
    }
    const member = value[key];
    if (member === null) {
      if (field.required) setMember(out, key, null);
      continue;
    }
    const where: Where = { struct: type.name, field: childPath(goPath, key) };
    const decoded = decodeValue(member, field.type, where, fieldPath, state);
    if (decoded === undefined) continue;
    if (!field.required && isEmptyCollection(decoded, field.type)) continue;
    setMember(out, key, decoded);
  }
  return out;
}

function isEmptyCollection(value: unknown, type: GoType): boolean {
  if (type.kind === "map") return isJsonObject(value) && Object.keys(value).length === 0;
  if (type.kind === "list") return Array.isArray(value) && value.length === 0;
  return false;
}

/** The decoded value, or `undefined` after reporting a type error. */
function decodeValue(value: unknown, type: GoType, where: Where, path: string, state: State): unknown {
  switch (type.kind) {
    case "struct":
      if (!isJsonObject(value)) break;
      return decodeStruct(value, type, path, where.field, state);
    case "map": {
      if (!isJsonObject(value)) break;
      // Most maps are well-typed string maps (labels, ConfigMap data): kept as they are.
      if (type.values.kind === "scalar" && type.values.json === "string" && allStrings(value)) return value;
      const out: JsonObject = {};
      for (const key of Object.keys(value)) {
        const member = value[key];
        const keyPath = childPath(path, key);
        if (member === null) {
          setMember(out, key, type.values.kind === "scalar" && type.values.json === "string" ? "" : null);
          continue;
        }
        const decoded = decodeValue(member, type.values, where, keyPath, state);
        if (decoded !== undefined) setMember(out, key, decoded);
      }
      return out;
    }
    case "list": {
      if (!Array.isArray(value)) break;
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const element: unknown = value[i];
        out[i] = element === null ? null : (decodeValue(element, type.items, where, `${path}[${i}]`, state) ?? null);
      }
      return out;
    }
    case "scalar":
      return decodeScalar(value, type.json, type.goType, where, state);
    case "intOrString":
      if (typeof value === "string") return value;
      if (typeof value === "number" && Number.isInteger(value) && inRange(value, "int32")) return value;
      state.hard ??= typeError(typeof value === "number" ? `number ${String(value)}` : goJsonKind(value), "int32", where);
      return undefined;
    case "quantity":
      if ((typeof value === "string" || typeof value === "number") && QUANTITY.test(String(value).trim())) return value;
      state.hard ??= QUANTITY_FORMAT_ERROR;
      return undefined;
    case "time":
      if (typeof value === "string") return value;
      state.hard ??= typeError(goJsonKind(value), "string", where);
      return undefined;
    case "any":
      return value;
  }
  state.soft.push(typeError(goJsonKind(value), type.goType, where));
  return undefined;
}

function allStrings(map: JsonObject): boolean {
  for (const key in map) if (typeof map[key] !== "string") return false;
  return true;
}

function inRange(n: number, goType: string): boolean {
  const range = INT_RANGE[goType];
  return range === undefined || (n >= range[0] && n <= range[1]);
}

function decodeScalar(value: unknown, json: string, goType: string, where: Where, state: State): unknown {
  switch (json) {
    case "string":
      if (typeof value === "string") return value;
      break;
    case "bytes": {
      if (typeof value !== "string") break;
      const bad = base64ErrorOffset(value);
      if (bad === undefined) return value;
      state.soft.push(`illegal base64 data at input byte ${bad}`);
      return undefined;
    }
    case "integer":
      if (typeof value !== "number") break;
      if (Number.isInteger(value) && inRange(value, goType)) return value;
      state.soft.push(typeError(`number ${String(value)}`, goType, where));
      return undefined;
    case "number":
      if (typeof value === "number") return value;
      break;
    case "boolean":
      if (typeof value === "boolean") return value;
      break;
  }
  state.soft.push(typeError(goJsonKind(value), goType, where));
  return undefined;
}
