import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import { Card, installKinds } from "../kinds/fixtures.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { within } from "../support/wait.ts";

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
});
