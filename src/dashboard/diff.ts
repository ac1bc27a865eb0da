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
/** At most this many operations for a created or deleted object (its every field). */
const MAX_WHOLE_OPS = 60;
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
 * `kubectl.kubernetes.io/last-applied-configuration` annotation, which holds them.
 * `options.only` compares one top-level field (`status` for a status write). At most 200
 * operations (60 for a created or deleted object); long values are cut.
 *
 * @example
 * ```ts
 * objectDiff({ spec: { replicas: 1 } }, { spec: { replicas: 3 } }); // [{ op: "replace", path: "/spec/replicas", old: 1, value: 3 }]
 * ```
 */
export function objectDiff(before: unknown, after: unknown, options: { secret?: boolean; only?: string } = {}): DiffOp[] {
  const whole = before === undefined || after === undefined;
  const ops: Ops = { list: [], total: 0, max: whole ? MAX_WHOLE_OPS : MAX_OPS };
  const secret = options.secret === true || isSecret(before) || isSecret(after);
  let a = clean(before, secret, undefined);
  let b = clean(after, secret, before);
  const path: string[] = [];
  if (options.only !== undefined) {
    a = isPlainObject(a) ? a[options.only] : undefined;
    b = isPlainObject(b) ? b[options.only] : undefined;
    path.push(options.only);
  }
  walk(a, b, path, ops);
  const list = ops.list;
  if (ops.total > ops.max) {
    list.length = ops.max - 1;
    list.push({ op: "replace", path: "", value: `… ${ops.total - (ops.max - 1)} more changes left out` });
  }
  return list.map(cut);
}

/** The operations kept (the first `max`), and how many there are in all. */
interface Ops {
  list: DiffOp[];
  total: number;
  max: number;
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

/** Compares `a` and `b` at `path` (its segments, joined only for an operation kept). */
function walk(a: unknown, b: unknown, path: string[], ops: Ops): void {
  if (a === b) return;
  if (a === undefined || b === undefined) {
    // A field added or removed whole: one operation per leaf, so a created object reads field by field.
    const whole = a === undefined ? b : a;
    if (isPlainObject(whole)) {
      const keys = Object.keys(whole);
      if (keys.length > 0) {
        for (const k of keys) {
          path.push(k);
          walk(a === undefined ? undefined : whole[k], a === undefined ? whole[k] : undefined, path, ops);
          path.pop();
        }
        return;
      }
    }
    push(ops, path, a === undefined ? { op: "add", value: b } : { op: "remove", old: a });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === b.length) {
      for (let i = 0; i < a.length; i++) {
        path.push(String(i));
        walk(a[i], b[i], path, ops);
        path.pop();
      }
      return;
    }
  } else if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of Object.keys(a)) {
      path.push(k);
      walk(a[k], b[k], path, ops);
      path.pop();
    }
    for (const k of Object.keys(b)) {
      if (Object.hasOwn(a, k)) continue;
      path.push(k);
      walk(undefined, b[k], path, ops);
      path.pop();
    }
    return;
  } else if (typeof a !== "object" || typeof b !== "object") {
    push(ops, path, { op: "replace", old: a, value: b });
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  push(ops, path, { op: "replace", old: a, value: b });
}

/** Counts an operation; keeps it (with its JSON Pointer) while fewer than `ops.max` are kept. */
function push(ops: Ops, path: readonly string[], op: Omit<DiffOp, "path">): void {
  ops.total++;
  if (ops.list.length < ops.max) ops.list.push({ ...op, path: path.length ? `/${path.map(escape).join("/")}` : "/" } as DiffOp);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A JSON Pointer token. */
function escape(key: string): string {
  return key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key;
}

/** `op` with long values cut. */
function cut(op: DiffOp): DiffOp {
  const out: DiffOp = { op: op.op, path: op.path };
  if ("old" in op) out.old = cutValue(op.old);
  if ("value" in op) out.value = cutValue(op.value);
  return out;
}

function cutValue(v: unknown): unknown {
  if (v === undefined || v === null || typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "string") return v.length <= MAX_VALUE_CHARS ? v : `${v.slice(0, MAX_VALUE_CHARS)}… (${v.length} characters)`;
  const json = JSON.stringify(v);
  if (json === undefined || json.length <= MAX_VALUE_CHARS) return v;
  return `${json.slice(0, MAX_VALUE_CHARS)}… (${json.length} characters)`;
}

/**
 * About how many bytes a diff holds (its JSON size, estimated without serializing it): what the
 * dashboard's timeline counts against its memory budget.
 *
 * @example
 * ```ts
 * diffBytes([{ op: "replace", path: "/spec/replicas", old: 1, value: 3 }]); // about 60
 * ```
 */
export function diffBytes(ops: readonly DiffOp[]): number {
  let bytes = 2;
  for (const o of ops) bytes += 32 + o.path.length + valueBytes(o.old) + valueBytes(o.value);
  return bytes;
}

function valueBytes(v: unknown): number {
  if (v === undefined) return 0;
  if (typeof v === "string") return v.length + 2;
  if (typeof v !== "object" || v === null) return 8;
  return JSON.stringify(v)?.length ?? 0;
}
