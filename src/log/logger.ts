/**
 * Structured, levelled logging with a pluggable sink: every line carries fields (controller,
 * key, reconcile ID, …) and child loggers add their own.
 */

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

/** A JSON-lines sink on stderr. */
export const jsonSink: LogSink = (r) => {
  process.stderr.write(`${JSON.stringify(r, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v))}\n`);
};

/**
 * Creates a logger.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: "debug" }).child({ controller: "dataapp" });
 * log.info("reconciled", { key: "default/orders", reconcileID: "3f2a…" });
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const envLevel = process.env.LOG_LEVEL as LogLevel | undefined;
  const min = ORDER[options.level ?? (envLevel && envLevel in ORDER ? envLevel : "info")];
  const sink = options.sink ?? jsonSink;
  const make = (base: Record<string, unknown>): Logger => {
    const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[level] < min) return;
      sink({ level, msg, time: new Date().toISOString(), ...base, ...fields });
    };
    return {
      debug: (m, f) => write("debug", m, f),
      info: (m, f) => write("info", m, f),
      warn: (m, f) => write("warn", m, f),
      error: (m, f) => write("error", m, f),
      child: (fields) => make({ ...base, ...fields }),
    };
  };
  return make(options.fields ?? {});
}

/** A logger that writes nothing. */
export const silentLogger: Logger = createLogger({ sink: () => undefined });
