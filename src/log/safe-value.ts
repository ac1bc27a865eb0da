/**
 * Safe descriptions of arbitrary values for logs, conditions and events: any value (cyclic,
 * BigInt, Symbol, throwing getters or proxies, huge) becomes bounded plain JSON or a short
 * string, and describing never throws.
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Bounds of {@link toLogValue}. */
const MAX_DEPTH = 8;
const MAX_ITEMS = 100;
const MAX_STRING = 8192;
const MAX_NODES = 2000;
const MAX_CHARS = 65_536;

interface Budget {
  nodes: number;
  chars: number;
}

function truncate(s: string, budget: Budget): string {
  const room = Math.max(0, Math.min(MAX_STRING, budget.chars));
  const out = s.length > room ? `${s.slice(0, room)}…[${s.length - room} more characters]` : s;
  budget.chars -= Math.min(s.length, room);
  return out;
}

/** A one-word description of a value that could not be read, itself never throwing. */
function unreadable(what: string, err: unknown): string {
  let why = "";
  try {
    why = err instanceof Error ? `${err.name}: ${err.message}` : typeof err;
  } catch {
    why = "unknown";
  }
  return `[${what}: ${why.slice(0, 200)}]`;
}

function scalar(value: unknown, budget: Budget): JsonValue | undefined {
  switch (typeof value) {
    case "string": return truncate(value, budget);
    case "number": return Number.isFinite(value) ? value : String(value);
    case "boolean": return value;
    case "bigint": return truncate(`${value.toString()}n`, budget);
    case "symbol": return truncate(value.toString(), budget);
    case "function": return truncate(`[Function ${(value as { name?: unknown }).name || "anonymous"}]`, budget);
    case "undefined": return undefined;
    default: return value === null ? null : undefined;
  }
}

/** Reads `obj[key]`, describing a throwing getter instead of throwing. */
function read(obj: object, key: string | number): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch (err) {
    return unreadable(`${String(key)} threw`, err);
  }
}

function convert(value: unknown, depth: number, ancestors: object[], budget: Budget): JsonValue | undefined {
  if (typeof value !== "object" || value === null) return scalar(value, budget);
  if (--budget.nodes < 0 || budget.chars <= 0) return "[…]";
  if (ancestors.includes(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[Array(${value.length})]` : "[Object]";
  ancestors.push(value);
  try {
    const next = (v: unknown) => convert(v, depth + 1, ancestors, budget);
    if (value instanceof Error) {
      // Only the error's own story: a cause or an aggregated error that is not an Error (a
      // response, a request with its headers) is named, not dumped.
      const part = (v: unknown): unknown => (typeof v === "object" && v !== null && !(v instanceof Error) ? "[non-Error value]" : v);
      const out: Record<string, JsonValue> = {};
      for (const key of ["name", "message", "code", "reason"] as const) {
        const v = next(read(value, key));
        if (v !== undefined && (key === "name" || key === "message" || typeof v !== "object")) out[key] = v;
      }
      if ("cause" in value) out.cause = next(part(read(value, "cause"))) ?? null;
      const errors = read(value, "errors");
      if (Array.isArray(errors)) out.errors = next(errors.slice(0, MAX_ITEMS).map(part)) ?? [];
      return out;
    }
    const toJSON = read(value, "toJSON");
    if (typeof toJSON === "function") {
      let json: unknown;
      try {
        json = (toJSON as () => unknown).call(value);
      } catch (err) {
        return unreadable("toJSON threw", err);
      }
      return json === value ? "[toJSON returned itself]" : (next(json) ?? null);
    }
    if (value instanceof Map) return next([...value.entries()].slice(0, MAX_ITEMS));
    if (value instanceof Set) return next([...value.values()].slice(0, MAX_ITEMS));
    if (Array.isArray(value)) {
      const out: JsonValue[] = [];
      const n = Math.min(value.length, MAX_ITEMS);
      for (let i = 0; i < n; i++) out.push(next(read(value, i)) ?? null);
      if (value.length > n) out.push(`…[${value.length - n} more items]`);
      return out;
    }
    const out: Record<string, JsonValue> = {};
    const keys = Object.keys(value);
    for (const key of keys.slice(0, MAX_ITEMS)) {
      const v = next(read(value, key));
      if (v !== undefined) out[truncate(key, budget)] = v;
    }
    if (keys.length > MAX_ITEMS) out["…"] = `[${keys.length - MAX_ITEMS} more keys]`;
    return out;
  } catch (err) {
    return unreadable("unreadable value", err);
  } finally {
    ancestors.pop();
  }
}

/**
 * Any value as bounded plain JSON, for a log line: cycles become `"[Circular]"`, BigInts
 * `"12n"`, Symbols and functions their description, NaN and Infinity strings, Errors
 * `{ name, message, code, reason, cause, errors }`, getters and `toJSON`s that throw and
 * proxies that refuse to be read a `"[… threw: …]"` note. Depth, items, string length and total
 * size are bounded. Never throws. `undefined` stays `undefined` (omitted from objects).
 *
 * @example
 * ```ts
 * const cyclic: Record<string, unknown> = { a: 1n };
 * cyclic.self = cyclic;
 * JSON.stringify(toLogValue(cyclic)); // {"a":"1n","self":"[Circular]"}
 * ```
 */
export function toLogValue(value: unknown): JsonValue | undefined {
  try {
    return convert(value, 0, [], { nodes: MAX_NODES, chars: MAX_CHARS });
  } catch (err) {
    return unreadable("unreadable value", err);
  }
}

/**
 * A log record's fields as bounded plain JSON, `level`, `msg` and `time` first, each value as
 * {@link toLogValue} describes it, all sharing one size budget. The record itself is read as a
 * bag of fields (a `toJSON` on it is not called). Never throws.
 *
 * @example
 * ```ts
 * JSON.stringify(toLogRecord({ level: "info", msg: "hi", time: "2026-01-01T00:00:00.000Z", n: 1n }));
 * // {"level":"info","msg":"hi","time":"2026-01-01T00:00:00.000Z","n":"1n"}
 * ```
 */
export function toLogRecord(record: object): Record<string, JsonValue> {
  const budget: Budget = { nodes: MAX_NODES, chars: MAX_CHARS };
  const out: Record<string, JsonValue> = {};
  const put = (key: string) => {
    const v = convert(read(record, key), 1, [record], budget);
    if (v !== undefined) out[truncate(key, budget)] = v;
  };
  try {
    for (const key of ["level", "msg", "time"]) put(key);
    let n = 0;
    for (const key in record) {
      if (key === "level" || key === "msg" || key === "time" || !Object.hasOwn(record, key)) continue;
      if (++n > MAX_ITEMS) {
        out["…"] = "[more fields]";
        break;
      }
      put(key);
    }
  } catch (err) {
    out.fieldsError = unreadable("unreadable fields", err);
  }
  return out;
}

/**
 * A one-line, human-readable description of a thrown value (for a condition message or an
 * event note): an Error's message, a string as is, anything else as compact JSON. At most
 * `max` characters. Never throws.
 *
 * @example
 * ```ts
 * describeThrown(new Error("bad spec")); // "bad spec"
 * describeThrown(42n);                   // "42n"
 * ```
 */
export function describeThrown(value: unknown, max = 4096): string {
  let text: string;
  try {
    if (value instanceof Error) {
      const message = read(value, "message");
      text = typeof message === "string" && message !== "" ? message : JSON.stringify(toLogValue(value));
    } else if (typeof value === "string") {
      text = value;
    } else {
      text = JSON.stringify(toLogValue(value)) ?? "undefined";
    }
  } catch (err) {
    text = unreadable("unreadable value", err);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
