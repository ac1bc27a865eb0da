/**
 * Structured, levelled logging with a pluggable sink: every line carries fields (controller,
 * key, reconcile ID, …) and child loggers add their own. Logging never throws.
 */
import { describeThrown, toLogRecord, toLogValue } from "./safe-value.ts";
import { argumentError, checkObject } from "../util/check-args.ts";

/** Log levels, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One log record. */
export interface LogRecord {
  level: LogLevel;
  msg: string;
  time: string;
  [field: string]: unknown;
}

/** Where records go. */
export type LogSink = (record: LogRecord) => void;

/** A structured logger. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger adding `fields` to every record. */
  child(fields: Record<string, unknown>): Logger;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Minimum level written (default `info`, or `LOG_LEVEL` from the environment). */
  level?: LogLevel;
  /** Where records go (default: one JSON line per record on stderr). */
  sink?: LogSink;
  /** Fields on every record. */
  fields?: Record<string, unknown>;
}

/**
 * A sink writing each record as one JSON line through `write`. Any field value is written
 * safely (see the logger's guarantees): cycles, BigInts, Symbols, throwing getters and huge
 * values never make it throw, and every record is exactly one line of valid JSON.
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const log = createLogger({ sink: jsonLineSink((line) => lines.push(line)) });
 * log.error("reconcile failed", { error: 12n }); // lines[0] is {"level":"error",…,"error":"12n"}
 * ```
 */
export function jsonLineSink(write: (line: string) => void): LogSink {
  if (typeof write !== "function") throw argumentError("jsonLineSink(write)", "write", "a function (line) => void", write);
  return (r) => {
    let line: string;
    try {
      line = JSON.stringify(toLogRecord(r));
    } catch {
      line = JSON.stringify({ level: "error", msg: "log record could not be serialized", time: new Date().toISOString() });
    }
    write(`${line}\n`);
  };
}

/** A JSON-lines sink on stderr (the default): {@link jsonLineSink} writing to `process.stderr`. */
export const jsonSink: LogSink = jsonLineSink((line) => process.stderr.write(line));

/**
 * Creates a logger.
 *
 * Guarantees: a log call never throws, whatever the fields hold (cyclic objects, BigInts,
 * Symbols, getters or proxies that throw, huge values) and whatever the sink does. The default
 * sink writes every record as one valid JSON line, with values described safely and bounded
 * in size. A record that cannot be built (a field getter throws) is written with the fields
 * described instead; when a custom sink throws, the record goes to the default sink on stderr
 * with a `sinkError` field.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: "debug" }).child({ controller: "dataapp" });
 * log.info("reconciled", { key: "default/orders", reconcileID: "3f2a9c1e" });
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  checkObject("createLogger(options)", "options", options, "an options object ({ level?, sink? })");
  const envLevel = process.env.LOG_LEVEL as LogLevel | undefined;
  const min = ORDER[options.level ?? (envLevel && envLevel in ORDER ? envLevel : "info")];
  const sink = options.sink ?? jsonSink;
  const make = (base: Record<string, unknown>): Logger => {
    const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[level] < min) return;
      const time = new Date().toISOString();
      const text = typeof msg === "string" ? msg : describeThrown(msg);
      let record: LogRecord;
      try {
        record = isFieldBag(fields) ? { level, msg: text, time, ...base, ...fields } : { level, msg: text, time, ...base, fields: toLogValue(fields) };
      } catch {
        record = { level, msg: text, time, ...base, fields: toLogValue(fields) };
      }
      try {
        sink(record);
      } catch (err) {
        if (sink === jsonSink) return;
        try {
          jsonSink({ ...record, sinkError: err });
        } catch {
          // Nowhere left to write: dropping the line beats crashing the caller.
        }
      }
    };
    return {
      debug: (m, f) => write("debug", m, f),
      info: (m, f) => write("info", m, f),
      warn: (m, f) => write("warn", m, f),
      error: (m, f) => write("error", m, f),
      child: (fields) => {
        try {
          return make(isFieldBag(fields) ? { ...base, ...fields } : { ...base, fields: toLogValue(fields) });
        } catch {
          return make({ ...base, fields: toLogValue(fields) });
        }
      },
    };
  };
  return make(options.fields ?? {});
}

/** Whether `fields` can be spread into a record (JavaScript callers may pass anything). */
function isFieldBag(fields: unknown): boolean {
  return fields === undefined || (typeof fields === "object" && fields !== null && !Array.isArray(fields));
}

/** A logger that writes nothing. */
export const silentLogger: Logger = createLogger({ sink: () => undefined });
