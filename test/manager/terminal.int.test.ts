import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager, ResourceClient, findCondition, silentLogger, terminal } from "../../src/index.ts";
import type { Condition } from "../../src/index.ts";
import { Greeting, installKinds } from "../kinds/fixtures.ts";

/** The conditions of an object's status. */
const conditionsOf = (obj: { status?: unknown }): Condition[] | undefined => (obj.status as { conditions?: Condition[] } | undefined)?.conditions;
import { waitFor, within } from "../support/wait.ts";

describe("a Manager's controllers and terminal errors", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test" });
    await installKinds(client);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("sets Ready=False and records one Warning event on the primary when the controller declares it patches the status", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: silentLogger });
    let runs = 0;
    mgr.controller("greeting").for(Greeting, { status: ["patch"] }).reconcile(() => {
      runs++;
      throw terminal(new Error("spec.name must not be empty"));
    });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "bad", namespace: "default" }, spec: { name: "" } });
      const greeting = await waitFor(async () => {
        const g = await client.get({ ...Greeting, name: "bad", namespace: "default" });
        return findCondition(conditionsOf(g), "Ready") ? g : undefined;
      }, "the Ready condition on the Greeting", 15_000);
      const ready = findCondition(conditionsOf(greeting), "Ready");
      assert.equal(ready?.status, "False");
      assert.match(ready?.message ?? "", /spec.name must not be empty/);
      const events = await waitFor(async () => {
        const list = await client.list({ apiVersion: "events.k8s.io/v1", kind: "Event" }, { namespace: "default" });
        const mine = list.items.filter((e) => (e.regarding as { name?: string } | undefined)?.name === "bad");
        return mine.length > 0 ? mine : undefined;
      }, "a Warning event on the Greeting", 15_000);
      assert.equal(events.length, 1);
      assert.equal(events[0]!.type, "Warning");
      assert.equal(events[0]!.reportingController, "greeting-operator");
      assert.equal(runs, 1, "a terminal error is not retried while the object is unchanged");
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("without a declared status patch, records the Warning event and writes no status (no RBAC for it)", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: silentLogger });
    mgr.controller("greeting").for(Greeting).reconcile(() => {
      throw terminal(new Error("spec.name must not be empty"));
    });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      cluster.requests.clear();
      await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "quiet", namespace: "default" }, spec: { name: "" } });
      await waitFor(async () => {
        const list = await client.list({ apiVersion: "events.k8s.io/v1", kind: "Event" }, { namespace: "default" });
        return list.items.some((e) => (e.regarding as { name?: string } | undefined)?.name === "quiet");
      }, "a Warning event on the Greeting", 15_000);
      assert.equal(cluster.requests.count({ resource: "greetings/status" }), 0);
      const greeting = await client.get({ ...Greeting, name: "quiet", namespace: "default" });
      assert.equal(findCondition(conditionsOf(greeting), "Ready"), undefined);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });
});
