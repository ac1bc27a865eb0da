/**
 * The diff a write made to an object, as the dashboard shows it: JSON Pointer paths with the
 * value before and after, without the bookkeeping every write changes, and never a Secret's
 * values.
 */
import type { DiffOp } from "./types.ts";

/** Metadata every write changes (or the server owns): left out of diffs. */
const VOLATILE_METADATA = ["resourceVersion", "managedFields", "generation", "creationTimestamp", "uid", "selfLink"];
/** The annotation `kubectl apply` keeps: a Secret's holds its values. */
const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
/** At most this many operations per diff; the last one says how many were left out. */
const MAX_OPS = 200;
/** Values longer than this (as JSON) are cut. */
const MAX_VALUE_CHARS = 2000;

/**
 * The operations that turn `before` into `after` (either may be undefined: a create, a
 * delete). A field added or removed whole is listed leaf by leaf (an array is one leaf);
 * arrays of equal length are compared item by item, others replaced whole. A
 * Secret's `data` and `stringData` values are replaced by their length (`options.secret`, or
 * `kind: "Secret"` on either side, says it is one), and so is its
 * `kubectl.kubernetes.io/last-applied-configuration` annotation, which holds them. At most 200
 * operations; long values are cut.
 *
 * @example
 * ```ts
 * objectDiff({ spec: { replicas: 1 } }, { spec: { replicas: 3 } }); // [{ op: "replace", path: "/spec/replicas", old: 1, value: 3 }]
 * ```
 */
export function objectDiff(before: unknown, after: unknown, options: { secret?: boolean } = {}): DiffOp[] {
  const ops: Ops = { list: [], total: 0 };
  const secret = options.secret === true || isSecret(before) || isSecret(after);
  walk(clean(before, secret, undefined), clean(after, secret, before), "", ops);
  const list = ops.list;
  if (ops.total > MAX_OPS) {
    list.length = MAX_OPS - 1;
    list.push({ op: "replace", path: "", value: `… ${ops.total - (MAX_OPS - 1)} more changes left out` });
  }
  return list.map(cut);
}

/** The operations kept (the first {@link MAX_OPS}), and how many there are in all. */
interface Ops {
  list: DiffOp[];
  total: number;
}

function isSecret(obj: unknown): boolean {
  return typeof obj === "object" && obj !== null && (obj as { kind?: unknown }).kind === "Secret";
}

/**
 * A copy without volatile metadata; a Secret's values replaced by their size (an `after` value
 * that differs from the one in `before` says so, even when the size is the same).
 */
function clean(obj: unknown, secret: boolean, before: unknown): unknown {
  if (typeof obj !== "object" || obj === null) return obj;
  const copy = { ...(obj as Record<string, unknown>) };
  if (typeof copy.metadata === "object" && copy.metadata !== null) {
    const metadata = { ...(copy.metadata as Record<string, unknown>) };
    for (const k of VOLATILE_METADATA) delete metadata[k];
    copy.metadata = metadata;
  }
  if (secret) {
    const metadata = copy.metadata as { annotations?: Record<string, unknown> } | undefined;
    if (metadata?.annotations && Object.hasOwn(metadata.annotations, LAST_APPLIED)) {
      metadata.annotations = { ...metadata.annotations, [LAST_APPLIED]: "(hidden: it holds the Secret's values)" };
    }
    for (const field of ["data", "stringData"]) {
      const values = copy[field];
      if (typeof values !== "object" || values === null) continue;
      const old = typeof before === "object" && before !== null ? (before as Record<string, unknown>)[field] : undefined;
      const oldValues = typeof old === "object" && old !== null ? old as Record<string, unknown> : {};
      copy[field] = Object.fromEntries(Object.entries(values).map(([k, v]) => {
        const changed = Object.hasOwn(oldValues, k) && oldValues[k] !== v;
        return [k, `(secret value, ${String(v).length} characters, hidden${changed ? ", changed" : ""})`];
      }));
    }
  }
  return copy;
}

function walk(a: unknown, b: unknown, path: string, ops: Ops): void {
  if (a === b) return;
  if (a === undefined || b === undefined) {
    // A field added or removed whole: one operation per leaf, so a created object reads field by field.
    const whole = a === undefined ? b : a;
    if (isPlainObject(whole) && Object.keys(whole).length > 0) {
      for (const k of Object.keys(whole).sort()) walk(a === undefined ? undefined : whole[k], a === undefined ? whole[k] : undefined, `${path}/${escape(k)}`, ops);
      return;
    }
    push(ops, a === undefined ? { op: "add", path: path || "/", value: b } : { op: "remove", path: path || "/", old: a });
    return;
  }
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  const bothObjects = isPlainObject(a) && isPlainObject(b);
  if (bothArrays && a.length === b.length) {
    for (let i = 0; i < a.length; i++) walk(a[i], b[i], `${path}/${i}`, ops);
    return;
  }
  if (bothObjects) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) walk(a[k], b[k], `${path}/${escape(k)}`, ops);
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  push(ops, { op: "replace", path: path || "/", old: a, value: b });
}

/** Counts an operation; keeps it while fewer than {@link MAX_OPS} are kept. */
function push(ops: Ops, op: DiffOp): void {
  ops.total++;
  if (ops.list.length < MAX_OPS) ops.list.push(op);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A JSON Pointer token. */
function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `op` with long values cut. */
function cut(op: DiffOp): DiffOp {
  const out: DiffOp = { op: op.op, path: op.path };
  if ("old" in op) out.old = cutValue(op.old);
  if ("value" in op) out.value = cutValue(op.value);
  return out;
}

function cutValue(v: unknown): unknown {
  if (v === undefined) return undefined;
  const json = JSON.stringify(v);
  if (json === undefined || json.length <= MAX_VALUE_CHARS) return v;
  return `${json.slice(0, MAX_VALUE_CHARS)}… (${json.length} characters)`;
}
