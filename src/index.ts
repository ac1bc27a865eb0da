/**
 * operator-runtime: write Kubernetes operators in TypeScript.
 *
 * Newcomers start with the {@link Builder}: describe the objects a custom resource owns
 * (ConfigMaps, Secrets, Deployments, StatefulSets, Services, PersistentVolumeClaims, any
 * object) and `reconcile()` makes the cluster match with server-side apply, config-hash
 * rollouts, events and safe pruning — or `plan()` says what it would do. The
 * {@link ResourceClient} is the typed CRUD/apply client underneath, the {@link EventRecorder}
 * writes aggregated events, and `operator-runtime/testing` ships LocalCluster to test all of it
 * without a cluster. Kind handles type all of it: {@link defineKind} for custom resources, and
 * `ConfigMap`, `Deployment`, … for built-in kinds (client-node's models as plain JSON). Every
 * piece is usable on its own.
 *
 * @example
 * ```ts
 * import { Builder, ResourceClient, EventRecorder, clientEventSink } from "operator-runtime";
 *
 * const client = new ResourceClient({ kubeConfig, fieldManager: "dataapp-operator" });
 * const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/dataapp-operator" });
 * const result = await new Builder({ client, owner: app, recorder })
 *   .configMap(config)
 *   .statefulSet(server)
 *   .service(serverService)
 *   .reconcile();
 * ```
 * @module
 */
export { Builder } from "./builder/builder.ts";
export type { BuilderOptions, ObjectOptions, BuilderEventRecorder } from "./builder/builder.ts";
export type { ReconcileResult, ObjectResult, ObjectAction } from "./controller/results.ts";
export { MANAGED_BY_LABEL, DESIRED_HASH_ANNOTATION, COMPONENT_LABEL } from "./builder/desired.ts";
export { RETAINED_BY_ANNOTATION } from "./cache/retained.ts";
export { InternalStore } from "./builder/desired-inventory.ts";
export { prune, isControlledBy } from "./builder/prune.ts";
export { OWNER_UID_LABEL } from "./builder/owned-objects.ts";
export type { PruneOptions } from "./builder/prune.ts";
export * from "./client/index.ts";
export * from "./events/index.ts";
export * from "./hash/index.ts";
export * from "./errors.ts";
export * from "./kinds/index.ts";
export type { ObjectReader, OwnerIndexedReader, ListOptions } from "./client/types.ts";
export { Manager, ControllerBuilder } from "./manager/manager.ts";
export * from "./sharding/index.ts";
export { BUILDER_VERBS, WATCH_VERBS, VERBS } from "./controller/access.ts";
export type { Verb, KindAccess, KindUse, ControllerAccess } from "./controller/access.ts";
export { rbacRules } from "./rbac/rules.ts";
export type { PolicyRule, RbacRules, RbacSource } from "./rbac/rules.ts";
export { rbacManifests } from "./rbac/manifests.ts";
export type { RbacManifestOptions } from "./rbac/manifests.ts";
export { resourceResolver } from "./rbac/resources.ts";
export type { ApiResource } from "./rbac/resources.ts";
export type { ManagerOptions, LeaderElectionOptions, ShardingOptions } from "./manager/manager.ts";
export { ShardRouter } from "./manager/shard-router.ts";
export type { ShardRouterOptions } from "./manager/shard-router.ts";
export type { Runnable } from "./util/runnable.ts";
export { LeaderElector } from "./lease/leader-election.ts";
export { Metrics } from "./manager/metrics.ts";
export { HealthServer } from "./manager/health-server.ts";
export { Controller, requestFor, ownerRequests } from "./controller/controller.ts";
export type { ControllerOptions, ControllerSharding, InformerSource, MapFunc, WatchOptions, WatchRole } from "./controller/controller.ts";
export { mapByLabel } from "./controller/map-funcs.ts";
export { Result, keyOf, requestOf } from "./controller/reconciler.ts";
export type { Request, Reconciler, ReconcileContext, ReconcileAction } from "./controller/reconciler.ts";
export { isTerminalError } from "./controller/terminal-errors.ts";
export type { TerminalErrorOptions } from "./controller/terminal-errors.ts";
export { ReplicaSetReconciler, REPLICA_SET_LABEL, replicaDeletionOrder, hasReadyCondition } from "./controller/replica-set-reconciler.ts";
export type { ReplicaSetReconcilerOptions, ReplicaSetInput, ReplicaSetResult, ReplicaTemplate } from "./controller/replica-set-reconciler.ts";
export { controllerRef, controllerOf, setControllerReference, AlreadyOwnedError } from "./controller/controller-ref.ts";
export { Expectations, DEFAULT_EXPECTATIONS_TTL_MS } from "./controller/expectations.ts";
export type { ExpectationsOptions, PendingExpectations } from "./controller/expectations.ts";
export { finalizer } from "./controller/finalizer.ts";
export type { FinalizerHandlers, FinalizerClient } from "./controller/finalizer.ts";
export { generationChanged, labelsChanged, resourceVersionChanged, hasLabels, and, or } from "./controller/predicates.ts";
export type { Predicate } from "./controller/predicates.ts";
export { WorkQueue } from "./controller/work-queue.ts";
export * from "./controller/rate-limiter.ts";
export type { MetricsProvider, WorkQueueMetrics, ControllerMetrics } from "./controller/metrics-hooks.ts";
export * from "./cache/index.ts";
export { createLogger, silentLogger, jsonSink, jsonLineSink } from "./log/logger.ts";
/**
 * client-node's `KubeConfig`, re-exported so that the one the SDK is built on is the one you
 * load: `loadFromDefault()` ($KUBECONFIG, else ~/.kube/config), `loadFromCluster()` (in a pod:
 * the service account), `loadFromFile(path)`; LocalCluster hands you one as `cluster.kubeConfig`.
 *
 * @example
 * ```ts
 * import { KubeConfig, ResourceClient } from "operator-runtime";
 * const kubeConfig = new KubeConfig();
 * if (process.env.KUBERNETES_SERVICE_HOST) kubeConfig.loadFromCluster();
 * else kubeConfig.loadFromDefault();
 * const client = new ResourceClient({ kubeConfig, fieldManager: "my-operator" });
 * ```
 */
export { KubeConfig } from "@kubernetes/client-node";
export type { Logger, LogLevel, LogRecord, LogSink, LoggerOptions } from "./log/logger.ts";
