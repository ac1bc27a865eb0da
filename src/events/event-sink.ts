/**
 * Where the EventRecorder writes: a two-method sink, and one that speaks HTTP to events.k8s.io/v1.
 */
import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext } from "@kubernetes/client-node";
import type { KubeConfig } from "@kubernetes/client-node";
import { apiErrorFor, OperatorRuntimeError } from "../errors.ts";
import type { KubeStatus } from "../errors.ts";
import type { KubeObject } from "../client/types.ts";

/**
 * The two writes an {@link EventRecorder} needs: create an `events.k8s.io/v1` Event, and
 * merge-patch one (to update its `series`). Anything that can do these two is a sink — the
 * HTTP sink below, an API client adapter, or an in-memory fake in unit tests.
 *
 * Contract: `create` receives a complete Event (with `metadata.namespace`) and resolves with the
 * stored object; `patch` sends `mergePatch` as `application/merge-patch+json`. Both reject on
 * any failure; a 404 should reject with an error whose `code` is 404 (the recorder then starts a
 * new Event instead of patching a deleted one).
 *
 * @example
 * ```ts
 * const written: KubeObject[] = [];
 * const memorySink: EventSink = {
 *   async create(event) { written.push(event); return event; },
 *   async patch(namespace, name, mergePatch) { return { metadata: { namespace, name }, ...(mergePatch as object) }; },
 * };
 * ```
 */
export interface EventSink {
  create(event: KubeObject): Promise<KubeObject>;
  patch(namespace: string, name: string, mergePatch: unknown): Promise<KubeObject>;
}

/**
 * Options of {@link httpEventSink}.
 *
 * @example
 * ```ts
 * const sink = httpEventSink(kubeConfig, { timeoutMs: 5_000 });
 * ```
 */
export interface HttpEventSinkOptions {
  /** Abort a request after this many milliseconds (default 10 000). */
  timeoutMs?: number;
}

/**
 * An {@link EventSink} that writes to `/apis/events.k8s.io/v1/namespaces/{ns}/events` of the
 * kubeconfig's current cluster, with the kubeconfig's credentials and TLS settings
 * (client-node's own transport). Bodies are plain JSON; patches are JSON merge patches.
 *
 * Errors: a non-2xx answer rejects with the matching `ApiError` subclass from `src/errors.ts`
 * (`code`, `reason` and the decoded `Status`); a network failure or timeout rejects with the
 * transport's error. A kubeconfig without a current cluster throws `OperatorRuntimeError` on
 * the first write.
 *
 * RBAC: `events.k8s.io` `events`: `create`, `patch`.
 *
 * @example
 * ```ts
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const recorder = new EventRecorder({ sink: httpEventSink(kubeConfig), controller: "example.com/pinot-operator" });
 * ```
 */
export function httpEventSink(kubeConfig: KubeConfig, options: HttpEventSinkOptions = {}): EventSink {
  const http = new IsomorphicFetchHttpLibrary();
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function send(method: HttpMethod, namespace: string, name: string | undefined, body: unknown, contentType: string): Promise<KubeObject> {
    const server = kubeConfig.getCurrentCluster()?.server;
    if (!server) throw new OperatorRuntimeError("httpEventSink: the kubeconfig has no current cluster with a server URL");
    const path = `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events${name === undefined ? "" : `/${encodeURIComponent(name)}`}`;
    const ctx = new RequestContext(server.replace(/\/+$/, "") + path, method);
    await kubeConfig.applySecurityAuthentication(ctx);
    ctx.setHeaderParam("Accept", "application/json");
    ctx.setHeaderParam("Content-Type", contentType);
    ctx.setBody(JSON.stringify(body));
    ctx.setSignal(AbortSignal.timeout(timeoutMs));
    const response = await http.send(ctx).toPromise();
    const text = await response.body.text();
    const code = response.httpStatusCode;
    if (code >= 200 && code < 300) return parseJson(text) as KubeObject;
    const verb = method === HttpMethod.POST ? "create" : "patch";
    throw apiErrorFor(code, statusOf(text), `${verb} events.events.k8s.io ${namespace}/${name ?? eventName(body)}`);
  }

  return {
    create: (event) => send(HttpMethod.POST, event.metadata?.namespace ?? "default", undefined, event, "application/json"),
    patch: (namespace, name, mergePatch) => send(HttpMethod.PATCH, namespace, name, mergePatch, "application/merge-patch+json"),
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

/** The `Status` of an error body; a non-Status body becomes its (shortened) text as message. */
function statusOf(text: string): KubeStatus {
  const parsed = parseJson(text) as KubeStatus | null;
  if (parsed && typeof parsed === "object" && parsed.kind === "Status") return parsed;
  return { message: text.slice(0, 200) || "empty response body" };
}

function eventName(body: unknown): string {
  return (body as KubeObject | undefined)?.metadata?.name ?? "";
}
