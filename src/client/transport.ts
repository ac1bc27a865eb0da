/**
 * Sends one JSON request through client-node's own HTTP stack (kubeconfig auth and TLS),
 * counts it, and turns every non-2xx answer into a typed ApiError carrying the `Status`.
 */
import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext } from "@kubernetes/client-node";
import type { KubeConfig } from "@kubernetes/client-node";
import { OperatorRuntimeError, apiErrorFor } from "../errors.ts";
import type { KubeStatus } from "../errors.ts";
import type { RequestCounter, RequestVerb } from "./request-counter.ts";

/**
 * One request to send. `path` starts with `/api` or `/apis`.
 *
 * @example
 * ```ts
 * const req: TransportRequest = { method: "GET", path: "/api/v1/namespaces/default/configmaps/a", verb: "get", resource: "configmaps", namespace: "default", name: "a" };
 * ```
 */
export interface TransportRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: URLSearchParams;
  /** Sent as JSON text (even for apply, whose YAML media type accepts JSON). */
  body?: unknown;
  contentType?: string;
  /** What the request counter records and error messages name. */
  verb: RequestVerb;
  resource: string;
  namespace?: string;
  name?: string;
  /**
   * Aborts the request, as `fetch` does: it rejects with the signal's reason. A signal aborted
   * before the call rejects without sending anything; one aborted on the way is counted with code 0.
   */
  signal?: AbortSignal;
  /** Overrides the transport's timeout for this request (ms; 0 = none). */
  timeoutMs?: number;
}

/**
 * Options of {@link Transport}.
 *
 * @example
 * ```ts
 * const options: TransportOptions = { timeoutMs: 10_000 };
 * ```
 */
export interface TransportOptions {
  /**
   * How long a request may take, answer body included, before it is abandoned and rejects with
   * an OperatorRuntimeError whose cause is a `TimeoutError` (default 30 000 ms; 0 = no limit).
   * Watches do not go through a Transport and have their own timeouts.
   */
  timeoutMs?: number;
}

/** The default of {@link TransportOptions.timeoutMs}. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * A successful answer: the code and the parsed JSON body.
 *
 * @example
 * ```ts
 * const res: TransportResponse = { code: 201, body: { kind: "ConfigMap" } };
 * ```
 */
export interface TransportResponse {
  code: number;
  body: unknown;
}

type Dispatcher = NonNullable<ReturnType<RequestContext["getDispatcher"]>>;

const REASONS: Record<number, string> = {
  400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed",
  406: "NotAcceptable", 409: "Conflict", 410: "Expired", 413: "RequestEntityTooLarge",
  415: "UnsupportedMediaType", 422: "Invalid", 429: "TooManyRequests", 500: "InternalError",
  503: "ServiceUnavailable", 504: "Timeout",
};

/**
 * `verb resource namespace/name`, as ApiError's `request` and our own messages name a request.
 *
 * @example
 * ```ts
 * describeRequest({ verb: "get", resource: "configmaps", namespace: "default", name: "a" }); // "get configmaps default/a"
 * ```
 */
export function describeRequest(r: { verb: string; resource: string; namespace?: string | undefined; name?: string | undefined }): string {
  const target = r.name === undefined ? r.namespace ?? "" : r.namespace ? `${r.namespace}/${r.name}` : r.name;
  return `${r.verb} ${r.resource}${target ? ` ${target}` : ""}`;
}

/**
 * The HTTP layer of a ResourceClient and of `httpEventSink`: every request either sends goes
 * through here, so it is counted in the same {@link RequestCounter}.
 *
 * Auth headers are recomputed per request (tokens from exec plugins and token files refresh);
 * the TLS dispatcher client-node builds is reused per cluster and user so connections are
 * kept alive instead of opening a new one per request.
 *
 * @example
 * ```ts
 * import { KubeConfig, RequestCounter } from "operator-runtime/client";
 *
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const t = new Transport(kc, "operator-runtime", new RequestCounter(), { timeoutMs: 10_000 });
 * const { body } = await t.send({ method: "GET", path: "/api/v1", verb: "discovery", resource: "v1" });
 * ```
 */
export class Transport {
  readonly #kubeConfig: KubeConfig;
  readonly #userAgent: string;
  readonly #counter: RequestCounter;
  readonly #http = new IsomorphicFetchHttpLibrary();
  readonly #timeoutMs: number;
  #dispatcher: { key: string; dispatcher: Dispatcher } | undefined;

  constructor(kubeConfig: KubeConfig, userAgent: string, counter: RequestCounter, options: TransportOptions = {}) {
    this.#kubeConfig = kubeConfig;
    this.#userAgent = userAgent;
    this.#counter = counter;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /**
   * Sends a request; resolves with a 2xx answer, throws an ApiError, the signal's reason when
   * `req.signal` aborts, or OperatorRuntimeError on a timeout or network failure.
   */
  async send(req: TransportRequest): Promise<TransportResponse> {
    req.signal?.throwIfAborted();
    const cluster = this.#kubeConfig.getCurrentCluster();
    if (!cluster) throw new OperatorRuntimeError(`${describeRequest(req)}: the kubeconfig has no current cluster; load one (kubeConfig.loadFromDefault()) first`);
    const query = req.query?.toString();
    const url = `${cluster.server.replace(/\/+$/, "")}${req.path}${query ? `?${query}` : ""}`;
    const ctx = new RequestContext(url, HttpMethod[req.method]);
    await this.#kubeConfig.applySecurityAuthentication(ctx);
    this.#reuseDispatcher(ctx, `${cluster.name}|${cluster.server}|${this.#kubeConfig.getCurrentUser()?.name ?? ""}`);
    ctx.setHeaderParam("Accept", "application/json");
    ctx.setHeaderParam("User-Agent", this.#userAgent);
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    // A timer cleared once the answer is read, not AbortSignal.timeout: that one stays armed (and
    // keeps the signal, its listeners and the request they hold) for the whole timeout after the
    // answer, so an operator idle after a burst of N requests would hold and fire N timers.
    const timeout = timeoutMs > 0 ? new AbortController() : undefined;
    const timer = timeout && setTimeout(() => timeout.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), timeoutMs);
    timer?.unref();
    const signal = timeout && req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout?.signal ?? req.signal;
    if (signal) ctx.setSignal(signal);
    if (req.body !== undefined) {
      ctx.setHeaderParam("Content-Type", req.contentType ?? "application/json");
      ctx.setBody(JSON.stringify(req.body));
    }
    const started = performance.now();
    const record = { verb: req.verb, resource: req.resource, namespace: req.namespace, name: req.name };
    let code = 0;
    let headers: Record<string, string>;
    let text: string;
    try {
      const res = await this.#http.send(ctx).toPromise();
      code = res.httpStatusCode;
      headers = res.headers;
      text = await res.body.text();
    } catch (err) {
      this.#count(record, code, started);
      if (req.signal?.aborted) throw req.signal.reason;
      if (timeout?.signal.aborted) {
        throw new OperatorRuntimeError(`${describeRequest(req)}: no answer within ${timeoutMs} ms (the request timeout); abandoned`, { cause: timeout.signal.reason });
      }
      throw new OperatorRuntimeError(`${describeRequest(req)}: ${req.method} ${url} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
    this.#count(record, code, started);
    if (code < 200 || code > 299) throw apiErrorFor(code, statusOf(code, text, headers), describeRequest(req));
    return { code, body: parseJson(text, req, code) };
  }

  #count(r: { verb: RequestVerb; resource: string; namespace?: string | undefined; name?: string | undefined }, code: number, started: number): void {
    this.#counter.record({
      verb: r.verb,
      resource: r.resource,
      ...(r.namespace !== undefined ? { namespace: r.namespace } : {}),
      ...(r.name !== undefined ? { name: r.name } : {}),
      code,
      durationMs: performance.now() - started,
    });
  }

  #reuseDispatcher(ctx: RequestContext, key: string): void {
    const fresh = ctx.getDispatcher();
    if (!fresh) return;
    if (this.#dispatcher?.key === key) ctx.setDispatcher(this.#dispatcher.dispatcher);
    else this.#dispatcher = { key, dispatcher: fresh };
  }
}

function parseJson(text: string, req: TransportRequest, code: number): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new OperatorRuntimeError(`${describeRequest(req)}: ${code} answer is not JSON: ${text.slice(0, 200)}`, { cause: err });
  }
}

/** The error body as a Status, synthesized when the server sent something else. */
function statusOf(code: number, text: string, headers: Record<string, string>): KubeStatus {
  let status: KubeStatus | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && (parsed as KubeStatus).kind === "Status") status = parsed as KubeStatus;
  } catch {
    // Not JSON: synthesized below from the code and the text.
  }
  status ??= {
    kind: "Status",
    apiVersion: "v1",
    status: "Failure",
    code,
    reason: REASONS[code] ?? (code >= 500 ? "InternalError" : "Unknown"),
    message: text.trim().slice(0, 500) || `the server answered ${code} with no body`,
  };
  if (code === 429 && status.details?.retryAfterSeconds === undefined) {
    const seconds = retryAfter(headers["retry-after"]);
    if (seconds !== undefined) status = { ...status, details: { ...status.details, retryAfterSeconds: seconds } };
  }
  return status;
}

/** Retry-After as seconds: either delta-seconds or an HTTP date. */
function retryAfter(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
