/** The option and result types of ResourceClient's methods. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { RequestCounter } from "./request-counter.ts";
import type { KubeObject, ListOptions } from "./types.ts";

/**
 * Options of {@link ResourceClient}.
 *
 * @example
 * ```ts
 * const options: ResourceClientOptions = { kubeConfig, fieldManager: "pinot-operator", userAgent: "pinot-operator/1.0" };
 * ```
 */
export interface ResourceClientOptions {
  kubeConfig: KubeConfig;
  /** Field manager for every write (default `operator-runtime`). */
  fieldManager?: string;
  /** User-Agent header (default `operator-runtime`). */
  userAgent?: string;
  /** Share one counter between clients (default: a new one per client). */
  requests?: RequestCounter;
  /**
   * How long any one request may take before it is abandoned and rejects with an
   * OperatorRuntimeError (cause: a `TimeoutError`). Default 30 000 ms; 0 = no limit. Per call:
   * {@link RequestOptions.timeoutMs}. Informer watches have their own timeouts.
   */
  requestTimeoutMs?: number;
}

/**
 * Cancellation of one call, as `fetch` has it: an aborted `signal` rejects with its reason (and
 * a call whose signal is already aborted sends nothing), `timeoutMs` overrides the client's
 * `requestTimeoutMs`.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * mgr.controller("greeting").for(Greeting).reconcile(async (req, { signal }) => {
 *   const settings = await client.get({ ...ConfigMap, ...req }, { signal, timeoutMs: 5_000 });
 * });
 * ```
 */
export interface RequestOptions {
  signal?: AbortSignal;
  /** This call's timeout in ms (0 = none); default the client's `requestTimeoutMs`. */
  timeoutMs?: number;
}

/**
 * Options of writes. `dryRun` asks the server to validate and answer without persisting.
 *
 * @example
 * ```ts
 * const opts: WriteOptions = { dryRun: true, fieldManager: "my-operator" };
 * ```
 */
export interface WriteOptions extends RequestOptions {
  dryRun?: boolean;
  /** Overrides the client's field manager for this write. */
  fieldManager?: string;
}

/**
 * The patch formats: RFC 6902 JSON patch, RFC 7386 merge patch, Kubernetes strategic merge
 * (built-in kinds only; custom resources answer 415).
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const ref = { ...ConfigMap, namespace: "default", name: "settings" };
 * await client.patch(ref, [{ op: "replace", path: "/data/a", value: "2" }], "json");
 * await client.patch(ref, { data: { b: null } }, "merge"); // removes data.b
 * ```
 */
export type PatchType = "json" | "merge" | "strategic";

/**
 * Options of {@link ResourceClient.delete}.
 *
 * @example
 * ```ts
 * const opts: DeleteOptions = { propagationPolicy: "Background", preconditions: { uid: owner.metadata!.uid! } };
 * await client.delete({ ...Greeting, namespace: "default", name: "hello" }, opts);
 * ```
 */
export interface DeleteOptions extends RequestOptions {
  propagationPolicy?: "Background" | "Foreground" | "Orphan";
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  gracePeriodSeconds?: number;
}

/**
 * A list response's `metadata.shardInfo` (KEP-5866): the shard selector the server applied,
 * echoed in its canonical form. Its presence means the list is that shard's subset; its absence,
 * after a list asking for a `shardSelector`, means the server ignored the parameter (no
 * KEP-5866 support, or its `ShardedListAndWatch` feature gate is off) and sent everything.
 *
 * @example
 * ```ts
 * import { Pod } from "operator-runtime";
 * import { formatShardSelector, splitHashSpace } from "operator-runtime/cache";
 *
 * const shardSelector = formatShardSelector("object.metadata.uid", [splitHashSpace(2)[0]!]);
 * const page = await client.list(Pod, { namespace: "default", shardSelector });
 * const filteredByServer = page.shardInfo !== undefined;
 * ```
 */
export interface ShardInfo {
  selector: string;
}

/**
 * Options of {@link ResourceClient.list} and {@link ResourceClient.listAll} beyond {@link ListOptions}.
 *
 * @example
 * ```ts
 * const opts: ListCallOptions = { namespace: "default", limit: 100,
 *   shardSelector: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')" };
 * ```
 */
export interface ListCallOptions extends ListOptions, RequestOptions {
  /**
   * A KEP-5866 shard selector (`?shardSelector=`): only objects whose hash is in its ranges.
   * Servers without the feature ignore it and send everything: check the page's
   * {@link ShardInfo} (`formatShardSelector` builds selectors, `shardSelectorMatcher` filters
   * client-side).
   */
  shardSelector?: string;
}

/**
 * One page of a list. `continue` is set when more pages follow; `shardInfo` when the server
 * applied a `shardSelector` (see {@link ShardInfo}).
 *
 * @example
 * ```ts
 * const page: ListPage = await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { limit: 50 });
 * ```
 */
export interface ListPage<T extends KubeObject = KubeObject> {
  items: T[];
  resourceVersion: string;
  continue?: string;
  shardInfo?: ShardInfo;
}
