/**
 * Reads fields of untyped Kubernetes JSON safely, compares JSON values and formats them for messages.
 */

/**
 * A JSON object.
 *
 * @example
 * ```ts
 * const spec: JsonRecord = { replicas: 3 };
 * ```
 */
export type JsonRecord = Record<string, unknown>;

/**
 * Whether a value is a plain JSON object (not null, not an array).
 *
 * @example
 * ```ts
 * isRecord({ a: 1 }); // true
 * isRecord([1]);      // false
 * ```
 */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The value at a path of object keys, or undefined when any step is missing or not an object.
 *
 * @example
 * ```ts
 * at({ spec: { replicas: 3 } }, "spec", "replicas"); // 3
 * ```
 */
export function at(value: unknown, ...path: string[]): unknown {
  let cur = value;
  for (const key of path) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/**
 * A number at a path, or `fallback` when it is missing or not a number.
 *
 * @example
 * ```ts
 * numberAt({ status: {} }, 0, "status", "readyReplicas"); // 0
 * ```
 */
export function numberAt(value: unknown, fallback: number, ...path: string[]): number {
  const v = at(value, ...path);
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

/**
 * Whether a value is an integer from 0 up.
 *
 * @example
 * ```ts
 * isNonNegativeInteger(3);  // true
 * isNonNegativeInteger(-1); // false
 * ```
 */
export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/**
 * Deep equality of JSON values; object key order does not matter, array order does.
 *
 * @example
 * ```ts
 * sameJson({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }); // true
 * ```
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/**
 * A field path for a map key: `base.key` for identifier-like keys, `base["key"]` otherwise.
 *
 * @example
 * ```ts
 * keyPath("data", "port");              // "data.port"
 * keyPath("metadata.labels", "app/x");  // 'metadata.labels["app/x"]'
 * ```
 */
export function keyPath(base: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/**
 * Labels as `k=v,k2=v2` (sorted by key), or `none` when empty.
 *
 * @example
 * ```ts
 * formatLabels({ tier: "web", app: "shop" }); // "app=shop,tier=web"
 * ```
 */
export function formatLabels(labels: JsonRecord | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return "none";
  return keys.map((k) => `${k}=${String(labels?.[k])}`).join(",");
}

/**
 * A short description of a value's JSON type, for messages.
 *
 * @example
 * ```ts
 * jsonType([1]); // "an array"
 * ```
 */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
