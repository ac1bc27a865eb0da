/** Counts every API request a ResourceClient makes, so tests and benchmarks can assert API cost. */

/** The verbs a {@link RequestCounter} records. `apply` is a server-side apply PATCH. */
export type RequestVerb = "get" | "list" | "create" | "update" | "patch" | "apply" | "delete" | "discovery";

/**
 * One request as the client saw it.
 *
 * @example
 * ```ts
 * import type { RequestRecord } from "operator-runtime";
 * const r: RequestRecord = { verb: "get", resource: "configmaps", namespace: "default", name: "a", code: 200, durationMs: 1.2 };
 * ```
 */
export interface RequestRecord {
  verb: RequestVerb;
  /** Resource plural, `plural/subresource` (`deployments/status`), or the group/version for discovery. */
  resource: string;
  namespace?: string;
  name?: string;
  /** HTTP status code; 0 when no response arrived (network error). */
  code: number;
  durationMs: number;
}

/**
 * Which records to count. Omitted fields match anything; arrays match any of their values.
 *
 * @example
 * ```ts
 * import type { RequestFilter } from "operator-runtime";
 * const writesToStatus: RequestFilter = { verb: ["patch", "apply"], resource: "widgets/status" };
 * ```
 */
export interface RequestFilter {
  verb?: RequestVerb | RequestVerb[];
  resource?: string | string[];
  namespace?: string;
  name?: string;
  code?: number;
}

/** The verbs that change state. */
const WRITE_VERBS: ReadonlySet<RequestVerb> = new Set(["create", "update", "patch", "apply", "delete"]);

function matchOne<V>(want: V | V[] | undefined, value: V): boolean {
  if (want === undefined) return true;
  return Array.isArray(want) ? want.includes(value) : want === value;
}

function matches(f: RequestFilter, r: RequestRecord): boolean {
  return (
    matchOne(f.verb, r.verb) &&
    matchOne(f.resource, r.resource) &&
    (f.namespace === undefined || f.namespace === r.namespace) &&
    (f.name === undefined || f.name === r.name) &&
    (f.code === undefined || f.code === r.code)
  );
}

/**
 * A log of requests with counting queries and a listener hook (for metrics).
 *
 * Guarantees: every request a {@link ResourceClient} sends is recorded once, after its response
 * (or network failure), errors included. Caveats: only the newest `maxRecords` records are kept
 * (default 100,000) so a long-running operator does not grow without bound; every query looks at
 * the kept records. Listeners see every request regardless. A listener that throws does not fail
 * the request: its error is reported with `process.emitWarning`.
 *
 * @example
 * ```ts
 * import { RequestCounter } from "operator-runtime";
 * const requests = new RequestCounter();
 * const stop = requests.onRequest((r) => console.log(r.verb, r.resource, r.code));
 * requests.record({ verb: "get", resource: "configmaps", code: 200, durationMs: 1 });
 * console.log(requests.count({ verb: "get" }), requests.writes(), requests.summary());
 * stop();
 * ```
 */
export class RequestCounter {
  readonly #maxRecords: number;
  #records: RequestRecord[] = [];
  readonly #listeners = new Set<(record: RequestRecord) => void>();

  constructor(options: { maxRecords?: number } = {}) {
    this.#maxRecords = Math.max(1, options.maxRecords ?? 100_000);
  }

  /** Adds a record and tells the listeners. Called by the client for every request. */
  record(record: RequestRecord): void {
    this.#records.push(record);
    // Trim in chunks so the array is not shifted on every request once full.
    if (this.#records.length > this.#maxRecords + Math.ceil(this.#maxRecords / 10)) {
      this.#records = this.#records.slice(-this.#maxRecords);
    }
    for (const fn of this.#listeners) {
      try {
        fn(record);
      } catch (err) {
        process.emitWarning(`RequestCounter listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Calls `fn` after every request; returns a function that unsubscribes. */
  onRequest(fn: (record: RequestRecord) => void): () => void {
    this.#listeners.add(fn);
    return () => {
      this.#listeners.delete(fn);
    };
  }

  /** Every kept record, oldest first. */
  all(): readonly RequestRecord[] {
    const start = Math.max(0, this.#records.length - this.#maxRecords);
    return start === 0 ? [...this.#records] : this.#records.slice(start);
  }

  /** Records matching a filter. */
  filter(filter: RequestFilter = {}): RequestRecord[] {
    return this.all().filter((r) => matches(filter, r));
  }

  /** Number of requests matching a filter (all requests without one). */
  count(filter: RequestFilter = {}): number {
    return this.filter(filter).length;
  }

  /** Number of writes (create, update, patch, apply, delete) matching a filter. */
  writes(filter: Omit<RequestFilter, "verb"> = {}): number {
    return this.all().filter((r) => WRITE_VERBS.has(r.verb) && matches(filter, r)).length;
  }

  /** Counts keyed `verb resource code`, e.g. `{ "get configmaps 200": 3 }`. */
  summary(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.all()) {
      const key = `${r.verb} ${r.resource} ${r.code}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }

  /** Forgets every record (listeners stay subscribed). */
  clear(): void {
    this.#records = [];
  }
}
