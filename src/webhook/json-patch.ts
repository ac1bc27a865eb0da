/**
 * An RFC 6902 JSON Patch between two JSON documents: what a mutating webhook answers for the
 * object its `default` handler returned.
 *
 * @module
 */

/**
 * One RFC 6902 operation (this module writes `add`, `remove` and `replace` only).
 *
 * @example
 * ```ts
 * const op: JsonPatchOperation = { op: "add", path: "/spec/replicas", value: 1 };
 * ```
 */
export type JsonPatchOperation =
  | { op: "add" | "replace"; path: string; value: unknown }
  | { op: "remove"; path: string };

/**
 * The JSON Patch that turns `from` into `to` (both JSON data: what `JSON.parse` returns).
 * Object members are compared key by key (a missing key is `add`, a vanished one `remove`, a
 * changed scalar or a changed type `replace`); arrays element by element over their common
 * length, then `add`s at the end (ascending indices) or `remove`s from the end (descending
 * indices, so each index is valid when applied). Path segments escape `~` as `~0` and `/` as
 * `~1` (`metadata.annotations["example.com/x"]` is `/metadata/annotations/example.com~1x`).
 * Equal documents give `[]`.
 *
 * @example
 * ```ts
 * jsonPatch({ spec: { a: 1 } }, { spec: { a: 2, b: [1] } });
 * // [{ op: "replace", path: "/spec/a", value: 2 }, { op: "add", path: "/spec/b", value: [1] }]
 * ```
 */
export function jsonPatch(from: unknown, to: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  diff(from, to, "", ops);
  return ops;
}

/**
 * One path segment, escaped as RFC 6901 requires.
 *
 * @example
 * ```ts
 * escapePathSegment("example.com/owner"); // "example.com~1owner"
 * ```
 */
export function escapePathSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function diff(from: unknown, to: unknown, path: string, ops: JsonPatchOperation[]): void {
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) {
      if (!Object.hasOwn(to, key)) ops.push({ op: "remove", path: `${path}/${escapePathSegment(key)}` });
    }
    for (const key of Object.keys(to)) {
      const p = `${path}/${escapePathSegment(key)}`;
      if (!Object.hasOwn(from, key)) ops.push({ op: "add", path: p, value: to[key] });
      else diff(from[key], to[key], p, ops);
    }
    return;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i++) diff(from[i], to[i], `${path}/${i}`, ops);
    for (let i = common; i < to.length; i++) ops.push({ op: "add", path: `${path}/${i}`, value: to[i] });
    for (let i = from.length - 1; i >= common; i--) ops.push({ op: "remove", path: `${path}/${i}` });
    return;
  }
  if (!jsonEqual(from, to)) ops.push({ op: "replace", path, value: to });
}

/**
 * Deep equality of JSON data (key order ignored).
 *
 * @example
 * ```ts
 * jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); // true
 * ```
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * The first place two JSON documents differ, as a Kubernetes field path (`spec.ports[0].name`;
 * a key that is not an identifier as `metadata.annotations["example.com/x"]`), or undefined
 * when they are equal. The empty string is the whole document.
 *
 * @example
 * ```ts
 * firstDifference({ spec: { ports: [{ name: "a" }] } }, { spec: { ports: [{ name: "b" }] } }); // "spec.ports[0].name"
 * ```
 */
export function firstDifference(a: unknown, b: unknown, path = ""): string | undefined {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const p = /^[A-Za-z_$][\w$-]*$/.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${JSON.stringify(k)}]`;
      if (!Object.hasOwn(a, k) || !Object.hasOwn(b, k)) return p;
      const d = firstDifference(a[k], b[k], p);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return `${path}[${i}]`;
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return jsonEqual(a, b) ? undefined : path;
}
