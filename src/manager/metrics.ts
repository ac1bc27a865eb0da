/** Prometheus metrics with controller-runtime's names, in a registry of their own. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ControllerMetrics, MetricsProvider, WorkQueueMetrics } from "../controller/metrics-hooks.ts";
import { checkObject } from "../util/check-args.ts";
import type { WebhookMetrics, WebhookOutcome, WebhookType } from "../webhook/metrics-hooks.ts";

/**
 * Buckets of `controller_runtime_reconcile_time_seconds` (controller-runtime's: fine below 1 s,
 * up to 60 s).
 *
 * @example
 * ```ts
 * RECONCILE_TIME_BUCKETS.at(-1); // 60
 * ```
 */
export const RECONCILE_TIME_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1,
  1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/**
 * Buckets of the work-queue duration histograms: powers of ten from 10 ns to 1000 s, as
 * client-go's work-queue metrics.
 *
 * @example
 * ```ts
 * WORKQUEUE_DURATION_BUCKETS; // [1e-8, 1e-7, …, 100, 1000]
 * ```
 */
export const WORKQUEUE_DURATION_BUCKETS: readonly number[] = Array.from({ length: 12 }, (_, i) => Number(`1e${i - 8}`));

/**
 * Options of {@link Metrics}.
 *
 * @example
 * ```ts
 * const options: MetricsOptions = { defaultMetrics: true };
 * ```
 */
export interface MetricsOptions {
  /** The registry to register into (default: a new one; never prom-client's global register). */
  registry?: Registry;
  /** Also collect Node's process metrics (CPU, memory, event loop lag, GC) into it. Default false. */
  defaultMetrics?: boolean;
}

type Queue = "name" | "controller";

/**
 * Buckets of `controller_runtime_webhook_latency_seconds` (Prometheus' defaults, as
 * controller-runtime's webhook metrics).
 *
 * @example
 * ```ts
 * WEBHOOK_LATENCY_BUCKETS.at(-1); // 10
 * ```
 */
export const WEBHOOK_LATENCY_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The Manager's metrics: implements the controllers' and work queues' {@link MetricsProvider}
 * hooks with controller-runtime's metric names and labels, plus
 * `leader_election_master_status{name}`. `text()` is the Prometheus exposition served on
 * `/metrics`.
 *
 * Series: `controller_runtime_reconcile_total{controller,result}`,
 * `controller_runtime_reconcile_errors_total{controller}`,
 * `controller_runtime_terminal_reconcile_errors_total{controller}`,
 * `controller_runtime_reconcile_time_seconds{controller}` (histogram),
 * `controller_runtime_max_concurrent_reconciles{controller}`,
 * `controller_runtime_active_workers{controller}`,
 * `operator_runtime_reconcile_triggers_total{controller,kind,reason}` (what triggered each
 * reconcile: `reason` is the watch event — `added`, `modified`, `deleted`, `initial-list`,
 * `leadership` —
 * with the event's object's `kind`, or `requeue-after`, `requeue`, `retry`,
 * `timeout-returned`, `caches-caught-up`, `bucket`, `gate-recheck`, `manual` with `kind=""`),
 * and for each queue (labels `name` and
 * `controller`, both the controller's name) `workqueue_depth`, `workqueue_adds_total`,
 * `workqueue_queue_duration_seconds`, `workqueue_work_duration_seconds`,
 * `workqueue_unfinished_work_seconds`, `workqueue_longest_running_processor_seconds`,
 * `workqueue_retries_total`; a sharded Manager adds `operator_runtime_shard_buckets` and
 * `operator_runtime_shard_client_filtering{resource}`. Webhooks (label `webhook`: the path served)
 * add controller-runtime's `controller_runtime_webhook_requests_total{webhook,code}` (HTTP
 * status), `controller_runtime_webhook_latency_seconds{webhook}` (histogram) and
 * `controller_runtime_webhook_requests_in_flight{webhook}`, and
 * `operator_runtime_webhook_outcomes_total{webhook,type,outcome}` (`type` mutating, validating
 * or conversion; `outcome` allowed, denied or errored — a handler that threw or timed out, a
 * failed conversion, a malformed review).
 *
 * Guarantees: `reconcile_errors_total` counts every error, terminal ones included (as
 * controller-runtime); `terminal_reconcile_errors_total` counts terminal ones again. A controller's reconcile counters appear at 0 for every result as soon as its
 * hooks are created (dashboards see the series before the first reconcile); `controller(name)`
 * and `workQueue(name)` return the same hooks for the same name.
 *
 * Caveats: two Metrics on one registry collide (prom-client rejects duplicate names); give each
 * its own registry, the default. Default process metrics start an event-loop-delay monitor.
 *
 * RBAC: none.
 *
 * @example
 * ```ts
 * const metrics = new Metrics({ defaultMetrics: true });
 * const hooks = metrics.controller("dataapp");
 * hooks.reconcileResult("success");
 * hooks.reconcileTime(0.042);
 * console.log(await metrics.text()); // controller_runtime_reconcile_total{controller="dataapp",result="success"} 1 …
 * ```
 */
export class Metrics implements MetricsProvider, WebhookMetrics {
  /** The prom-client registry holding every series. */
  readonly registry: Registry;
  readonly #reconcileTotal: Counter<"controller" | "result">;
  readonly #reconcileErrors: Counter<"controller">;
  readonly #terminalErrors: Counter<"controller">;
  readonly #reconcileTime: Histogram<"controller">;
  readonly #maxConcurrent: Gauge<"controller">;
  readonly #activeWorkers: Gauge<"controller">;
  readonly #triggers: Counter<"controller" | "kind" | "reason">;
  readonly #depth: Gauge<Queue>;
  readonly #adds: Counter<Queue>;
  readonly #queueDuration: Histogram<Queue>;
  readonly #workDuration: Histogram<Queue>;
  readonly #unfinished: Gauge<Queue>;
  readonly #longest: Gauge<Queue>;
  readonly #retries: Counter<Queue>;
  readonly #leader: Gauge<"name">;
  readonly #shardBuckets: Gauge;
  readonly #shardClientFiltering: Gauge<"resource">;
  readonly #webhookRequests: Counter<"webhook" | "code">;
  readonly #webhookLatency: Histogram<"webhook">;
  readonly #webhookInFlight: Gauge<"webhook">;
  readonly #webhookOutcomes: Counter<"webhook" | "type" | "outcome">;
  readonly #controllers = new Map<string, ControllerMetrics>();
  readonly #queues = new Map<string, WorkQueueMetrics>();

  constructor(options: MetricsOptions = {}) {
    checkObject("new Metrics(options)", "options", options, "an options object ({ registry? })");
    const registry = (this.registry = options.registry ?? new Registry());
    const registers = [registry];
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter<L>({ name, help, labelNames, registers });
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Gauge<L>({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets: [...buckets], registers });
    const c = ["controller"] as const;
    const q = ["name", "controller"] as const;

    this.#reconcileTotal = counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller", ["controller", "result"] as const);
    this.#reconcileErrors = counter("controller_runtime_reconcile_errors_total", "Total number of reconciliation errors per controller", c);
    this.#terminalErrors = counter("controller_runtime_terminal_reconcile_errors_total", "Total number of terminal reconciliation errors per controller", c);
    this.#reconcileTime = histogram("controller_runtime_reconcile_time_seconds", "Length of time per reconciliation per controller", c, RECONCILE_TIME_BUCKETS);
    this.#maxConcurrent = gauge("controller_runtime_max_concurrent_reconciles", "Maximum number of concurrent reconciles per controller", c);
    this.#activeWorkers = gauge("controller_runtime_active_workers", "Number of currently used workers per controller", c);
    this.#triggers = counter("operator_runtime_reconcile_triggers_total", "Reconciles started, by what triggered them: the kind and event type of a watch event, or requeue-after, requeue, retry and the other causes", ["controller", "kind", "reason"] as const);
    this.#depth = gauge("workqueue_depth", "Current depth of the work queue", q);
    this.#adds = counter("workqueue_adds_total", "Total number of adds handled by the work queue", q);
    this.#queueDuration = histogram("workqueue_queue_duration_seconds", "How long in seconds an item stays in the work queue before being requested", q, WORKQUEUE_DURATION_BUCKETS);
    this.#workDuration = histogram("workqueue_work_duration_seconds", "How long in seconds processing an item from the work queue takes", q, WORKQUEUE_DURATION_BUCKETS);
    this.#unfinished = gauge("workqueue_unfinished_work_seconds", "Seconds of work in progress not yet observed by work_duration; large values indicate stuck workers", q);
    this.#longest = gauge("workqueue_longest_running_processor_seconds", "Seconds the longest running processor of the work queue has been running", q);
    this.#retries = counter("workqueue_retries_total", "Total number of retries handled by the work queue", q);
    this.#leader = gauge("leader_election_master_status", "1 while this process holds the lease 'name', 0 while it stands by", ["name"] as const);
    this.#shardBuckets = gauge("operator_runtime_shard_buckets", "Hash buckets of the ring this sharded replica serves (or is starting)", [] as const);
    this.#shardClientFiltering = gauge("operator_runtime_shard_client_filtering", "1 while the API server ignores the KEP-5866 shard selector of this resource, so the replica receives every object and filters client-side", ["resource"] as const);
    this.#webhookRequests = counter("controller_runtime_webhook_requests_total", "Total number of admission and conversion requests by HTTP status code", ["webhook", "code"] as const);
    this.#webhookLatency = histogram("controller_runtime_webhook_latency_seconds", "Histogram of the latency of processing admission and conversion requests", ["webhook"] as const, WEBHOOK_LATENCY_BUCKETS);
    this.#webhookInFlight = gauge("controller_runtime_webhook_requests_in_flight", "Current number of admission and conversion requests being served", ["webhook"] as const);
    this.#webhookOutcomes = counter("operator_runtime_webhook_outcomes_total", "Admission and conversion requests by outcome: allowed, denied by the handler, or errored", ["webhook", "type", "outcome"] as const);
    if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  }

  /** Content type of {@link Metrics.text}: `text/plain; version=0.0.4; charset=utf-8`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every series. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** Sets `leader_election_master_status{name}` (called by the {@link LeaderElector}). */
  leaderStatus(name: string, isLeader: boolean): void {
    this.#leader.set({ name }, isLeader ? 1 : 0);
  }

  /** Sets `operator_runtime_shard_buckets` (called by a sharded Manager). */
  shardBuckets(n: number): void {
    this.#shardBuckets.set(n);
  }

  /** Sets `operator_runtime_shard_client_filtering{resource}` (called by a sharded Manager). */
  shardClientFiltering(resource: string, client: boolean): void {
    this.#shardClientFiltering.set({ resource }, client ? 1 : 0);
  }

  /**
   * Makes the series of a webhook appear at 0 before its first request (called by the Manager
   * for each registered webhook).
   *
   * @example
   * ```ts
   * const metrics = new Metrics();
   * metrics.webhookRegistered("/validate-example-com-v1-greeting", "validating");
   * ```
   */
  webhookRegistered(webhook: string, type: WebhookType): void {
    for (const outcome of ["allowed", "denied", "errored"] as const) this.#webhookOutcomes.inc({ webhook, type, outcome }, 0);
    this.#webhookInFlight.set({ webhook }, 0);
  }

  /** Counts one answered webhook request (see {@link WebhookMetrics}). */
  webhookRequest(webhook: string, code: number, seconds: number): void {
    this.#webhookRequests.inc({ webhook, code: String(code) });
    this.#webhookLatency.observe({ webhook }, seconds);
  }

  /** Counts how one webhook review ended (see {@link WebhookMetrics}). */
  webhookOutcome(webhook: string, type: WebhookType, outcome: WebhookOutcome): void {
    this.#webhookOutcomes.inc({ webhook, type, outcome });
  }

  /** Tracks requests being served (see {@link WebhookMetrics}). */
  webhookInFlight(webhook: string, delta: 1 | -1): void {
    this.#webhookInFlight.inc({ webhook }, delta);
  }

  /** The hooks of controller `name`. */
  controller(name: string): ControllerMetrics {
    let hooks = this.#controllers.get(name);
    if (hooks) return hooks;
    const labels = { controller: name };
    for (const result of ["success", "error", "requeue", "requeue_after"] as const) this.#reconcileTotal.inc({ controller: name, result }, 0);
    this.#reconcileErrors.inc(labels, 0);
    this.#terminalErrors.inc(labels, 0);
    hooks = {
      reconcileResult: (result) => this.#reconcileTotal.inc({ controller: name, result }),
      reconcileError: (terminal) => {
        // As controller-runtime: every error counts; terminal ones count again on their own.
        this.#reconcileErrors.inc(labels);
        if (terminal) this.#terminalErrors.inc(labels);
      },
      reconcileTime: (seconds) => this.#reconcileTime.observe(labels, seconds),
      activeWorkers: (n) => this.#activeWorkers.set(labels, n),
      maxConcurrentReconciles: (n) => this.#maxConcurrent.set(labels, n),
      reconcileTrigger: (kind, reason) => this.#triggers.inc({ controller: name, kind, reason }),
    };
    this.#controllers.set(name, hooks);
    return hooks;
  }

  /** The hooks of work queue `name` (labels `name` and `controller` both carry it). */
  workQueue(name: string): WorkQueueMetrics {
    let hooks = this.#queues.get(name);
    if (hooks) return hooks;
    const labels = { name, controller: name };
    this.#adds.inc(labels, 0);
    this.#retries.inc(labels, 0);
    this.#depth.set(labels, 0);
    hooks = {
      add: () => this.#adds.inc(labels),
      depth: (n) => this.#depth.set(labels, n),
      queueLatency: (seconds) => this.#queueDuration.observe(labels, seconds),
      workDuration: (seconds) => this.#workDuration.observe(labels, seconds),
      retry: () => this.#retries.inc(labels),
      unfinishedWork: (total, longest) => {
        this.#unfinished.set(labels, total);
        this.#longest.set(labels, longest);
      },
    };
    this.#queues.set(name, hooks);
    return hooks;
  }
}
