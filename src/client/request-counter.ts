/** Counts every API request a ResourceClient makes, so tests and benchmarks can assert API cost. */
import { RequestLog } from "../util/request-log.ts";
import type { RequestRecord, VerbVocabulary } from "../util/request-log.ts";

/**
 * The verbs a {@link RequestCounter} records. `apply` is a server-side apply PATCH.
 *
 * @example
 * ```ts
 * const applies = client.requests.count({ verb: "apply" satisfies RequestVerb });
 * ```
 */
export type RequestVerb = "get" | "list" | "create" | "update" | "patch" | "apply" | "delete" | "discovery";

/** The client's verbs, with advice for the API server's verbs that are not among them. */
const CLIENT_VERBS: VerbVocabulary = {
  noun: "a verb a client records",
  verbs: ["get", "list", "create", "update", "patch", "apply", "delete", "discovery"] satisfies RequestVerb[],
  advice: {
    watch: "the client does not record watches; an informer counts them in its stats.watches, LocalCluster in cluster.requests",
    deletecollection: "the client never sends one; count its deletes with verb: \"delete\"",
  },
};

/**
 * One request as the client saw it: a {@link RequestRecord} with the client's verbs (`apply`
 * for a server-side apply PATCH, `discovery` for the API group lists) and the round-trip time
 * the client measured. A separate type from LocalCluster's `ServedRequestRecord` because the
 * two sides see different things: the server's verbs (`watch`, `deletecollection`) and whether
 * an injected fault answered are only known there; the time a request took end to end and the
 * network failures that never reached a server (code 0) only here.
 *
 * @example
 * ```ts
 * import type { ClientRequestRecord } from "operator-runtime/client";
 * const r: ClientRequestRecord = { verb: "get", resource: "configmaps", namespace: "default", name: "a", code: 200, durationMs: 1.2 };
 * ```
 */
export interface ClientRequestRecord extends RequestRecord<RequestVerb> {
  durationMs: number;
}

/**
 * The {@link RequestLog} of a client: every request a {@link ResourceClient} (or an
 * `httpEventSink`) sends, with counting queries and a listener hook (for metrics).
 *
 * Guarantees: every request is recorded once, after its response (or network failure), errors
 * included. Caveats: only the newest `maxRecords` records are kept (default 100,000) so a
 * long-running operator does not grow without bound; every query looks at the kept records.
 * Listeners see every request regardless. A listener that throws does not fail the request: its
 * error is reported with `process.emitWarning`.
 *
 * @example
 * ```ts
 * import { RequestCounter } from "operator-runtime/client";
 *
 * const requests = new RequestCounter();
 * const stop = requests.onRequest((r) => console.log(r.verb, r.resource, r.code, r.durationMs));
 * requests.record({ verb: "get", resource: "configmaps", code: 200, durationMs: 1 });
 * console.log(requests.count({ verb: "get" }), requests.writes(), requests.summary());
 * stop();
 * ```
 */
export class RequestCounter extends RequestLog<ClientRequestRecord> {
  constructor(options: { maxRecords?: number } = {}) {
    super({ maxRecords: options.maxRecords ?? 100_000, verbs: CLIENT_VERBS });
  }
}
