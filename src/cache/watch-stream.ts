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
 * import type { KubeObject } from "operator-runtime";
 *
 * const byUid = new Map<string, KubeObject>();
 * const onEvent = (type: WatchEventType, obj: KubeObject): void => {
 *   if (type === "BOOKMARK") return; // only moves the resourceVersion on
 *   if (type === "DELETED") byUid.delete(obj.metadata!.uid!);
 *   else byUid.set(obj.metadata!.uid!, obj);
 * };
 * ```
 */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";

/**
 * How a watch ended.
 * - `closed`: the server ended the stream cleanly (its timeout, a restart, a dropped watch).
 * - `silent`: an established stream sent nothing (no event, no bookmark) for longer than its
 *   silence limit (see {@link WatchStreamOptions.stallTimeoutMs}): a stalled stream (a half-open
 *   TCP connection, a proxy that swallows it), aborted here. `bookmarking` says whether the
 *   server was known to send bookmarks, i.e. whether the silence was abnormal.
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
 * declare const options: WatchStreamOptions;
 * const outcome: WatchOutcome = await openWatch(options).done;
 * if (outcome.type === "gone") console.log("history lost: list again before the next watch");
 * ```
 */
export type WatchOutcome =
  | { type: "closed"; events: number; durationMs: number }
  | { type: "silent"; events: number; durationMs: number; silentForMs: number; bookmarking: boolean }
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
  /**
   * How long a stream of a server that sends bookmarks may stay silent (no event, no bookmark)
   * before it counts as stalled and is aborted (outcome `silent`). Default
   * {@link DEFAULT_WATCH_STALL_MS} (150 s: 2.5 × kube-apiserver's one-minute bookmark interval).
   * Applies from the start when `bookmarking` is true, else from the first bookmark.
   */
  stallTimeoutMs?: number;
  /**
   * Whether the server is known to send bookmarks on this kind (an earlier watch got one). Until a
   * bookmark proves it, a quiet stream may stay silent for its whole `timeoutSeconds` plus
   * `stallTimeoutMs` (a server without bookmarks sends nothing on a quiet watch).
   */
  bookmarking?: boolean;
  /**
   * How long the server may take to accept the watch (response headers) before the attempt
   * fails as an `error` (default {@link DEFAULT_WATCH_CONNECT_MS}, 30 s, client-node's own).
   */
  connectTimeoutMs?: number;
}

/** How long a watch request may wait for the server's response headers (30 s). */
export const DEFAULT_WATCH_CONNECT_MS = 30_000;

/**
 * How long a watch of a server that sends bookmarks may stay silent before it counts as stalled
 * (150 s). kube-apiserver sends a bookmark about once a minute on a quiet watch that asked for
 * them; client-node's own 30 s inactivity abort would end every quiet watch twice a minute.
 */
export const DEFAULT_WATCH_STALL_MS = 150_000;

/**
 * A running watch.
 *
 * @example
 * ```ts
 * declare const options: WatchStreamOptions;
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
  const stallMs = options.stallTimeoutMs ?? DEFAULT_WATCH_STALL_MS;
  let bookmarking = options.bookmarking === true;
  const timeoutSeconds = Number(options.query.timeoutSeconds);
  // Silence allowed before a bookmark proved that the server sends them: the server's own
  // timeout (it closes the watch then) plus the stall margin; without timeoutSeconds, the margin.
  const quietMs = Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds * 1000 + stallMs : stallMs;
  let lastDataAt = startedAt;

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
    lastDataAt = options.now();
    if (type === "BOOKMARK") bookmarking = true;
    if (!EVENT_TYPES.has(type) || obj === null || typeof obj !== "object") return;
    events++;
    options.onEvent(type as WatchEventType, obj as KubeObject);
  };

  const onDone = (err: unknown) => {
    const durationMs = options.now() - startedAt;
    if (err === null || err === undefined) finish({ type: "closed", events, durationMs });
    else if (statusCodeOf(err) === 410 || statusCodeOf(err) === 504) finish({ type: "gone", error: err });
    else if (established && (isTimeout(err) || isBodyTimeout(err))) {
      finish({ type: "silent", events, durationMs, silentForMs: options.now() - lastDataAt, bookmarking });
    }
    else finish({ type: "error", error: err, events, refused: isRefused(err) });
  };

  // client-node aborts a stream after `requestTimeoutMs` without data (30 s by default, read at
  // every reset of its timer: once before the request, once when the headers arrived, then at
  // every chunk): a real server sends nothing on a quiet watch but a bookmark about once a
  // minute, so that default would end every idle watch. The first read (the wait for the
  // headers) keeps a connect limit; after it, the limit is silence clearly longer than the
  // bookmark interval once the server is known to send bookmarks, else the watch's own timeout
  // plus that margin.
  const connectMs = options.connectTimeoutMs ?? DEFAULT_WATCH_CONNECT_MS;
  let reads = 0;
  const watch = new Watch(options.kubeConfig);
  Object.defineProperty(watch, "requestTimeoutMs", {
    configurable: true,
    get: () => (reads++ === 0 ? connectMs : bookmarking ? stallMs : quietMs),
  });
  watch.watch(options.path, options.query, onEvent, onDone).then(
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
  return causes.some((c) => c?.reason === "ResourceVersionTooLarge") || /^(Timeout: )?Too large resource version/.test(status.message ?? "");
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

/** undici's own limit between two body chunks (300 s by default) ended the stream. */
function isBodyTimeout(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== "object" || depth > 5) return false;
  const e = err as { code?: unknown; cause?: unknown };
  return e.code === "UND_ERR_BODY_TIMEOUT" || isBodyTimeout(e.cause, depth + 1);
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
