import { test } from "node:test";
import assert from "node:assert/strict";
import {
  coreEventDefaults,
  coreToEventsV1,
  eventsV1ToCore,
  microTime,
  normalizeMicroTime,
  validateCoreEvent,
  validateEventsV1Create,
  validateEventsV1Update,
  wholeSeconds,
} from "../../../src/testing/views/events.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";

const fullCoreEvent: KubeObject = {
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: "web.17f0a1b2c3d4e5f6", namespace: "shop", uid: "u-1", resourceVersion: "7" },
  involvedObject: { kind: "Deployment", namespace: "shop", name: "web", uid: "d-1", apiVersion: "apps/v1", resourceVersion: "5", fieldPath: "spec" },
  reason: "ScalingReplicaSet",
  message: "Scaled up replica set web-1 to 3",
  type: "Normal",
  source: { component: "deployment-controller", host: "node-1" },
  firstTimestamp: "2026-01-02T03:04:05Z",
  lastTimestamp: "2026-01-02T03:05:05Z",
  count: 4,
  eventTime: "2026-01-02T03:04:05.123456Z",
  series: { count: 4, lastObservedTime: "2026-01-02T03:05:05.000001Z" },
  action: "Scale",
  related: { kind: "ReplicaSet", namespace: "shop", name: "web-1" },
  reportingComponent: "deployment-controller",
  reportingInstance: "controller-manager-1",
};

function validV1Event(): KubeObject {
  return {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "web.1", namespace: "shop" },
    regarding: { kind: "Deployment", namespace: "shop", name: "web" },
    eventTime: "2026-01-02T03:04:05.123456Z",
    reportingController: "example.com/web-operator",
    reportingInstance: "web-operator-0",
    action: "Reconcile",
    reason: "Synced",
    type: "Normal",
    note: "all good",
  };
}

function causesOf(fn: () => void): Array<{ field?: string; message?: string }> {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 422);
    assert.equal(err.details?.kind, "Event");
    return err.details?.causes ?? [];
  }
  assert.fail("expected a 422");
}

test("a core event converted to events.k8s.io/v1 and back keeps every field", () => {
  const v1 = coreToEventsV1(fullCoreEvent);
  assert.equal(v1.apiVersion, "events.k8s.io/v1");
  assert.deepEqual(eventsV1ToCore(v1), fullCoreEvent);
});

test("the events.k8s.io/v1 view renames the core fields", () => {
  const v1 = coreToEventsV1(fullCoreEvent);
  assert.deepEqual(v1.regarding, fullCoreEvent.involvedObject);
  assert.equal(v1.note, fullCoreEvent.message);
  assert.equal(v1.reportingController, "deployment-controller");
  assert.deepEqual(v1.deprecatedSource, fullCoreEvent.source);
  assert.equal(v1.deprecatedFirstTimestamp, "2026-01-02T03:04:05Z");
  assert.equal(v1.deprecatedLastTimestamp, "2026-01-02T03:05:05Z");
  assert.equal(v1.deprecatedCount, 4);
  assert.equal(v1.involvedObject, undefined);
  assert.equal(v1.message, undefined);
});

test("conversions do not share nested objects with their input", () => {
  const v1 = coreToEventsV1(fullCoreEvent);
  (v1.regarding as Record<string, unknown>).name = "changed";
  assert.equal((fullCoreEvent.involvedObject as Record<string, unknown>).name, "web");
});

test("a complete events.k8s.io/v1 create passes validation", () => {
  validateEventsV1Create(validV1Event());
});

test("an events.k8s.io/v1 create without eventTime is invalid", () => {
  const ev = validV1Event();
  delete ev.eventTime;
  assert.deepEqual(causesOf(() => validateEventsV1Create(ev)), [
    { reason: "FieldValueRequired", field: "eventTime", message: "Required value" },
  ]);
});

test("an events.k8s.io/v1 create without the reporting fields, action or reason is invalid, listing every cause", () => {
  const ev = validV1Event();
  delete ev.reportingController;
  delete ev.reportingInstance;
  delete ev.action;
  delete ev.reason;
  const fields = causesOf(() => validateEventsV1Create(ev)).map((c) => c.field);
  assert.deepEqual(fields, ["reportingController", "reportingInstance", "action", "reason"]);
});

test("an events.k8s.io/v1 create with deprecated fields set is invalid, named like the server names them", () => {
  const ev = {
    ...validV1Event(),
    deprecatedFirstTimestamp: "2026-01-02T03:04:05Z",
    deprecatedLastTimestamp: "2026-01-02T03:04:05Z",
    deprecatedCount: 2,
    deprecatedSource: { component: "x" },
  };
  const causes = causesOf(() => validateEventsV1Create(ev));
  assert.deepEqual(causes.map((c) => c.field), ["firstTimestamp", "lastTimestamp", "count", "source"]);
  assert.equal(causes[0]!.message, 'Invalid value: "": needs to be unset');
});

test("the 422 for an events.k8s.io/v1 create names the events.k8s.io group", () => {
  const ev = { ...validV1Event(), type: "Fatal" };
  try {
    validateEventsV1Create(ev);
    assert.fail("expected a 422");
  } catch (err) {
    assert.ok(err instanceof StatusError);
    assert.equal(err.details?.group, "events.k8s.io");
    assert.match(err.message, /^Event\.events\.k8s\.io "web\.1" is invalid: type: Invalid value: "": has invalid value: Fatal$/);
  }
});

test("a series needs a count of at least 2 and a lastObservedTime", () => {
  const ev = { ...validV1Event(), series: { count: 1 } };
  const fields = causesOf(() => validateEventsV1Create(ev)).map((c) => c.field);
  assert.deepEqual(fields, ["series.count", "series.lastObservedTime"]);
});

test("an events.k8s.io/v1 update may change the series", () => {
  const old = validV1Event();
  const updated = { ...old, series: { count: 2, lastObservedTime: "2026-01-02T03:06:00.000000Z" } };
  validateEventsV1Update(old, updated);
});

test("an events.k8s.io/v1 update may not change the note or the reason", () => {
  const old = validV1Event();
  const causes = causesOf(() => validateEventsV1Update(old, { ...old, note: "changed", reason: "Other" }));
  assert.deepEqual(causes.map((c) => c.field), ["message", "reason"]);
  assert.match(causes[0]!.message ?? "", /field is immutable$/);
});

test("an update compares a stored core event with its events.k8s.io/v1 view", () => {
  validateEventsV1Update(fullCoreEvent, coreToEventsV1(fullCoreEvent));
});

test("an eventTime differing below a microsecond is not a change", () => {
  const old = validV1Event();
  validateEventsV1Update(old, { ...old, eventTime: "2026-01-02T03:04:05.123456789Z" });
});

test("a core event with an eventTime needs reportingComponent", () => {
  const core = eventsV1ToCore(validV1Event());
  delete core.reportingComponent;
  const causes = causesOf(() => validateCoreEvent(core));
  assert.deepEqual(causes.map((c) => c.field), ["reportingComponent"]);
});

test("a core event without eventTime gets timestamps and a count of 1", () => {
  const now = new Date("2026-01-02T03:04:05.678Z");
  const ev = coreEventDefaults({ apiVersion: "v1", kind: "Event", reason: "Started" }, now);
  assert.equal(ev.firstTimestamp, "2026-01-02T03:04:05Z");
  assert.equal(ev.lastTimestamp, "2026-01-02T03:04:05Z");
  assert.equal(ev.count, 1);
});

test("core event defaults keep what the client set and leave new-style events alone", () => {
  const now = new Date("2026-01-02T03:04:05Z");
  assert.equal(coreEventDefaults({ firstTimestamp: "2025-01-01T00:00:00Z", count: 3 }, now).count, 3);
  const newStyle = coreEventDefaults({ eventTime: "2026-01-01T00:00:00.000000Z" }, now);
  assert.equal(newStyle.firstTimestamp, undefined);
  assert.equal(newStyle.count, undefined);
});

test("MicroTime has exactly six fractional digits and Time has none", () => {
  const d = new Date("2026-01-02T03:04:05.123Z");
  assert.equal(microTime(d), "2026-01-02T03:04:05.123000Z");
  assert.equal(wholeSeconds(d), "2026-01-02T03:04:05Z");
  assert.equal(normalizeMicroTime("2026-01-02T03:04:05Z"), "2026-01-02T03:04:05.000000Z");
  assert.equal(normalizeMicroTime("2026-01-02T03:04:05.1234567+01:00"), "2026-01-02T02:04:05.123456Z");
});
