import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Pod, ResourceClient } from "../../../src/index.ts";
import { LocalCluster } from "../../../src/testing/index.ts";
import { installCrds } from "../../../examples/example.ts";
import { operator, PodSet, podSetReconciler } from "../../../examples/replicaset/operator.ts";
import type { PodSetSpec } from "../../../examples/replicaset/operator.ts";
import { within } from "../../support/wait.ts";
import { FakeInformer, fakeSource } from "../../support/fake-informer.ts";

const template: PodSetSpec["template"] = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "nginx", image: "nginx:1.27" }] } };

/**
 * The PodSet reconciler on a cache that lags behind the API server: its informers are fed by
 * hand, so the test decides exactly when the cache shows the Pods the first reconcile created.
 */
describe("the replicaset example on a stale cache", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "replicaset-operator" });
    await installCrds(client, operator.crds);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("two quick reconciles before the cache shows the first one's Pods create them once", async () => {
    const set = await client.create({ ...PodSet, metadata: { name: "web", namespace: "default" }, spec: { replicas: 3, template } });
    const podInformer = new FakeInformer<Pod>();
    const setInformer = new FakeInformer<PodSet>();
    setInformer.add(set);
    const { reconcile, pods } = podSetReconciler({ client, source: fakeSource({ Pod: podInformer, PodSet: setInformer }) });
    const req = { namespace: "default", name: "web" };
    const creates = () => cluster.requests.count({ verb: "create", resource: "pods", code: 201 });

    assert.deepEqual(await reconcile(req), {});
    assert.equal(creates(), 3);
    // The Pod events have not arrived: the second run creates nothing and asks to look again later.
    const second = await reconcile(req);
    assert.ok(second.requeueAfter !== undefined && second.requeueAfter > 0, JSON.stringify(second));
    assert.equal(creates(), 3);
    assert.equal(pods.expectations.pending(`${set.metadata!.uid}/${pods.name}`)?.creations, 3);

    // The cache catches up: the events lower the expectations, and the next run has nothing to create.
    for (const p of (await client.list(Pod, { namespace: "default" })).items) podInformer.add(p);
    const status = (await client.get({ ...PodSet, namespace: "default", name: "web" })).status;
    assert.deepEqual(status, { replicas: 0, readyReplicas: 0, message: "0/3 ready", observedGeneration: 1 });
    setInformer.update(await client.get({ ...PodSet, namespace: "default", name: "web" }));
    assert.deepEqual(await reconcile(req), {});
    assert.equal(creates(), 3);
    assert.deepEqual((await client.get({ ...PodSet, namespace: "default", name: "web" })).status?.replicas, 3);
  });
});
