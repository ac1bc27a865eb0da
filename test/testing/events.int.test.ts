import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api, EventsV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

describe("LocalCluster Events: one store, two views", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let events: EventsV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    events = cluster.kubeConfig.makeApiClient(EventsV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("an events.k8s.io/v1 Event is readable as a core/v1 Event and back", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "evt-target" } } });
    const created = await events.createNamespacedEvent({ namespace: "default", body: {
      metadata: { name: "evt-1" },
      eventTime: new Date("2026-01-01T00:00:00.123456Z") as never,
      reason: "Created", note: "created the thing", type: "Normal", action: "Create",
      reportingController: "example.com/op", reportingInstance: "op-1",
      regarding: { kind: "ConfigMap", apiVersion: "v1", name: "evt-target", namespace: "default", uid: cm.metadata!.uid! },
    } });
    assert.equal(created.note, "created the thing");
    const asCore = await core.readNamespacedEvent({ name: "evt-1", namespace: "default" });
    assert.equal(asCore.message, "created the thing");
    assert.equal(asCore.involvedObject.name, "evt-target");
    assert.equal(asCore.reportingComponent, "example.com/op");
    const byUid = await core.listNamespacedEvent({ namespace: "default", fieldSelector: `involvedObject.uid=${cm.metadata!.uid},involvedObject.kind=ConfigMap` });
    assert.deepEqual(byUid.items.map((e) => e.metadata!.name), ["evt-1"]);
    const series = await raw(cluster.url, "PATCH", "/apis/events.k8s.io/v1/namespaces/default/events/evt-1",
      { series: { count: 2, lastObservedTime: "2026-01-01T00:01:00.000000Z" } }, "application/merge-patch+json");
    assert.equal(series.code, 200);
    assert.equal(series.body.series.count, 2);
  });

  it("rejects events.k8s.io creates without eventTime (422)", async () => {
    const r = await raw(cluster.url, "POST", "/apis/events.k8s.io/v1/namespaces/default/events",
      { metadata: { name: "bad" }, reason: "X", note: "y", regarding: { kind: "Pod", name: "p" } });
    assert.equal(r.code, 422);
    assert.match(r.body.message, /eventTime: Required value/);
  });

  it("accepts strategic-merge patches on core Events (client-go's recorder)", async () => {
    await core.createNamespacedEvent({ namespace: "default", body: {
      metadata: { name: "core-1" }, involvedObject: { kind: "ConfigMap", name: "evt-target", namespace: "default" },
      reason: "Synced", message: "ok", count: 1, type: "Normal",
      firstTimestamp: new Date() as never, lastTimestamp: new Date() as never, source: { component: "tests" },
    } });
    const r = await raw(cluster.url, "PATCH", "/api/v1/namespaces/default/events/core-1", { count: 2 }, "application/strategic-merge-patch+json");
    assert.equal(r.code, 200);
    assert.equal(r.body.count, 2);
    const v1 = await events.readNamespacedEvent({ name: "core-1", namespace: "default" });
    assert.equal(v1.deprecatedCount, 2);
  });
});
