/**
 * `operator-runtime/controller`: the controller engine under `mgr.controller()` — the
 * {@link Controller} and its {@link WorkQueue}, rate limiters, predicates, map functions,
 * terminal-error rules, owner references, {@link Expectations} and the {@link ReplicaSetReconciler}
 * for controllers that manage identical replicas, and the Manager's own parts (leader election,
 * metrics, the health server) for use on their own.
 *
 * @example
 * ```ts
 * import { WorkQueue, defaultControllerRateLimiter } from "operator-runtime/controller";
 *
 * const queue = new WorkQueue({ name: "dataapp", rateLimiter: defaultControllerRateLimiter() });
 * queue.add("default/app");
 * const key = await queue.get();
 * if (key !== undefined) {
 *   queue.addRateLimited(key); // failed: retry after the limiter's backoff
 *   queue.done(key);
 * }
 * queue.shutDown();
 * ```
 * @module
 */
export { Controller, LOOP_RUNS, requestFor, ownerRequests } from "../controller/controller.ts";
export type { ControllerOptions, ControllerPlan, ControllerSharding, InformerSource, MapFunc, WatchOptions, WatchRole } from "../controller/controller.ts";
export { changedParts, describeTrigger, triggerMetricReason, TRIGGER_REASONS } from "../controller/triggers.ts";
export type { Trigger, TriggerReason } from "../controller/triggers.ts";
export type { ControllerObserver, ObservedWrite, ReconcileEnd, ReconcileRun } from "../controller/observer.ts";
export { Action, keyOf, requestOf } from "../controller/reconciler.ts";
export type { Request, Reconciler, ReconcileContext } from "../controller/reconciler.ts";
export { mapByLabel } from "../controller/map-funcs.ts";
export { isTerminalError } from "../controller/terminal-errors.ts";
export type { TerminalErrorOptions } from "../controller/terminal-errors.ts";
export { ReplicaSetReconciler, REPLICA_SET_LABEL, replicaDeletionOrder, hasReadyCondition } from "../controller/replica-set-reconciler.ts";
export type { ReplicaSetReconcilerOptions, ReplicaSetInput, ReplicaSetResult, ReplicaTemplate } from "../controller/replica-set-reconciler.ts";
export { controllerRef, controllerOf, setControllerReference, isControlledBy } from "../controller/controller-ref.ts";
export { AlreadyOwnedError } from "../controller/controller-ref.ts";
export { Expectations, DEFAULT_EXPECTATIONS_TTL_MS } from "../controller/expectations.ts";
export type { ExpectationsOptions, PendingExpectations } from "../controller/expectations.ts";
export { finalizer } from "../controller/finalizer.ts";
export type { FinalizerHandlers, FinalizerClient } from "../controller/finalizer.ts";
export { generationChanged, labelsChanged, resourceVersionChanged, hasLabels, and, or } from "../controller/predicates.ts";
export type { Predicate } from "../controller/predicates.ts";
export { WorkQueue } from "../controller/work-queue.ts";
export type { WorkQueueOptions, WorkQueueSnapshot } from "../controller/work-queue.ts";
export type { Clock } from "../util/clock.ts";
export * from "../controller/rate-limiter.ts";
export type { MetricsProvider, WorkQueueMetrics, ControllerMetrics } from "../controller/metrics-hooks.ts";
export { Manager, ControllerRegistration } from "../manager/manager.ts";
export type { ManagerOptions, LeaderElectionOptions } from "../manager/manager.ts";
export type { DashboardOptions } from "../dashboard/server.ts";
export { LeaderElector } from "../lease/leader-election.ts";
export type { LeaderElectorOptions, StoppedLeadingReason } from "../lease/leader-election-options.ts";
export { Metrics } from "../manager/metrics.ts";
export type { MetricsOptions } from "../manager/metrics.ts";
export { HealthServer } from "../manager/health-server.ts";
export type { HealthServerOptions, HealthCheck } from "../manager/health-server.ts";
export type { Runnable } from "../util/runnable.ts";
