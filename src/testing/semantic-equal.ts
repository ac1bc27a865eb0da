/**
 * Compares parts of two built-in objects the way kube-apiserver's update validation does
 * (`apiequality.Semantic.DeepEqual`), and describes what differs for a `Forbidden` message.
 *
 * Semantic equality differs from plain JSON equality in two ways that matter to clients:
 * - an absent member, `null`, an empty list and an empty map are the same (a PUT that drops
 *   `tolerations: []` changes nothing);
 * - resource quantities (`…resources.requests.*`, `…resources.limits.*`) compare by amount,
 *   so `1Gi` equals `1024Mi`.
 *
 * It is a little more lenient than Go's: an empty object (`securityContext: {}`) also equals an
 * absent one, because JSON alone cannot tell an empty struct from a nil pointer, and `false`
 * equals absent (true of Go's plain booleans, which most are).
 *
 * LocalCluster stores fewer defaults than kube-apiserver (no `dnsPolicy`, `imagePullPolicy`,
 * `revisionHistoryLimit`…), so a client that sends a default explicitly would seem to change a
 * field that a real server had filled in already. {@link shareDefaults} closes that gap before a
 * comparison.
 *
 * @module
 */
import { canonicalJson, isJsonObject } from "./json-value.ts";

/** A path into a JSON value: object keys and list indexes. */
export type JsonPath = readonly (string | number)[];

/**
 * Whether two values are semantically equal (see the module doc). `at` is the path of both
 * values inside their object, so quantities below it are recognised.
 *
 * @example
 * ```ts
 * semanticEqual({ requests: { storage: "1Gi" } }, { requests: { storage: "1024Mi" } }, ["spec", "resources"]); // → true
 * semanticEqual({ tolerations: [] }, {}, ["spec"]); // → true
 * ```
 */
export function semanticEqual(a: unknown, b: unknown, at: JsonPath = []): boolean {
  return canonicalJson(normalize(a, at)) === canonicalJson(normalize(b, at));
}

/**
 * The differences between `before` and `after`, one `-`/`+` pair per changed field, in the
 * spirit of the `cmp.Diff` kube-apiserver appends to a `Forbidden` update message (it is not
 * the same text: paths are JSON field paths, values JSON). At most `limit` fields are listed.
 *
 * @example
 * ```ts
 * specDiff({ containers: [{ command: ["a"] }] }, { containers: [{ command: ["b"] }] }, ["spec"]);
 * // → '  spec.containers[0].command[0]:\n-   "a"\n+   "b"'
 * ```
 */
export function specDiff(before: unknown, after: unknown, at: JsonPath, limit = 10): string {
  const changes: { path: JsonPath; before: unknown; after: unknown }[] = [];
  collectChanges(normalize(before, at), normalize(after, at), at, changes);
  const lines = changes.slice(0, limit).flatMap((c) => [
    `  ${formatPath(c.path)}:`,
    ...(c.before === undefined ? [] : [`-   ${JSON.stringify(c.before)}`]),
    ...(c.after === undefined ? [] : [`+   ${JSON.stringify(c.after)}`]),
  ]);
  if (changes.length > limit) lines.push(`  … ${changes.length - limit} more`);
  return lines.join("\n");
}

/** A JSON path as Kubernetes field errors spell it: `spec.containers[0].image`, `metadata.labels[app.kubernetes.io/name]`. */
export function formatPath(path: JsonPath): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${p}]`;
  }
  return out;
}

/**
 * Where one side sets a member of `defaults` and the other leaves it out, fills the default into
 * the other side (both are modified), so that a default sent explicitly is no change. A default
 * may be a function of the object it is filled into.
 *
 * @example
 * ```ts
 * const a = { dnsPolicy: "ClusterFirst" }, b = {};
 * shareDefaults(a, b, { dnsPolicy: "ClusterFirst" }); // now b.dnsPolicy === "ClusterFirst"
 * ```
 */
export function shareDefaults(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined, defaults: Record<string, unknown>): void {
  if (!isJsonObject(a) || !isJsonObject(b)) return;
  for (const [key, value] of Object.entries(defaults)) {
    const fill = (target: Record<string, unknown>) => (typeof value === "function" ? value(target) : structuredClone(value));
    if ((a[key] ?? null) === null && (b[key] ?? null) !== null) a[key] = fill(a);
    else if ((b[key] ?? null) === null && (a[key] ?? null) !== null) b[key] = fill(b);
  }
}

function collectChanges(a: unknown, b: unknown, path: JsonPath, out: { path: JsonPath; before: unknown; after: unknown }[]): void {
  if (canonicalJson(a) === canonicalJson(b)) return;
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) collectChanges(a[k], b[k], [...path, k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => collectChanges(item, b[i], [...path, i], out));
    return;
  }
  out.push({ path, before: a, after: b });
}

/** Drops empty values, turns quantities into numbers. */
function normalize(value: unknown, path: JsonPath): unknown {
  if (value === null || value === undefined || value === false) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    return value.map((item, i) => normalize(item, [...path, i]) ?? null);
  }
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalize(v, [...path, k]);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (typeof value === "string" && isQuantityPath(path)) return quantityAmount(value) ?? value;
  return value;
}

/** `…resources.requests.<name>` or `…resources.limits.<name>`. */
function isQuantityPath(path: JsonPath): boolean {
  const keys = path.filter((p): p is string => typeof p === "string");
  const n = keys.length;
  return n >= 3 && keys[n - 3] === "resources" && (keys[n - 2] === "requests" || keys[n - 2] === "limits");
}

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;
const FACTORS: Record<string, number> = {
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
};

/**
 * The amount of a resource quantity (`10Gi` → 10737418240), or undefined when the text is not
 * one. Floating point: fine for comparing sizes, not for exact arithmetic past 2^53.
 *
 * @example
 * ```ts
 * quantityAmount("1Gi") === quantityAmount("1024Mi"); // → true
 * ```
 */
export function quantityAmount(text: unknown): number | undefined {
  if (typeof text === "number") return Number.isFinite(text) ? text : undefined;
  if (typeof text !== "string") return undefined;
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const suffix = m[2];
  const factor = suffix === undefined ? 1 : (FACTORS[suffix] ?? 10 ** Number(suffix.slice(1)));
  const value = Number(m[1]) * factor;
  return Number.isFinite(value) ? value : undefined;
}
