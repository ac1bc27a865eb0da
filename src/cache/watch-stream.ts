/** One watch request over client-node's `Watch`, reduced to its events and a single outcome. */
import type { KubeConfig } from "@kubernetes/client-node";
import { Watch } from "@kubernetes/client-node";
import type { KubeStatus } from "../errors.ts";
import type { KubeObject } from "../client/types.ts";
import type { ResourceInfo } from "../client/discovery.ts";

/**
 * The event types a watch delivers to its consumer (ERROR is turned into an outcome).
 *
 * @example
 * ```ts
 * const onEvent = (type: WatchEventType, obj: KubeObject) => type === "BOOKMARK" || store(obj);
 * ```
 */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

/**
 * How a watch ended.
 * - `closed`: the server ended the stream cleanly (its timeout, a restart, a dropped watch).
 * - `silent`: client-node aborted an established stream after its inactivity timeout (30 s).
 * - `gone`: the server cannot serve a watch from that resourceVersion: relist. 410 Expired (ERROR
 *   event or HTTP status: too old), or 504 "Too large resource version" (ERROR event with the
 *   `ResourceVersionTooLarge` cause, or HTTP 504: a watch is long-running, so kube-apiserver
 *   answers 504 only for a resourceVersion it has not reached — e.g. it restarted empty).
 * - `error`: anything else (network, 5xx, 429, an aborted stream, a connect timeout);
 *   `refused` when no server accepted the connection (it is down or restarting).
 * - `stopped`: {@link WatchStream.stop} was called.
 *
 * @example
 * ```ts
 * const outcome: WatchOutcome = await openWatch(options).done;
 * if (outcome.type === "gone") relist();
 * ```
 */
export type WatchOutcome =
  | { type: "closed" | "silent"; events: number; durationMs: number }
  | { type: "gone"; error: unknown }
  | { type: "error"; error: unknown; events: number; refused: boolean }
  | { type: "stopped" };

/**
 * Options of {@link openWatch}.
 *
 * @example
 * ```ts
 * const options: WatchStreamOptions = { kubeConfig, path: "/api/v1/namespaces/default/pods",
 *   query: { resourceVersion: "42", allowWatchBookmarks: true }, onEvent: (type, pod) => {}, now: Date.now };
 * ```
 */
export interface WatchStreamOptions {
  kubeConfig: KubeConfig;
  /** Collection path, e.g. `/api/v1/namespaces/default/configmaps`. */
  path: string;
  query: Record<string, string | number | boolean | undefined>;
  /** Called for every ADDED, MODIFIED, DELETED and BOOKMARK event, in order. */
  onEvent(type: WatchEventType, obj: KubeObject): void;
  /** Called once, when the server accepted the watch (200 with its headers, or a first event). */
  onEstablished?(): void;
  now(): number;
}

/**
 * A running watch.
 *
 * @example
 * ```ts
 * const w: WatchStream = openWatch(options);
 * setTimeout(() => w.stop(), 1000);
 * await w.done; // { type: "stopped" }
 * ```
 */
export interface WatchStream {
  /** Resolves once, when the watch has ended. Never rejects. */
  readonly done: Promise<WatchOutcome>;
  /** Ends the watch; `done` resolves `stopped` unless it has already resolved. */
  stop(): void;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK"]);

/**
 * Opens one watch. Events after the outcome is settled are ignored, and the underlying request
 * is aborted as soon as it is known (client-node returns its AbortController only once the
 * response headers arrived).
 *
 * @example
 * ```ts
 * const w = openWatch({ kubeConfig, path: "/api/v1/configmaps", query: { resourceVersion: "42" },
 *   onEvent: (type, obj) => console.log(type, obj.metadata?.name), now: Date.now });
 * const outcome = await w.done; // { type: "closed", … } when the server times the watch out
 * ```
 */
export function openWatch(options: WatchStreamOptions): WatchStream {
  let settle!: (o: WatchOutcome) => void;
  const done = new Promise<WatchOutcome>((resolve) => (settle = resolve));
  let settled = false;
  let controller: AbortController | undefined;
  let established = false;
  let events = 0;
  const startedAt = options.now();

  const establish = () => {
    if (established || settled) return;
    established = true;
    options.onEstablished?.();
  };
  const finish = (outcome: WatchOutcome) => {
    if (settled) return;
    settled = true;
    controller?.abort();
    settle(outcome);
  };

  const onEvent = (type: string, obj: unknown) => {
    if (settled) return;
    if (type === "ERROR") {
      established = true;
      const status = (obj ?? {}) as KubeStatus;
      const error = new Error(`watch ERROR event: ${status.code ?? "?"} ${status.reason ?? ""}: ${status.message ?? ""}`);
      finish(status.code === 410 || isTooLargeResourceVersion(status) ? { type: "gone", error } : { type: "error", error, events, refused: false });
      return;
    }
    establish();
    if (!EVENT_TYPES.has(type) || obj === null || typeof obj !== "object") return;
    events++;
    options.onEvent(type as WatchEventType, obj as KubeObject);
  };

  const onDone = (err: unknown) => {
    const durationMs = options.now() - startedAt;
    if (err === null || err === undefined) finish({ type: "closed", events, durationMs });
    else if (statusCodeOf(err) === 410 || statusCodeOf(err) === 504) finish({ type: "gone", error: err });
    else if (established && isTimeout(err)) finish({ type: "silent", events, durationMs });
    else finish({ type: "error", error: err, events, refused: isRefused(err) });
  };

  new Watch(options.kubeConfig).watch(options.path, options.query, onEvent, onDone).then(
    (c) => {
      controller = c;
      if (settled) c.abort();
      else establish();
    },
    (err: unknown) => finish({ type: "error", error: err, events, refused: isRefused(err) }),
  );

  return { done, stop: () => finish({ type: "stopped" }) };
}

/** The HTTP status client-node attaches to a non-200 watch answer. */
function statusCodeOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === "number" ? code : undefined;
}

/** An ERROR event's Status for a resourceVersion the server has not reached (kube-apiserver's 504). */
function isTooLargeResourceVersion(status: KubeStatus): boolean {
  if (status.code !== 504) return false;
  const causes = status.details?.causes ?? [];
  return causes.some((c) => c?.reason === "ResourceVersionTooLarge") || /^Too large resource version/.test(status.message ?? "");
}

/** Whether the connection was refused (looked for along `cause` chains and in aggregate errors). */
function isRefused(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== "object" || depth > 5) return false;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (e.code === "ECONNREFUSED") return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isRefused(x, depth + 1))) return true;
  return isRefused(e.cause, depth + 1);
}

function isTimeout(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === "TimeoutError";
}

/**
 * The collection path of a resource: `/api/v1[/namespaces/{ns}]/{plural}` or
 * `/apis/{group}/{version}[/namespaces/{ns}]/{plural}`; the namespace is left out for
 * cluster-scoped resources.
 *
 * @example
 * ```ts
 * collectionPath({ group: "apps", version: "v1", kind: "Deployment", plural: "deployments", namespaced: true }, "prod");
 * // "/apis/apps/v1/namespaces/prod/deployments"
 * ```
 */
export function collectionPath(info: ResourceInfo, namespace: string | undefined): string {
  let path = info.group === "" ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  if (info.namespaced && namespace !== undefined) path += `/namespaces/${encodeURIComponent(namespace)}`;
  return `${path}/${info.plural}`;
}
