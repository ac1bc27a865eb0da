/**
 * LocalCluster: an in-process, Kubernetes-compatible API server for tests and demos.
 *
 * The real `@kubernetes/client-node` and `kubectl` talk to it over HTTP on 127.0.0.1.
 *
 * Authentication and RBAC are off by default: every request is allowed, whatever its token.
 * `LocalCluster.start({ authorization: true })` turns them on (see
 * {@link LocalClusterOptions.authorization}): the cluster then serves HTTPS, requests need a
 * bearer token from a kubeconfig it wrote ({@link LocalCluster.userKubeConfig},
 * {@link LocalCluster.serviceAccountKubeConfig}) and get only what Roles, ClusterRoles and
 * their bindings allow, with kube-apiserver's 401 and 403 answers. The RBAC kinds themselves
 * are served either way, so RBAC manifests apply to any LocalCluster.
 *
 * Admission webhooks run as on kube-apiserver: the Mutating/ValidatingWebhookConfigurations
 * created through the API (or {@link LocalCluster.registerWebhooks}) are called over HTTPS,
 * trusting only their `caBundle`, on creates, updates, patches, applies, deletes (a collection
 * delete admits each object), `/status` and `/scale` writes and dry runs: mutating webhooks
 * first (JSON patches applied, `reinvocationPolicy: IfNeeded` honoured), then defaulting and
 * validation, then validating webhooks on the object as it will be stored. `rules`,
 * `matchPolicy`, `namespaceSelector`, `objectSelector`, `failurePolicy`, `timeoutSeconds`,
 * `sideEffects` and warnings (`Warning` headers) behave as kube-apiserver's, with its messages;
 * {@link LocalCluster.injectWebhookFault} makes calls slow or fail. Webhooks' `matchConditions`
 * and ValidatingAdmissionPolicies (with their bindings and params) are evaluated with CEL.
 * Writes LocalCluster makes itself (garbage collection, the simulator) are not admitted.
 *
 * Known limitations compared with a real API server: identities are bearer tokens only (no
 * client certificates, no anonymous requests), ClusterRole aggregation is not done, the CEL
 * `authorizer` of admission expressions is not implemented, lists are served from the current state (a `continue` page reflects later changes), no kubelet (Pods run only when simulation is on), built-in kinds have no OpenAPI
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
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
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
import type { ActiveFault, ActiveWebhookFault, FaultSpec, ServedRequestRecord, WebhookFaultSpec } from "./faults.ts";
import { AdmissionChain } from "./admission/chain.ts";
import type { ServiceResolver } from "./admission/webhook-client.ts";
import type { RequestLog } from "../util/request-log.ts";
import type { KubeObject } from "./resource-type.ts";
import type { Simulator, SimulationOptions } from "./simulator.ts";
import { AccessControl } from "./auth/access-control.ts";
import { ADMIN_USER } from "./auth/user-info.ts";
import { seedBootstrapPolicy } from "./rbac/bootstrap-policy.ts";
import { UserKubeconfigs } from "./user-kubeconfigs.ts";
import type { UserKubeConfig } from "./user-kubeconfigs.ts";
import { selfSignedCertificate } from "./auth/self-signed.ts";
import { writeKubeconfig } from "./kubeconfig-file.ts";
import { checkShardingSettings } from "./shard-selector.ts";
import type { ShardInfoEcho, ShardingSettings } from "./shard-selector.ts";
import { checkObject } from "../util/check-args.ts";
import { mergePatchInPlace } from "../util/merge-patch.ts";

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
  /**
   * Interval of watch bookmarks when clients ask for them (default 60 s, kube-apiserver's
   * cadence: on an idle watch with `allowWatchBookmarks=true`, v1.36.2 sent one at 59.8 s and
   * nothing else). Tests of bookmark handling pass a small value.
   */
  bookmarkIntervalMs?: number;
  /**
   * How long a watch, get or list asking for a resourceVersion newer than the server's waits
   * for it before answering 504 "Too large resource version" (default 3000 ms, as
   * kube-apiserver). The wait ends as soon as the store reaches that resourceVersion.
   */
  resourceVersionWaitMs?: number;
  /** Turn on the workload simulator (Pods run, workloads report ready). Off by default. */
  simulate?: boolean | SimulationOptions;
  /**
   * Authentication and RBAC, as a kube-apiserver with `--authorization-mode=RBAC`,
   * `--anonymous-auth=false` and the OwnerReferencesPermissionEnforcement admission plugin
   * (default false: every request is allowed and tokens are ignored).
   *
   * With it on:
   * - Every request but `/healthz`, `/livez` and `/readyz` needs a bearer token LocalCluster
   *   issued; without one it gets kube-apiserver's 401 `Unauthorized`. The cluster's own
   *   kubeconfig ({@link LocalCluster.kubeConfig}) is the superuser `localcluster-admin`
   *   (groups `system:masters`, `system:authenticated`): everything is allowed.
   *   {@link LocalCluster.userKubeConfig} and {@link LocalCluster.serviceAccountKubeConfig}
   *   write kubeconfigs for other identities. `Impersonate-User`/`Impersonate-Group` headers
   *   (`kubectl --as`) work for whoever may `impersonate` (the admin may).
   * - Requests are authorized by RBAC from the Roles, ClusterRoles, RoleBindings and
   *   ClusterRoleBindings created through the API, as kube's RBAC authorizer does: verbs,
   *   groups, resources, `resource/subresource`, `*` and `*` + `/subresource` wildcards,
   *   `resourceNames` (matched only by requests that name an object, including a list or watch
   *   with the field selector `metadata.name=<name>`), `nonResourceURLs`; a denied request gets
   *   kube-apiserver's 403 text, e.g. `configmaps is forbidden: User
   *   "system:serviceaccount:default:op" cannot list resource "configmaps" in API group "" in
   *   the namespace "default"`. The default ClusterRoles `cluster-admin`, `system:discovery`,
   *   `system:basic-user` and `system:public-info-viewer` and their bindings are created at start,
   *   so every authenticated user can read discovery, OpenAPI and `/version` and review its own
   *   access (`kubectl auth can-i`, `kubectl auth can-i --list`, `kubectl auth whoami`).
   * - Writes by users outside `system:masters` are also checked as kube-apiserver checks them:
   *   a server-side apply that creates needs `create`; Roles and bindings may not grant more than
   *   the writer holds (unless it may `escalate`/`bind`); changing owner references needs
   *   `delete` on the object, and setting `blockOwnerDeletion: true` needs `update` on the
   *   owner's `<resource>/finalizers`.
   * - {@link LocalCluster.requests} records each request's `user`, 401s and 403s included.
   *   Injected faults ({@link LocalCluster.inject}) fire only on requests that pass
   *   authentication and authorization.
   * - The server speaks HTTPS with a self-signed certificate made at start
   *   ({@link LocalCluster.caCertificate}, which the kubeconfigs trust): kubectl sends a
   *   kubeconfig's token only to `https` servers.
   *
   * Not done: ClusterRole `aggregationRule` (stored, but its rules are not aggregated),
   * client certificates, anonymous requests, token expiry or revocation.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   *
   * const cluster = await LocalCluster.start({ authorization: true });
   * const op = await cluster.serviceAccountKubeConfig("default", "widget-operator");
   * // apply the operator's Role/RoleBinding with cluster.kubeConfig (the admin), then run the
   * // operator with op.kubeConfig and assert it was never refused:
   * assert.equal(cluster.requests.filter({ code: 403 }).filter((r) => r.user === op.user).length, 0);
   * ```
   */
  authorization?: boolean;
  /**
   * Server-side sharded list and watch (KEP-5866, kube-apiserver v1.36's alpha
   * `ShardedListAndWatch` feature gate; default true). Lists, watches and collection deletes of
   * every kind take `?shardSelector=shardRange(object.metadata.uid, '0x0000000000000000',
   * '0x8000000000000000')` (ranges joined by `||`; field `object.metadata.uid` or
   * `object.metadata.namespace`; FNV-1a 64 hash; bounds of 16 hex digits, `[start, end)`) and
   * answer only the objects in range; lists echo the applied selector in
   * `metadata.shardInfo.selector`; a malformed selector is a 400. `false` serves it as an API
   * server without the feature: the parameter is ignored (no filtering, no echo, no 400), to
   * test a client's fallback. {@link LocalCluster.setSharding} changes it while the cluster runs.
   */
  shardedListWatch?: boolean;
  /**
   * Which kinds' shard-filtered lists echo the selector in `metadata.shardInfo`. Default
   * `"built-in"`, as kube-apiserver v1.36.2 with the feature gate on answers: lists and watches
   * of custom resources are filtered too, but their lists carry no `shardInfo`, so a client
   * cannot tell a filtered list from an ignored parameter until an object of another shard
   * arrives. `"all"` echoes for custom resources too.
   */
  shardInfoEcho?: ShardInfoEcho;
  /**
   * Where admission webhooks whose `clientConfig` names a `service` (not a `url`) are reached:
   * a function from the service reference to an `https://host:port` base URL (the reference's
   * `path` is appended), or undefined when it is unknown — the call then fails as an
   * unreachable webhook, and its `failurePolicy` decides. Webhooks with a `url` need nothing.
   *
   * @example
   * ```ts
   * const cluster = await LocalCluster.start({
   *   webhookServices: (svc) => (svc.name === "widget-webhook" ? "https://127.0.0.1:9443" : undefined),
   * });
   * ```
   */
  webhookServices?: ServiceResolver;
}

/**
 * What {@link LocalCluster.registerWebhooks} takes: the Manager, or anything listing webhook manifests.
 *
 * @example
 * ```ts
 * const source: WebhookManifestSource = {
 *   webhookManifests: () => [{ apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingWebhookConfiguration", metadata: { name: "widgets" } }],
 * };
 * await cluster.registerWebhooks(source);
 * ```
 */
export interface WebhookManifestSource {
  /**
   * MutatingWebhookConfigurations, ValidatingWebhookConfigurations and CustomResourceDefinition
   * stubs carrying `spec.conversion`; other kinds are skipped.
   */
  webhookManifests(): KubeObject[];
}

/** Bookmarks on an idle watch once a minute, as kube-apiserver sends them. */
const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

const SEEDED_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** An embedded Kubernetes API server. Start one with {@link LocalCluster.start}. */
export class LocalCluster {
  /** A client-node KubeConfig pointing at this cluster. */
  readonly kubeConfig: KubeConfig;
  /** Path of the kubeconfig file written for kubectl and other tools. */
  readonly kubeconfigPath: string;
  /**
   * Base URL, e.g. `http://127.0.0.1:41234`; `https://…` in authorization mode, whose
   * certificate is {@link LocalCluster.caCertificate}.
   */
  readonly url: string;
  /**
   * In authorization mode, the PEM certificate of the HTTPS listener (self-signed for
   * `127.0.0.1` and `localhost`, made at start): trust it to call {@link LocalCluster.url}
   * directly, e.g. `https.request(url, { ca: cluster.caCertificate, headers: { Authorization:
   * \`Bearer ${token}\` } })`. The kubeconfigs the cluster writes carry it already. Undefined
   * without authorization mode (plain HTTP).
   */
  readonly caCertificate: string | undefined;
  readonly #server: Server;
  readonly #api: ApiServer;
  readonly #gc: GarbageCollector;
  readonly #sockets = new Set<Socket>();
  readonly #tempDir: string | undefined;
  readonly #simulator: Simulator | undefined;
  readonly #users: UserKubeconfigs;

  private constructor(init: {
    server: Server; api: ApiServer; gc: GarbageCollector; url: string; kubeConfig: KubeConfig;
    kubeconfigPath: string; tempDir: string | undefined; sockets: Set<Socket>; simulator: Simulator | undefined;
    caCertificate: string | undefined;
  }) {
    this.caCertificate = init.caCertificate;
    this.#users = new UserKubeconfigs({ access: init.api.ctx.access, url: init.url, caCertificate: init.caCertificate, clusterDir: init.tempDir });
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
    checkObject("LocalCluster.start(options)", "options", options, "an options object");
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
    checkShardingSettings("LocalCluster.start", options);
    const ctx: ApiContext = { registry, store, hub, writer, bookmarkIntervalMs: options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS,
      resourceVersionWaitMs: options.resourceVersionWaitMs ?? DEFAULT_RESOURCE_VERSION_WAIT_MS,
      shardedListWatch: options.shardedListWatch ?? true, shardInfoEcho: options.shardInfoEcho ?? "built-in" };
    if (options.authorization !== undefined && typeof options.authorization !== "boolean") {
      throw new TypeError(`LocalCluster.start: authorization must be true or false, got ${JSON.stringify(options.authorization)}`);
    }
    if (options.authorization) ctx.access = new AccessControl(store, registry);
    if (options.webhookServices !== undefined && typeof options.webhookServices !== "function") {
      throw new TypeError("LocalCluster.start: webhookServices must be a function from a service reference ({ namespace, name, port }) to an https base URL or undefined");
    }
    ctx.admission = new AdmissionChain(store, registry, options.webhookServices);
    store.onChange((c) => hub.dispatch(c));
    const admission = ctx.admission;
    watchCrds(ctx, {
      ...(options.webhookServices ? { resolveService: options.webhookServices } : {}),
      // Conversion calls go through the admission chain's client, so injected webhook faults
      // named after a CRD apply to them.
      post: (name, config, body, ms) => admission.post(name, config, body, ms),
    });
    const gc = new GarbageCollector(ctx);
    for (const name of SEEDED_NAMESPACES) writer.create(nsType, undefined, { metadata: { name } });
    if (ctx.access) seedBootstrapPolicy(registry, writer);
    const api = new ApiServer(ctx, options.requestLogSize !== undefined
      ? { requestLogSize: checkCount("requestLogSize", options.requestLogSize, 1) }
      : {});
    // kubectl reads a kubeconfig's credentials only for https servers: authorization mode serves TLS.
    const tls = ctx.access ? selfSignedCertificate() : undefined;
    const server: Server = tls ? createTlsServer({ keepAlive: true, ...tls }, api.listener) : createServer({ keepAlive: true }, api.listener);
    const sockets = new Set<Socket>();
    server.on("connection", (s: Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    api.serverAddress = `127.0.0.1:${port}`;
    const url = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
    let tempDir: string | undefined;
    let kubeconfigPath = options.kubeconfigPath;
    if (!kubeconfigPath) {
      tempDir = await mkdtemp(join(tmpdir(), "localcluster-"));
      kubeconfigPath = join(tempDir, "kubeconfig");
    }
    const adminToken = ctx.access ? ctx.access.tokens.issue(ADMIN_USER) : "localcluster";
    const kubeConfig = await writeKubeconfig(kubeconfigPath, url, { user: "localcluster", token: adminToken, namespace: "default" }, tls?.cert);
    // Loaded only when asked for: clusters without simulation never run its code.
    const simulator = options.simulate
      ? new (await import("./simulator.ts")).Simulator(ctx, typeof options.simulate === "object" ? options.simulate : {})
      : undefined;
    const cluster = new LocalCluster({ server, api, gc, url, kubeConfig, kubeconfigPath, tempDir, sockets, simulator, caCertificate: tls?.cert });
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
    checkObject("LocalCluster.inject(fault)", "fault", fault, "a fault ({ verb?, resource?, code?, latencyMs?, times? })");
    return this.#api.inject(fault);
  }

  /** Removes all injected faults (request and webhook faults) that have not fired yet. */
  clearFaults(): void {
    this.#api.faults.length = 0;
    if (this.#api.ctx.admission) this.#api.ctx.admission.faults.length = 0;
  }

  /**
   * Makes LocalCluster's calls to admission webhooks slow or fail, `times` times (default
   * once): `latencyMs` waits before the call (a wait reaching the webhook's `timeoutSeconds` is
   * that call's timeout), `down: true` fails it as a refused connection, `code` as an HTTP error
   * answer. The webhook's `failurePolicy` then decides, as for a real failure: `Fail` answers
   * the write with kube-apiserver's 500 `Internal error occurred: failed calling webhook …`,
   * `Ignore` lets it through. `name` limits the fault to one webhook (`webhooks[].name`).
   *
   * Errors: a TypeError naming the field and the fix for an unknown field, a bad value, or a
   * fault that would do nothing.
   *
   * @example
   * ```ts
   * cluster.injectWebhookFault({ name: "vwidget.example.com", down: true });
   * // the next write that calls vwidget.example.com fails (failurePolicy: Fail) or skips it (Ignore)
   * ```
   */
  injectWebhookFault(fault: WebhookFaultSpec): ActiveWebhookFault {
    checkObject("LocalCluster.injectWebhookFault(fault)", "fault", fault, "a webhook fault ({ name?, latencyMs?, down?, code?, times? })");
    return this.#api.ctx.admission!.inject(fault);
  }

  /**
   * Registers a webhook server with this cluster in one call, as deploying its manifests
   * would: each MutatingWebhookConfiguration and ValidatingWebhookConfiguration of
   * `source.webhookManifests()` is created, or replaces the one of the same name; each
   * CustomResourceDefinition stub's `spec.conversion` is merged onto the stored CRD of that
   * name. Other kinds (Service, Certificate…) are skipped: LocalCluster calls the webhooks'
   * URLs (or resolves `service` references with the `webhookServices` option).
   *
   * Errors: a StatusError when a configuration is invalid (kube-apiserver's 422), a TypeError
   * naming the CRD when a stub's CRD is not stored yet (create the CRD first).
   *
   * @example
   * ```ts
   * // mgr: a Manager with webhooks; its server points the configurations at itself with its CA
   * await cluster.registerWebhooks(mgr);
   * ```
   */
  async registerWebhooks(source: WebhookManifestSource): Promise<void> {
    checkObject("LocalCluster.registerWebhooks(source)", "source", source, "an object with webhookManifests() (e.g. the Manager)");
    if (typeof source.webhookManifests !== "function") {
      throw new TypeError("LocalCluster.registerWebhooks: source has no webhookManifests() method; pass the Manager (mgr), or an object whose webhookManifests() returns the configurations");
    }
    const { registry, store, writer } = this.#api.ctx;
    for (const manifest of source.webhookManifests()) {
      const name = manifest.metadata?.name ?? "";
      if (manifest.kind === "MutatingWebhookConfiguration" || manifest.kind === "ValidatingWebhookConfiguration") {
        const type = registry.byKind("admissionregistration.k8s.io/v1", manifest.kind)!;
        const body = structuredClone(manifest);
        const existing = store.get(type.storageKey, "", name);
        if (existing) writer.update(type, existing, { ...body, metadata: { ...body.metadata, resourceVersion: String(existing.rv) } }, { manager: "localcluster" });
        else writer.create(type, undefined, body, { manager: "localcluster" });
      } else if (manifest.kind === "CustomResourceDefinition") {
        const conversion = (manifest as { spec?: { conversion?: unknown } }).spec?.conversion;
        if (conversion === undefined) continue;
        const type = registry.byKind("apiextensions.k8s.io/v1", "CustomResourceDefinition")!;
        const existing = store.get(type.storageKey, "", name);
        if (!existing) {
          throw new TypeError(`LocalCluster.registerWebhooks: CustomResourceDefinition "${name}" is not in the cluster; create the CRD before registering its conversion webhook`);
        }
        const crd = mergePatchInPlace(existing.object(), { spec: { conversion: structuredClone(conversion) } }) as KubeObject;
        writer.update(type, existing, crd, { manager: "localcluster" });
      }
    }
  }

  /**
   * Ends every open watch; returns how many. By default each stream ends cleanly (as when an
   * API server restarts or a watch times out); `abrupt: true` destroys the connections instead,
   * as a network failure would.
   */
  dropWatches(options: { abrupt?: boolean } = {}): number {
    return this.#api.ctx.hub.closeAll(options.abrupt ?? false);
  }

  /**
   * Changes {@link LocalClusterOptions.shardedListWatch} and/or
   * {@link LocalClusterOptions.shardInfoEcho} for the requests that follow, as when the API
   * server restarts with its feature gate flipped, or a load balancer sends the next list to
   * another one. Open watches keep the filter they started with.
   *
   * Errors: a TypeError naming the field, for a value `start` would refuse.
   *
   * @example
   * ```ts
   * cluster.setSharding({ shardedListWatch: false }); // the next lists and watches ignore shardSelector
   * ```
   */
  setSharding(settings: ShardingSettings): void {
    checkShardingSettings("LocalCluster.setSharding", settings);
    const ctx = this.#api.ctx;
    if (settings.shardedListWatch !== undefined) ctx.shardedListWatch = settings.shardedListWatch;
    if (settings.shardInfoEcho !== undefined) ctx.shardInfoEcho = settings.shardInfoEcho;
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

  /** Whether this cluster authenticates and authorizes requests (`start({ authorization: true })`). */
  get authorization(): boolean {
    return this.#api.ctx.access !== undefined;
  }

  /**
   * Writes a kubeconfig for another identity, with a fresh bearer token (identities are bearer
   * tokens only; client certificates are not supported). The user is in the groups given plus
   * `system:authenticated`, and may do only what RBAC allows it. The file is removed by
   * {@link LocalCluster.stop}.
   *
   * Errors: a TypeError without authorization mode (where every request is allowed, so the
   * kubeconfig would prove nothing), or for an empty name or a group that is not a string.
   *
   * @example
   * ```ts
   * import { CoreV1Api } from "@kubernetes/client-node";
   *
   * const cluster = await LocalCluster.start({ authorization: true });
   * const { kubeConfig, kubeconfigPath } = await cluster.userKubeConfig({ name: "alice", groups: ["dev"] });
   * const core = kubeConfig.makeApiClient(CoreV1Api);
   * await core.listNamespacedConfigMap({ namespace: "default" }); // → throws a 403 until a Role allows it
   * // kubectl --kubeconfig <kubeconfigPath> auth can-i list configmaps   → "no"
   * ```
   */
  userKubeConfig(user: { name: string; groups?: string[] }): Promise<UserKubeConfig> {
    return this.#users.forUser(user);
  }

  /**
   * Writes a kubeconfig for the service account `namespace/name` (which need not exist): user
   * `system:serviceaccount:<namespace>:<name>`, groups `system:serviceaccounts`,
   * `system:serviceaccounts:<namespace>` and `system:authenticated`, as kube-apiserver
   * authenticates the account's tokens. Its context's namespace is `namespace`. Otherwise as
   * {@link LocalCluster.userKubeConfig}.
   *
   * @example
   * ```ts
   * import { AppsV1Api } from "@kubernetes/client-node";
   *
   * const op = await cluster.serviceAccountKubeConfig("default", "widget-operator");
   * const apps = op.kubeConfig.makeApiClient(AppsV1Api);
   * ```
   */
  serviceAccountKubeConfig(namespace: string, name: string): Promise<UserKubeConfig> {
    return this.#users.forServiceAccount(namespace, name);
  }

  /** Stops the server, ends watches and connections, removes the temporary kubeconfigs. */
  async stop(): Promise<void> {
    this.#gc.stop();
    this.#simulator?.stop();
    this.#api.ctx.hub.closeAll(false);
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeIdleConnections();
    for (const s of this.#sockets) s.destroy();
    await closed;
    if (this.#tempDir) await rm(this.#tempDir, { recursive: true, force: true });
    await this.#users.cleanup();
  }
}

/** An option that must be a whole number ≥ `min` (or Infinity, for no bound). */
function checkCount(name: string, value: number, min: number): number {
  if (value !== Infinity && !(Number.isInteger(value) && value >= min)) {
    throw new TypeError(`LocalCluster.start: ${name} must be a whole number ≥ ${min} (or Infinity), got ${String(value)}`);
  }
  return value;
}
