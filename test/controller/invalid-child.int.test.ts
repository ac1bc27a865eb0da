import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, EventRecorder, ResourceClient, Action, clientEventSink } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { Controller } from "../../src/entries/controller.ts";
import { InvalidError } from "../../src/entries/client.ts";
import type { KubeObject, BuilderResult } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { SteppingClock } from "../support/stepping-clock.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const DATAAPP = { apiVersion: "example.com/v1", kind: "DataApp" };
const NS = "invalid-child";
const appPath = (name: string) => `/apis/example.com/v1/namespaces/${NS}/dataapps/${name}`;

/** Widgets: `spec.size` must be an integer, which only the API server checks (the CRD's schema). */
const widgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com", scope: "Namespaced", names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } } } }],
  },
};

type App = KubeObject & { spec?: { size?: unknown; builderEvents?: boolean; retryInvalid?: boolean } };

describe("Controller: a child the API server refuses as invalid (422) is terminal for the pass, not retried forever", () => {
  let cluster: LocalCluster;
  let cache: Cache;
  let controller: Controller;
  const clock = new SteppingClock();
  const runs = new Map<string, number>();
  const results = new Map<string, BuilderResult>();
  const ran = (name: string) => runs.get(name) ?? 0;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd)).code, 201);
    await waitFor(async () => (await raw(cluster.url, "GET", "/apis/example.com/v1")).body?.resources?.some((r: any) => r.name === "widgets"), "Widgets served");
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "widget-operator" });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    await within(cache.start(new AbortController().signal), "the cache to sync");
    const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/widget-operator" });
    controller = new Controller({
      name: "widgets", source: cache, statusClient: client, recorder, clock, reconcileTimeoutMs: 0,
      for: { kind: DATAAPP, namespace: NS },
      reconcile: async (req) => {
        runs.set(req.name, ran(req.name) + 1);
        const app = cache.informer<App>(DATAAPP, { namespace: NS }).get(req.name, req.namespace);
        if (!app) return Action.done();
        const result = await new Builder({
          client, owner: app, ...(app.spec?.builderEvents ? { recorder } : {}), ...(app.spec?.retryInvalid ? { retryInvalid: true } : {}),
        }).object({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: `${req.name}-widget` }, spec: { size: app.spec?.size } }).reconcile();
        results.set(req.name, result);
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

  /** Writes to Widgets (a create's record has no name: each test counts from its own start). */
  const widgetWrites = () => cluster.requests.writes({ resource: "widgets" });

  async function warnings(name: string): Promise<any[]> {
    const list = (await raw(cluster.url, "GET", `/apis/events.k8s.io/v1/namespaces/${NS}/events`)).body.items as any[];
    return list.filter((e) => e.regarding?.name === name && e.type === "Warning");
  }

  /** Waits until everything queued so far has run: a marker enqueued behind it has (one worker, FIFO). */
  let markers = 0;
  async function drained(): Promise<void> {
    const marker = `marker-${++markers}`;
    controller.enqueue({ namespace: NS, name: marker });
    await waitFor(() => ran(marker) > 0, `the marker ${marker} to run`);
  }

  /** Lets six backoff delays pass (5 ms doubling: far more than each), running whatever they requeue. */
  async function backoffSteps(): Promise<void> {
    for (let step = 0; step < 6; step++) {
      clock.advance(60_000);
      await drained();
    }
  }

  async function readyCondition(name: string): Promise<any> {
    return waitFor(async () => (await raw(cluster.url, "GET", appPath(name))).body.status?.conditions?.find((c: any) => c.type === "Ready"), `${name}'s Ready condition`);
  }

  it("one write, the child failed, one Warning event naming the field, Ready=False InvalidSpec; a new generation reconciles again", async () => {
    const before = widgetWrites();
    await createDataApp(cluster.url, NS, "big", { size: "big", builderEvents: true });
    const ready = await readyCondition("big");
    assert.deepEqual([ready.status, ready.reason, ready.observedGeneration], ["False", "InvalidSpec", 1]);
    assert.match(ready.message, /^children failed: .*spec\.size/);

    const result = results.get("big")!;
    assert.equal(result.terminal, true);
    assert.deepEqual(result.objects.map((o) => [o.kind, o.name, o.action]), [["Widget", "big-widget", "failed"]]);
    assert.ok(result.errors[0] instanceof InvalidError, "the child's error stays an InvalidError");
    assert.deepEqual((result.errors[0] as InvalidError).causes.map((c) => c.field), ["spec.size"]);

    await backoffSteps();
    assert.equal(widgetWrites() - before, 1, "one write attempt in all, however long the backoff would have run");
    assert.equal(ran("big"), 1, "the owner was not reconciled again");
    const events = await warnings("big");
    assert.equal(events.length, 1, `exactly one Warning event: ${JSON.stringify(events.map((e) => [e.reason, e.note]))}`);
    assert.equal(events[0].reason, "CreateFailed");
    assert.match(events[0].note, /^Create Widget\/invalid-child\/big-widget refused as invalid \(spec\.size\): Widget\.example\.com "big-widget" is invalid: spec\.size: Invalid value/);
    assert.equal(events[0].series, undefined, "recorded once, not as a series");

    // The next change of the owner (a new generation) reconciles as usual.
    await raw(cluster.url, "PATCH", appPath("big"), { spec: { size: 3 } }, "application/merge-patch+json");
    await waitFor(() => results.get("big")?.ok, "a successful pass after the edit");
    assert.equal((await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/widgets/big-widget`)).code, 200);
    assert.ok(ran("big") >= 2, "reconciled again after the edit");
    assert.equal(widgetWrites() - before, 2);
  });

  it("without a Builder recorder, the controller's one Warning event names the field", async () => {
    const before = widgetWrites();
    await createDataApp(cluster.url, NS, "quiet", { size: "big" });
    await readyCondition("quiet");
    await backoffSteps();
    assert.equal(widgetWrites() - before, 1);
    assert.equal(ran("quiet"), 1);
    const events = await waitFor(async () => ((await warnings("quiet")).length ? warnings("quiet") : undefined), "the Warning event");
    assert.equal(events.length, 1);
    assert.equal(events[0].reason, "InvalidSpec");
    assert.match(events[0].note, /^children failed: .*Widget\.example\.com "quiet-widget" is invalid: spec\.size: Invalid value/);
  });

  it("retryInvalid: the refused child is retried with backoff, as any failure", async () => {
    const before = widgetWrites();
    await createDataApp(cluster.url, NS, "retried", { size: "big", retryInvalid: true });
    await waitFor(() => results.get("retried"), "the first pass");
    assert.equal(results.get("retried")!.terminal, false);
    await backoffSteps();
    const writes = widgetWrites() - before;
    assert.ok(writes >= 4, `retried on each backoff step: ${writes} writes`);
    assert.deepEqual(await warnings("retried").then((w) => w.filter((e) => e.reason === "InvalidSpec")), [], "never recorded as terminal");
  });
});
