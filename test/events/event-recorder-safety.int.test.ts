import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { EventRecorder, httpEventSink } from "../../src/events/index.ts";
import type { EventInput, RecordedEvent } from "../../src/events/index.ts";
import { ApiError, OperatorRuntimeError } from "../../src/errors.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { collect, configMap, createCore, eventsAbout, FakeClock, namespace } from "./event-fixtures.ts";

const CONTROLLER = "example.com/pinot-operator";
const synced: EventInput = { type: "Normal", reason: "Synced", action: "Reconcile", note: "in sync" };

describe("EventRecorder safety against LocalCluster", () => {
  let cluster: LocalCluster;
  let clock: FakeClock;
  let errors: { error: unknown; recorded: RecordedEvent }[];
  let recorder: EventRecorder;
  before(async () => {
    cluster = await LocalCluster.start();
    await namespace(cluster, "safe");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => {
    clock = new FakeClock();
    errors = [];
    recorder = new EventRecorder({
      sink: httpEventSink(cluster.kubeConfig), controller: CONTROLLER, now: clock.now,
      onError: (error, recorded) => errors.push({ error, recorded }),
    });
    cluster.clearFaults();
    cluster.requests.clear();
  });

  it("never puts a Secret's values in a note, neither encoded nor decoded nor from stringData", async () => {
    const secret = await createCore(cluster, "secrets", {
      apiVersion: "v1", kind: "Secret", metadata: { name: "db-credentials", namespace: "safe" },
      data: { password: Buffer.from("hunter2-s3cret").toString("base64"), token: Buffer.from("tok-98765").toString("base64") },
    });
    const withStringData = { ...secret, stringData: { apiKey: "AKIA-PLAIN-KEY" } };
    const encoded = (secret.data as Record<string, string>).password!;
    const seen = collect(recorder);
    await recorder.record(withStringData, {
      type: "Warning", reason: "LoginFailed", action: "Reconcile",
      note: `login as admin:hunter2-s3cret failed (raw ${encoded}), token tok-98765, key AKIA-PLAIN-KEY`,
    });

    const [event] = await eventsAbout(cluster, "safe", secret.metadata!.uid!);
    const expected = "login as admin:[redacted] failed (raw [redacted]), token [redacted], key [redacted]";
    assert.equal(event!.note, expected);
    assert.equal(seen[0]!.event.note, expected);
    const core = await raw(cluster.url, "GET", "/api/v1/namespaces/safe/events");
    for (const secretText of ["hunter2-s3cret", "tok-98765", "AKIA-PLAIN-KEY", encoded]) assert.ok(!core.text.includes(secretText), secretText);
  });

  it("redacts the values of a related Secret too", async () => {
    const cm = await configMap(cluster, "safe", "uses-secret");
    const secret = { apiVersion: "v1", kind: "Secret", metadata: { name: "s", namespace: "safe" }, data: { k: Buffer.from("opensesame").toString("base64") } };
    await recorder.record(cm, { ...synced, note: "mounted opensesame", related: secret });
    const [event] = await eventsAbout(cluster, "safe", cm.metadata!.uid!);
    assert.equal(event!.note, "mounted [redacted]");
  });

  it("throws OperatorRuntimeError for an invalid reason or action before any request", async () => {
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "safe", uid: "u-1" } };
    const bad: Partial<EventInput>[] = [
      { reason: "created" }, { reason: "Created Twice" }, { reason: "" }, { reason: `A${"b".repeat(128)}` },
      { action: "create" }, { action: "Create-Now" }, { type: "Info" as "Normal" },
    ];
    for (const change of bad) {
      assert.throws(() => recorder.record(cm, { ...synced, ...change }), OperatorRuntimeError, JSON.stringify(change));
    }
    assert.throws(() => recorder.record({ metadata: { name: "no-kind" } }, synced), /needs kind and metadata\.name/);
    assert.equal(cluster.requests.count(), 0);
  });

  it("does not throw when the API fails: emits written false with the error and calls onError", async () => {
    const cm = await configMap(cluster, "safe", "unlucky");
    const seen = collect(recorder);
    cluster.inject({ verb: "create", resource: "events", code: 500, message: "etcd is on fire" });
    await recorder.record(cm, synced);

    assert.equal(seen.length, 1);
    const [failed] = seen;
    assert.equal(failed!.written, false);
    assert.equal(failed!.dropReason, "WriteFailed");
    assert.ok(failed!.error instanceof ApiError);
    assert.equal(failed!.error.code, 500);
    assert.match(failed!.error.message, /etcd is on fire/);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.error, failed!.error);
    assert.equal((await eventsAbout(cluster, "safe", cm.metadata!.uid!)).length, 0);

    await recorder.record(cm, synced);
    assert.equal(seen[1]!.written, true, "the next identical event creates the Event the failed one could not");
    assert.equal(seen[1]!.aggregated, false);
  });

  it("keeps counting when a series patch fails, and the next patch carries the full count", async () => {
    const cm = await configMap(cluster, "safe", "flaky-patch");
    const seen = collect(recorder);
    await recorder.record(cm, synced);
    cluster.inject({ verb: "patch", resource: "events", code: 503 });
    await recorder.record(cm, synced);
    await recorder.record(cm, synced);

    assert.deepEqual(seen.map((r) => [r.written, r.aggregated, r.event.series?.count]), [[true, false, undefined], [false, true, 2], [true, true, 3]]);
    const [event] = await eventsAbout(cluster, "safe", cm.metadata!.uid!);
    assert.equal((event!.series as { count: number }).count, 3);
  });

  it("starts a new Event when the one a series patches was deleted", async () => {
    const cm = await configMap(cluster, "safe", "deleted-event");
    const seen = collect(recorder);
    await recorder.record(cm, synced);
    const name = seen[0]!.event.metadata.name;
    assert.equal((await raw(cluster.url, "DELETE", `/apis/events.k8s.io/v1/namespaces/safe/events/${name}`)).code, 200);
    await recorder.record(cm, synced);

    assert.equal(seen[1]!.written, true);
    assert.equal(seen[1]!.aggregated, false);
    const events = await eventsAbout(cluster, "safe", cm.metadata!.uid!);
    assert.equal(events.length, 1);
    assert.notEqual(events[0]!.metadata!.name, name);
    assert.equal(events[0]!.series, undefined);
  });

  it("tells the emitter about every call, whatever happened to it", async () => {
    const limited = new EventRecorder({ sink: httpEventSink(cluster.kubeConfig), controller: CONTROLLER, now: clock.now, burst: 3 });
    const cm = await configMap(cluster, "safe", "observed");
    const seen = collect(limited);
    await limited.record(cm, synced); // created
    await limited.record(cm, synced); // patched
    cluster.inject({ verb: "create", resource: "events", code: 500 });
    await limited.record(cm, { ...synced, note: "other" }); // failed
    await limited.record(cm, synced); // rate limited
    assert.deepEqual(seen.map((r) => r.written ? (r.aggregated ? "patched" : "created") : r.dropReason), ["created", "patched", "WriteFailed", "RateLimited"]);
    assert.deepEqual(seen.map((r) => r.event.reason), ["Synced", "Synced", "Synced", "Synced"]);
  });

  it("survives a throwing listener and hands its error to onError", async () => {
    const cm = await configMap(cluster, "safe", "bad-listener");
    recorder.emitter.on("event", () => {
      throw new Error("listener bug");
    });
    await recorder.record(cm, synced);
    assert.equal(errors.length, 1);
    assert.match((errors[0]!.error as Error).message, /listener bug/);
    assert.equal((await eventsAbout(cluster, "safe", cm.metadata!.uid!)).length, 1);
  });

  it("cuts a long note to 1024 bytes without splitting a character", async () => {
    const cm = await configMap(cluster, "safe", "verbose");
    await recorder.record(cm, { ...synced, note: "é".repeat(600) });
    const [event] = await eventsAbout(cluster, "safe", cm.metadata!.uid!);
    assert.equal(event!.note, "é".repeat(512));
  });
});
