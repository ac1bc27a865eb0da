/**
 * LocalCluster: an in-process, Kubernetes-compatible API server for tests and demos.
 *
 * The real `@kubernetes/client-node` and `kubectl` talk to it over HTTP on 127.0.0.1.
 *
 * Known limitations compared with a real API server: no authentication or RBAC, no admission
 * webhooks, no CRD conversion webhooks (versions share one schema-compatible storage), no CEL
 * validation rules, lists are served from the current state (a `continue` page reflects later
 * changes), no kubelet (Pods run only when simulation is on), built-in kinds have no OpenAPI
 * schemas (CRD kinds do). Responses are always JSON.
 * Protobuf request bodies (`application/vnd.kubernetes.protobuf`, which kubectl's generators
 * such as `kubectl create configmap` send) are read for the built-in kinds of the core, `apps`,
 * `coordination.k8s.io` and `events.k8s.io` groups, and `/scale`; a zero number or `false` in
 * one is kept only for known pointer fields (`replicas`, `runAsUser`…), otherwise left out as
 * Go's `omitempty` would. Custom resources and CRDs take JSON or YAML only (415 otherwise).
 * Bodies nest at most 1,000 levels (kube-apiserver: 10,000). The request log and the change
 * history are bounded (`requestLogSize`, `historySize`, `historyBytes`).
 *
 * @example
 * ```ts
 * import { LocalCluster } from "operator-runtime/testing";
 * import { CoreV1Api } from "@kubernetes/client-node";
 *
 * const cluster = await LocalCluster.start();
 * const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
 * await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "demo" }, data: { a: "1" } } });
 * await cluster.stop();
 * ```
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import type { ApiContext } from "./api-context.ts";
import { ApiServer } from "./api-server.ts";
import { Registry } from "./registry.ts";
import { ObjectStore } from "./object-store.ts";
import { WatchHub } from "./watch-hub.ts";
import { Writer } from "./write-path.ts";
import { GarbageCollector } from "./garbage-collector.ts";
import { registerCost } from "./cost-probe.ts";
import { watchCrds } from "./crd-controller.ts";
import { StatusError } from "./status.ts";
import { DEFAULT_RESOURCE_VERSION_WAIT_MS } from "./resource-version-wait.ts";
import type { ActiveFault, FaultSpec, ServedRequestRecord } from "./faults.ts";
import type { RequestLog } from "../util/request-log.ts";
import type { KubeObject } from "./resource-type.ts";
import type { Simulator, SimulationOptions } from "./simulator.ts";

/** Options of {@link LocalCluster.start}. */
export interface LocalClusterOptions {
  /** Port to listen on (default 0: an ephemeral port). */
  port?: number;
  /** Where to write the kubeconfig file (default: a new temporary directory). */
  kubeconfigPath?: string;
  /**
   * Changes kept for watch resumption and `continue` tokens (default 50,000). Older changes are
   * dropped; a watch or `continue` from before the oldest kept change gets 410 Expired.
   */
  historySize?: number;
  /**
   * Bytes of changes kept for watch resumption, counted as the JSON length of each change's
   * object (default 64 MiB). Dropping works as for `historySize`; whichever bound is reached
   * first applies (this one never drops the newest change). Lower it to test 410 handling with
   * big objects, or raise it when a test replays long histories of big objects.
   */
  historyBytes?: number;
  /**
   * Requests the request log ({@link LocalCluster.requests}) keeps (default 10,000). Older
   * records fall off; queries see only the kept ones, while `requests.total` counts them all.
   */
  requestLogSize?: number;
  /** Interval of watch bookmarks when clients ask for them (default 10 s). */
  bookmarkIntervalMs?: number;
  /**
   * How long a watch, get or list asking for a resourceVersion newer than the server's waits
   * for it before answering 504 "Too large resource version" (default 3000 ms, as
   * kube-apiserver). The wait ends as soon as the store reaches that resourceVersion.
   */
  resourceVersionWaitMs?: number;
  /** Turn on the workload simulator (Pods run, workloads report ready). Off by default. */
  simulate?: boolean | SimulationOptions;
}

const SEEDED_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** An embedded Kubernetes API server. Start one with {@link LocalCluster.start}. */
export class LocalCluster {
  /** A client-node KubeConfig pointing at this cluster. */
  readonly kubeConfig: KubeConfig;
  /** Path of the kubeconfig file written for kubectl and other tools. */
  readonly kubeconfigPath: string;
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly #server: Server;
  readonly #api: ApiServer;
  readonly #gc: GarbageCollector;
  readonly #sockets = new Set<Socket>();
  readonly #tempDir: string | undefined;
  readonly #simulator: Simulator | undefined;

  private constructor(init: {
    server: Server; api: ApiServer; gc: GarbageCollector; url: string; kubeConfig: KubeConfig;
    kubeconfigPath: string; tempDir: string | undefined; sockets: Set<Socket>; simulator: Simulator | undefined;
  }) {
    this.#server = init.server;
    this.#api = init.api;
    this.#gc = init.gc;
    this.url = init.url;
    this.kubeConfig = init.kubeConfig;
    this.kubeconfigPath = init.kubeconfigPath;
    this.#tempDir = init.tempDir;
    this.#sockets = init.sockets;
    this.#simulator = init.simulator;
  }

  /** Starts a cluster on 127.0.0.1 and writes its kubeconfig. */
  static async start(options: LocalClusterOptions = {}): Promise<LocalCluster> {
    const registry = new Registry();
    const store = new ObjectStore({
      ...(options.historySize !== undefined ? { historySize: checkCount("historySize", options.historySize, 0) } : {}),
      ...(options.historyBytes !== undefined ? { historyBytes: checkCount("historyBytes", options.historyBytes, 0) } : {}),
    });
    const hub = new WatchHub();
    const nsType = registry.byPath("", "v1", "namespaces")!;
    const writer = new Writer(store, (ns) => {
      const o = store.get(nsType.storageKey, "", ns);
      if (!o) throw new StatusError(404, "NotFound", `namespaces "${ns}" not found`, { name: ns, kind: "namespaces" });
      if (o.deleting) {
        throw new StatusError(403, "Forbidden", `unable to create new content in namespace ${ns} because it is being terminated`,
          { name: ns, kind: "namespaces" });
      }
    });
    const ctx: ApiContext = { registry, store, hub, writer, bookmarkIntervalMs: options.bookmarkIntervalMs ?? 10_000,
      resourceVersionWaitMs: options.resourceVersionWaitMs ?? DEFAULT_RESOURCE_VERSION_WAIT_MS };
    store.onChange((c) => hub.dispatch(c));
    watchCrds(ctx);
    const gc = new GarbageCollector(ctx);
    for (const name of SEEDED_NAMESPACES) writer.create(nsType, undefined, { metadata: { name } });
    const api = new ApiServer(ctx, options.requestLogSize !== undefined
      ? { requestLogSize: checkCount("requestLogSize", options.requestLogSize, 1) }
      : {});
    const server = createServer({ keepAlive: true }, api.listener);
    const sockets = new Set<Socket>();
    server.on("connection", (s) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    api.serverAddress = `127.0.0.1:${port}`;
    const url = `http://127.0.0.1:${port}`;
    let tempDir: string | undefined;
    let kubeconfigPath = options.kubeconfigPath;
    if (!kubeconfigPath) {
      tempDir = await mkdtemp(join(tmpdir(), "localcluster-"));
      kubeconfigPath = join(tempDir, "kubeconfig");
    }
    await writeFile(kubeconfigPath, kubeconfigYaml(url));
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    // Loaded only when asked for: clusters without simulation never run its code.
    const simulator = options.simulate
      ? new (await import("./simulator.ts")).Simulator(ctx, typeof options.simulate === "object" ? options.simulate : {})
      : undefined;
    const cluster = new LocalCluster({ server, api, gc, url, kubeConfig, kubeconfigPath, tempDir, sockets, simulator });
    registerCost(cluster, store.cost, gc);
    return cluster;
  }

  /**
   * The request log: every resource request served, with counts by API server verb, resource
   * and code. Its queries take the API server's verbs (a server-side apply is a `patch`); a
   * filter naming another verb (the client's `apply`, a typo) throws a TypeError.
   *
   * Caveat: it keeps the newest `requestLogSize` requests (default 10,000). Queries (`count`,
   * `filter`, `writes`, `summary`, `all`) see only those; `total` counts every request since
   * the start (or the last `clear()`), and `dropped` how many fell off. Call
   * `requests.clear()` before the part of a test whose requests it counts.
   */
  get requests(): RequestLog<ServedRequestRecord> {
    return this.#api.log;
  }

  /**
   * Makes matching requests fail with a code and/or wait, `times` times (default once).
   *
   * Errors: a TypeError naming the field and the fix when the fault could never fire as meant —
   * an unknown field, a verb that is not the API server's (`verb: "apply"`: server-side apply is
   * a `patch`), a code outside 400–599, neither a code nor a latency, a bad latency or count.
   */
  inject(fault: FaultSpec): ActiveFault {
    return this.#api.inject(fault);
  }

  /** Removes all injected faults that have not fired yet. */
  clearFaults(): void {
    this.#api.faults.length = 0;
  }

  /**
   * Ends every open watch; returns how many. By default each stream ends cleanly (as when an
   * API server restarts or a watch times out); `abrupt: true` destroys the connections instead,
   * as a network failure would.
   */
  dropWatches(options: { abrupt?: boolean } = {}): number {
    return this.#api.ctx.hub.closeAll(options.abrupt ?? false);
  }

  /** Number of open watches. */
  watchCount(): number {
    return this.#api.ctx.hub.count();
  }

  /** Forgets the change history: resuming a watch from any older resourceVersion gets 410. */
  compact(): void {
    this.#api.ctx.store.compact();
  }

  /** The current global resourceVersion. */
  get resourceVersion(): number {
    return this.#api.ctx.store.resourceVersion;
  }

  /** Reads an object straight from storage (no HTTP), or undefined. For assertions. */
  peek(resource: { group?: string; plural: string }, namespace: string, name: string): KubeObject | undefined {
    const group = resource.group ?? "";
    const key = `${group}/${resource.plural}`;
    return this.#api.ctx.store.get(key, namespace, name)?.object();
  }

  /** Number of stored objects. */
  objectCount(): number {
    return this.#api.ctx.store.size();
  }

  /** Stops the server, ends watches and connections, removes the temporary kubeconfig. */
  async stop(): Promise<void> {
    this.#gc.stop();
    this.#simulator?.stop();
    this.#api.ctx.hub.closeAll(false);
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeIdleConnections();
    for (const s of this.#sockets) s.destroy();
    await closed;
    if (this.#tempDir) await rm(this.#tempDir, { recursive: true, force: true });
  }
}

/** An option that must be a whole number ≥ `min` (or Infinity, for no bound). */
function checkCount(name: string, value: number, min: number): number {
  if (value !== Infinity && !(Number.isInteger(value) && value >= min)) {
    throw new TypeError(`LocalCluster.start: ${name} must be a whole number ≥ ${min} (or Infinity), got ${String(value)}`);
  }
  return value;
}

function kubeconfigYaml(url: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: localcluster",
    "  cluster:",
    `    server: ${url}`,
    "    insecure-skip-tls-verify: true",
    "users:",
    "- name: localcluster",
    "  user:",
    "    token: localcluster",
    "contexts:",
    "- name: localcluster",
    "  context:",
    "    cluster: localcluster",
    "    user: localcluster",
    "    namespace: default",
    "current-context: localcluster",
    "",
  ].join("\n");
}
