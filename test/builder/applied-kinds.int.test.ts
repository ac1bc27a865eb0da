import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import { Card, installKinds } from "../kinds/fixtures.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const card = (name: string) => ({ apiVersion: "example.com/v1", kind: "Card", metadata: { name }, spec: { text: name } });

describe("a Builder prunes kinds earlier passes applied for the owner, without `manages`", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "applied-kinds" });
    await installKinds(client);
    await installDataApp(cluster.url);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("scaling a variable set of custom children to zero prunes the last ones", async () => {
    const owner = await createDataApp(cluster.url, "sets", "app");
    const first = await new Builder({ client, owner }).object(card("one")).object(card("two")).reconcile();
    assert.deepEqual(first.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["created Card/one", "created Card/two"]);
    const down = await new Builder({ client, owner }).reconcile();
    assert.deepEqual(down.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["deleted Card/one", "deleted Card/two"]);
    assert.deepEqual((await client.list(Card, { namespace: "sets" })).items, []);
  });

  it("remembers per owner and per component: another owner's or component's Cards stay", async () => {
    const a = await createDataApp(cluster.url, "sets", "a");
    const b = await createDataApp(cluster.url, "sets", "b");
    await new Builder({ client, owner: a }).object(card("a-card")).reconcile();
    await new Builder({ client, owner: a, component: "extra" }).object(card("a-extra")).reconcile();
    const other = await new Builder({ client, owner: b }).reconcile();
    assert.deepEqual(other.objects, [], "owner b never applied a Card: nothing to prune");
    const main = await new Builder({ client, owner: a }).reconcile();
    assert.deepEqual(main.objects.map((o) => `${o.action} ${o.name}`), ["deleted a-card"]);
    const names = (await client.list(Card, { namespace: "sets" })).items.map((c) => c.metadata?.name);
    assert.deepEqual(names, ["a-extra"], "the other component's Card stays");
  });

  it("plan() neither remembers nor forgets", async () => {
    const owner = await createDataApp(cluster.url, "sets", "planned");
    const planned = await new Builder({ client, owner }).object(card("planned-card")).plan();
    assert.equal(planned.objects[0]?.action, "created");
    const none = await new Builder({ client, owner }).reconcile();
    assert.deepEqual(none.objects, [], "a plan applied nothing, so there is nothing to prune");
  });

  it("forgets a remembered kind whose CRD was removed, instead of failing every pass (runs last: removes the Card CRD)", async () => {
    const owner = await createDataApp(cluster.url, "sets", "optional");
    assert.ok((await new Builder({ client, owner }).object(card("optional-card")).reconcile()).ok);
    await client.delete({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: "cards.example.com" });
    await waitFor(async () => (await raw(cluster.url, "GET", "/apis/example.com/v1/cards")).code === 404, "Cards no longer served");
    const pass = () => new Builder({ client, owner }).configMap({ metadata: { name: "optional-config" }, data: { a: "1" } }).reconcile();
    const first = await pass();
    assert.equal(first.ok, true, first.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(first.objects.map((o) => `${o.action} ${o.kind}`), ["created ConfigMap"]);
    cluster.requests.clear();
    const second = await pass();
    assert.equal(second.ok, true);
    assert.equal(cluster.requests.count({ resource: "cards" }), 0, "the forgotten kind is not listed again");
  });
});
