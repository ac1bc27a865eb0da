/**
 * A logger that also tells listeners of each record (the dashboard's log view), at no cost
 * while nobody listens.
 */
import type { Logger } from "./logger.ts";

/** A level of {@link Logger}. */
export type TapLevel = "debug" | "info" | "warn" | "error";

/**
 * What a {@link LogTap} listener receives: the level, the message, and the fields of the record
 * (the child loggers' fields, then the call's).
 *
 * @example
 * ```ts
 * const record: TappedRecord = { level: "info", msg: "started", fields: { controller: "pinot", workers: 1 } };
 * ```
 */
export interface TappedRecord {
  level: TapLevel;
  msg: string;
  fields: Record<string, unknown>;
}

/**
 * Wraps a logger: every record goes to it as before, and to each listener added with
 * {@link LogTap.listen} (whatever the wrapped logger's level). Listeners run synchronously and
 * must not throw (what they throw is ignored).
 *
 * @example
 * ```ts
 * import { createLogger } from "operator-runtime";
 *
 * const tap = new LogTap(createLogger());
 * const stop = tap.listen((r) => console.log(r.level, r.msg));
 * tap.logger.child({ controller: "pinot" }).info("started");
 * stop();
 * ```
 */
export class LogTap {
  /** The logger to hand out: the wrapped one, tapped. */
  readonly logger: Logger;
  readonly #listeners = new Set<(record: TappedRecord) => void>();

  constructor(inner: Logger) {
    this.logger = this.#wrap(inner, {});
  }

  /** Adds a listener; answers the function that removes it. */
  listen(listener: (record: TappedRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #wrap(inner: Logger, base: Record<string, unknown>): Logger {
    const tell = (level: TapLevel, msg: string, fields: Record<string, unknown> | undefined) => {
      if (this.#listeners.size === 0) return;
      const record: TappedRecord = { level, msg: typeof msg === "string" ? msg : String(msg), fields: fields && typeof fields === "object" ? { ...base, ...fields } : base };
      for (const l of this.#listeners) {
        try {
          l(record);
        } catch {
          // A listener never breaks logging.
        }
      }
    };
    return {
      debug: (m, f) => {
        inner.debug(m, f);
        tell("debug", m, f);
      },
      info: (m, f) => {
        inner.info(m, f);
        tell("info", m, f);
      },
      warn: (m, f) => {
        inner.warn(m, f);
        tell("warn", m, f);
      },
      error: (m, f) => {
        inner.error(m, f);
        tell("error", m, f);
      },
      child: (fields) => this.#wrap(inner.child(fields), { ...base, ...fields }),
    };
  }
}
