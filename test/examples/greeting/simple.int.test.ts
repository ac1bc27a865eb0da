import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Manager } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import { simpleOperator } from "../../../examples/greeting/simple.ts";
import { Greeting } from "../../../examples/greeting/kinds.ts";
import { startLocalOperator } from "../../../examples/greeting/local.ts";
import type { LocalOperator } from "../../../examples/greeting/local.ts";
import { waitFor, within } from "../../support/wait.ts";
import { greeting, idle, reconcileAgain } from "./fixtures.ts";

const NS = "default";

describe("greeting example: the simple operator", () => {
  let local: LocalOperator;
  before(async () => {
    local = await within(startLocalOperator(simpleOperator), "the simple operator to start", 15_000);
  });
  after(() => within(local.stop(), "stopping the operator and the cluster", 15_000));

  it("says hello to spec.name, follows a change of it, and ignores a surname", async () => {
    const { mgr } = local;
    await mgr.client.create(greeting(NS, "world", { name: "World" }));
    await mgr.client.create(greeting(NS, "family", { surname: "Doe" }));
    const read = (name: string) => mgr.client.get({ ...Greeting, name, namespace: NS });
    await waitFor(async () => (await read("world")).status?.message === "Hello, World", "status.message of world");
    await mgr.client.patch({ ...Greeting, name: "world", namespace: NS }, { spec: { name: "Ada" } }, "merge");
    const ada = await waitFor(async () => {
      const g = await read("world");
      return g.status?.message === "Hello, Ada" ? g : undefined;
    }, "status.message to follow spec.name");
    assert.equal(ada.status?.observedGeneration, ada.metadata?.generation);
    await idle(mgr);
    assert.equal((await read("family")).status, undefined, "a surname greeting is not the simple operator's business");
  });

  it("writes nothing when the message is already right: on a second pass and after a restart", async () => {
    const { mgr, cluster } = local;
    await mgr.client.create(greeting(NS, "again", { name: "Again" }));
    await waitFor(async () => (await mgr.client.get({ ...Greeting, name: "again", namespace: NS })).status?.message === "Hello, Again", "the first status write");
    await idle(mgr);
    cluster.requests.clear();
    await reconcileAgain(mgr, "greeting-simple", NS, "again");
    assert.equal(cluster.requests.writes({ resource: "greetings/status" }), 0, "a second pass writes no status");

    // A new Manager lists every Greeting and reconciles each once: none needs a write.
    await within(mgr.stop(), "the first Manager to stop", 15_000);
    const restarted = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-simple-operator", healthPort: false, logger: silentLogger });
    simpleOperator.register(restarted);
    cluster.requests.clear();
    await within(restarted.start(), "the restarted Manager to start", 15_000);
    try {
      await idle(restarted, "the restarted operator to reconcile every Greeting");
      assert.equal(cluster.requests.count({ verb: "list", resource: "greetings" }), 1, "its informer listed once");
      assert.equal(cluster.requests.writes({ resource: "greetings/status" }), 0, "a resync writes no status");
    } finally {
      await within(restarted.stop(), "the restarted Manager to stop", 15_000);
    }
  });
});
