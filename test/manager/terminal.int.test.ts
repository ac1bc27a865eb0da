import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager, OperatorRuntimeError, ResourceClient, Action, findCondition, terminal, writeStatus } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import type { Condition, KubeObject } from "../../src/index.ts";
import { Greeting, installKinds } from "../kinds/fixtures.ts";
import { waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

/** The conditions of an object's status. */
const conditionsOf = (obj: KubeObject & { status?: unknown }): Condition[] | undefined => (obj.status as { conditions?: Condition[] } | undefined)?.conditions;
/** A time long past, so that a condition rebuilt by a later write could not carry it by chance. */
const T0 = "2020-01-01T00:00:00Z";
/** The conditions the reconcilers below keep on their Greeting (the Operator SDK pattern). */
const OWN: Omit<Condition, "lastTransitionTime">[] = [
  { type: "Available", status: "False", reason: "NoReplicas", message: "0/1 ready" },
  { type: "Progressing", status: "True", reason: "Deploying" },
  { type: "Degraded", status: "True", reason: "InvalidSpec", message: "spec.name must be lowercase" },
];

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

  /** Every version of Greeting `name` the server stores from now on (a raw watch), stopped when the test ends. */
  async function versionsOf(t: { after: (fn: () => void) => void }, name: string): Promise<() => KubeObject[]> {
    const watch = await openWatch(cluster.url, `/apis/example.com/v1/namespaces/default/greetings?watch=true&fieldSelector=metadata.name%3D${name}`);
    t.after(() => watch.stop());
    return () => watch.events.filter((e) => e.type === "ADDED" || e.type === "MODIFIED").map((e) => e.object as KubeObject);
  }

  /** The live Greeting once its `type` condition exists. */
  function withCondition(name: string, type: string): Promise<KubeObject> {
    return waitFor(async () => {
      const g = await client.get({ ...Greeting, name, namespace: "default" });
      return findCondition(conditionsOf(g), type) ? g : undefined;
    }, `the ${type} condition on Greeting ${name}`, 15_000);
  }

  it("keeps the reconciler's own conditions: the terminal error sets Ready alone, merged into the live list", async (t) => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: silentLogger });
    mgr.controller("greeting").for(Greeting, { status: ["patch"] }).reconcile(async (req) => {
      // The Operator SDK pattern: set the conditions, then return the error.
      const greeting = mgr.cache.informer(Greeting).get(req.name, req.namespace);
      if (!greeting || req.name !== "patterned") return;
      await writeStatus(mgr.client, greeting, {}, { conditions: OWN, now: new Date(T0) });
      throw terminal(new Error("spec.name must be lowercase"));
    });
    const versions = await versionsOf(t, "patterned");
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "patterned", namespace: "default" }, spec: { name: "Patterned" } });
      const live = await withCondition("patterned", "Ready");
      // The controller's write (the first version with Ready) already kept the three.
      const first = await waitFor(() => versions().find((v) => findCondition(conditionsOf(v), "Ready")), "the controller's write in the watch");
      for (const obj of [first, live]) {
        assert.deepEqual(conditionsOf(obj)?.map((c) => c.type), ["Available", "Progressing", "Degraded", "Ready"]);
        for (const own of OWN) {
          const c = findCondition(conditionsOf(obj), own.type);
          assert.equal(c?.lastTransitionTime, T0, `${own.type} untouched, its lastTransitionTime included`);
          assert.equal(c?.status, own.status);
          assert.equal(c?.reason, own.reason);
        }
        const ready = findCondition(conditionsOf(obj), "Ready");
        assert.equal(ready?.status, "False");
        assert.equal(ready?.reason, "ReconcileFailed");
        assert.match(ready?.message ?? "", /spec.name must be lowercase/);
      }
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("writes into the live list when the cached primary is older, moving Ready's lastTransitionTime only if its status changes", async (t) => {
    const other = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "another-controller" });
    const ref = { ...Greeting, name: "behind", namespace: "default" };
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: silentLogger });
    let runs = 0;
    mgr.controller("greeting").for(Greeting, { status: ["patch"] }).reconcile(async (req) => {
      if (req.name === "behind" && ++runs === 1) {
        // Another writer sets conditions while this reconcile runs: the primary it was dispatched with lacks them.
        await other.patchStatus(ref, { status: { conditions: [
          { type: "External", status: "True", reason: "Synced", lastTransitionTime: T0 },
          { type: "Ready", status: "False", reason: "Waiting", message: "not yet", lastTransitionTime: T0 },
        ] } }, "merge");
      }
      throw terminal(new Error("spec.name must be lowercase"));
    });
    const versions = await versionsOf(t, "behind");
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "behind", namespace: "default" }, spec: { name: "Behind" } });
      const first = await waitFor(() => versions().find((v) => findCondition(conditionsOf(v), "Ready")?.reason === "ReconcileFailed"), "the controller's write in the watch", 15_000);
      assert.deepEqual(conditionsOf(first)?.map((c) => c.type), ["External", "Ready"]);
      assert.deepEqual(findCondition(conditionsOf(first), "External"), { type: "External", status: "True", reason: "Synced", lastTransitionTime: T0 });
      const ready = findCondition(conditionsOf(first), "Ready");
      assert.equal(ready?.status, "False");
      assert.equal(ready?.lastTransitionTime, T0, "Ready was False already: its lastTransitionTime stays");
      assert.match(ready?.message ?? "", /spec.name must be lowercase/);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("a spec edited while the reconcile failed is reconciled: the hold does not cover the terminal write merged into it", async () => {
    const ref = { ...Greeting, name: "edited", namespace: "default" };
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: silentLogger });
    const seen: string[] = [];
    mgr.controller("greeting").for(Greeting, { status: ["patch"] }).reconcile(async (req) => {
      if (req.name !== "edited") return Action.done();
      const g = await client.get(ref);
      seen.push(g.spec.name);
      if (g.spec.name === "Edited") {
        // The user fixes the spec while this reconcile runs; the reconcile still fails on the old one.
        await client.patch(ref, { spec: { name: "edited" } }, "merge");
        throw terminal(new Error("spec.name must be lowercase"));
      }
      return Action.done();
    });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "edited", namespace: "default" }, spec: { name: "Edited" } });
      await waitFor(() => seen.includes("edited"), "a reconcile of the fixed spec", 15_000);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("sets the condition named by terminalCondition(type) instead of Ready, and none with terminalCondition(false)", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: silentLogger });
    const failing = () => {
      throw terminal(new Error("spec.name must be lowercase"));
    };
    mgr.controller("renamed").for(Greeting, { status: ["patch"], namespace: "renamed" }).terminalCondition("Reconciled").reconcile(failing);
    mgr.controller("silent").for(Greeting, { status: ["patch"], namespace: "silent" }).terminalCondition(false).reconcile(failing);
    assert.throws(() => mgr.controller("bad").for(Greeting, { status: ["patch"] }).terminalCondition("not a type").reconcile(failing),
      (err: unknown) => err instanceof OperatorRuntimeError && /terminalCondition: "not a type" is not a valid condition type/.test(err.message) && /Fix:/.test(err.message));
    for (const ns of ["renamed", "silent"]) await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      cluster.requests.clear();
      for (const ns of ["renamed", "silent"]) {
        await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "g", namespace: ns }, spec: { name: "G" } });
      }
      const renamed = await waitFor(async () => {
        const g = await client.get({ ...Greeting, name: "g", namespace: "renamed" });
        return findCondition(conditionsOf(g), "Reconciled") ? g : undefined;
      }, "the Reconciled condition", 15_000);
      assert.equal(findCondition(conditionsOf(renamed), "Reconciled")?.status, "False");
      assert.equal(findCondition(conditionsOf(renamed), "Ready"), undefined);
      await waitFor(async () => {
        const list = await client.list({ apiVersion: "events.k8s.io/v1", kind: "Event" }, { namespace: "silent" });
        return list.items.length > 0;
      }, "the Warning event of the silent controller", 15_000);
      assert.equal(cluster.requests.count({ resource: "greetings/status", namespace: "silent" }), 0, "terminalCondition(false): no status write");
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });
});
