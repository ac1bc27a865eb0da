/**
 * operator-runtime: write Kubernetes operators in TypeScript.
 *
 * Newcomers start with the {@link Builder}: describe the objects a custom resource owns
 * (ConfigMaps, Secrets, Deployments, StatefulSets, Services, PersistentVolumeClaims, any
 * object) and `reconcile()` makes the cluster match with server-side apply, config-hash
 * rollouts, events and safe pruning — or `plan()` says what it would do. The
 * {@link ResourceClient} is the typed CRUD/apply client underneath, the {@link EventRecorder}
 * writes aggregated events, and `operator-runtime/testing` ships LocalCluster to test all of it
 * without a cluster. Every piece is usable on its own.
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
export type { ReconcileResult, ObjectResult, ObjectAction } from "./builder/reconcile-result.ts";
export { MANAGED_BY_LABEL, DESIRED_HASH_ANNOTATION } from "./builder/desired.ts";
export { InternalStore } from "./store/internal-store.ts";
export { prune, isControlledBy } from "./store/prune.ts";
export type { PruneOptions } from "./store/prune.ts";
export * from "./client/index.ts";
export * from "./events/index.ts";
export * from "./hash/index.ts";
export * from "./errors.ts";
export type { KubeObject, OwnerReference, ObjectReader, ObjectRef, KindRef, ListOptions } from "./client/types.ts";
