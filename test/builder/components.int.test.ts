import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, BuilderValidationErrors, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "components";
const cm = (name: string): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v: "1" } });

describe("several Builders for one owner, scoped by component (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  const code = async (name: string) => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/${name}`)).code;
  const lines = (r: { objects: readonly { action: string; kind: string; name: string }[] }) => r.objects.map((o) => `${o.action} ${o.kind}/${o.name}`);

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "components-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("Builders with different components, and the unnamed one, never prune each other's objects", async () => {
    const broker = () => new Builder({ client, owner, component: "broker" }).configMap(cm("broker-config")).reconcile();
    const server = () => new Builder({ client, owner, component: "server" }).configMap(cm("server-config")).reconcile();
    const plain = () => new Builder({ client, owner }).configMap(cm("plain-config")).reconcile();
    assert.deepEqual(lines(await broker()), ["created ConfigMap/broker-config"]);
    assert.deepEqual(lines(await server()), ["created ConfigMap/server-config"]);
    assert.deepEqual(lines(await plain()), ["created ConfigMap/plain-config"]);
    assert.deepEqual(lines(await broker()), ["unchanged ConfigMap/broker-config"]);
    assert.deepEqual(lines(await server()), ["unchanged ConfigMap/server-config"]);
    assert.deepEqual(lines(await plain()), ["unchanged ConfigMap/plain-config"]);
    for (const name of ["broker-config", "server-config", "plain-config"]) assert.equal(await code(name), 200, name);
    const labels = (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/broker-config`)).body.metadata.labels;
    assert.equal(labels["operator-runtime.io/component"], "broker");
  });

  it("a component still prunes its own objects", async () => {
    const result = await new Builder({ client, owner, component: "broker" }).reconcile();
    assert.deepEqual(lines(result), ["deleted ConfigMap/broker-config"]);
    assert.equal(await code("server-config"), 200);
  });

  it("refuses an object another component of the same owner wrote", async () => {
    const result = await new Builder({ client, owner, component: "broker" }).configMap(cm("server-config")).reconcile();
    assert.equal(result.objects[0]!.action, "failed");
    assert.match(result.errors[0]!.message, /belongs to component "server".*Fix: add each object to one Builder only/);
  });

  it("refuses a component that is not a label value, before any request", async () => {
    cluster.requests.clear();
    await assert.rejects(new Builder({ client, owner, component: "Not a label!" }).configMap(cm("x")).reconcile(), (err: unknown) => {
      assert.ok(err instanceof BuilderValidationErrors);
      assert.equal(err.errors[0]!.field, "component");
      return true;
    });
    assert.equal(cluster.requests.count(), 0);
  });
});
