/**
 * Where the EventRecorder writes: a two-method sink, and one that speaks HTTP to events.k8s.io/v1
 * through the client's transport.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { RequestCounter } from "../client/request-counter.ts";
import { Transport } from "../client/transport.ts";
import type { TransportRequest } from "../client/transport.ts";
import type { KubeObject } from "../client/types.ts";
import { checkObject } from "../util/check-args.ts";

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
 * import type { KubeObject } from "operator-runtime";
 *
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
 * const sink = httpEventSink(kubeConfig, { timeoutMs: 5_000, requests: client.requests });
 * ```
 */
export interface HttpEventSinkOptions {
  /** Abort a request after this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Count the sink's requests here, e.g. a ResourceClient's `requests` (default: a new counter). */
  requests?: RequestCounter;
  /** User-Agent header (default `operator-runtime`). */
  userAgent?: string;
}

/**
 * The sink {@link httpEventSink} returns: an {@link EventSink} and the counter of its requests.
 *
 * @example
 * ```ts
 * const sink: HttpEventSink = httpEventSink(kubeConfig);
 * sink.requests.count({ verb: "create", resource: "events" });
 * ```
 */
export interface HttpEventSink extends EventSink {
  /** Every request the sink sent (the `requests` option when given). */
  readonly requests: RequestCounter;
}

/**
 * An {@link EventSink} that writes to `/apis/events.k8s.io/v1/namespaces/{ns}/events` of the
 * kubeconfig's current cluster, through the same transport as {@link ResourceClient}
 * (client-node's HTTP stack, the kubeconfig's credentials and TLS settings) and counted in its
 * `requests` like every other request. Bodies are plain JSON; patches are JSON merge patches.
 *
 * Errors: a non-2xx answer rejects with the matching {@link ApiError} subclass (`code`, `reason`
 * and the decoded `Status`); a network failure or timeout rejects with an
 * `OperatorRuntimeError` whose `cause` is the transport's error. A kubeconfig without a current
 * cluster throws `OperatorRuntimeError` on the first write.
 *
 * RBAC: `events.k8s.io` `events`: `create`, `patch`.
 *
 * @example
 * ```ts
 * import { EventRecorder, KubeConfig } from "operator-runtime";
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const recorder = new EventRecorder({ sink: httpEventSink(kubeConfig), controller: "example.com/pinot-operator" });
 * ```
 */
export function httpEventSink(kubeConfig: KubeConfig, options: HttpEventSinkOptions = {}): HttpEventSink {
  checkObject("httpEventSink(kubeConfig, options)", "kubeConfig", kubeConfig, "a KubeConfig", "Load one with new KubeConfig().loadFromDefault()");
  checkObject("httpEventSink(kubeConfig, options)", "options", options, "an options object ({ userAgent?, timeoutMs?, requests? })");
  const requests = options.requests ?? new RequestCounter();
  const transport = new Transport(kubeConfig, options.userAgent ?? "operator-runtime", requests, { timeoutMs: options.timeoutMs ?? 10_000 });

  async function send(req: Omit<TransportRequest, "path" | "resource" | "signal">, namespace: string, name: string | undefined): Promise<KubeObject> {
    const path = `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events${req.method === "PATCH" ? `/${encodeURIComponent(name ?? "")}` : ""}`;
    const { body } = await transport.send({
      ...req, path, resource: "events", namespace, ...(name !== undefined ? { name } : {}),
    });
    return (body ?? {}) as KubeObject;
  }

  return {
    requests,
    create: (event) => send({ method: "POST", verb: "create", body: event }, event.metadata?.namespace ?? "default", event.metadata?.name),
    patch: (namespace, name, mergePatch) =>
      send({ method: "PATCH", verb: "patch", body: mergePatch, contentType: "application/merge-patch+json" }, namespace, name),
  };
}
