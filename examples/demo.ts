/**
 * `npm run demo`: starts LocalCluster (with workload simulation), applies a namespace, a
 * ConfigMap and a Deployment with the real client-node, waits until the Deployment is ready,
 * and prints what the cluster holds plus a kubectl line to try.
 *
 * Keeps the cluster up until Ctrl-C; `--once` exits after printing (used by the tests).
 */
import { AppsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy } from "@kubernetes/client-node";
import type { KubernetesObject, V1Deployment } from "@kubernetes/client-node";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { LocalCluster } from "../src/testing/index.ts";

const once = process.argv.includes("--once");
await mkdir(".tmp", { recursive: true });
const cluster = await LocalCluster.start({ simulate: { readyDelayMs: 100 }, kubeconfigPath: resolve(".tmp/demo-kubeconfig") });
const objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
const apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
const core = cluster.kubeConfig.makeApiClient(CoreV1Api);

const manifests: KubernetesObject[] = [
  { apiVersion: "v1", kind: "Namespace", metadata: { name: "demo" } },
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "greeter-config", namespace: "demo" }, data: { greeting: "Hello" } } as KubernetesObject,
  {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "greeter", namespace: "demo", labels: { app: "greeter" } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "greeter" } },
      template: {
        metadata: { labels: { app: "greeter" } },
        spec: { containers: [{ name: "greeter", image: "nginx:1.27", envFrom: [{ configMapRef: { name: "greeter-config" } }] }] },
      },
    },
  } as KubernetesObject,
];

console.log(`LocalCluster is up at ${cluster.url}\n`);
for (const m of manifests) {
  // Server-side apply: creates the object, or updates only the fields this manager owns.
  await objects.patch(m, undefined, undefined, "demo", true, PatchStrategy.ServerSideApply);
  console.log(`applied ${m.kind} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ""}${m.metadata?.name}`);
}

const deadline = Date.now() + 10_000;
let dep: V1Deployment;
for (;;) {
  dep = await apps.readNamespacedDeployment({ name: "greeter", namespace: "demo" });
  if (dep.status?.readyReplicas === 2 && dep.status.observedGeneration === dep.metadata?.generation) break;
  if (Date.now() > deadline) throw new Error(`deployment not ready: ${JSON.stringify(dep.status)}`);
  await new Promise((r) => setTimeout(r, 50));
}
console.log(`\nDeployment demo/greeter: ${dep.status?.readyReplicas}/${dep.spec?.replicas} ready (generation ${dep.metadata?.generation})`);
const pods = await core.listNamespacedPod({ namespace: "demo", labelSelector: "app=greeter" });
for (const p of pods.items) console.log(`  pod ${p.metadata?.name}: ${p.status?.phase}`);
const cm = await core.readNamespacedConfigMap({ name: "greeter-config", namespace: "demo" });
console.log(`ConfigMap demo/greeter-config: ${JSON.stringify(cm.data)}`);
const total = cluster.requests.count();
console.log(`\n${total} API requests served so far.`);
console.log(`\nTry it yourself:\n  kubectl --kubeconfig ${cluster.kubeconfigPath} -n demo get deployments,pods,configmaps`);

if (once) {
  await cluster.stop();
} else {
  console.log("\nCtrl-C stops the cluster.");
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
