/**
 * Fault injection and the served-request records: make chosen requests fail or slow down, and
 * count every request by verb, resource and code (in the shared {@link RequestLog}) so tests
 * can assert API cost.
 */
import type { RequestFilter, RequestLog, RequestRecord } from "../util/request-log.ts";

/**
 * Which requests a fault applies to: a {@link RequestFilter} without `code` (a fault's `code`
 * is the answer it sends). Omitted fields match anything; verbs are the API server's: get,
 * list, watch, create, update, patch, delete, deletecollection.
 *
 * @example
 * ```ts
 * const lists: RequestMatcher = { verb: "list", resource: ["configmaps", "secrets"] };
 * ```
 */
export type RequestMatcher = Omit<RequestFilter, "code">;

/** A fault: answer with `code` (a Status body) and/or wait `latencyMs` first, for `times` requests. */
export interface FaultSpec extends RequestMatcher {
  /** HTTP code to answer with, e.g. 500, 429, 410. Omit for latency only. */
  code?: number;
  /** Status message; a sensible default per code otherwise. */
  message?: string;
  /** Delay before handling (or failing) the request. */
  latencyMs?: number;
  /** How many matching requests this fault hits (default 1; Infinity for all). */
  times?: number;
  /** Retry-After seconds for 429. */
  retryAfterSeconds?: number;
}

/**
 * One request as LocalCluster served it: a {@link RequestRecord} with the API server's verb
 * (`watch`, `deletecollection`, never the client's `apply` or `discovery`) and whether an
 * injected fault answered it. A separate type from the client's `ClientRequestRecord` because
 * the two sides see different things: only the server knows the verb it dispatched and which
 * answers were injected; only the client knows the round-trip time and the requests that never
 * reached a server.
 *
 * @example
 * ```ts
 * const answeredByFaults = cluster.requests.all().filter((r: ServedRequestRecord) => r.injected).length;
 * ```
 */
export interface ServedRequestRecord extends RequestRecord {
  /** Whether the answer came from an injected fault. */
  injected: boolean;
}

/** A live fault, with its remaining count. */
export interface ActiveFault {
  readonly spec: FaultSpec;
  /** Matching requests still to hit. */
  remaining: number;
  /** Requests it has hit so far. */
  hits: number;
}

/** Default reasons and messages for injected codes. */
export function faultStatus(code: number, message?: string): { reason: string; message: string } {
  const reasons: Record<number, [string, string]> = {
    400: ["BadRequest", "injected bad request"],
    401: ["Unauthorized", "Unauthorized"],
    403: ["Forbidden", "forbidden (injected)"],
    404: ["NotFound", "the server could not find the requested resource"],
    409: ["Conflict", "the object has been modified; please apply your changes to the latest version and try again"],
    410: ["Expired", "too old resource version (injected)"],
    429: ["TooManyRequests", "the server has received too many requests and has asked us to try again later"],
    500: ["InternalError", "Internal error occurred: injected fault"],
    503: ["ServiceUnavailable", "the server is currently unable to handle the request"],
    504: ["Timeout", "the server was unable to return a response in the time allotted"],
  };
  const [reason, text] = reasons[code] ?? ["InternalError", `injected ${code}`];
  return { reason, message: message ?? text };
}
