/**
 * operator-runtime: write Kubernetes operators in TypeScript.
 *
 * This root entry holds what an operator author uses daily: the {@link Builder} (describe the
 * objects a custom resource owns; `reconcile()` makes the cluster match, `plan()` says what it
 * would do), the {@link Manager} and its controllers (`mgr.controller(name).for(Kind)…
 * .reconcile(fn)`, returning an {@link Action}), kind handles ({@link defineKind}, `ConfigMap`,
 * `Deployment`, …), the {@link ResourceClient}, status and condition helpers, the
 * {@link EventRecorder}, and the errors you catch. Everything else has a subpath entry:
 * `operator-runtime/builder` (pruning, the desired inventory, labels, config hashes),
 * `/client` (readers, events, every error and kind type, logging), `/cache` (informers and
 * selectors), `/controller` (the controller engine, work queue, rate limiters, predicates,
 * leader election, metrics), `/sharding`, `/rbac`, and `/testing` (LocalCluster).
 *
 * Names this entry exported before 0.2 are still importable from it as `@deprecated` aliases
 * that say where they live now (see CHANGELOG.md's migration table).
 *
 * @example
 * ```ts
 * import { Builder, ConfigMap, Manager, ResourceClient, EventRecorder, clientEventSink, KubeConfig } from "operator-runtime";
 *
 * const kubeConfig = new KubeConfig();
 * kubeConfig.loadFromDefault();
 * const client = new ResourceClient({ kubeConfig, fieldManager: "dataapp-operator" });
 * const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/dataapp-operator" });
 * const owner = await client.get({ ...ConfigMap, namespace: "default", name: "app" });
 * const result = await new Builder({ client, owner, recorder })
 *   .configMap({ metadata: { name: "app-settings" }, data: { threads: "4" } })
 *   .reconcile();
 * console.log(result.objects.map((o) => `${o.kind}/${o.name}: ${o.action}`));
 * ```
 * @module
 */
// The Builder and what it returns.
export { Builder } from "./builder/builder.ts";
export type { BuilderOptions, ObjectOptions } from "./builder/options.ts";
export type { BuilderResult, ObjectResult, ObjectAction } from "./controller/results.ts";
export { isControlledBy } from "./controller/controller-ref.ts";
// The Manager, controllers and what a reconcile returns.
export { Manager, ControllerRegistration } from "./manager/manager.ts";
export type { ManagerOptions } from "./manager/manager.ts";
export type { DashboardOptions } from "./dashboard/server.ts";
export { Action } from "./controller/reconciler.ts";
export type { Request, Reconciler, ReconcileContext } from "./controller/reconciler.ts";
export { finalizer } from "./controller/finalizer.ts";
export type { FinalizerHandlers } from "./controller/finalizer.ts";
export { mapByLabel } from "./controller/map-funcs.ts";
export { generationChanged } from "./controller/predicates.ts";
export type { Predicate } from "./controller/predicates.ts";
// Kinds and objects.
export { defineKind } from "./kinds/custom-resource.ts";
export type { CustomResource } from "./kinds/custom-resource.ts";
export type { Kind, ObjectOf } from "./kinds/kind.ts";
export type { KubeObject, ObjectMeta, OwnerReference } from "./kinds/kube-object.ts";
export { ConfigMap, Secret, Deployment, StatefulSet, Service, PersistentVolumeClaim, Pod } from "./kinds/builtin-kinds.ts";
// Talking to the API server.
export { ResourceClient } from "./client/resource-client.ts";
export type { ResourceClientOptions } from "./client/client-options.ts";
export { writeStatus } from "./client/status-writer.ts";
export { findCondition, isConditionTrue, setCondition } from "./client/conditions.ts";
export type { Condition } from "./client/conditions.ts";
export { EventRecorder } from "./events/event-recorder.ts";
export { clientEventSink } from "./events/client-sink.ts";
export { KubeConfig } from "./client/kube-config.ts";
// Errors.
export {
  OperatorRuntimeError, ApiError, NotFoundError, ConflictError, isNotFound, isConflict, ignoreNotFound,
  TerminalError, terminal, BuilderValidationError, BuilderValidationErrors, NotOwnedError,
} from "./errors.ts";
// Logging.
export { createLogger } from "./log/logger.ts";
export type { Logger } from "./log/logger.ts";
// Names exported here before 0.2, kept for one minor release.
export * from "./deprecated.ts";
