/**
 * The check kube-apiserver v1.36.2's server-side apply makes of an apply configuration of a
 * built-in kind before merging it: structured-merge-diff converts it to a typed value against
 * the kind's schema, and a field the schema does not declare (or a scalar of the wrong type)
 * fails the request with a 500 whose Status has no `reason`:
 * `failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema`.
 * Unlike a create or an update, `fieldValidation` does not change this.
 */
import { StatusError } from "../status.ts";
import type { StatusBody } from "../status.ts";
import { isJsonObject } from "../json-value.ts";
import type { GoList, GoType } from "./decode-schema.ts";

/** A Status error without `reason`, as kube-apiserver answers an error it did not classify. */
export class UnclassifiedStatusError extends StatusError {
  constructor(code: number, message: string) {
    super(code, "", message);
  }

  override toStatus(): StatusBody {
    const status = super.toStatus();
    delete status.reason;
    return status;
  }
}

/**
 * The errors structured-merge-diff reports for an apply configuration, in document order, as
 * `<path>: <problem>` with its paths (`.spec.foo`, `.spec.template.spec.containers[name="c"].x`,
 * `.spec.ports[0]`): in each object, members are checked up to the first undeclared one.
 *
 * @example
 * ```ts
 * import { goTypeOfKind } from "./decode-schema.ts";
 *
 * typedPatchErrors(goTypeOfKind("apps", "v1", "Deployment")!, { spec: { foo: 1 } });
 * // → [".spec.foo: field not declared in schema"]
 * ```
 */
export function typedPatchErrors(type: GoType, obj: unknown): string[] {
  const errors: string[] = [];
  check(obj, type, "", errors);
  return errors;
}

/**
 * kube-apiserver's 500 for an apply configuration with {@link typedPatchErrors}, or undefined
 * when there are none. `namespace` and `name` are those of the configuration as sent.
 *
 * @example
 * ```ts
 * import { goTypeOfKind } from "./decode-schema.ts";
 *
 * const deployment = goTypeOfKind("apps", "v1", "Deployment")!;
 * const body = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { foo: 1 } };
 * typedPatchError(deployment, body, { group: "apps", version: "v1", kind: "Deployment" }, "", "web")?.message;
 * // → "failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema"
 * ```
 */
export function typedPatchError(
  type: GoType,
  obj: unknown,
  gvk: { group: string; version: string; kind: string },
  namespace: string,
  name: string,
): StatusError | undefined {
  const errors = typedPatchErrors(type, obj);
  if (errors.length === 0) return undefined;
  const detail = errors.length === 1 ? errors[0]! : ["errors:", ...errors.map((e) => `  ${e}`)].join("\n");
  return new UnclassifiedStatusError(
    500,
    `failed to create typed patch object (${namespace}/${name}; ${gvk.group}/${gvk.version}, Kind=${gvk.kind}): ${detail}`,
  );
}

function check(value: unknown, type: GoType, path: string, errors: string[]): void {
  if (value === null || value === undefined) return;
  switch (type.kind) {
    case "struct":
    case "map":
      if (!isJsonObject(value)) {
        errors.push(`${path}: expected map, got ${goValue(value)}`);
        return;
      }
      for (const key of Object.keys(value)) {
        const field = type.kind === "struct" ? type.fields.get(key)?.type : type.values;
        if (field === undefined) {
          errors.push(`${path}.${key}: field not declared in schema`);
          return;
        }
        check(value[key], field, `${path}.${key}`, errors);
      }
      return;
    case "list":
      if (!Array.isArray(value)) {
        errors.push(`${path}: expected list, got ${goValue(value)}`);
        return;
      }
      value.forEach((element, i) => {
        const pe = elementPath(type, element, i);
        if (pe !== undefined) check(element, type.items, `${path}${pe}`, errors);
      });
      return;
    case "scalar":
      if (type.json === "integer" || type.json === "number") {
        if (typeof value !== "number") errors.push(`${path}: expected numeric (int or float), got ${goTypeName(value)}`);
      } else if (type.json === "boolean") {
        if (typeof value !== "boolean") errors.push(`${path}: expected boolean, got ${goValue(value)}`);
      } else if (typeof value !== "string") {
        errors.push(`${path}: expected string, got &value.valueUnstructured{Value:${goSyntax(value)}}`);
      }
      return;
    case "time":
      if (typeof value !== "string") errors.push(`${path}: expected string, got &value.valueUnstructured{Value:${goSyntax(value)}}`);
      return;
    case "intOrString":
    case "quantity":
      if (typeof value === "object") errors.push(`${path}: expected any scalar, got ${goValue(value)}`);
      return;
    case "any":
      return;
  }
}

/**
 * The path element of a list item: `[name="c"]` (keys sorted by name, a missing `protocol` as
 * its default `TCP`) in a keyed list, `[="x"]` in a set, `[0]` otherwise; undefined for an item
 * structured-merge-diff cannot name (not checked further here).
 */
function elementPath(list: GoList, element: unknown, index: number): string | undefined {
  if (list.listType === "map" && list.keys.length > 0) {
    if (!isJsonObject(element)) return undefined;
    const parts: string[] = [];
    for (const key of [...list.keys].sort()) {
      const value = Object.hasOwn(element, key) ? element[key] : KEY_DEFAULTS[key];
      if (value === undefined) return undefined;
      parts.push(`${key}=${keyValue(value)}`);
    }
    return `[${parts.join(",")}]`;
  }
  if (list.listType === "set") {
    if (element === null || typeof element === "object") return undefined;
    return `[=${keyValue(element)}]`;
  }
  return `[${index}]`;
}

/** Defaults of list-map keys, which name an item that leaves them out (ports' `protocol`). */
const KEY_DEFAULTS: Readonly<Record<string, string>> = { protocol: "TCP" };

function keyValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Go's `%T` of an unstructured value. */
function goTypeName(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return Array.isArray(value) ? "[]interface {}" : "map[string]interface {}";
}

/** Go's `%v` of a structured-merge-diff value: `&{<value>}`. */
function goValue(value: unknown): string {
  return `&{${goPlain(value)}}`;
}

function goPlain(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goPlain).join(" ")}]`;
  if (isJsonObject(value)) {
    return `map[${Object.keys(value).sort().map((k) => `${k}:${goPlain(value[k])}`).join(" ")}]`;
  }
  return value === null ? "<nil>" : String(value);
}

/** Go's `%#v` of a scalar. */
function goSyntax(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? `[]interface {}${JSON.stringify(value)}` : `map[string]interface {}${JSON.stringify(value)}`;
}
