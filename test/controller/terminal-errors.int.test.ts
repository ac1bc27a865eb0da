import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, EventRecorder, ResourceClient, Action, clientEventSink, terminal } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { Controller } from "../../src/entries/controller.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const DATAAPP = { apiVersion: "example.com/v1", kind: "DataApp" };
const NS = "terminal";
const appPath = (name: string) => `/apis/example.com/v1/namespaces/${NS}/dataapps/${name}`;

describe("Controller: terminal errors are recorded on the object and not retried until it changes", () => {
  let cluster: LocalCluster;
  let cache: Cache;
  let controller: Controller;
  const runs = new Map<string, number>();
  const ran = (name: string) => runs.get(name) ?? 0;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator" });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    await within(cache.start(new AbortController().signal), "the cache to sync");
    const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/dataapp-operator" });
    controller = new Controller({
      name: "dataapp", source: cache, statusClient: client, recorder,
      for: { kind: DATAAPP, namespace: NS },
      owns: [{ kind: { apiVersion: "v1", kind: "ConfigMap" }, namespace: NS }],
      reconcile: async (req) => {
        runs.set(req.name, ran(req.name) + 1);
        const app = cache.informer<KubeObject & { spec?: Record<string, any> }>(DATAAPP, { namespace: NS }).get(req.name, req.namespace);
        if (!app) return Action.done();
        if (app.spec?.mode !== undefined && app.spec.mode !== "fast") throw terminal(new Error(`spec.mode "${app.spec.mode}" is not supported. Fix: use "fast"`));
        const result = await new Builder({ client, owner: app })
          .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: app.spec?.configName }, data: { owner: req.name } })
          .reconcile();
        if (!result.ok) throw new AggregateError(result.errors, "children failed");
        return Action.done();
      },
    });
    await within(controller.start(new AbortController().signal), "the controller to start");
  });
  after(async () => {
    await within(controller.stop(), "controller.stop()");
    await within(cache.stop(), "cache.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  /** The Warning events about a DataApp. */
  async function warnings(name: string): Promise<any[]> {
    const list = (await raw(cluster.url, "GET", `/apis/events.k8s.io/v1/namespaces/${NS}/events`)).body.items as any[];
    return list.filter((e) => e.regarding?.name === name && e.type === "Warning");
  }

  /** Waits until the key's held state is settled: a later key enqueued behind it has run (one worker, FIFO). */
  async function drained(marker: string): Promise<void> {
    const before = ran(marker);
    controller.enqueue({ namespace: NS, name: marker });
    await waitFor(() => ran(marker) > before, `the marker ${marker} to run`);
  }

  async function assertHeld(name: string): Promise<void> {
    const stored = (await raw(cluster.url, "GET", appPath(name))).body;
    await waitFor(() => cache.informer(DATAAPP, { namespace: NS }).get(name, NS)?.metadata?.resourceVersion === stored.metadata.resourceVersion, "the cache to see the status write");
    await drained(`marker-${name}-1`);
    const runsBefore = ran(name);
    controller.enqueue({ namespace: NS, name });
    await drained(`marker-${name}-2`);
    assert.equal(ran(name), runsBefore, "an unchanged object is not reconciled again");
    assert.equal(ran(name), 1, "one reconcile in all: the status write and the event did not wake it");
    const after = (await raw(cluster.url, "GET", appPath(name))).body;
    assert.equal(after.metadata.resourceVersion, stored.metadata.resourceVersion, "the condition was written once");
    const events = await warnings(name);
    assert.equal(events.length, 1, "one Warning event");
    assert.equal(events[0].series, undefined, "recorded once, not as a series");
  }

  it("a Builder validation error sets Ready=False with reason InvalidSpec and one Warning event, then waits for a spec edit", async () => {
    await createDataApp(cluster.url, NS, "invalid", {});
    const ready = await waitFor(async () => {
      const app = (await raw(cluster.url, "GET", appPath("invalid"))).body;
      return app.status?.conditions?.find((c: any) => c.type === "Ready");
    }, "the Ready condition");
    assert.equal(ready.status, "False");
    assert.equal(ready.reason, "InvalidSpec");
    assert.match(ready.message, /metadata\.name/);
    assert.equal(ready.observedGeneration, 1);
    await waitFor(async () => (await warnings("invalid")).length === 1, "the Warning event");
    const [event] = await warnings("invalid");
    assert.equal(event.reason, "InvalidSpec");
    assert.match(event.note, /metadata\.name/);
    await assertHeld("invalid");

    await raw(cluster.url, "PATCH", appPath("invalid"), { spec: { configName: "invalid-config" } }, "application/merge-patch+json");
    await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/invalid-config`)).code === 200, "the edited object reconciled");
    assert.ok(ran("invalid") >= 2, "reconciled again after the edit");
  });

  it("a terminal(err) sets Ready=False with reason ReconcileFailed and one Warning event, then waits for a change", async () => {
    await createDataApp(cluster.url, NS, "wrapped", { mode: "slow", configName: "wrapped-config" });
    const ready = await waitFor(async () => {
      const app = (await raw(cluster.url, "GET", appPath("wrapped"))).body;
      return app.status?.conditions?.find((c: any) => c.type === "Ready");
    }, "the Ready condition");
    assert.deepEqual([ready.status, ready.reason], ["False", "ReconcileFailed"]);
    assert.match(ready.message, /spec\.mode "slow" is not supported/);
    await waitFor(async () => (await warnings("wrapped")).length === 1, "the Warning event");
    await assertHeld("wrapped");

    await raw(cluster.url, "PATCH", appPath("wrapped"), { spec: { mode: "fast" } }, "application/merge-patch+json");
    await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/wrapped-config`)).code === 200, "the edited object reconciled");
    assert.ok(ran("wrapped") >= 2, "reconciled again after the edit");
  });
});
