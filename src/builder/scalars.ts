/**
 * Scalar equality for drift detection. The API server canonicalizes resource quantities
 * (`0.5` → `500m`, `1024Mi` → `1Gi`) in the fields its schema types as a quantity, so there
 * two strings are equal when their amounts are; everywhere else (ConfigMap data, a custom
 * object's spec) a string is just a string, and `1.10` ≠ `1.1`, `0080` ≠ `80`.
 */
import { parseQuantity } from "../../builders/index.ts";

/** Compares two scalars found at `path` (object keys; list indexes are numbers). */
export type SameScalar = (a: unknown, b: unknown, path: readonly (string | number)[]) => boolean;

/**
 * The scalar comparison for one object: quantities compare by amount at the quantity fields of
 * built-in kinds (see {@link isQuantityPath}), every other value by identity. Custom resources
 * get identity only: the API server stores their strings as sent, whatever they look like.
 */
export function scalarComparer(apiVersion: string | undefined): SameScalar {
  if (!isBuiltinGroup(apiVersion ?? "")) return (a, b) => Object.is(a, b);
  return (a, b, path) => Object.is(a, b) || (isQuantityPath(path) && sameQuantity(a, b));
}

/**
 * Whether a field of a built-in kind holds a quantity: `…resources.requests.*` and
 * `…resources.limits.*` (containers, init containers, pod resources, PVC specs,
 * `volumeClaimTemplates`, ephemeral volumes), `…overhead.*`, `…emptyDir.sizeLimit`, a
 * ResourceQuota's `spec.hard.*` and a LimitRange's `spec.limits[].{max,min,default,defaultRequest,maxLimitRequestRatio}.*`.
 */
export function isQuantityPath(path: readonly (string | number)[]): boolean {
  const keys = path.filter((s): s is string => typeof s === "string");
  const n = keys.length;
  const from = (i: number) => keys[n - i];
  if (n >= 3 && from(3) === "resources" && (from(2) === "requests" || from(2) === "limits")) return true;
  if (n >= 2 && from(2) === "overhead") return true;
  if (n >= 2 && from(2) === "emptyDir" && from(1) === "sizeLimit") return true;
  if (n === 3 && keys[0] === "spec" && keys[1] === "hard") return true;
  if (n === 4 && keys[0] === "spec" && keys[1] === "limits" && ["max", "min", "default", "defaultRequest", "maxLimitRequestRatio"].includes(keys[2]!)) return true;
  return false;
}

/** Groups the API server defines itself (core, `apps`, `batch`, `*.k8s.io`): CRD groups contain a dot. */
function isBuiltinGroup(apiVersion: string): boolean {
  const slash = apiVersion.indexOf("/");
  if (slash < 0) return true;
  const group = apiVersion.slice(0, slash);
  return !group.includes(".") || group.endsWith(".k8s.io");
}

function sameQuantity(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  if (!/^[+-]?[0-9.]/.test(a) || !/^[+-]?[0-9.]/.test(b)) return false;
  const qa = safeParse(a);
  const qb = safeParse(b);
  return qa !== undefined && qa === qb;
}

function safeParse(text: string): number | undefined {
  try {
    const v = parseQuantity(text);
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
