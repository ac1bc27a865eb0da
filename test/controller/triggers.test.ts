import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { changedParts, describeTrigger, triggerMetricReason, TRIGGER_REASONS } from "../../src/entries/controller.ts";
import type { Trigger } from "../../src/entries/controller.ts";
import type { KubeObject } from "../../src/index.ts";

const obj = (rv: string, rest: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "default", resourceVersion: rv, ...metadata }, ...rest }) as KubeObject;

describe("changedParts", () => {
  it("answers [] when only bookkeeping changed (resourceVersion, managedFields, generation)", () => {
    assert.deepEqual(changedParts(obj("1", { spec: { a: 1 } }), obj("2", { spec: { a: 1 } })), []);
    assert.deepEqual(changedParts(
      obj("1", {}, { managedFields: [{ manager: "a" }], generation: 1 }),
      obj("2", {}, { managedFields: [{ manager: "b" }], generation: 2 }),
    ), []);
  });
  it("names spec, status and metadata apart", () => {
    assert.deepEqual(changedParts(obj("1", { spec: { a: 1 } }), obj("2", { spec: { a: 2 } })), ["spec"]);
    assert.deepEqual(changedParts(obj("1", { status: { ready: false } }), obj("2", { status: { ready: true } })), ["status"]);
    assert.deepEqual(changedParts(obj("1", {}, { labels: { a: "1" } }), obj("2", {}, { labels: { a: "2" } })), ["metadata"]);
    assert.deepEqual(changedParts(obj("1", {}, {}), obj("2", {}, { annotations: { x: "y" } })), ["metadata"]);
    assert.deepEqual(changedParts(obj("1", {}, {}), obj("2", {}, { deletionTimestamp: "2026-01-01T00:00:00Z" })), ["metadata"]);
  });
  it("orders metadata, spec, status, then other top-level fields alphabetically; ignores apiVersion and kind", () => {
    const before = obj("1", { spec: { a: 1 }, status: { b: 1 }, rules: [1], data: { k: "v" } }, { labels: { a: "1" } });
    const after = { ...obj("2", { spec: { a: 2 }, status: { b: 2 }, rules: [2], data: { k: "w" } }, { labels: { a: "2" } }), apiVersion: "v2", kind: "Other" };
    assert.deepEqual(changedParts(before, after), ["metadata", "spec", "status", "data", "rules"]);
  });
  it("sees a field that appears or disappears, and treats an undefined value as absent", () => {
    assert.deepEqual(changedParts(obj("1"), obj("2", { data: { k: "v" } })), ["data"]);
    assert.deepEqual(changedParts(obj("1", { data: { k: "v" } }), obj("2")), ["data"]);
    assert.deepEqual(changedParts(obj("1", { spec: { a: 1, b: undefined } }), obj("2", { spec: { a: 1 } })), []);
    assert.deepEqual(changedParts(obj("1", { data: undefined }), obj("2")), []);
  });
  it("compares deeply: array order, nested values, arrays vs objects, null", () => {
    assert.deepEqual(changedParts(obj("1", { spec: { l: [1, 2] } }), obj("2", { spec: { l: [2, 1] } })), ["spec"]);
    assert.deepEqual(changedParts(obj("1", { spec: { l: [1, { x: [1] }] } }), obj("2", { spec: { l: [1, { x: [1] }] } })), []);
    assert.deepEqual(changedParts(obj("1", { spec: { l: [] } }), obj("2", { spec: { l: {} } })), ["spec"]);
    assert.deepEqual(changedParts(obj("1", { spec: { l: null } }), obj("2", { spec: { l: {} } })), ["spec"]);
    assert.deepEqual(changedParts(obj("1", { spec: { n: 1 } }), obj("2", { spec: { n: "1" } })), ["spec"]);
  });
  it("copes with objects without metadata", () => {
    assert.deepEqual(changedParts({ apiVersion: "v1", kind: "X" } as KubeObject, { apiVersion: "v1", kind: "X", metadata: { name: "a" } } as KubeObject), ["metadata"]);
    assert.deepEqual(changedParts({ apiVersion: "v1", kind: "X" } as KubeObject, { apiVersion: "v1", kind: "X", metadata: { resourceVersion: "3" } } as KubeObject), []);
  });
});

describe("describeTrigger", () => {
  const ev: Trigger = { reason: "event", event: "DELETED", role: "owns", apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "web" };
  it("names the kind, namespace/name and event of a watch event", () => {
    assert.equal(describeTrigger(ev), "StatefulSet default/web DELETED");
    assert.equal(describeTrigger({ ...ev, namespace: undefined, kind: "ClusterRole", name: "admin" } as Trigger), "ClusterRole admin DELETED");
  });
  it("adds what changed, the initial list and an own write", () => {
    assert.equal(describeTrigger({ ...ev, event: "MODIFIED", kind: "ConfigMap", name: "app", changed: ["metadata", "data"] }), "ConfigMap default/app MODIFIED (metadata, data)");
    assert.equal(describeTrigger({ ...ev, event: "MODIFIED", changed: [] }), "StatefulSet default/web MODIFIED");
    assert.equal(describeTrigger({ ...ev, event: "ADDED", initial: true }), "StatefulSet default/web ADDED (initial list)");
    assert.equal(describeTrigger({ ...ev, event: "MODIFIED", changed: ["status"], self: true }), "StatefulSet default/web MODIFIED (status) [own write]");
  });
  it("names other reasons, with their delay", () => {
    assert.equal(describeTrigger({ reason: "requeue-after", delayMs: 30000 }), "requeue-after 30000 ms");
    assert.equal(describeTrigger({ reason: "retry", delayMs: 0 }), "retry 0 ms");
    assert.equal(describeTrigger({ reason: "retry" }), "retry");
    for (const reason of TRIGGER_REASONS.filter((r) => r !== "event")) assert.equal(describeTrigger({ reason }), reason);
  });
});

describe("triggerMetricReason", () => {
  it("is the watch event in lower case, initial-list for the first list, else the reason", () => {
    assert.equal(triggerMetricReason({ reason: "event", event: "ADDED" }), "added");
    assert.equal(triggerMetricReason({ reason: "event", event: "MODIFIED", changed: ["spec"] }), "modified");
    assert.equal(triggerMetricReason({ reason: "event", event: "DELETED" }), "deleted");
    assert.equal(triggerMetricReason({ reason: "event", event: "ADDED", initial: true }), "initial-list");
    assert.equal(triggerMetricReason({ reason: "event" }), "event");
    for (const reason of TRIGGER_REASONS.filter((r) => r !== "event")) assert.equal(triggerMetricReason({ reason, delayMs: 5 }), reason);
  });
  it("has a bounded label set: every reason listed once", () => {
    assert.equal(new Set(TRIGGER_REASONS).size, TRIGGER_REASONS.length);
    assert.deepEqual([...TRIGGER_REASONS].sort(), ["bucket", "caches-caught-up", "event", "gate-recheck", "manual", "requeue", "requeue-after", "retry", "timeout-returned"]);
  });
});
