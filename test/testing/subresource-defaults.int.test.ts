/**
 * What kube-apiserver fills in on subresource writes, through client-node: a Scale whose spec
 * leaves replicas out means 0 replicas (Go's int32 zero value), and a Namespace finalize keeps
 * the `kubernetes.io/metadata.name` label the namespace strategy maintains.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AppsV1Api, CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";

describe("LocalCluster subresource writes fill in what kube-apiserver fills in", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("scales to 0 when a replaced Scale's spec leaves replicas out", async () => {
    await apps.createNamespacedDeployment({ namespace: "default", body: {
      metadata: { name: "scaled" },
      spec: { replicas: 3, selector: { matchLabels: { app: "s" } }, template: { metadata: { labels: { app: "s" } }, spec: { containers: [{ name: "c", image: "x" }] } } },
    } });
    const scale = await apps.replaceNamespacedDeploymentScale({ name: "scaled", namespace: "default", body: { metadata: { name: "scaled" }, spec: {} } });
    assert.equal(scale.spec?.replicas, 0);
    assert.equal((await apps.readNamespacedDeployment({ name: "scaled", namespace: "default" })).spec?.replicas, 0);
  });

  it("keeps the kubernetes.io/metadata.name label through a finalize and a replace that leave it out", async () => {
    await core.createNamespace({ body: { metadata: { name: "finalized", labels: { team: "a" } } } });
    const finalized = await core.replaceNamespaceFinalize({ name: "finalized", body: { metadata: { name: "finalized" }, spec: { finalizers: [] } } });
    assert.deepEqual(finalized.metadata?.labels, { "kubernetes.io/metadata.name": "finalized" });
    const replaced = await core.replaceNamespace({ name: "finalized", body: { metadata: { name: "finalized", labels: { team: "b" } } } });
    assert.deepEqual(replaced.metadata?.labels, { team: "b", "kubernetes.io/metadata.name": "finalized" });
  });
});
