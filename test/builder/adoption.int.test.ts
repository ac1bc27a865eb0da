import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, NotOwnedError, ResourceClient } from "../../src/index.ts";
import type { BuilderEventRecorder } from "../../src/entries/builder.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "adoption";
const cm = (name: string, v = "mine"): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v } });
const pvc = (name: string, mode = "ReadWriteOnce"): KubeObject => ({
  apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name },
  spec: { accessModes: [mode], resources: { requests: { storage: "1Gi" } } },
});

/** Collects the Builder's events (the recorder is the Builder's own small interface). */
function collector(): BuilderEventRecorder & { events: { type: string; reason: string; note: string }[] } {
  const events: { type: string; reason: string; note: string }[] = [];
  return { events, record: async (_regarding, e) => void events.push(e) };
}

describe("the Builder never takes over what its owner does not control (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  const get = (path: string) => raw(cluster.url, "GET", path);
  const post = (path: string, body: unknown) => raw(cluster.url, "POST", path, body);

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "adoption-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("refuses a same-name ConfigMap and PVC a user created, saying whose they are and how to adopt, with a Warning event", async () => {
    await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "users" }, data: { v: "theirs" } });
    await post(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, pvc("user-data"));
    const recorder = collector();
    const result = await new Builder({ client, owner, recorder }).configMap(cm("users")).storage(pvc("user-data")).reconcile();
    assert.equal(result.ok, false);
    assert.deepEqual(result.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["failed ConfigMap/users", "failed PersistentVolumeClaim/user-data"]);
    for (const o of result.objects) {
      assert.ok(o.error instanceof NotOwnedError, String(o.error));
      assert.equal(o.error.controller, undefined);
      assert.match(o.error.message, /no controller/);
      assert.match(o.error.message, /\{ adopt: true \}/);
    }
    assert.match(result.objects[0]!.error!.message, /\.configMap\(obj, \{ adopt: true \}\)/);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/users`)).body.data, { v: "theirs" });
    assert.equal((await get(`/api/v1/namespaces/${NS}/configmaps/users`)).body.metadata.ownerReferences, undefined);
    assert.equal((await get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/user-data`)).body.metadata.ownerReferences, undefined);
    assert.deepEqual(recorder.events.map((e) => `${e.type} ${e.reason}`), ["Warning NotOwned", "Warning NotOwned"]);
    assert.match(recorder.events[0]!.note, /ConfigMap\/adoption\/users/);
  });

  it("adopts an object with no controller when asked, per object or per Builder", async () => {
    const perObject = await new Builder({ client, owner, prune: false }).configMap(cm("users"), { adopt: true }).reconcile();
    assert.deepEqual(perObject.objects.map((o) => `${o.action} ${o.name} ${o.reason}`), ["updated users adopted: it had no controller"]);
    const adopted = (await get(`/api/v1/namespaces/${NS}/configmaps/users`)).body;
    assert.equal(adopted.metadata.ownerReferences[0].uid, owner.metadata.uid);
    assert.deepEqual(adopted.data, { v: "mine" });
    await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "users-2" }, data: { v: "theirs" } });
    const perBuilder = await new Builder({ client, owner, prune: false, adopt: true }).configMap(cm("users")).configMap(cm("users-2")).reconcile();
    assert.deepEqual(perBuilder.objects.map((o) => o.action), ["unchanged", "updated"]);
  });

  it("never adopts an object another owner controls, even when asked", async () => {
    const other = await createDataApp(cluster.url, NS, "other");
    await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "contested", ownerReferences: [
      { apiVersion: "example.com/v1", kind: "DataApp", name: "other", uid: other.metadata.uid, controller: true }] }, data: { v: "theirs" } });
    const result = await new Builder({ client, owner, prune: false, adopt: true }).configMap(cm("contested"), { adopt: true }).reconcile();
    const error = result.objects[0]!.error;
    assert.ok(error instanceof NotOwnedError);
    assert.equal(error.controller?.uid, other.metadata.uid);
    assert.match(error.message, /controlled by DataApp other/);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/contested`)).body.data, { v: "theirs" });
  });
});
