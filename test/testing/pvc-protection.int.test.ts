import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const NS = "default";
const claim = (name: string) => ({
  metadata: { name },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
});
const podUsing = (name: string, claimName: string) => ({
  metadata: { name },
  spec: { containers: [{ name: "c", image: "busybox:1.36" }], volumes: [{ name: "data", persistentVolumeClaim: { claimName } }] },
});

describe("storage-object-in-use protection (kube-controller-manager's pvc-protection)", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a new claim carries kubernetes.io/pvc-protection, and an unused one is gone once deleted", async () => {
    const created = await core.createNamespacedPersistentVolumeClaim({ namespace: NS, body: claim("unused") });
    assert.deepEqual(created.metadata?.finalizers, ["kubernetes.io/pvc-protection"]);
    await core.deleteNamespacedPersistentVolumeClaim({ name: "unused", namespace: NS });
    await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/persistentvolumeclaims/unused`)).code === 404, "the unused claim is removed");
  });

  it("a claim a running Pod mounts stays Terminating until the Pod is gone", async () => {
    await core.createNamespacedPersistentVolumeClaim({ namespace: NS, body: claim("used") });
    await core.createNamespacedPod({ namespace: NS, body: podUsing("user", "used") });
    await core.deleteNamespacedPersistentVolumeClaim({ name: "used", namespace: NS });
    const held = await core.readNamespacedPersistentVolumeClaim({ name: "used", namespace: NS });
    assert.ok(held.metadata?.deletionTimestamp, "terminating");
    assert.deepEqual(held.metadata?.finalizers, ["kubernetes.io/pvc-protection"], "kept while the Pod uses it");
    await core.deleteNamespacedPod({ name: "user", namespace: NS });
    await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/persistentvolumeclaims/used`)).code === 404, "the claim is removed after its Pod");
  });
});
