/**
 * The measurements the work queue and controllers report. The Manager's metrics module
 * implements these with controller-runtime's metric names; the default does nothing.
 */

/** Work-queue measurements (one instance per queue `name`). */
export interface WorkQueueMetrics {
  /** An add (workqueue_adds_total). */
  add(): void;
  /** Current depth (workqueue_depth). */
  depth(n: number): void;
  /** Seconds an item waited in the queue before a worker took it (workqueue_queue_duration_seconds). */
  queueLatency(seconds: number): void;
  /** Seconds a worker held an item (workqueue_work_duration_seconds). */
  workDuration(seconds: number): void;
  /** A rate-limited re-add (workqueue_retries_total). */
  retry(): void;
  /** Seconds of work in progress summed, and of the longest running item (unfinished/longest gauges). */
  unfinishedWork(totalSeconds: number, longestSeconds: number): void;
}

/** Controller measurements (one instance per controller `name`). */
export interface ControllerMetrics {
  /** controller_runtime_reconcile_total{result="success"|"error"|"requeue"|"requeue_after"}. */
  reconcileResult(result: "success" | "error" | "requeue" | "requeue_after"): void;
  /** controller_runtime_reconcile_errors_total (+ terminal errors counted separately). */
  reconcileError(terminal: boolean): void;
  /** controller_runtime_reconcile_time_seconds. */
  reconcileTime(seconds: number): void;
  /** controller_runtime_active_workers. */
  activeWorkers(n: number): void;
  /** controller_runtime_max_concurrent_reconciles. */
  maxConcurrentReconciles(n: number): void;
  /**
   * operator_runtime_reconcile_triggers_total{kind,reason}: one reconcile started, with what
   * triggered it (`kind` of the object of a watch event, "" for other reasons; `reason` see
   * `triggerMetricReason`). Optional: providers written before it may leave it out.
   */
  reconcileTrigger?(kind: string, reason: string): void;
}

/** Creates the per-name hooks. */
export interface MetricsProvider {
  workQueue(name: string): WorkQueueMetrics;
  controller(name: string): ControllerMetrics;
}

const noop = () => undefined;

/** Hooks that record nothing. */
export const noopMetrics: MetricsProvider = {
  workQueue: () => ({ add: noop, depth: noop, queueLatency: noop, workDuration: noop, retry: noop, unfinishedWork: noop }),
  controller: () => ({ reconcileResult: noop, reconcileError: noop, reconcileTime: noop, activeWorkers: noop, maxConcurrentReconciles: noop, reconcileTrigger: noop }),
};
