/**
 * The apiserver's checks of a custom resource's scale subresource paths on every write
 * (`ValidateScaleSpec` / `ValidateScaleStatus`): the replica fields must be int64 values that
 * fit an int32 and are not negative, and the label selector must be a string.
 *
 * @module
 */
import type { ScaleSubresource } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { invalidValue } from "../status.ts";
import { isJsonObject } from "../json-value.ts";

const MAX_INT32 = 2147483647;

/** A path like `.spec.replicas` read as Go's `unstructured.NestedInt64/NestedString` do. */
type Accessed = { ok: true; value: unknown; found: boolean } | { ok: false; error: string };

/** Go's `%T` of a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return Array.isArray(value) ? "[]interface {}" : "map[string]interface {}";
}

/** Go's `%v` of a decoded JSON value (maps with sorted keys, as fmt prints them). */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(goValue).join(" ")}]`;
  const obj = value as Record<string, unknown>;
  return `map[${Object.keys(obj)
    .sort()
    .map((k) => `${k}:${goValue(obj[k])}`)
    .join(" ")}]`;
}

function access(obj: unknown, path: string): Accessed {
  const fields = path.split(".").slice(1);
  let current: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (!isJsonObject(current)) {
      const at = `.${fields.slice(0, i).join(".")}`;
      return { ok: false, error: `${at} accessor error: ${goValue(current)} is of the type ${goType(current)}, expected map[string]interface{}` };
    }
    const key = fields[i]!;
    if (!Object.hasOwn(current, key)) return { ok: true, value: undefined, found: false };
    current = current[key];
  }
  return { ok: true, value: current, found: true };
}

function replicasCauses(obj: unknown, path: string): StatusCause[] {
  const read = access(obj, path);
  if (!read.ok) return [invalidValue(path, 0, read.error)];
  if (!read.found) return [];
  const value = read.value;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    return [invalidValue(path, 0, `${path} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected int64`)];
  }
  if (value < 0) return [invalidValue(path, value, "should be a non-negative integer")];
  if (value > MAX_INT32) return [invalidValue(path, value, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/**
 * The causes for a custom resource whose scale subresource paths hold the wrong types, in the
 * apiserver's order (spec replicas, status replicas, label selector). Field paths are the JSON
 * paths as written in the CRD (`.spec.replicas`), messages Go's accessor errors, e.g.
 * `.spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64`.
 *
 * @example
 * ```ts
 * scaleCauses({ spec: { replicas: "three" } }, { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" });
 * ```
 */
export function scaleCauses(obj: unknown, scale: ScaleSubresource): StatusCause[] {
  const causes = [...replicasCauses(obj, scale.specReplicasPath)];
  const status = replicasCauses(obj, scale.statusReplicasPath);
  causes.push(...status);
  // An unreadable status replicas field ends the status checks, as in the apiserver.
  const statusUnreadable = status.some((c) => c.message?.includes(" accessor error: ") === true);
  if (!statusUnreadable && scale.labelSelectorPath) {
    const path = scale.labelSelectorPath;
    const read = access(obj, path);
    if (!read.ok) causes.push(invalidValue(path, "", read.error));
    else if (read.found && typeof read.value !== "string") {
      causes.push(invalidValue(path, "", `${path} accessor error: ${goValue(read.value)} is of the type ${goType(read.value)}, expected string`));
    }
  }
  return causes;
}
