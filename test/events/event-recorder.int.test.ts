import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { EventRecorder, httpEventSink } from "../../src/events/index.ts";
import type { EventInput } from "../../src/events/index.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { collect, configMap, eventsAbout, FakeClock, namespace } from "./event-fixtures.ts";

const CONTROLLER = "example.com/pinot-operator";
const created: EventInput = { type: "Normal", reason: "Created", action: "Create", note: "created ConfigMap pinot-config" };

describe("EventRecorder against LocalCluster", () => {
  let cluster: LocalCluster;
  let clock: FakeClock;
  let recorder: EventRecorder;
  before(async () => {
    cluster = await LocalCluster.start();
    await namespace(cluster, "x");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => {
    clock = new FakeClock();
    recorder = new EventRecorder({ sink: httpEventSink(cluster.kubeConfig), controller: CONTROLLER, instance: "pinot-operator-0", now: clock.now });
    cluster.requests.clear();
  });

  it("writes the reason to reason and the note to note, which core/v1 reads as message", async () => {
    const cm = await configMap(cluster, "x", "pinot-config");
    await recorder.record(cm, created);

    const [event] = await eventsAbout(cluster, "x", cm.metadata!.uid!);
    assert.ok(event, "an Event exists");
    const name = event.metadata!.name!;
    assert.match(name, /^pinot-config\.[0-9a-f]+$/);
    assert.equal(BigInt(`0x${name.split(".")[1]}`), BigInt(Date.parse("2026-03-01T10:00:00.000Z")) * 1_000_000n);
    assert.equal(event.reason, "Created");
    assert.equal(event.note, "created ConfigMap pinot-config");
    assert.equal(event.action, "Create");
    assert.equal(event.type, "Normal");
    assert.equal(event.eventTime, "2026-03-01T10:00:00.000000Z");
    assert.equal(event.reportingController, CONTROLLER);
    assert.equal(event.reportingInstance, "pinot-operator-0");
    assert.deepEqual(event.regarding, {
      apiVersion: "v1", kind: "ConfigMap", name: "pinot-config", namespace: "x",
      uid: cm.metadata!.uid, resourceVersion: cm.metadata!.resourceVersion,
    });

    const core = await raw(cluster.url, "GET", `/api/v1/namespaces/x/events/${name}`);
    assert.equal(core.code, 200);
    assert.equal(core.body.reason, "Created");
    assert.equal(core.body.message, "created ConfigMap pinot-config");
    assert.equal(core.body.involvedObject.uid, cm.metadata!.uid);
    assert.equal(core.body.reportingComponent, CONTROLLER);
  });

  it("turns three identical events into one Event with series.count 3: one create and two patches", async () => {
    const cm = await configMap(cluster, "x", "three-times");
    await recorder.record(cm, created);
    clock.advance(60_000);
    await recorder.record(cm, created);
    clock.advance(60_000);
    await recorder.record(cm, created);

    const events = await eventsAbout(cluster, "x", cm.metadata!.uid!);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.series, { count: 3, lastObservedTime: "2026-03-01T10:02:00.000000Z" });
    assert.equal(events[0]!.eventTime, "2026-03-01T10:00:00.000000Z");
    assert.equal(cluster.requests.count({ verb: "create", resource: "events" }), 1);
    assert.equal(cluster.requests.count({ verb: "patch", resource: "events" }), 2);
  });

  it("keeps one Event when identical events are recorded concurrently", async () => {
    const cm = await configMap(cluster, "x", "at-once");
    await Promise.all([recorder.record(cm, created), recorder.record(cm, created), recorder.record(cm, created)]);

    const events = await eventsAbout(cluster, "x", cm.metadata!.uid!);
    assert.equal(events.length, 1);
    assert.equal((events[0]!.series as { count: number }).count, 3);
    assert.equal(cluster.requests.count({ verb: "create", resource: "events" }), 1);
  });

  it("creates a new Event when the note differs", async () => {
    const cm = await configMap(cluster, "x", "two-notes");
    await recorder.record(cm, created);
    await recorder.record(cm, { ...created, note: "created ConfigMap pinot-config again" });

    const events = await eventsAbout(cluster, "x", cm.metadata!.uid!);
    assert.deepEqual(events.map((e) => e.note).sort(), ["created ConfigMap pinot-config", "created ConfigMap pinot-config again"]);
    assert.ok(events.every((e) => e.series === undefined));
    assert.equal(cluster.requests.count({ verb: "patch", resource: "events" }), 0);
  });

  it("joins a repeat within 6 minutes of the last one, and starts a new Event after that", async () => {
    const cm = await configMap(cluster, "x", "windowed");
    await recorder.record(cm, created);
    clock.advance(5 * 60_000);
    await recorder.record(cm, created);
    clock.advance(6 * 60_000 + 1);
    await recorder.record(cm, created);

    const events = await eventsAbout(cluster, "x", cm.metadata!.uid!);
    assert.equal(events.length, 2);
    const [first, second] = events.sort((a, b) => String(a.eventTime).localeCompare(String(b.eventTime)));
    assert.equal((first!.series as { count: number }).count, 2);
    assert.equal(second!.series, undefined);
    assert.equal(second!.eventTime, "2026-03-01T10:11:00.001000Z");
    assert.equal(cluster.requests.count({ verb: "create", resource: "events" }), 2);
    assert.equal(cluster.requests.count({ verb: "patch", resource: "events" }), 1);
  });

  it("writes 25 of 30 events for one object (burst 25), drops 5 as RateLimited, and leaves other objects alone", async () => {
    const busy = await configMap(cluster, "x", "busy");
    const quiet = await configMap(cluster, "x", "quiet");
    const seen = collect(recorder);
    for (let i = 0; i < 30; i++) await recorder.record(busy, { ...created, note: `attempt ${i}` });
    await recorder.record(quiet, created);

    const busyOutcomes = seen.filter((r) => r.event.regarding.name === "busy");
    assert.equal(busyOutcomes.filter((r) => r.written).length, 25);
    const dropped = busyOutcomes.filter((r) => !r.written);
    assert.equal(dropped.length, 5);
    assert.ok(dropped.every((r) => r.dropReason === "RateLimited" && r.error === undefined));
    assert.deepEqual(dropped.map((r) => r.event.note), ["attempt 25", "attempt 26", "attempt 27", "attempt 28", "attempt 29"]);
    assert.equal((await eventsAbout(cluster, "x", busy.metadata!.uid!)).length, 25);
    assert.equal((await eventsAbout(cluster, "x", quiet.metadata!.uid!)).length, 1);
    assert.equal(cluster.requests.count({ verb: "create", resource: "events" }), 26);
  });

  it("counts series patches against the rate limit and earns a token back per refill interval", async () => {
    const limited = new EventRecorder({ sink: httpEventSink(cluster.kubeConfig), controller: CONTROLLER, now: clock.now, burst: 2, refillIntervalMs: 10_000 });
    const cm = await configMap(cluster, "x", "refilled");
    const seen = collect(limited);
    await limited.record(cm, created); // create
    await limited.record(cm, created); // patch, count 2
    await limited.record(cm, created); // dropped
    clock.advance(10_000);
    await limited.record(cm, created); // patch, count 3

    assert.deepEqual(seen.map((r) => [r.written, r.aggregated, r.dropReason]), [
      [true, false, undefined], [true, true, undefined], [false, false, "RateLimited"], [true, true, undefined],
    ]);
    const [event] = await eventsAbout(cluster, "x", cm.metadata!.uid!);
    assert.equal((event!.series as { count: number }).count, 3);
  });

  it("records events on cluster-scoped objects in the default namespace, with a related object", async () => {
    const ns = (await raw(cluster.url, "GET", "/api/v1/namespaces/x")).body;
    const cm = await configMap(cluster, "x", "related-one");
    await recorder.record(ns, { type: "Warning", reason: "QuotaExceeded", action: "Reconcile", note: "too many ConfigMaps", related: cm });

    const [event] = await eventsAbout(cluster, "default", ns.metadata.uid);
    assert.ok(event);
    assert.equal(event.metadata!.namespace, "default");
    assert.equal(event.type, "Warning");
    assert.equal((event.regarding as { namespace?: string }).namespace, undefined);
    assert.equal((event.related as { name: string }).name, "related-one");
  });
});
