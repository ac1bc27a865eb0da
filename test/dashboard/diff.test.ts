import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { objectDiff } from "../../src/dashboard/diff.ts";
import { DashboardRecorder } from "../../src/dashboard/recorder.ts";
import type { Controller, ControllerObserver, ReconcileRun } from "../../src/entries/controller.ts";

describe("objectDiff", () => {
  it("answers replace, add and remove operations as JSON Pointers, in the objects' key order (new keys last)", () => {
    assert.deepEqual(objectDiff({ spec: { replicas: 1, b: 1 } }, { spec: { replicas: 3, a: 2 } }), [
      { op: "replace", path: "/spec/replicas", old: 1, value: 3 },
      { op: "remove", path: "/spec/b", old: 1 },
      { op: "add", path: "/spec/a", value: 2 },
    ]);
    assert.deepEqual(objectDiff({ a: 1 }, { a: 1 }), []);
  });
  it("escapes ~ and / in keys", () => {
    assert.deepEqual(objectDiff({ metadata: { labels: {} } }, { metadata: { labels: { "app.kubernetes.io/name": "x", "a~b": "y" } } }), [
      { op: "add", path: "/metadata/labels/app.kubernetes.io~1name", value: "x" },
      { op: "add", path: "/metadata/labels/a~0b", value: "y" },
    ]);
  });
  it("compares arrays of equal length item by item and replaces others whole", () => {
    assert.deepEqual(objectDiff({ l: [1, 2, 3] }, { l: [1, 5, 3] }), [{ op: "replace", path: "/l/1", old: 2, value: 5 }]);
    assert.deepEqual(objectDiff({ l: [1, 2] }, { l: [1, 2, 3] }), [{ op: "replace", path: "/l", old: [1, 2], value: [1, 2, 3] }]);
    assert.deepEqual(objectDiff({ l: [1] }, { l: { 0: 1 } }), [{ op: "replace", path: "/l", old: [1], value: { 0: 1 } }]);
  });
  it("shows a create and a delete field by field (an array is one field)", () => {
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: "v" }, list: [1, 2] };
    assert.deepEqual(objectDiff(undefined, cm), [
      { op: "add", path: "/apiVersion", value: "v1" },
      { op: "add", path: "/kind", value: "ConfigMap" },
      { op: "add", path: "/metadata/name", value: "a" },
      { op: "add", path: "/data/k", value: "v" },
      { op: "add", path: "/list", value: [1, 2] },
    ]);
    assert.deepEqual(objectDiff(cm, undefined).map((o) => `${o.op} ${o.path}`), ["remove /apiVersion", "remove /kind", "remove /metadata/name", "remove /data/k", "remove /list"]);
    assert.deepEqual(objectDiff({ spec: {} }, { spec: { a: {} } }), [{ op: "add", path: "/spec/a", value: {} }], "an empty object is a leaf");
    assert.deepEqual(objectDiff(undefined, "x"), [{ op: "add", path: "/", value: "x" }]);
  });
  it("leaves out volatile metadata (resourceVersion, managedFields, generation, creationTimestamp, uid, selfLink)", () => {
    const before = { metadata: { name: "a", resourceVersion: "1", generation: 1, uid: "u1", creationTimestamp: "t1", selfLink: "/x", managedFields: [{ manager: "a" }] }, spec: { a: 1 } };
    const after = { metadata: { name: "a", resourceVersion: "2", generation: 2, uid: "u2", creationTimestamp: "t2", selfLink: "/y", managedFields: [{ manager: "b" }] }, spec: { a: 1 } };
    assert.deepEqual(objectDiff(before, after), []);
    assert.deepEqual(objectDiff(undefined, after).map((o) => o.path), ["/metadata/name", "/spec/a"], "a create shows no volatile metadata either");
    assert.deepEqual(after.metadata.managedFields, [{ manager: "b" }], "the input is not changed");
  });
  it("never shows a Secret's values: data and stringData become their length", () => {
    const before = { apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data: { password: "czNjcmV0" } };
    const after = { apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data: { password: "bG9uZ2VyLXNlY3JldA==", user: "YWRtaW4=" }, stringData: { token: "hunter2" } };
    const ops = objectDiff(before, after);
    const json = JSON.stringify(ops);
    for (const secret of ["czNjcmV0", "bG9uZ2VyLXNlY3JldA==", "YWRtaW4=", "hunter2"]) assert.ok(!json.includes(secret), `${secret} hidden in ${json}`);
    assert.deepEqual(ops.map((o) => `${o.op} ${o.path}`), ["replace /data/password", "add /data/user", "add /stringData/token"]);
    assert.match(String(ops[0]!.old), /8 characters, hidden/);
    assert.match(String(ops[0]!.value), /20 characters, hidden/);
    // A created or deleted Secret (one side only) hides them too.
    assert.ok(!JSON.stringify(objectDiff(undefined, after)).includes("hunter2"));
    assert.ok(!JSON.stringify(objectDiff(before, undefined)).includes("czNjcmV0"));
  });
  it("shows that a Secret value changed even when the new one has the same length (without showing either)", () => {
    const s = (v: string) => ({ apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data: { password: v } });
    const ops = objectDiff(s("czNjcmV0"), s("b3RoZXIx"));
    assert.deepEqual(ops.map((o) => `${o.op} ${o.path}`), ["replace /data/password"], "a changed Secret value is a change, not an empty diff");
    assert.ok(!JSON.stringify(ops).includes("czNjcmV0") && !JSON.stringify(ops).includes("b3RoZXIx"));
  });
  it("keeps at most 200 operations (60 for a created object), the last saying how many were left out", () => {
    const before: Record<string, number> = {};
    const after: Record<string, number> = {};
    for (let i = 0; i < 500; i++) {
      before[`k${String(i).padStart(3, "0")}`] = i;
      after[`k${String(i).padStart(3, "0")}`] = i + 1;
    }
    const ops = objectDiff({ data: before }, { data: after });
    assert.equal(ops.length, 200);
    assert.equal(ops[198]!.path, "/data/k198");
    assert.match(String(ops[199]!.value), /^… 301 more changes left out$/, "500 changes: 199 shown, 301 left out");
    const created = objectDiff(undefined, { data: after });
    assert.equal(created.length, 60, "a created object: at most 60 of its fields");
    assert.match(String(created[59]!.value), /^… 441 more changes left out$/, "a create of 500 fields: 59 shown, 441 left out");
    assert.deepEqual(objectDiff({ spec: { a: 1 }, status: { b: 1 } }, { spec: { a: 2 }, status: { b: 2 } }, { only: "status" }), [{ op: "replace", path: "/status/b", old: 1, value: 2 }], "only: one top-level field");
  });
  it("cuts long values", () => {
    const long = "x".repeat(5000);
    const [op] = objectDiff({ data: { a: "" } }, { data: { a: long } });
    assert.equal(op!.old, "");
    const cut = String(op!.value);
    assert.ok(cut.length < 2100, `cut to about 2000 characters, not ${cut.length}`);
    assert.match(cut, /… \(5000 characters\)$/);
    const [small] = objectDiff({ a: { b: 1 } }, { a: { b: 2 } });
    assert.equal(small!.value, 2);
  });
});

describe("the diff of a write record (DashboardRecorder.writeRecords)", () => {
  const cm = (data: Record<string, string>, rv: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app", namespace: "default", resourceVersion: rv }, data });
  const base = { apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "app", dryRun: false } as const;

  it("diffs the cached object before with the server's answer", () => {
    const [r] = DashboardRecorder.writeRecords([{ ...base, verb: "patch", before: cm({ a: "1" }, "1"), answer: cm({ a: "2" }, "2") }]);
    assert.deepEqual(r!.diff, [{ op: "replace", path: "/data/a", old: "1", value: "2" }]);
    assert.equal(r!.resourceVersion, "2");
    assert.equal(r!.verb, "patch");
    assert.equal(r!.dryRun, undefined);
  });
  it("shows a create as an add, a delete as a remove, a failed write without a diff", () => {
    const [created] = DashboardRecorder.writeRecords([{ ...base, verb: "create", dryRun: true, answer: cm({ a: "1" }, "1") }]);
    assert.deepEqual(new Set(created!.diff!.map((o) => o.op)), new Set(["add"]));
    assert.equal(created!.dryRun, true);
    const [deleted] = DashboardRecorder.writeRecords([{ ...base, verb: "delete", before: cm({ a: "1" }, "1") }]);
    assert.deepEqual(new Set(deleted!.diff!.map((o) => o.op)), new Set(["remove"]));
    assert.ok(deleted!.diff!.some((o) => o.path === "/data/a"));
    const [failed] = DashboardRecorder.writeRecords([{ ...base, verb: "patch", before: cm({ a: "1" }, "1"), error: new Error("conflict") }]);
    assert.equal(failed!.diff, null);
    assert.equal(failed!.error, "conflict");
  });
  it("says the diff of an update is unknown (null) when the object before is unknown, rather than showing it as created", () => {
    // E.g. a write to a kind the controller does not watch: no cached object before it.
    for (const verb of ["patch", "apply", "update"] as const) {
      const [r] = DashboardRecorder.writeRecords([{ ...base, verb, answer: cm({ a: "2" }, "7") }]);
      assert.equal(r!.diff, null, `${verb} without a known object before: ${JSON.stringify(r!.diff)}`);
    }
  });
  it("keeps at most 50 writes", () => {
    const writes = Array.from({ length: 60 }, (_, i) => ({ ...base, verb: "create" as const, name: `cm-${i}`, answer: cm({}, String(i)) }));
    assert.equal(DashboardRecorder.writeRecords(writes).length, 50);
  });
});

describe("the timeline's memory (DashboardRecorder)", () => {
  it("keeps the newest 8 MiB of diffs and at most 32 KiB per reconcile, dropping the oldest first", () => {
    const recorder = new DashboardRecorder({ timeline: 2000 });
    let observer: ControllerObserver | undefined;
    recorder.attach({ name: "big", observe: (o: ControllerObserver) => ((observer = o), () => undefined) } as unknown as Controller);
    const data = (n: number) => Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`key-${i}`, `${n}-${"v".repeat(100)}`]));
    for (let n = 0; n < 1200; n++) {
      const run: ReconcileRun = { controller: "big", key: `ns/o${n}`, reconcileID: `r${n}`, trigger: { reason: "manual" }, triggers: 1, queuedAt: 0, startedAt: 0, plan: false };
      observer!.started!(run);
      const before = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `o${n}` }, data: data(n) };
      observer!.wrote!(run, { verb: "apply", apiVersion: "v1", kind: "ConfigMap", namespace: "ns", name: `o${n}`, dryRun: false, before, answer: { ...before, data: data(n + 1) } });
      observer!.ended!(run, { outcome: "done", endedAt: 1, writes: 1, selfTriggered: false, loop: false });
    }
    const records = recorder.timeline(5000);
    assert.equal(records.length, 1200);
    const sizes = records.map((r) => JSON.stringify(r.writes[0]!.diff).length);
    assert.ok(sizes.every((b) => b < 40 * 1024), `at most about 32 KiB per reconcile: ${Math.max(...sizes)}`);
    const kept = records.filter((r) => !/dropped/.test(String(r.writes[0]!.diff?.[0]?.value)));
    const keptBytes = kept.reduce((n, r) => n + JSON.stringify(r.writes[0]!.diff).length, 0);
    assert.ok(keptBytes <= 9 * 1024 * 1024, `about 8 MiB of diffs kept, not ${keptBytes}`);
    assert.ok(kept.length > 100 && kept.length < 1200, `the newest kept: ${kept.length}`);
    assert.equal(kept[0]!.key, records[records.length - kept.length]!.key, "the newest ones");
  });
});
