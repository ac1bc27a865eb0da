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
 * @module
 */
export { KubeConfig } from "@kubernetes/client-node";
