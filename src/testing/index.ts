/**
 * `operator-runtime/testing`: LocalCluster, an embedded Kubernetes-compatible API server that
 * the real `@kubernetes/client-node` and `kubectl` talk to, with fault injection and a request
 * log for asserting API cost.
 *
 * Start with {@link LocalCluster.start}. With `{ authorization: true }` it authenticates bearer
 * tokens and enforces RBAC as kube-apiserver does, to test that an operator's Roles are
 * sufficient ({@link LocalCluster.serviceAccountKubeConfig} gives it an identity).
 *
 * @example
 * ```ts
 * import { LocalCluster } from "operator-runtime/testing";
 *
 * const cluster = await LocalCluster.start({ simulate: true });
 * console.log(`kubectl --kubeconfig ${cluster.kubeconfigPath} get ns`);
 * cluster.inject({ verb: "list", resource: "configmaps", code: 500, times: 2 });
 * // ... run an operator against cluster.kubeConfig ...
 * console.log(cluster.requests.summary());
 * await cluster.stop();
 * ```
 * @module
 */
export { LocalCluster } from "./local-cluster.ts";
export type { LocalClusterOptions, WebhookManifestSource } from "./local-cluster.ts";
export type { ServiceResolver } from "./admission/webhook-client.ts";
export type { ShardInfoEcho, ShardingSettings } from "./shard-selector.ts";
export type { UserKubeConfig } from "./user-kubeconfigs.ts";
export type { SimulationOptions } from "./simulator.ts";
export type { FaultSpec, ActiveFault, ApiServerVerb, RequestMatcher, ServedRequestRecord, WebhookFaultSpec, ActiveWebhookFault } from "./faults.ts";
export type { RequestFilter, RequestLog, RequestRecord } from "../util/request-log.ts";
export { ManualClock } from "../util/clock.ts";
export type { Clock } from "../util/clock.ts";
export type { KubeObject } from "./resource-type.ts";
