import { test } from "node:test";
import assert from "node:assert/strict";
import { applyJsonPatch } from "../../../src/testing/patch/json-patch.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";

const ctx = { kind: "ConfigMap", group: "", name: "settings" };

function configMap(): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "settings", finalizers: ["a", "b"], labels: { "app/name": "x" } },
    data: { mode: "a", level: "1" },
  };
}

function statusOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the patch to fail");
}

test("add sets a new key and inserts into or appends to a list", () => {
  const next = applyJsonPatch(configMap(), [
    { op: "add", path: "/data/extra", value: "x" },
    { op: "add", path: "/metadata/finalizers/1", value: "mid" },
    { op: "add", path: "/metadata/finalizers/-", value: "end" },
  ], ctx);
  assert.equal((next["data"] as Record<string, string>)["extra"], "x");
  assert.deepEqual(next.metadata?.finalizers, ["a", "mid", "b", "end"]);
});

test("add replaces an existing key", () => {
  const next = applyJsonPatch(configMap(), [{ op: "add", path: "/data/mode", value: "b" }], ctx);
  assert.deepEqual(next["data"], { mode: "b", level: "1" });
});

test("remove deletes a key and a list element", () => {
  const next = applyJsonPatch(configMap(), [
    { op: "remove", path: "/data/mode" },
    { op: "remove", path: "/metadata/finalizers/0" },
  ], ctx);
  assert.deepEqual(next["data"], { level: "1" });
  assert.deepEqual(next.metadata?.finalizers, ["b"]);
});

test("replace changes an existing value", () => {
  const next = applyJsonPatch(configMap(), [{ op: "replace", path: "/metadata/finalizers/1", value: "c" }], ctx);
  assert.deepEqual(next.metadata?.finalizers, ["a", "c"]);
});

test("move takes a value away from one path and puts it at another", () => {
  const next = applyJsonPatch(configMap(), [{ op: "move", from: "/data/mode", path: "/data/style" }], ctx);
  assert.deepEqual(next["data"], { level: "1", style: "a" });
});

test("copy duplicates a value without aliasing it", () => {
  const next = applyJsonPatch(configMap(), [
    { op: "copy", from: "/metadata/labels", path: "/metadata/annotations" },
    { op: "add", path: "/metadata/annotations/extra", value: "y" },
  ], ctx);
  assert.deepEqual(next.metadata?.labels, { "app/name": "x" });
  assert.deepEqual(next.metadata?.annotations, { "app/name": "x", extra: "y" });
});

test("escaped pointer tokens address keys containing slash and tilde", () => {
  const next = applyJsonPatch(configMap(), [
    { op: "replace", path: "/metadata/labels/app~1name", value: "y" },
    { op: "add", path: "/data/a~0b", value: "z" },
  ], ctx);
  assert.deepEqual(next.metadata?.labels, { "app/name": "y" });
  assert.equal((next["data"] as Record<string, string>)["a~b"], "z");
});

test("a passing test lets the following operations apply", () => {
  const next = applyJsonPatch(configMap(), [
    { op: "test", path: "/metadata/finalizers", value: ["a", "b"] },
    { op: "test", path: "/metadata/labels", value: { "app/name": "x" } },
    { op: "replace", path: "/data/mode", value: "b" },
  ], ctx);
  assert.equal((next["data"] as Record<string, string>)["mode"], "b");
});

test("a failed test is rejected with kube-apiserver's generic 422 Invalid", () => {
  const err = statusOf(() =>
    applyJsonPatch(configMap(), [
      { op: "test", path: "/metadata/finalizers", value: ["a"] },
      { op: "replace", path: "/data/mode", value: "b" },
    ], ctx),
  );
  assert.equal(err.code, 422);
  assert.equal(err.reason, "Invalid");
  assert.equal(err.message, "the server rejected our request due to an error in our request");
  assert.deepEqual(err.details, {});
});

test("operations on a missing path are rejected with 422", () => {
  for (const op of [
    { op: "replace", path: "/data/missing", value: "x" },
    { op: "remove", path: "/data/missing" },
    { op: "add", path: "/spec/missing/deep", value: 1 },
    { op: "move", from: "/data/missing", path: "/data/x" },
    { op: "copy", from: "/data/missing", path: "/data/x" },
    { op: "add", path: "/metadata/finalizers/5", value: "x" },
    { op: "test", path: "/data/missing", value: "x" },
  ]) {
    const err = statusOf(() => applyJsonPatch(configMap(), [op], ctx));
    assert.equal(err.code, 422, op.op);
    assert.equal(err.reason, "Invalid");
  }
});

test("an unknown op and an operation without a path are rejected with 422", () => {
  assert.equal(statusOf(() => applyJsonPatch(configMap(), [{ op: "frobnicate", path: "/data" }], ctx)).code, 422);
  assert.equal(statusOf(() => applyJsonPatch(configMap(), [{ op: "remove" }], ctx)).code, 422);
});

test("a body that is not an array of operations is rejected with 400", () => {
  for (const body of [{ op: "add", path: "/a", value: 1 }, "nope", null, ["not an object"]]) {
    const err = statusOf(() => applyJsonPatch(configMap(), body, ctx));
    assert.equal(err.code, 400);
    assert.equal(err.reason, "BadRequest");
  }
});

test("a failed patch leaves no partial change and the input is never mutated", () => {
  const doc = configMap();
  const before = structuredClone(doc);
  statusOf(() =>
    applyJsonPatch(doc, [
      { op: "remove", path: "/data/mode" },
      { op: "test", path: "/data/level", value: "2" },
    ], ctx),
  );
  applyJsonPatch(doc, [
    { op: "add", path: "/metadata/finalizers/-", value: "c" },
    { op: "remove", path: "/data/mode" },
  ], ctx);
  assert.deepEqual(doc, before);
});

test("an empty patch returns an equal copy", () => {
  const doc = configMap();
  const next = applyJsonPatch(doc, [], ctx);
  assert.deepEqual(next, doc);
  assert.notEqual(next, doc);
});
