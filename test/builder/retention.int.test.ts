import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const NS = "retention";
const cm = (name: string): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v: "1" } });
const pvc = (name: string, mode = "ReadWriteOnce"): KubeObject => ({
  apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name },
  spec: { accessModes: [mode], resources: { requests: { storage: "1Gi" } } },
});

describe("PersistentVolumeClaims outlive their owner unless asked (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const get = (path: string) => raw(cluster.url, "GET", path);
  const code = async (path: string) => (await get(path)).code;
  const deleteOwner = (name: string) => raw(cluster.url, "DELETE", `/apis/example.com/v1/namespaces/${NS}/dataapps/${name}`);

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "retention-test" });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("by default a claim gets no owner reference, so deleting the owner keeps the data; the Builder still knows it as its own", async () => {
    const owner = await createDataApp(cluster.url, NS, "kept");
    const pass = (o = owner) => new Builder({ client, owner: o }).configMap(cm("kept-config")).storage(pvc("kept-data")).reconcile();
    assert.equal((await pass()).ok, true);
    const claim = (await get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/kept-data`)).body;
    assert.equal(claim.metadata.ownerReferences, undefined);
    assert.equal(claim.metadata.annotations["operator-runtime.io/retained-by-owner-uid"], owner.metadata.uid);
    const again = await pass();
    assert.deepEqual(again.objects.map((o) => o.action), ["unchanged", "unchanged"], "its own claim, not a stranger's");

    await deleteOwner("kept");
    await waitFor(async () => (await code(`/api/v1/namespaces/${NS}/configmaps/kept-config`)) === 404, "the ConfigMap is garbage-collected");
    assert.equal(await code(`/api/v1/namespaces/${NS}/persistentvolumeclaims/kept-data`), 200, "the data stays");

    const recreated = await createDataApp(cluster.url, NS, "kept");
    const refused = await pass(recreated);
    const claimResult = refused.objects.find((o) => o.kind === "PersistentVolumeClaim")!;
    assert.equal(claimResult.action, "failed");
    assert.match(claimResult.error!.message, new RegExp(`kept from an owner with uid ${owner.metadata.uid}`));
    const adopted = await new Builder({ client, owner: recreated }).configMap(cm("kept-config")).storage(pvc("kept-data"), { adopt: true }).reconcile();
    assert.equal(adopted.ok, true, adopted.errors.map((e) => e.message).join("\n"));
  });

  it("with persistentVolumeClaimRetention: \"Delete\" the claim is owned and deleted with its owner", async () => {
    const owner = await createDataApp(cluster.url, NS, "dropped");
    const result = await new Builder({ client, owner, persistentVolumeClaimRetention: "Delete" }).storage(pvc("dropped-data")).reconcile();
    assert.equal(result.ok, true);
    const claim = (await get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/dropped-data`)).body;
    assert.equal(claim.metadata.ownerReferences[0].uid, owner.metadata.uid);
    await deleteOwner("dropped");
    await waitFor(async () => (await code(`/api/v1/namespaces/${NS}/persistentvolumeclaims/dropped-data`)) === 404, "the claim is garbage-collected");
  });

  it("never deletes a Bound claim to re-create it, even with recreateOnImmutableChange: it reports instead", async () => {
    const owner = await createDataApp(cluster.url, NS, "bound");
    assert.equal((await new Builder({ client, owner }).storage(pvc("bound-data")).reconcile()).ok, true);
    const path = `/api/v1/namespaces/${NS}/persistentvolumeclaims/bound-data`;
    assert.equal((await raw(cluster.url, "PATCH", `${path}/status`, { status: { phase: "Bound" } }, "application/merge-patch+json")).code, 200);
    const before = (await get(path)).body;
    const result = await new Builder({ client, owner }).storage(pvc("bound-data", "ReadWriteMany"), { recreateOnImmutableChange: true }).reconcile();
    assert.equal(result.objects[0]!.action, "failed");
    assert.match(result.errors[0]!.message, /Bound claim holds data, so it is never deleted/);
    const after = (await get(path)).body;
    assert.equal(after.metadata.uid, before.metadata.uid);
    assert.equal(after.metadata.deletionTimestamp, undefined);
  });
});
