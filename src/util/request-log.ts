/**
 * The one log of API requests, with counting queries: the client's `RequestCounter` (what it
 * sent) and LocalCluster's request log (what it served) are both this, over their own records.
 */

/**
 * One API request as a log records it: what was asked and the HTTP code that answered.
 *
 * Both sides extend it: the client's `ClientRequestRecord` (its own verbs such as `apply` and
 * `discovery`, and the round-trip time) and LocalCluster's `ServedRequestRecord` (the API
 * server's verbs such as `watch` and `deletecollection`, and whether a fault answered).
 *
 * @example
 * ```ts
 * const r: RequestRecord = { verb: "get", resource: "configmaps", namespace: "default", name: "a", code: 200 };
 * ```
 */
export interface RequestRecord<Verb extends string = string> {
  verb: Verb;
  /** Resource plural, `plural/subresource` (`deployments/status`), or the group/version for discovery. */
  resource: string;
  namespace?: string | undefined;
  name?: string | undefined;
  /** HTTP status code; 0 when no response arrived (network error). */
  code: number;
}

/**
 * Which records to count. Omitted fields match anything; arrays match any of their values.
 *
 * @example
 * ```ts
 * import type { RequestFilter } from "operator-runtime/client";
 * const writesToStatus: RequestFilter = { verb: ["patch", "apply"], resource: "widgets/status" };
 * ```
 */
export interface RequestFilter<Verb extends string = string> {
  verb?: Verb | Verb[];
  resource?: string | string[];
  namespace?: string;
  name?: string;
  code?: number;
}

/**
 * The verbs one side records, so that a filter or a fault naming a verb of the other side (or a
 * typo) is an error instead of silently matching nothing.
 *
 * @example
 * ```ts
 * const serverVerbs: VerbVocabulary = {
 *   noun: "an API server verb",
 *   verbs: ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"],
 *   advice: { apply: 'server-side apply is a "patch"; use verb: "patch"' },
 * };
 * ```
 */
export interface VerbVocabulary {
  /** What a verb of this side is, for messages: `an API server verb`. */
  readonly noun: string;
  readonly verbs: readonly string[];
  /** Advice for verbs known to be wrong here, such as the other side's (`apply` on the server). */
  readonly advice?: Readonly<Record<string, string>>;
}

/**
 * Why a filter's `verb` (one verb or an array of them) names no verb of `vocabulary`, or
 * undefined when every verb is one of them (or `verb` is left out).
 *
 * @example
 * ```ts
 * const serverVerbs: VerbVocabulary = {
 *   noun: "an API server verb",
 *   verbs: ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"],
 *   advice: { apply: 'server-side apply is a "patch"; use verb: "patch"' },
 * };
 * verbProblem(serverVerbs, ["get", "apply"]);
 * // 'verb[1] "apply" is not an API server verb: server-side apply is a "patch"; use verb: "patch"'
 * ```
 */
export function verbProblem(vocabulary: VerbVocabulary, verb: unknown): string | undefined {
  if (verb === undefined) return undefined;
  const fix = `use one of ${vocabulary.verbs.map((v) => JSON.stringify(v)).join(", ")}`;
  if (Array.isArray(verb)) {
    if (verb.length === 0) return "verb is an empty array, which matches no request; leave verb out to match every verb";
    for (const [i, v] of verb.entries()) {
      const why = oneVerbProblem(vocabulary, v, `verb[${i}]`, fix);
      if (why) return why;
    }
    return undefined;
  }
  return oneVerbProblem(vocabulary, verb, "verb", fix);
}

function oneVerbProblem(vocabulary: VerbVocabulary, verb: unknown, field: string, fix: string): string | undefined {
  if (typeof verb !== "string") return `${field} is ${verb === null ? "null" : typeof verb}, not a verb; ${fix}`;
  if (vocabulary.verbs.includes(verb)) return undefined;
  const advice = Object.hasOwn(vocabulary.advice ?? {}, verb) ? vocabulary.advice![verb] : undefined;
  return `${field} ${JSON.stringify(verb)} is not ${vocabulary.noun}${advice ? `: ${advice}` : `; ${fix}`}`;
}

/** The verbs that change state, on either side (`apply` is the client's, `deletecollection` the server's). */
const WRITE_VERBS: ReadonlySet<string> = new Set(["create", "update", "patch", "apply", "delete", "deletecollection"]);

function matchOne<V>(want: V | V[] | undefined, value: V): boolean {
  if (want === undefined) return true;
  return Array.isArray(want) ? want.includes(value) : want === value;
}

/**
 * Whether a request matches a filter's verb, resource, namespace and name. `code` is not
 * compared here: a fault's `code` is the answer it sends, and a request about to be served has
 * none yet; {@link RequestLog} compares it for its queries.
 *
 * @example
 * ```ts
 * matchesRequest({ verb: ["get", "list"], resource: "pods" }, { verb: "list", resource: "pods" }); // true
 * ```
 */
export function matchesRequest<Verb extends string>(
  filter: Omit<RequestFilter<Verb>, "code">,
  request: Omit<RequestRecord<Verb>, "code">,
): boolean {
  return (
    matchOne(filter.verb, request.verb) &&
    matchOne(filter.resource, request.resource) &&
    (filter.namespace === undefined || filter.namespace === request.namespace) &&
    (filter.name === undefined || filter.name === request.name)
  );
}

function matchesRecord<Verb extends string>(filter: RequestFilter<Verb>, record: RequestRecord<Verb>): boolean {
  return matchesRequest(filter, record) && (filter.code === undefined || filter.code === record.code);
}

/**
 * A log of requests with counting queries and a listener hook (for metrics).
 *
 * Guarantees: `record` keeps the record and tells every listener. Listeners see every request
 * regardless of the bound. {@link RequestLog.total} counts every request recorded since the
 * log was made or last cleared, kept or not. A listener that throws does not fail the caller:
 * its error is reported with `process.emitWarning`.
 *
 * Caveats: the log is a ring of `maxRecords` records (default: unbounded) so a long-running
 * process does not grow without bound. Once full, each new record pushes out the oldest, and
 * every query (`all`, `filter`, `count`, `writes`, `summary`) sees only the kept records: a
 * count over a window longer than the ring undercounts. {@link RequestLog.dropped} says how
 * many records fell off, so a test can tell that this happened.
 *
 * @example
 * ```ts
 * const log = new RequestLog({ maxRecords: 1000 });
 * const stop = log.onRequest((r) => console.log(r.verb, r.resource, r.code));
 * log.record({ verb: "get", resource: "configmaps", code: 200 });
 * console.log(log.count({ verb: "get" }), log.writes(), log.summary()); // 1 0 { "get configmaps 200": 1 }
 * console.log(log.total, log.dropped); // 1 0
 * stop();
 * ```
 */
export class RequestLog<R extends RequestRecord = RequestRecord> {
  readonly #maxRecords: number;
  readonly #verbs: VerbVocabulary | undefined;
  /** The ring: grows to `maxRecords`, then `#next` is where the oldest sits and is overwritten. */
  #records: R[] = [];
  #next = 0;
  #total = 0;
  readonly #listeners = new Set<(record: R) => void>();

  /**
   * `maxRecords`: how many of the newest records are kept (at least 1; default unbounded).
   * `verbs`: the verbs this log records; a query whose filter names another throws a
   * TypeError saying which verb to use (default: any verb is accepted).
   */
  constructor(options: { maxRecords?: number; verbs?: VerbVocabulary } = {}) {
    this.#maxRecords = Math.max(1, options.maxRecords ?? Infinity);
    this.#verbs = options.verbs;
  }

  /** Records that can be kept at most (`Infinity` when unbounded). */
  get maxRecords(): number {
    return this.#maxRecords;
  }

  /** Requests recorded since the log was made or last cleared, including those no longer kept. */
  get total(): number {
    return this.#total;
  }

  /** Records that fell off the ring (`total` minus the records kept). */
  get dropped(): number {
    return this.#total - this.#records.length;
  }

  /** Adds a record (pushing out the oldest when the ring is full) and tells the listeners. */
  record(record: R): void {
    this.#total++;
    if (this.#records.length < this.#maxRecords) {
      this.#records.push(record);
    } else {
      this.#records[this.#next] = record;
      this.#next = (this.#next + 1) % this.#maxRecords;
    }
    for (const fn of this.#listeners) {
      try {
        fn(record);
      } catch (err) {
        process.emitWarning(`request log listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Calls `fn` after every request; returns a function that unsubscribes. */
  onRequest(fn: (record: R) => void): () => void {
    this.#listeners.add(fn);
    return () => {
      this.#listeners.delete(fn);
    };
  }

  /** Every kept record, oldest first (a copy). */
  all(): R[] {
    return [...this.#records.slice(this.#next), ...this.#records.slice(0, this.#next)];
  }

  /** Records matching a filter. Throws a TypeError when the filter names a verb this log never records. */
  filter(filter: RequestFilter<R["verb"]> = {}): R[] {
    return this.#matching("filter", filter);
  }

  /** Number of requests matching a filter (all requests without one); throws as `filter` does. */
  count(filter: RequestFilter<R["verb"]> = {}): number {
    return this.#matching("count", filter).length;
  }

  /** Number of writes (create, update, patch, apply, delete, deletecollection) matching a filter. */
  writes(filter: Omit<RequestFilter<R["verb"]>, "verb"> = {}): number {
    return this.#matching("writes", filter).filter((r) => WRITE_VERBS.has(r.verb)).length;
  }

  #matching(query: string, filter: RequestFilter<R["verb"]>): R[] {
    const why = this.#verbs && verbProblem(this.#verbs, filter.verb);
    if (why) throw new TypeError(`requests.${query}: ${why}`);
    return this.all().filter((r) => matchesRecord(filter, r));
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

  /** Forgets every record and resets `total` and `dropped` (listeners stay subscribed). */
  clear(): void {
    this.#records = [];
    this.#next = 0;
    this.#total = 0;
  }
}
