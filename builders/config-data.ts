/**
 * Checks of ConfigMap and Secret data maps: key syntax, string and base64 values, and the 1 MiB size limit.
 */
import { isRecord, jsonType, keyPath } from "./json.ts";
import type { Problems } from "./validation.ts";

/**
 * The API server's limit on a ConfigMap's or Secret's total data size, in bytes.
 *
 * @example
 * ```ts
 * const bytes = Buffer.byteLength("threads=4\n", "utf8");
 * if (bytes > MAX_DATA_BYTES) console.log("too large for one ConfigMap");
 * ```
 */
export const MAX_DATA_BYTES = 1024 * 1024;

const KEY = /^[-._a-zA-Z0-9]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why a string is not a valid ConfigMap/Secret key, or undefined when it is valid.
 *
 * @example
 * ```ts
 * dataKey("app.properties"); // undefined
 * dataKey("conf/app");       // "must consist of letters, digits, '-', '_' and '.'"
 * ```
 */
export function dataKey(key: string): string | undefined {
  if (key.length === 0) return "must not be empty";
  if (key.length > 253) return `must be at most 253 characters (has ${key.length})`;
  if (!KEY.test(key)) return "must consist of letters, digits, '-', '_' and '.'";
  if (key === "." || key === ".." || key.startsWith("..")) return "must not be '.' or '..' or start with '..'";
  return undefined;
}

/**
 * The decoded length of a standard (padded) base64 string, or undefined when it is not base64.
 *
 * @example
 * ```ts
 * base64Length("aGk="); // 2
 * base64Length("hi!");  // undefined
 * ```
 */
export function base64Length(value: string): number | undefined {
  if (value.length % 4 !== 0 || !BASE64.test(value)) return undefined;
  const padding = value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/**
 * How the values of a data map are encoded.
 *
 * @example
 * ```ts
 * const encoding: DataEncoding = "base64"; // Secret data, ConfigMap binaryData
 * ```
 */
export type DataEncoding = "string" | "base64";

/**
 * Checks one data map (keys and values) and returns its keys and their total size in bytes
 * (decoded for base64). Values are never quoted in messages: they may be secret.
 *
 * @example
 * ```ts
 * import type { ConfigMap } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const cm: ConfigMap;
 * const p = problemsFor(cm, "ConfigMap");
 * const { keys, bytes } = checkDataMap(p, "data", cm.data, "string");
 * ```
 */
export function checkDataMap(p: Problems, field: string, map: unknown, encoding: DataEncoding): { keys: string[]; bytes: number } {
  if (map === undefined) return { keys: [], bytes: 0 };
  if (!isRecord(map)) {
    const what = encoding === "base64" ? "base64-encoded string values" : "string values";
    p.add(field, `is ${jsonType(map)}`, `make ${field} an object of ${what}`);
    return { keys: [], bytes: 0 };
  }
  let bytes = 0;
  for (const [key, value] of Object.entries(map)) {
    const path = keyPath(field, key);
    const why = dataKey(key);
    if (why) p.add(path, `key ${JSON.stringify(key)} ${why}`, `rename the key, e.g. ${JSON.stringify(key.replace(/[^-._a-zA-Z0-9]+/g, "_").replace(/^\.\.+/, "") || "key")}`);
    if (typeof value !== "string") {
      const fix = encoding === "base64"
        ? "base64-encode the bytes, e.g. Buffer.from(bytes).toString(\"base64\")"
        : "store the value as a string (e.g. JSON.stringify or String(value))";
      p.add(path, `value is ${jsonType(value)}, not a string`, fix);
      continue;
    }
    if (encoding === "string") {
      bytes += Buffer.byteLength(value, "utf8");
      continue;
    }
    const length = base64Length(value);
    if (length === undefined) {
      p.add(path, "value is not valid base64 (standard alphabet, padded with '=')", `base64-encode the value with Buffer.from(text).toString("base64"), or move it to ${field === "data" ? "stringData" : "data"} as plain text`);
    } else {
      bytes += length;
    }
  }
  return { keys: Object.keys(map), bytes };
}

/**
 * Reports keys present in both maps, on the second map's field.
 *
 * @example
 * ```ts
 * import type { ConfigMap } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const cm: ConfigMap;
 * const p = problemsFor(cm, "ConfigMap");
 * const data = checkDataMap(p, "data", cm.data, "string");
 * const binary = checkDataMap(p, "binaryData", cm.binaryData, "base64");
 * checkDisjointKeys(p, "data", data.keys, "binaryData", binary.keys);
 * ```
 */
export function checkDisjointKeys(p: Problems, firstField: string, first: string[], secondField: string, second: string[]): void {
  const seen = new Set(first);
  for (const key of second) {
    if (!seen.has(key)) continue;
    p.add(keyPath(secondField, key), `key ${JSON.stringify(key)} is also set in ${firstField}`, `keep each key in only one of ${firstField} and ${secondField}`);
  }
}

/**
 * Reports a total data size above 1 MiB.
 *
 * @example
 * ```ts
 * import type { ConfigMap } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const cm: ConfigMap;
 * const p = problemsFor(cm, "ConfigMap");
 * const { bytes } = checkDataMap(p, "data", cm.data, "string");
 * checkDataSize(p, "data", bytes);
 * ```
 */
export function checkDataSize(p: Problems, fields: string, bytes: number): void {
  if (bytes <= MAX_DATA_BYTES) return;
  p.add(fields, `total size ${bytes} bytes exceeds the 1 MiB (${MAX_DATA_BYTES} bytes) limit`, "split the data across several objects or mount it from a volume");
}

/**
 * Checks the optional `immutable` flag is a boolean.
 *
 * @example
 * ```ts
 * import type { ConfigMap } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const cm: ConfigMap;
 * const p = problemsFor(cm, "ConfigMap");
 * checkImmutableFlag(p, cm.immutable);
 * ```
 */
export function checkImmutableFlag(p: Problems, value: unknown): void {
  if (value === undefined || typeof value === "boolean") return;
  p.add("immutable", `is ${jsonType(value)}, not a boolean`, "set immutable to true or false, or omit it");
}
