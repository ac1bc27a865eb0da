/**
 * Fault injection and the served-request records: make chosen requests fail or slow down, and
 * count every request by verb, resource and code (in the shared {@link RequestLog}) so tests
 * can assert API cost.
 */
import type { RequestFilter, RequestLog, RequestRecord, VerbVocabulary } from "../util/request-log.ts";
import { verbProblem } from "../util/request-log.ts";

/**
 * A verb as the API server (and so LocalCluster's request log and fault matching) names a
 * request. Not the client's: its `RequestCounter` records a server-side apply as `apply`,
 * which the API server serves as a `patch`.
 *
 * @example
 * ```ts
 * const reads: ApiServerVerb[] = ["get", "list", "watch"];
 * cluster.inject({ verb: reads, resource: "configmaps", code: 500 });
 * ```
 */
export type ApiServerVerb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

/** The API server's verbs, with advice for the client's verbs that are not among them. */
export const API_SERVER_VERBS: VerbVocabulary = {
  noun: "an API server verb",
  verbs: ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"] satisfies ApiServerVerb[],
  advice: {
    apply: 'server-side apply is a "patch"; use verb: "patch"',
    discovery: "discovery requests (/api, /apis) are not resource requests, and LocalCluster does not log them",
  },
};

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
export type RequestMatcher = Omit<RequestFilter<ApiServerVerb>, "code">;

/**
 * A fault: answer with `code` (a Status body) and/or wait `latencyMs` first, for `times` requests.
 * {@link LocalCluster.inject} checks it: a TypeError names the field and the fix for an unknown
 * field or verb (`apply` is a `patch` on the API server), a code outside 400–599, a bad
 * `latencyMs` or `times`, or neither a code nor a latency.
 */
export interface FaultSpec extends RequestMatcher {
  /** HTTP error code to answer with (400–599), e.g. 500, 429, 410. Omit for latency only. */
  code?: number;
  /** Status message; a sensible default per code otherwise. */
  message?: string;
  /** Delay before handling (or failing) the request. */
  latencyMs?: number;
  /** How many matching requests this fault hits (default 1; Infinity for all). */
  times?: number;
  /** Retry-After seconds for 429. */
  retryAfterSeconds?: number;
  /**
   * Only requests that are (`true`) or are not (`false`) dry runs, as their `dryRun` query
   * parameter says (the SDK's ResourceClient sends it on every write of a plan; a DELETE's
   * DeleteOptions body is not looked at): e.g. fail an operator's real writes while the
   * dashboard's plan still goes through. Default: both.
   */
  dryRun?: boolean;
}

/**
 * One request as LocalCluster served it: a {@link RequestRecord} with the API server's verb
 * (`watch`, `deletecollection`, never the client's `apply` or `discovery`) and whether an
 * injected fault answered it. A separate type from the client's `ClientRequestRecord` because
 * the two sides see different things: only the server knows the verb it dispatched and which
 * answers were injected; only the client knows the round-trip time and the requests that never
 * reached a server. A request whose HTTP method has no API verb (HEAD, OPTIONS) is answered 405
 * and not logged; a POST to a named path is a `create` answered 405, as on a real API server.
 *
 * @example
 * ```ts
 * const answeredByFaults = cluster.requests.all().filter((r: ServedRequestRecord) => r.injected).length;
 * const forbiddenForOperator = cluster.requests.filter({ code: 403 }).filter((r) => r.user === "system:serviceaccount:default:op");
 * ```
 */
export interface ServedRequestRecord extends RequestRecord<ApiServerVerb> {
  /** Whether the answer came from an injected fault. */
  injected: boolean;
  /**
   * Who sent it, in authorization mode (`LocalCluster.start({ authorization: true })`): the
   * user name its token stands for (or the one it impersonates), e.g.
   * `system:serviceaccount:default:op`. Absent without authorization mode, and for requests
   * answered 401 (no known token).
   */
  user?: string;
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

/** A value for a message: numbers as written (`NaN`, `Infinity`), others as JSON. */
const shown = (v: unknown): string => (typeof v === "number" ? String(v) : JSON.stringify(v) ?? String(v));

const FAULT_FIELDS: ReadonlySet<string> = new Set(["verb", "resource", "namespace", "name", "code", "message", "latencyMs", "times", "retryAfterSeconds", "dryRun"]);

/**
 * Throws a TypeError naming the field and the fix when `spec` is not a fault that can fire:
 * an unknown field, a verb that is not the API server's (`apply` is a `patch` there), a code
 * outside the HTTP error codes 400–599, a negative or non-finite latency, a count of times that
 * is not a positive integer (or Infinity), or neither a code nor a latency (a fault that would
 * do nothing).
 *
 * @example
 * ```ts
 * checkFault({ verb: "patch", resource: "services", code: 500 }); // fine
 * checkFault({ verb: "apply", code: 500 });
 * // → throws TypeError: cluster.inject: verb "apply" is not an API server verb: server-side apply is a "patch"; use verb: "patch"
 * ```
 */
export function checkFault(spec: unknown): asserts spec is FaultSpec {
  const fail = (why: string): never => {
    throw new TypeError(`cluster.inject: ${why}`);
  };
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) fail(`the fault is ${spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec}; pass an object such as { verb: "list", resource: "configmaps", code: 500 }`);
  const f = spec as Record<string, unknown>;
  for (const key of Object.keys(f)) {
    if (!FAULT_FIELDS.has(key)) fail(`unknown field ${JSON.stringify(key)}; a fault has ${[...FAULT_FIELDS].join(", ")}`);
  }
  const verb = verbProblem(API_SERVER_VERBS, f.verb);
  if (verb) fail(verb);
  if (f.dryRun !== undefined && typeof f.dryRun !== "boolean") fail(`dryRun is ${shown(f.dryRun)}; set it to true (dry runs only) or false (real requests only), or leave it out to match both`);
  for (const key of ["resource", "namespace", "name"] as const) {
    const v = f[key];
    const ok = v === undefined || typeof v === "string" || (key === "resource" && Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"));
    if (!ok) fail(`${key} is ${shown(v)}; set it to a ${key === "resource" ? 'resource plural such as "configmaps" (or a non-empty array of them)' : "string"}, or leave it out to match any`);
  }
  const { code, latencyMs, times, retryAfterSeconds, message } = f;
  if (code !== undefined && !(Number.isInteger(code) && (code as number) >= 400 && (code as number) <= 599)) {
    fail(`code ${shown(code)} is not an HTTP error code; a fault answers with an error from 400 to 599, e.g. code: 500 (leave code out for a latency-only fault)`);
  }
  if (latencyMs !== undefined && !(typeof latencyMs === "number" && Number.isFinite(latencyMs) && latencyMs >= 0)) {
    fail(`latencyMs ${shown(latencyMs)} is not a duration; set it to milliseconds, a finite number >= 0`);
  }
  if (code === undefined && !latencyMs) fail("the fault has neither a code nor a latency, so it would do nothing; set code (e.g. 500) and/or latencyMs");
  if (times !== undefined && !(times === Infinity || (Number.isInteger(times) && (times as number) >= 1))) {
    fail(`times ${shown(times)} is not a count of requests; set it to an integer >= 1, or Infinity for every matching request`);
  }
  if (retryAfterSeconds !== undefined && !(Number.isInteger(retryAfterSeconds) && (retryAfterSeconds as number) >= 0)) {
    fail(`retryAfterSeconds ${shown(retryAfterSeconds)} is not a whole number of seconds; set it to an integer >= 0`);
  }
  if (message !== undefined && typeof message !== "string") fail(`message is ${typeof message}; set it to a string, or leave it out for the code's default message`);
}

/**
 * A fault on LocalCluster's calls to admission webhooks ({@link LocalCluster.injectWebhookFault}):
 * the call waits `latencyMs` first (a wait past the webhook's `timeoutSeconds` is that call's
 * timeout), or fails as if the webhook were `down` (connection refused), or as if it answered
 * HTTP `code`. The webhook's `failurePolicy` then decides, as for a real failure.
 *
 * @example
 * ```ts
 * const slow: WebhookFaultSpec = { name: "vwidget.example.com", latencyMs: 15_000 }; // past the default 10 s timeout
 * const down: WebhookFaultSpec = { down: true, times: Infinity };
 * const broken: WebhookFaultSpec = { name: "mwidget.example.com", code: 500 };
 * ```
 */
export interface WebhookFaultSpec {
  /** The webhook's name in its configuration (e.g. `vwidget.example.com`); omit for every webhook. */
  name?: string;
  /** Delay before the call goes out. */
  latencyMs?: number;
  /** Fail the call as a refused connection. */
  down?: boolean;
  /** Answer the call with this HTTP status (400–599) instead of calling the webhook. */
  code?: number;
  /** Body of that answer (default `injected fault`). */
  message?: string;
  /** How many matching calls this fault hits (default 1; Infinity for all). */
  times?: number;
}

/**
 * A live webhook fault, with its remaining count.
 *
 * @example
 * ```ts
 * const fault: ActiveWebhookFault = cluster.injectWebhookFault({ down: true, times: 2 });
 * // … two writes later:
 * const spent = fault.hits === 2 && fault.remaining === 0;
 * ```
 */
export interface ActiveWebhookFault {
  readonly spec: WebhookFaultSpec;
  /** Matching calls still to hit. */
  remaining: number;
  /** Calls it has hit so far. */
  hits: number;
}

const WEBHOOK_FAULT_FIELDS: ReadonlySet<string> = new Set(["name", "latencyMs", "down", "code", "message", "times"]);

/**
 * Throws a TypeError naming the field and the fix when `spec` is not a webhook fault that can
 * fire: an unknown field, a bad name, latency, code or count, or none of `latencyMs`, `down`
 * and `code`.
 *
 * @example
 * ```ts
 * checkWebhookFault({ name: "vwidget.example.com", down: true }); // fine
 * checkWebhookFault({ code: 200 });
 * // → throws TypeError: cluster.injectWebhookFault: code 200 is not an HTTP error code; …
 * ```
 */
export function checkWebhookFault(spec: unknown): asserts spec is WebhookFaultSpec {
  const fail = (why: string): never => {
    throw new TypeError(`cluster.injectWebhookFault: ${why}`);
  };
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) fail(`the fault is ${spec === null ? "null" : Array.isArray(spec) ? "an array" : typeof spec}; pass an object such as { name: "vwidget.example.com", down: true }`);
  const f = spec as Record<string, unknown>;
  for (const key of Object.keys(f)) {
    if (!WEBHOOK_FAULT_FIELDS.has(key)) fail(`unknown field ${JSON.stringify(key)}; a webhook fault has ${[...WEBHOOK_FAULT_FIELDS].join(", ")}`);
  }
  const { name, latencyMs, down, code, message, times } = f;
  if (name !== undefined && (typeof name !== "string" || name === "")) fail(`name is ${shown(name)}; set it to a webhook's name (webhooks[].name, e.g. "vwidget.example.com"), or leave it out to match every webhook`);
  if (latencyMs !== undefined && !(typeof latencyMs === "number" && Number.isFinite(latencyMs) && latencyMs >= 0)) {
    fail(`latencyMs ${shown(latencyMs)} is not a duration; set it to milliseconds, a finite number >= 0`);
  }
  if (down !== undefined && typeof down !== "boolean") fail(`down is ${shown(down)}; set it to true for a refused connection`);
  if (code !== undefined && !(Number.isInteger(code) && (code as number) >= 400 && (code as number) <= 599)) {
    fail(`code ${shown(code)} is not an HTTP error code; set it to an error from 400 to 599, e.g. code: 500`);
  }
  if (down === true && code !== undefined) fail("down and code both set; a refused connection has no HTTP answer: set one of them");
  if (!latencyMs && down !== true && code === undefined) fail("the fault has no latencyMs, down or code, so it would do nothing; set one of them");
  if (times !== undefined && !(times === Infinity || (Number.isInteger(times) && (times as number) >= 1))) {
    fail(`times ${shown(times)} is not a count of calls; set it to an integer >= 1, or Infinity for every matching call`);
  }
  if (message !== undefined && typeof message !== "string") fail(`message is ${typeof message}; set it to a string`);
}
