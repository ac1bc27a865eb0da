/**
 * The Manager: owns the client, the shared cache, the metrics and health server and the
 * leader elector, and runs controllers — the IBM Streams instance operator's lifecycle: create
 * everything, start it, wait for SIGTERM/SIGINT, drain controllers, stop caches, release the
 * lease, exit 0.
 */
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import type { KubeConfig } from "@kubernetes/client-node";
import type { Kind, KindRef, KubeObject } from "../client/types.ts";
import { BUILDER_VERBS, checkVerbs } from "../controller/access.ts";
import type { KindAccess, KindUse } from "../controller/access.ts";
import { ResourceClient } from "../client/resource-client.ts";
import { Cache } from "../cache/cache.ts";
import type { CacheOptions } from "../cache/cache.ts";
import type { Logger } from "../log/logger.ts";
import { createLogger } from "../log/logger.ts";
import { Controller } from "../controller/controller.ts";
import type { ControllerOptions, ControllerSharding, InformerSource, MapFunc, WatchOptions } from "../controller/controller.ts";
import type { Reconciler } from "../controller/reconciler.ts";
import { runInReconcileScope } from "../controller/reconcile-scope.ts";
import type { ReconcileScope } from "../controller/reconcile-scope.ts";
import type { Runnable } from "../util/runnable.ts";
import { LeaderElector } from "../lease/leader-election.ts";
import type { StoppedLeadingReason } from "../lease/leader-election.ts";
import { Metrics } from "./metrics.ts";
import { HealthServer } from "./health-server.ts";
import { EventRecorder } from "../events/event-recorder.ts";
import { clientEventSink } from "../events/client-sink.ts";
import { RingMembership } from "../sharding/ring-membership.ts";
import { ShardRouter } from "./shard-router.ts";
import { refuseStartWhileGenerating } from "./generating.ts";
import { argumentError, checkObject } from "../util/check-args.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { WebhookServer } from "../webhook/server.ts";
import { admissionRegistrations, conversionRegistration } from "../webhook/registration.ts";
import { webhookConfigurations } from "../webhook/configurations.ts";
import type { AdmissionRegistration, ConversionOptions, ConversionRegistration, WebhookOptions } from "../webhook/types.ts";
import { LogTap } from "../log/tap.ts";
import type { DashboardOptions, DashboardServer } from "../dashboard/server.ts";
import type { SharedInformer } from "../cache/informer.ts";
import type { OwnershipView } from "../dashboard/types.ts";
import { reconcileScope } from "../controller/reconcile-scope.ts";
import { tapRecordedEvents } from "../events/event-recorder.ts";

/** Leader election settings. */
export interface LeaderElectionOptions {
  /** Namespace of the Lease. */
  namespace: string;
  /** Lease name (one per operator). */
  name: string;
  /** This process's identity (default: hostname + random suffix). */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/**
 * A sharded Manager's ring (see {@link ManagerOptions.sharding}). Durations in ms; defaults are
 * leader election's 15 s / 10 s / 2 s; must hold leaseDurationMs > renewDeadlineMs > retryPeriodMs.
 *
 * @example
 * ```ts
 * const sharding: ShardingOptions = { ring: "dataapp-operator", namespace: "operators" };
 * ```
 */
export interface ShardingOptions {
  /** The ring's name, the same on every replica: a DNS label of at most 46 characters. */
  ring: string;
  /** Namespace of the members' Leases (the operator's own). */
  namespace: string;
  /** This replica's identity, unique among live replicas (default: hostname + random suffix). */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/**
 * Settings of the Manager's webhook server (see {@link Manager.webhook}).
 *
 * @example
 * ```ts
 * const webhook: ManagerWebhookOptions = { port: 9443, certDir: "/tmp/k8s-webhook-server/serving-certs" };
 * ```
 */
export interface ManagerWebhookOptions {
  /** Port (0 picks a free one). Default 9443, as controller-runtime. */
  port?: number;
  /** Address to bind. Default: 0.0.0.0 in a pod (`KUBERNETES_SERVICE_HOST` set), 127.0.0.1 elsewhere. */
  host?: string;
  /**
   * Directory of the serving certificate (`tls.crt`, `tls.key`, optional `ca.crt`): mount the
   * webhook's TLS Secret there; a rotated Secret is picked up without a restart. Default: the
   * environment's `WEBHOOK_CERT_DIR` (which `gen manifests` sets on the container); without
   * either, a CA and a certificate for localhost are generated at start (development and tests).
   */
  certDir?: string;
  /** More names for the generated development certificate: DNS names, or IP addresses (as IP SANs). */
  dnsNames?: string[];
}

/** Options of {@link Manager}. */
export interface ManagerOptions {
  kubeConfig: KubeConfig;
  /** Field manager of the client (server-side apply). Default "operator-runtime". */
  fieldManager?: string;
  logger?: Logger;
  /** Off (false, the default) or the Lease to hold while reconciling. */
  leaderElection?: false | LeaderElectionOptions;
  /** Port of /metrics, /healthz and /readyz (0 = ephemeral; false = no server). Default 8080. */
  healthPort?: number | false;
  /**
   * Address the health server binds. Default: `0.0.0.0` in a pod (`KUBERNETES_SERVICE_HOST` is
   * set), so kubelet probes and Prometheus reach it; `127.0.0.1` anywhere else, so running an
   * operator on a laptop does not expose `/metrics` to the network. Set `0.0.0.0` to opt in.
   */
  healthHost?: string;
  /**
   * Who may read `/metrics` (see
   * {@link operator-runtime/controller!HealthServerOptions.metricsAccess}): `"loopback"`
   * (default; probes still answer everyone) or `"any"` for a Prometheus scrape from other pods.
   */
  metricsAccess?: "loopback" | "any";
  /**
   * Records the Warning event of a terminal reconcile error on the primary object (and is yours
   * to use as `mgr.recorder`). Default: an {@link EventRecorder} writing through the Manager's
   * client, reporting as the field manager; `false` records none.
   */
  recorder?: EventRecorder | false;
  /**
   * Options of the shared cache (`mgr.cache`). `transform` decides what each informer stores:
   * by default objects without `metadata.managedFields` (see {@link CacheOptions.transform});
   * `"none"` keeps them.
   *
   * @example
   * ```ts
   * new Manager({ kubeConfig, cache: { transform: "none" } });
   * ```
   */
  cache?: Pick<CacheOptions, "transform">;
  /**
   * Horizontal scaling: every replica runs the controllers, each reconciling the keys of its
   * share of 64 hash buckets (a key's bucket is its primary's UID hashed with FNV-1a). Replicas
   * find each other through Leases labelled with the ring's name and hand buckets over safely
   * (never two replicas reconciling one key). Primaries are watched with a KEP-5866
   * `shardSelector`, owned kinds by the bucket label the Builder stamps on every child. Cannot
   * be combined with `leaderElection`. See docs/sharding.md, "Sharded Managers".
   *
   * @example
   * ```ts
   * new Manager({ kubeConfig, sharding: { ring: "dataapp-operator", namespace: "operators" } });
   * ```
   */
  sharding?: ShardingOptions;
  /**
   * How far V8 lets the old generation grow past what survived the last full collection
   * before it collects again, in percent, set for the whole process when the Manager starts
   * (V8's `--heap-growing-percent`). Default 30: an operator converging thousands of owners
   * allocates fast, and V8's throughput default lets the heap grow to about four times what it
   * keeps — an RSS the memory limit has to cover — where 30 keeps the peak near 1.4×, for
   * roughly 20–55 % more CPU per reconcile while converging and nothing measurable when idle
   * (docs/performance.md, "Memory"). It is one setting of the process: the last Manager started
   * sets it, `false` leaves it as it is (V8's default unless something set it), and a
   * `--heap-growing-percent` on node's command line wins (the Manager then leaves it).
   *
   * @example
   * ```ts
   * new Manager({ kubeConfig, heapGrowingPercent: false }); // V8's own heap sizing
   * ```
   */
  heapGrowingPercent?: number | false;
  /**
   * The HTTPS server of the webhooks registered with {@link Manager.webhook} and
   * {@link Manager.conversion}: it starts only when some are registered, on every replica (not
   * leader-gated, as controller-runtime); `false` never starts it (the registrations still
   * feed `gen manifests`).
   *
   * @example
   * ```ts
   * new Manager({ kubeConfig, webhook: { certDir: "/tmp/k8s-webhook-server/serving-certs" } });
   * ```
   */
  webhook?: ManagerWebhookOptions | false;
  /**
   * The live dev dashboard (see {@link Manager.dashboard}): off (`false`, the default) or its
   * options. Off, nothing of it is loaded or run.
   *
   * @example
   * ```ts
   * new Manager({ kubeConfig, dashboard: { port: 0 } });
   * ```
   */
  dashboard?: DashboardOptions | false;
}

/** The Manager's default {@link ManagerOptions.heapGrowingPercent}. */
export const DEFAULT_HEAP_GROWING_PERCENT = 30;

/**
 * Where the Manager's health server listens unless told: all interfaces in a pod (Kubernetes
 * sets `KUBERNETES_SERVICE_HOST` in every container), loopback elsewhere.
 *
 * @example
 * ```ts
 * defaultHealthHost({ KUBERNETES_SERVICE_HOST: "10.96.0.1" }); // "0.0.0.0"
 * defaultHealthHost({});                                        // "127.0.0.1"
 * ```
 */
export function defaultHealthHost(env: Readonly<Record<string, string | undefined>>): string {
  return env.KUBERNETES_SERVICE_HOST ? "0.0.0.0" : "127.0.0.1";
}

/**
 * Runs controllers with shared caches, leader election, metrics and health.
 *
 * Expected flow: `start()` starts the cache, the health server and (if enabled) leader
 * election; controllers start when this process leads (at once without election). When
 * leadership is lost, controllers are stopped at once (running reconciles see their signal
 * aborted) and `lost` resolves — exit the process then, as controller-runtime does.
 * `stop()` drains controllers, stops the cache, releases the lease, stops the server; a
 * graceful stop is not a loss (`lost` stays pending). From `start()` until `stop()` ends, the
 * Manager keeps the process alive, standing by for the Lease included.
 * `runUntilSignal()` is the whole lifecycle for a `main()`.
 *
 * @example
 * ```ts
 * import { Action, StatefulSet, defineKind } from "operator-runtime";
 *
 * interface DataAppSpec { image: string; replicas: number }
 * const mgr = new Manager({ kubeConfig, fieldManager: "dataapp-operator",
 *   leaderElection: { namespace: "operators", name: "dataapp-operator" } });
 * const DataApp = defineKind<DataAppSpec>({ apiVersion: "example.com/v1", kind: "DataApp" });
 * mgr.controller("dataapp")
 *   .for(DataApp)
 *   .owns(StatefulSet)
 *   .reconcile(async (req) => {
 *     const app = mgr.cache.informer(DataApp).get(req.name, req.namespace); // typed: app?.spec
 *     return Action.done();
 *   });
 * process.exit(await mgr.runUntilSignal());
 * ```
 */
export class Manager {
  readonly client: ResourceClient;
  readonly cache: Cache;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly elector: LeaderElector | undefined;
  readonly health: HealthServer | undefined;
  /** Events on the objects the controllers reconcile; undefined with `recorder: false`. */
  readonly recorder: EventRecorder | undefined;
  /** The Lease it holds while reconciling (`leaderElection` of its options), or undefined. */
  readonly leaderElection: Readonly<LeaderElectionOptions> | undefined;
  /** The port of `/metrics`, `/healthz` and `/readyz` as configured (0: ephemeral), or undefined without a health server. */
  readonly healthPort: number | undefined;
  /** The sharded Manager's ring membership (its Lease, the assignment, the served buckets), or undefined. */
  readonly ring: RingMembership | undefined;
  /** `sharding` of its options, or undefined. */
  readonly sharding: Readonly<ShardingOptions> | undefined;
  /** Resolves when leadership is lost (never without leader election). */
  readonly lost: Promise<void>;
  /** Resolves with the error when a controller fails to start while leading. */
  readonly failed: Promise<unknown>;
  readonly #runnables: Runnable[] = [];
  readonly #leaderRunnables: Runnable[] = [];
  readonly #router: ShardRouter | undefined;
  #resolveLost!: () => void;
  #fail!: (err: unknown) => void;
  #started = false;
  #stopping: Promise<void> | undefined;
  #leading = false;
  #abort = new AbortController();
  /** A ref'd timer held from start() until stop() ends, so a standby waiting for the Lease keeps the process alive. */
  #keepAlive: NodeJS.Timeout | undefined;
  readonly #heapGrowingPercent: number | false;
  readonly #webhookOptions: ManagerWebhookOptions | false;
  readonly #logTap: LogTap;
  #dashboardOptions: DashboardOptions | undefined;
  #dashboard: DashboardServer | undefined;
  #dashboardStop: (() => void)[] = [];
  #attachDashboard: ((c: Controller) => void) | undefined;
  /** The dashboard's Events informer (readiness does not wait for it). */
  #dashboardEvents: SharedInformer | undefined;
  /** Starts following the cluster's Events (set by the dashboard's start; run once the cache has started). */
  #followEvents: (() => void) | undefined;
  /** Ownership the dashboard last saw (to list bucket handovers). */
  #lastServed: ReadonlySet<number> = new Set();
  readonly #handovers: { at: number; bucket: number; change: "served" | "drained" }[] = [];
  readonly #admission: AdmissionRegistration[] = [];
  readonly #conversions: ConversionRegistration[] = [];
  #webhookServer: WebhookServer | undefined;

  constructor(options: ManagerOptions) {
    checkObject("new Manager(options)", "options", options, "an options object ({ kubeConfig, … })");
    // Tapped: the dashboard, when on, shows the log lines too (nothing is done while it is off).
    this.#logTap = new LogTap(options.logger ?? createLogger());
    this.logger = this.#logTap.logger;
    this.client = new ResourceClient({ kubeConfig: options.kubeConfig, ...(options.fieldManager ? { fieldManager: options.fieldManager } : {}) });
    this.cache = new Cache({
      client: this.client, kubeConfig: options.kubeConfig, logger: this.logger.child({ component: "cache" }),
      ...(options.cache?.transform !== undefined ? { transform: options.cache.transform } : {}),
    });
    this.recorder = options.recorder === false ? undefined
      : options.recorder ?? new EventRecorder({ sink: clientEventSink(this.client), controller: this.client.fieldManager });
    this.metrics = new Metrics();
    this.lost = new Promise((resolve) => (this.#resolveLost = resolve));
    this.failed = new Promise((resolve) => (this.#fail = resolve));
    this.leaderElection = options.leaderElection ? Object.freeze({ ...options.leaderElection }) : undefined;
    this.healthPort = options.healthPort === false ? undefined : options.healthPort ?? 8080;
    const growing = options.heapGrowingPercent ?? DEFAULT_HEAP_GROWING_PERCENT;
    if (growing !== false && !(Number.isInteger(growing) && growing >= 10 && growing <= 1000)) {
      throw new RangeError(`new Manager(options): heapGrowingPercent must be a whole percent from 10 to 1000, or false for V8's default, got ${JSON.stringify(growing)}`);
    }
    this.#heapGrowingPercent = growing;
    if (options.webhook !== undefined && options.webhook !== false && (typeof options.webhook !== "object" || options.webhook === null)) {
      throw new TypeError(`new Manager(options): webhook must be { port?, host?, certDir?, dnsNames? } or false, got ${JSON.stringify(options.webhook)}.`);
    }
    this.#webhookOptions = options.webhook === false ? false : { ...options.webhook };
    if (options.dashboard !== undefined && options.dashboard !== false) this.dashboard(options.dashboard);
    if (options.sharding !== undefined) {
      if (options.leaderElection) {
        throw new TypeError("Manager: sharding and leaderElection cannot be combined. Fix: drop leaderElection — in a sharded Manager every replica runs the controllers and the ring decides which keys each reconciles.");
      }
      const sh = options.sharding;
      if (typeof sh !== "object" || sh === null || typeof sh.ring !== "string" || typeof sh.namespace !== "string" || !sh.namespace) {
        throw new TypeError("Manager: sharding must be { ring, namespace } (strings). Fix: e.g. sharding: { ring: \"dataapp-operator\", namespace: \"operators\" }.");
      }
      this.sharding = Object.freeze({ ...sh });
      this.#router = new ShardRouter({
        cache: this.cache, logger: this.logger.child({ component: "sharding" }), metrics: this.metrics,
        controllers: () => this.controllers(),
      });
      this.ring = new RingMembership({
        client: this.client, kubeConfig: options.kubeConfig, namespace: sh.namespace, ring: sh.ring,
        identity: sh.identity ?? `${hostname()}_${randomUUID().slice(0, 8)}`, handler: this.#router, logger: this.logger,
        ...(sh.leaseDurationMs !== undefined ? { leaseDurationMs: sh.leaseDurationMs } : {}),
        ...(sh.renewDeadlineMs !== undefined ? { renewDeadlineMs: sh.renewDeadlineMs } : {}),
        ...(sh.retryPeriodMs !== undefined ? { retryPeriodMs: sh.retryPeriodMs } : {}),
      });
    }
    if (options.leaderElection) {
      const le = options.leaderElection;
      this.elector = new LeaderElector({
        client: this.client, namespace: le.namespace, name: le.name,
        identity: le.identity ?? `${hostname()}_${randomUUID().slice(0, 8)}`,
        ...(le.leaseDurationMs !== undefined ? { leaseDurationMs: le.leaseDurationMs } : {}),
        ...(le.renewDeadlineMs !== undefined ? { renewDeadlineMs: le.renewDeadlineMs } : {}),
        ...(le.retryPeriodMs !== undefined ? { retryPeriodMs: le.retryPeriodMs } : {}),
        logger: this.logger.child({ component: "leader-election" }),
        metrics: this.metrics,
      });
    }
    if (options.healthPort !== false) {
      this.health = new HealthServer({
        port: options.healthPort ?? 8080,
        host: options.healthHost ?? defaultHealthHost(process.env),
        metrics: this.metrics,
        ...(options.metricsAccess ? { metricsAccess: options.metricsAccess } : {}),
        checks: { healthz: () => true, readyz: () => this.#readyz() },
      });
    }
  }

  /** Whether `start()` was called (and `stop()` has not finished). */
  get started(): boolean {
    return this.#started;
  }

  /**
   * Registers a runnable (controllers wait for leadership; others run on every replica). A
   * sharded Manager has no leader: it takes only controllers built with `controller()` and
   * runnables that do not need leader election.
   */
  add(runnable: Runnable): void {
    if (this.#router && runnable.needsLeaderElection && !(runnable instanceof Controller && runnable.sharded)) {
      throw new TypeError(`Manager: runnable ${runnable.name} needs leader election, which a sharded Manager does not hold (every replica runs). Fix: build controllers with mgr.controller(name), and run leader-only work in a Manager with leaderElection instead.`);
    }
    (runnable.needsLeaderElection ? this.#leaderRunnables : this.#runnables).push(runnable);
    if (runnable instanceof Controller) this.#attachDashboard?.(runnable);
    if (!this.#started || (runnable.needsLeaderElection && !this.#leading)) return;
    // Sharded: a controller added while buckets are served serves them too once it has started.
    // #startOne logged a failure already; nothing else to report.
    if (this.#router && runnable instanceof Controller) void this.#startOne(runnable).then(() => this.#router!.attach(runnable)).catch(() => undefined);
    else void this.#startOne(runnable).catch(() => undefined);
  }

  /**
   * Turns on the live dev dashboard: a read-only page at {@link Manager.dashboardUrl} (loopback
   * by default) showing, live, each primary with the objects it owns and what the Builder does
   * with each; every reconcile with what triggered it, how long it waited and ran, its outcome
   * and the writes it made with their diffs, reconcile loops flagged; queues and informers;
   * the Events the Manager's recorder wrote and the log; a plan of the next reconcile of a
   * primary (server dry runs, nothing written); leadership and the shard ring. Call before
   * `start()`; it starts with the Manager, on every replica (a standby shows itself as one),
   * and stops with it.
   *
   * Off (the default), the Manager loads none of it and pays nothing but keeping each run's
   * trigger, which its log lines and `operator_runtime_reconcile_triggers_total` carry anyway.
   *
   * Caveats: it has no authentication; bind another `host` only where that is fine. It shows
   * the writes of a Manager's ResourceClients (not raw client-node calls), and the Events of
   * `mgr.recorder`. Secret values never appear in diffs.
   *
   * @example
   * ```ts
   * const mgr = new Manager({ kubeConfig }).dashboard({ port: 0 });
   * await mgr.start();
   * console.log(`dashboard: ${mgr.dashboardUrl}`);
   * ```
   */
  dashboard(options: DashboardOptions = {}): this {
    checkObject("Manager.dashboard(options)", "options", options, "an options object ({ port?, host?, timeline?, logLevel? })");
    if (this.#started) throw new OperatorRuntimeError("Manager.dashboard(): call it before start() (the dashboard starts with the Manager)");
    const problem = dashboardOptionsProblem(options);
    if (problem) throw new OperatorRuntimeError(`Manager.dashboard(options): ${problem}`);
    this.#dashboardOptions = { ...options };
    return this;
  }

  /** The dashboard's options as set by {@link Manager.dashboard} or `ManagerOptions.dashboard`; undefined while it is off. */
  get dashboardOptions(): Readonly<DashboardOptions> | undefined {
    return this.#dashboardOptions;
  }

  /** The dashboard's URL (`http://127.0.0.1:PORT/`) once the Manager has started with it on; undefined otherwise. */
  get dashboardUrl(): string | undefined {
    return this.#dashboard?.url || undefined;
  }

  /** Starts the dashboard: recorder on every controller, the log and the event recorder; then the server. */
  async #startDashboard(options: DashboardOptions): Promise<void> {
    const { DashboardRecorder } = await import("../dashboard/recorder.ts");
    const { DashboardServer } = await import("../dashboard/server.ts");
    const recorder = new DashboardRecorder({
      ...(options.timeline !== undefined ? { timeline: options.timeline } : {}),
      ...(options.logLevel !== undefined ? { logLevel: options.logLevel } : {}),
    });
    for (const c of this.controllers()) recorder.attach(c);
    this.#attachDashboard = (c) => recorder.attach(c);
    this.#dashboardStop.push(this.#logTap.listen((r) => recorder.log(r)));
    // Every EventRecorder's events: the Manager's, and those the reconcilers made themselves.
    const names = () => new Set(this.controllers().map((c) => c.name));
    const own = new Set<string>();
    const reporters = new Set<string>(this.recorder ? [this.recorder.controller] : []);
    this.#dashboardStop.push(tapRecordedEvents((recorded, from) => {
      const m = recorded.event.metadata;
      own.add(`${m.namespace ?? ""}/${m.name ?? ""}`);
      reporters.add(from.controller);
      if (own.size > 10_000) own.delete(own.values().next().value!);
      const scope = reconcileScope();
      if (scope ? !names().has(scope.controller) : from !== this.recorder) return;
      const key = scope?.request ? (scope.request.namespace ? `${scope.request.namespace}/${scope.request.name}` : scope.request.name) : undefined;
      recorder.event(recorded, scope ? { controller: scope.controller, ...(key ? { key } : {}) } : undefined);
    }));
    this.#dashboardStop.push(() => recorder.close());
    if (this.ring) {
      // Handovers are noted as they happen (to the second), whether or not a page is open.
      this.#lastServed = new Set(this.ring.served());
      const sample = setInterval(() => this.#ownership(), 1000);
      sample.unref();
      this.#dashboardStop.push(() => clearInterval(sample));
    }
    const server = new DashboardServer({
      recorder, logger: this.logger,
      source: { controllers: () => this.controllers(), informers: () => this.cache.informers(), ownership: () => this.#ownership() },
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.host !== undefined ? { host: options.host } : {}),
    });
    await server.start();
    this.#dashboard = server;
    // And the Events other controllers write about the operator's objects (when it may list
    // them), from when the cache has started: its start does not wait for the cluster's Events.
    const { followClusterEvents } = await import("../dashboard/cluster-events.ts");
    this.#followEvents = () => void followClusterEvents({
      client: this.client, cache: this.cache, controllers: () => this.controllers(), recorder, logger: this.logger,
      ownEvent: (namespace, name, reporter) => own.has(`${namespace}/${name}`) || (reporter !== undefined && reporters.has(reporter)),
    }).then(({ stop, informer }) => {
      if (this.#dashboard !== server) return stop();
      this.#dashboardEvents = informer;
      this.#dashboardStop.push(stop);
    });
    this.logger.info(`dashboard: ${server.url}`, { url: server.url });
  }

  /** Leadership and the ring, as the dashboard shows them. */
  #ownership(): OwnershipView {
    const identity = this.elector?.identity ?? this.ring?.identity ?? hostname();
    const role = this.elector ? (this.elector.isLeader() ? "leader" : "standby") : "always";
    const view: OwnershipView = { identity, role };
    if (this.elector && this.leaderElection) {
      const holder = this.elector.leader();
      view.leaderElection = { namespace: this.leaderElection.namespace, name: this.leaderElection.name, ...(holder ? { holder } : {}) };
    }
    if (this.ring && this.sharding) {
      const served = this.ring.served();
      const now = Date.now();
      for (const b of served) if (!this.#lastServed.has(b)) this.#handovers.push({ at: now, bucket: b, change: "served" });
      for (const b of this.#lastServed) if (!served.has(b)) this.#handovers.push({ at: now, bucket: b, change: "drained" });
      if (this.#handovers.length > 200) this.#handovers.splice(0, this.#handovers.length - 200);
      this.#lastServed = new Set(served);
      const assignment = this.ring.assignment();
      const members = new Map<string, number[]>();
      for (const m of this.ring.members()) members.set(m, []);
      assignment.forEach((owner, bucket) => {
        if (owner === undefined) return;
        if (!members.has(owner)) members.set(owner, []);
        members.get(owner)!.push(bucket);
      });
      view.sharding = {
        ring: this.sharding.ring, buckets: assignment.length, served: [...served].sort((a, b) => a - b),
        members: [...members].map(([id, buckets]) => ({ identity: id, buckets })), handovers: [...this.#handovers],
      };
    }
    return view;
  }

  /** The registered controllers. */
  controllers(): Controller[] {
    return this.#leaderRunnables.filter((r): r is Controller => r instanceof Controller);
  }

  /** Starts building a controller; `.reconcile(fn)` registers it. */
  controller(name: string): ControllerRegistration {
    return new ControllerRegistration(this, name);
  }

  /** Ready: caches synced, the webhook server (if any webhook is registered) listening, and leading or standing by. */
  ready(): boolean {
    // Sharded: an informer rebuilt for a bucket change is still listing while the one it
    // replaces serves; readiness does not flap at every handover.
    const router = this.#router;
    // Nor does the dashboard's Events informer hold readiness back.
    const events = this.#dashboardEvents;
    const ignore = router || events ? (i: SharedInformer) => (router?.isPending(i) ?? false) || i === events : undefined;
    return this.#started && !this.#stopping && this.#webhooksServing() && this.cache.hasSynced(ignore);
  }

  /** Whether the webhook server is listening, or none is wanted. */
  #webhooksServing(): boolean {
    if (!this.#wantsWebhookServer()) return true;
    return this.#webhookServer?.listening === true;
  }

  #wantsWebhookServer(): boolean {
    return this.#webhookOptions !== false && (this.#admission.length > 0 || this.#conversions.length > 0);
  }

  /** `/readyz`: {@link Manager.ready}, naming the webhook server when it is what is missing. */
  #readyz(): boolean {
    if (this.#started && !this.#stopping && !this.#webhooksServing()) {
      throw new Error("the webhook server is not listening (the API server cannot call this replica's webhooks yet)");
    }
    return this.ready();
  }

  /**
   * Registers an admission webhook on `kind`: `default` becomes a mutating webhook (the
   * handler returns the object to store; the server answers the JSON Patch), `validate` a
   * validating one (return nothing to allow, `allow(warnings)`, or `deny(message, causes)`),
   * each on its own path (`/mutate-example-com-v1-greeting`, `/validate-…`, kubebuilder's). A
   * handler that throws or outlives `timeoutSeconds` denies the request (see
   * `handleAdmission` in `operator-runtime/webhook`).
   *
   * The webhook server starts with `start()` on every replica when something is registered
   * (port 9443; see {@link ManagerOptions.webhook}); `mgr.webhookManifests()` gives the
   * configurations pointing at it, `operator-runtime gen manifests` those of a deployment.
   * Throws a TypeError for a kind registered twice, neither handler, a `timeoutSeconds` outside
   * 1–30, an unknown operation or a path already served. Built-in kinds are fine
   * (`mgr.webhook(Pod, …)`). Register before `start()` or while running (the server then serves
   * the new path at once).
   *
   * @example
   * ```ts
   * import { deny } from "operator-runtime/webhook";
   *
   * mgr.webhook(Greeting, {
   *   default: (g) => ({ ...g, metadata: { ...g.metadata, labels: { ...g.metadata?.labels, team: "hello" } } }),
   *   validate: (g) =>
   *     g.spec?.name && g.spec.surname
   *       ? deny("set exactly one of spec.name and spec.surname", [{ field: "spec.surname", message: "must be unset when spec.name is set", reason: "FieldValueForbidden" }])
   *       : undefined,
   *   timeoutSeconds: 5,
   * });
   * ```
   */
  webhook<T extends KubeObject>(kind: Kind<T>, options: WebhookOptions<T>): this {
    const where = `mgr.webhook(${typeof kind?.kind === "string" ? kind.kind : "kind"})`;
    const regs = admissionRegistrations(where, kind, options);
    for (const reg of regs) {
      const same = this.#admission.find((r) => (r.type === reg.type && r.group === reg.group && r.kind === reg.kind) || r.path === reg.path || r.name === reg.name);
      if (same) {
        throw new TypeError(`${where}: ${same.path === reg.path ? `the path ${reg.path} is served already` : `${reg.kind} has a ${reg.type} webhook already`} (${same.name}, registered for ${same.group ? `${same.group}/` : ""}${same.version}). Fix: register each kind once, with default and validate in one options object.`);
      }
    }
    if (this.#started && !this.#webhookServer && this.#webhookOptions !== false) {
      throw new TypeError(`${where}: the Manager started without webhooks, so it runs no webhook server. Fix: register webhooks before mgr.start().`);
    }
    for (const reg of regs) {
      this.#admission.push(reg);
      if (this.#webhookServer) {
        this.#webhookServer.register(reg);
        this.metrics.webhookRegistered(reg.path, reg.type);
      }
    }
    return this;
  }

  /**
   * Registers the conversion webhook of a multi-version custom resource, hub-and-spoke: every
   * version converts to and from the `hub` (`spokes[v].toHub` / `fromHub`), served on
   * `/convert`. `kind` is any version of it (its group and kind count). Check the converters in
   * your tests with `checkRoundTrip` (`operator-runtime/webhook`). Throws a TypeError for a
   * kind without an API group, a kind registered twice, a hub also listed as a spoke, a spoke
   * without both functions, or a kind version that is neither hub nor spoke.
   *
   * @example
   * ```ts
   * mgr.conversion(Greeting, {
   *   hub: "v1",
   *   spokes: {
   *     v1alpha1: {
   *       toHub: ({ spec, ...rest }) => ({ ...rest, spec: { name: (spec as { who?: string }).who } }),
   *       fromHub: ({ spec, ...rest }) => ({ ...rest, spec: { who: (spec as { name?: string }).name } }),
   *     },
   *   },
   * });
   * ```
   */
  conversion(kind: KindRef, options: ConversionOptions): this {
    const where = `mgr.conversion(${typeof kind?.kind === "string" ? kind.kind : "kind"})`;
    const reg = conversionRegistration(where, kind, options);
    if (this.#conversions.some((c) => c.group === reg.group && c.kind === reg.kind)) {
      throw new TypeError(`${where}: ${reg.kind}.${reg.group} has a conversion already. Fix: register each kind's conversion once, with every spoke in it.`);
    }
    if (this.#started && !this.#webhookServer && this.#webhookOptions !== false) {
      throw new TypeError(`${where}: the Manager started without webhooks, so it runs no webhook server. Fix: register conversions before mgr.start().`);
    }
    this.#conversions.push(reg);
    if (this.#webhookServer) {
      this.#webhookServer.registerConversion(reg);
      this.metrics.webhookRegistered("/convert", "conversion");
    }
    return this;
  }

  /**
   * The registered webhooks and conversions, as `gen manifests` and `webhookConfigurations`
   * read them.
   *
   * @example
   * ```ts
   * const { admission, conversion } = mgr.webhookRegistrations();
   * console.log(admission.map((r) => `${r.type} ${r.path}`), conversion.map((c) => c.kind));
   * ```
   */
  webhookRegistrations(): { admission: AdmissionRegistration[]; conversion: ConversionRegistration[] } {
    return { admission: [...this.#admission], conversion: [...this.#conversions] };
  }

  /**
   * The webhook server's settings as given (`new Manager({ webhook })`), or `false` for
   * `webhook: false`. `gen manifests` reads the port and the certificate directory here.
   *
   * @example
   * ```ts
   * const options = mgr.webhookOptions; // {} by default: port 9443, certDir from $WEBHOOK_CERT_DIR
   * ```
   */
  get webhookOptions(): Readonly<ManagerWebhookOptions> | false {
    return this.#webhookOptions === false ? false : { ...this.#webhookOptions };
  }

  /**
   * The running webhook server (its `url` and `caBundle`), or undefined before `start()`, with
   * nothing registered, or with `webhook: false`.
   */
  get webhookServer(): WebhookServer | undefined {
    return this.#webhookServer;
  }

  /**
   * The MutatingWebhookConfiguration, ValidatingWebhookConfiguration and CRD conversion
   * settings (CRD stubs holding only `spec.conversion`) that point an API server at this
   * running Manager's webhook server: its `url` (reachable from the same machine) and CA bundle.
   * `LocalCluster.registerWebhooks(mgr)` applies them (creating the configurations, merging the
   * stubs into the installed CRDs). Throws before `start()` or without a webhook server. For a
   * cluster (a Service target, cert-manager), use `operator-runtime gen manifests`.
   *
   * @example
   * ```ts
   * import { LocalCluster } from "operator-runtime/testing";
   * declare const cluster: LocalCluster;
   * await mgr.start();
   * await cluster.registerWebhooks(mgr); // reads mgr.webhookManifests()
   * ```
   */
  webhookManifests(opts: { name?: string } = {}): KubeObject[] {
    const server = this.#webhookServer;
    if (!server?.listening) {
      throw new TypeError("mgr.webhookManifests(): the webhook server is not running. Fix: register webhooks (mgr.webhook, mgr.conversion) and await mgr.start() first.");
    }
    return webhookConfigurations(this.webhookRegistrations(), { url: server.url }, {
      ...(server.caBundle !== undefined ? { caBundle: server.caBundle } : {}),
      ...(opts.name !== undefined ? { name: opts.name } : {}),
    });
  }

  /**
   * Whether this process currently leads (always true without leader election once started);
   * with election, false as soon as the renew deadline passed without a renewal (see
   * `LeaderElector.isLeader`). Controllers' writes are refused while it answers false.
   */
  isLeader(): boolean {
    return this.#leading && (this.elector?.isLeader() ?? true);
  }

  /** The informer source of its controllers: the cache, or the sharded Manager's router. */
  get informerSource(): InformerSource {
    return this.#router ?? this.cache;
  }

  /**
   * Starts everything; resolves once caches are synced and election runs. The webhook server
   * (when webhooks or conversions are registered) listens before the caches start, on every
   * replica; readiness waits for it.
   */
  async start(): Promise<void> {
    refuseStartWhileGenerating();
    if (this.#started) return;
    this.#started = true;
    // Everything else waits on unref'd timers (the elector's retries) or on nothing at all (a
    // standby has no watches yet): without this, `await mgr.runUntilSignal()` would end the
    // process while it waits for leadership.
    this.#keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
    const growing = this.#heapGrowingPercent;
    if (growing !== false && !process.execArgv.some((a) => a.startsWith("--heap-growing-percent"))) {
      setFlagsFromString(`--heap-growing-percent=${growing}`);
      this.logger.info("V8's old generation grows by at most this much before a full collection", { heapGrowingPercent: growing });
    }
    const signal = this.#abort.signal;
    if (this.#dashboardOptions) {
      // First: a port in use fails start() before anything else runs, and leaves nothing behind.
      try {
        await this.#startDashboard(this.#dashboardOptions);
      } catch (err) {
        await this.#stopDashboard();
        clearInterval(this.#keepAlive);
        this.#started = false;
        throw err;
      }
    }
    try {
      await this.#startTheRest(signal);
    } catch (err) {
      // The dashboard does not outlive a start that failed (what else started is as before).
      await this.#stopDashboard();
      throw err;
    }
  }

  /** Stops the dashboard: its server, its listeners (log, events, controllers) and its Events informer's handler. */
  async #stopDashboard(): Promise<void> {
    for (const stop of this.#dashboardStop.splice(0)) stop();
    this.#attachDashboard = undefined;
    this.#followEvents = undefined;
    const dashboard = this.#dashboard;
    this.#dashboard = undefined;
    if (dashboard) await dashboard.stop();
  }

  /** start() after the dashboard: the health server, webhooks, cache, runnables, then leading. */
  async #startTheRest(signal: AbortSignal): Promise<void> {
    if (this.health) {
      await this.health.start(signal);
      // With healthPort 0 the port is chosen now: say where /metrics, /healthz and /readyz are.
      this.logger.info("serving /metrics, /healthz and /readyz", { host: this.health.host, port: this.health.port });
    }
    if (this.#wantsWebhookServer()) await this.#startWebhookServer(signal);
    await this.cache.start(signal);
    this.#followEvents?.();
    this.#followEvents = undefined;
    for (const r of this.#runnables) await this.#startOne(r);
    if (this.ring) {
      await this.#lead();
      this.ring.onLost((reason) => this.logger.error("lost ring membership: stopped reconciling every bucket; rejoining", { reason }));
      await this.ring.start(signal);
      return;
    }
    if (!this.elector) {
      await this.#lead();
      return;
    }
    this.elector.onStartedLeading(() => void this.#lead());
    this.elector.onStoppedLeading((reason) => this.#stoppedLeading(reason));
    await this.elector.start(signal);
  }

  /**
   * Drains controllers, stops caches and runnables, releases the lease, stops the webhook
   * server (in-flight reviews finish first) and the health server.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.logger.info("stopping: draining controllers");
      // A reconcile waiting for an informer that never synced (its list keeps failing) gives up
      // now rather than holding the drain for its reconcile timeout.
      this.cache.abortSyncWaits();
      // Sharded: hand every bucket over first (drained, unpublished, the Lease deleted), so the
      // other replicas take them at once. A bucket still starting (its informers syncing) is
      // drained only once its start settles: those starts give up now.
      this.#router?.abortStarts();
      if (this.ring) await this.ring.stop().catch((err) => this.logger.error("leaving the ring failed", { error: err }));
      await Promise.all(this.#leaderRunnables.map((r) => r.stop().catch((err) => this.logger.error("stop failed", { runnable: r.name, error: err }))));
      this.#abort.abort();
      await Promise.all(this.#runnables.map((r) => r.stop().catch(() => undefined)));
      await this.#router?.close();
      await this.cache.stop();
      if (this.elector) await this.elector.stop();
      // Last but the probes: the API server may call webhooks until the endpoints drop this pod.
      if (this.#webhookServer) await this.#webhookServer.stop();
      if (this.health) await this.health.stop();
      await this.#stopDashboard();
      clearInterval(this.#keepAlive);
      this.logger.info("stopped");
    })();
    return this.#stopping;
  }

  /**
   * The operator lifecycle: start, wait for SIGTERM or SIGINT (or lost leadership), stop.
   * Returns the exit code: 0 after a signal, 1 when leadership was lost or a controller could
   * not start.
   */
  async runUntilSignal(): Promise<number> {
    let code = 0;
    const signalled = new Promise<string>((resolve) => {
      process.once("SIGTERM", () => resolve("SIGTERM"));
      process.once("SIGINT", () => resolve("SIGINT"));
    });
    await this.start();
    const why = await Promise.race([
      signalled,
      this.lost.then(() => "leadership lost"),
      this.failed.then((err) => `a controller failed to start: ${(err as Error)?.message ?? err}`),
    ]);
    if (why !== "SIGTERM" && why !== "SIGINT") code = 1;
    this.logger.info("shutting down", { reason: why });
    await this.stop();
    return code;
  }

  async #startWebhookServer(signal: AbortSignal): Promise<void> {
    const o = this.#webhookOptions || {};
    const certDir = o.certDir ?? (process.env["WEBHOOK_CERT_DIR"] || undefined);
    const server = new WebhookServer({
      logger: this.logger.child({ component: "webhook" }), metrics: this.metrics,
      ...(o.port !== undefined ? { port: o.port } : {}),
      ...(o.host !== undefined ? { host: o.host } : {}),
      ...(certDir !== undefined ? { certDir } : {}),
      ...(o.dnsNames !== undefined ? { dnsNames: o.dnsNames } : {}),
    });
    for (const reg of this.#admission) {
      server.register(reg);
      this.metrics.webhookRegistered(reg.path, reg.type);
    }
    for (const reg of this.#conversions) server.registerConversion(reg);
    if (this.#conversions.length) this.metrics.webhookRegistered("/convert", "conversion");
    // Set before listening: a registration made meanwhile goes to this server.
    this.#webhookServer = server;
    await server.start(signal);
    this.logger.info("serving webhooks", {
      url: server.url, paths: [...this.#admission.map((r) => r.path), ...(this.#conversions.length ? ["/convert"] : [])],
      certificate: certDir ?? "generated for development (no certDir)",
    });
  }

  async #startOne(r: Runnable): Promise<void> {
    try {
      await r.start(this.#abort.signal);
    } catch (err) {
      this.logger.error("runnable failed to start", { runnable: r.name, error: err });
      throw err;
    }
  }

  async #lead(): Promise<void> {
    if (this.#leading || this.#stopping) return;
    this.#leading = true;
    // Only with leader election does starting the controllers mean leading.
    this.logger.info(this.ring ? "starting controllers: they reconcile the buckets the ring assigns" : this.elector ? "leading: starting controllers" : "starting controllers");
    try {
      await Promise.all(this.#leaderRunnables.map((r) => this.#startOne(r)));
    } catch (err) {
      // A stop during start aborts it: nothing to report. Otherwise a controller could not
      // start (e.g. its caches never synced): the operator cannot work, so it ends with 1.
      if (!this.#stopping) this.#fail(err);
    }
  }

  /** A graceful stop (the elector's "stopped") is not a loss: controllers were drained already. */
  #stoppedLeading(reason: StoppedLeadingReason): void {
    if (reason === "stopped" || this.#stopping) this.#leading = false;
    else void this.#loseLeadership();
  }

  async #loseLeadership(): Promise<void> {
    if (!this.#leading) return;
    this.#leading = false;
    this.logger.warn("leadership lost: stopping controllers at once");
    await Promise.all(this.#leaderRunnables.map((r) => (r instanceof Controller ? r.abort() : r.stop()).catch(() => undefined)));
    this.#resolveLost();
  }
}

/** Fluent construction of a controller registered with a Manager. */
export class ControllerRegistration {
  readonly #manager: Manager;
  readonly #name: string;
  #for: ControllerOptions["for"] | undefined;
  readonly #owns: NonNullable<ControllerOptions["owns"]> = [];
  readonly #watches: NonNullable<ControllerOptions["watches"]> = [];
  #forAccess: KindAccess = {};
  readonly #uses: KindUse[] = [];
  #builder = false;
  #max = 1;
  #timeoutMs: number | undefined;
  #terminalCondition: string | false | undefined;

  constructor(manager: Manager, name: string) {
    if (!(manager instanceof Manager)) throw argumentError("new ControllerRegistration(manager, name)", "manager", "a Manager", manager, "Use mgr.controller(name)");
    this.#manager = manager;
    this.#name = name;
  }

  /**
   * The primary kind: its events enqueue its own key. `options` may also declare what the
   * reconciler does to it beyond watching (see {@link KindAccess}), for `operator-runtime gen rbac`.
   *
   * @example
   * ```ts
   * import type { Reconciler } from "operator-runtime";
   * declare const reconcileGreeting: Reconciler;
   *
   * mgr.controller("greeting").for(Greeting, { status: ["patch"] }).reconcile(reconcileGreeting);
   * ```
   */
  for<T extends KubeObject>(kind: Kind<T>, options: WatchOptions<T> & KindAccess = {}): this {
    const [watch, access] = splitAccess(`for(${kind.kind})`, options);
    this.#for = { kind, ...untyped(watch) };
    this.#forAccess = access;
    return this;
  }

  /**
   * An owned kind: its events enqueue the key of its controller owner of the primary kind. For
   * `gen rbac`, the reconciler is taken to write it with a Builder ({@link BUILDER_VERBS}:
   * create, patch, delete) unless `options.verbs` says otherwise.
   */
  owns<T extends KubeObject>(kind: Kind<T>, options: WatchOptions<T> & KindAccess = {}): this {
    const [watch, access] = splitAccess(`owns(${kind.kind})`, options);
    if (access.verbs === undefined) this.#builder = true;
    this.#owns.push({ kind, ...untyped(watch) });
    this.#uses.push(kindUse(kind, watch.namespace, true, { verbs: BUILDER_VERBS, ...access }));
    return this;
  }

  /**
   * Any kind, mapped to requests by `map` (which receives that kind's objects). `options` may
   * declare what the reconciler does to it beyond watching ({@link KindAccess}).
   */
  watches<T extends KubeObject>(kind: Kind<T>, map: MapFunc<T>, options: WatchOptions<T> & KindAccess = {}): this {
    const [watch, access] = splitAccess(`watches(${kind.kind})`, options);
    // The informer of `kind` holds `T` objects only, so `map` sees nothing else.
    this.#watches.push({ kind, map: map as MapFunc, ...untyped(watch) });
    this.#uses.push(kindUse(kind, watch.namespace, true, access));
    return this;
  }

  /**
   * Declares API access to a kind the controller does not watch (for `operator-runtime gen
   * rbac`): e.g. `.uses(Secret, { verbs: ["get"], namespace: "vault" })` for a reconciler that
   * reads one Secret by name. Changes nothing at run time.
   */
  uses(kind: KindRef, access: KindAccess & { namespace?: string }): this {
    const [rest, declared] = splitAccess(`uses(${kind.kind})`, access);
    this.#uses.push(kindUse(kind, rest.namespace, false, declared));
    return this;
  }

  /** Workers (default 1). */
  maxConcurrentReconciles(n: number): this {
    this.#max = n;
    return this;
  }

  /** How long one reconcile may run before its signal aborts and the worker moves on (default 30 000 ms; 0 = no limit). */
  reconcileTimeoutMs(ms: number): this {
    this.#timeoutMs = ms;
    return this;
  }

  /**
   * The condition a terminal error sets to `False` on the primary (default `"Ready"`); `false`
   * writes none (the Warning event remains). Written only where `.for(kind, { status: ["patch"] })`
   * declares the status patch; it changes that condition alone, keeping the reconciler's others
   * (see `ControllerOptions.terminalCondition`).
   *
   * @example
   * ```ts
   * import type { Reconciler } from "operator-runtime";
   * declare const reconcileGreeting: Reconciler;
   *
   * mgr.controller("greeting")
   *   .for(Greeting, { status: ["patch"] })
   *   .terminalCondition("Reconciled")
   *   .reconcile(reconcileGreeting);
   * ```
   */
  terminalCondition(type: string | false): this {
    this.#terminalCondition = type;
    return this;
  }

  /** Sets the reconciler and registers the controller with the Manager. */
  reconcile(fn: Reconciler): Controller {
    if (!this.#for) throw new Error(`controller ${this.#name}: call .for(kind) before .reconcile()`);
    const primary: KindUse = kindUse(this.#for.kind, this.#for.namespace, true,
      { ...(this.#owns.length ? { finalizers: ["update"] as const } : {}), ...this.#forAccess });
    // A Builder in the reconciler prunes the kinds the controller owns (see `BuilderOptions.manages`).
    const scope: ReconcileScope = {
      controller: this.#name, owns: this.#owns.map((w) => ({ apiVersion: w.kind.apiVersion, kind: w.kind.kind })),
      primary: { apiVersion: this.#for.kind.apiVersion, kind: this.#for.kind.kind },
    };
    const c = new Controller({
      access: { controller: this.#name, builder: this.#builder, kinds: [primary, ...this.#uses] },
      name: this.#name, source: this.#manager.informerSource, reconcile: inScope(scope, fn), for: this.#for, owns: this.#owns, watches: this.#watches,
      maxConcurrentReconciles: this.#max, logger: this.#manager.logger, metrics: this.#manager.metrics, leading: () => this.#manager.isLeader(),
      // Terminal errors write Ready=False to the primary's status only where the controller
      // declared it patches the status (and so holds the RBAC for it).
      ...(primary.status.includes("patch") ? { statusClient: this.#manager.client } : {}),
      ...(this.#manager.recorder ? { recorder: this.#manager.recorder } : {}),
      ...(this.#timeoutMs !== undefined ? { reconcileTimeoutMs: this.#timeoutMs } : {}),
      ...(this.#terminalCondition !== undefined ? { terminalCondition: this.#terminalCondition } : {}),
      ...(this.#manager.ring ? { sharding: shardingOf(this.#manager.ring) } : {}),
      ...(this.#manager.elector ? { leaderElection: true } : {}),
    });
    this.#manager.add(c);
    return c;
  }
}

/** What is wrong with dashboard options (checked here, so that a Manager loads the dashboard's modules only when it starts one). */
function dashboardOptionsProblem(o: DashboardOptions): string | undefined {
  const known = new Set(["port", "host", "timeline", "logLevel"]);
  for (const k of Object.keys(o)) if (!known.has(k)) return `unknown option ${JSON.stringify(k)}; the dashboard takes port, host, timeline and logLevel`;
  if (o.port !== undefined && !(Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535)) return `port must be an integer from 0 to 65535 (0 picks a free one), not ${JSON.stringify(o.port)}`;
  if (o.host !== undefined && (typeof o.host !== "string" || o.host === "")) return `host must be an address to bind such as "127.0.0.1" (the default), not ${JSON.stringify(o.host)}`;
  if (o.timeline !== undefined && !(Number.isInteger(o.timeline) && o.timeline >= 1)) return `timeline must be a whole number of reconciles to keep (default 5000), not ${JSON.stringify(o.timeline)}`;
  if (o.logLevel !== undefined && !["debug", "info", "warn", "error"].includes(o.logLevel)) return `logLevel must be "debug", "info", "warn" or "error", not ${JSON.stringify(o.logLevel)}`;
  return undefined;
}

/** `fn`, each of its runs in `scope` (see `runInReconcileScope`). */
function inScope(scope: ReconcileScope, fn: Reconciler): Reconciler {
  return (request, ctx) => runInReconcileScope({ ...scope, request: { namespace: request.namespace, name: request.name } }, () => fn(request, ctx));
}

/** The controller side of a ring: writes go out while the ring says the key's bucket is still this replica's. */
function shardingOf(ring: RingMembership): ControllerSharding {
  return { mayReconcile: (bucket) => ring.mayReconcile(bucket) };
}

/** Splits builder options into the watch options and the declared {@link KindAccess} (checked). */
function splitAccess<W extends { namespace?: string }>(field: string, options: W & KindAccess): [Omit<W, keyof KindAccess>, KindAccess] {
  const { verbs, status, finalizers, ...watch } = options;
  const access: KindAccess = {
    ...(verbs !== undefined ? { verbs: checkVerbs(`${field}.verbs`, verbs) } : {}),
    ...(status !== undefined ? { status: checkVerbs(`${field}.status`, status) } : {}),
    ...(finalizers !== undefined ? { finalizers: checkVerbs(`${field}.finalizers`, finalizers) } : {}),
  };
  return [watch, access];
}

/** A {@link KindUse} from declared access. */
function kindUse(kind: KindRef, namespace: string | undefined, watched: boolean, access: KindAccess): KindUse {
  return {
    kind: { apiVersion: kind.apiVersion, kind: kind.kind }, namespace, watched,
    verbs: access.verbs ?? [], status: access.status ?? [], finalizers: access.finalizers ?? [],
  };
}

/** Watch options as the controller stores them: its informers hold objects of the watched kind only. */
function untyped<T>(options: WatchOptions<T>): WatchOptions {
  return options as WatchOptions;
}
