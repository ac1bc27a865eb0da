/**
 * Fault injection and the request log: make chosen requests fail or slow down, and count
 * every request by verb, resource and code so tests can assert API cost.
 */

/** Which requests a fault applies to. Omitted fields match anything. */
export interface RequestMatcher {
  /** get, list, watch, create, update, patch, delete, deletecollection. */
  verb?: string | string[];
  /** Resource plural, optionally with subresource: "configmaps", "deployments/status". */
  resource?: string | string[];
  namespace?: string;
  name?: string;
}

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

/** One logged request. */
export interface RequestRecord {
  verb: string;
  resource: string;
  namespace: string | undefined;
  name: string | undefined;
  code: number;
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

function listMatch(want: string | string[] | undefined, value: string): boolean {
  if (want === undefined) return true;
  return Array.isArray(want) ? want.includes(value) : want === value;
}

/** Whether a request (verb, resource…) matches. */
export function matchesRequest(m: RequestMatcher, r: Omit<RequestRecord, "code" | "injected">): boolean {
  return (
    listMatch(m.verb, r.verb) &&
    listMatch(m.resource, r.resource) &&
    (m.namespace === undefined || m.namespace === r.namespace) &&
    (m.name === undefined || m.name === r.name)
  );
}

/** Write verbs, for counting writes. */
export const WRITE_VERBS: ReadonlySet<string> = new Set(["create", "update", "patch", "delete", "deletecollection"]);

/** The request log with counting queries. */
export class RequestLog {
  #records: RequestRecord[] = [];

  add(r: RequestRecord): void {
    this.#records.push(r);
  }

  /** Every record since the last clear, oldest first. */
  all(): readonly RequestRecord[] {
    return this.#records;
  }

  /** Records matching a filter. */
  filter(m: RequestMatcher & { code?: number }): RequestRecord[] {
    return this.#records.filter((r) => matchesRequest(m, r) && (m.code === undefined || m.code === r.code));
  }

  /** Number of matching records. */
  count(m: RequestMatcher & { code?: number } = {}): number {
    return this.filter(m).length;
  }

  /** Number of write requests (create/update/patch/delete/deletecollection) matching. */
  writes(m: Omit<RequestMatcher, "verb"> = {}): number {
    return this.#records.filter((r) => WRITE_VERBS.has(r.verb) && matchesRequest(m, r)).length;
  }

  /** Counts keyed `verb resource code`, for printing and assertions. */
  summary(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.#records) {
      const k = `${r.verb} ${r.resource} ${r.code}`;
      out[k] = (out[k] ?? 0) + 1;
    }
    return out;
  }

  clear(): void {
    this.#records = [];
  }
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
