import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMergePatch } from "../../../src/testing/patch/merge-patch.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";

function deployment(): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web", tier: "front" }, finalizers: ["a", "b"] },
    spec: { replicas: 1, template: { spec: { containers: [{ name: "app", image: "app:v1" }] } } },
  };
}

test("null deletes a key at any depth", () => {
  const next = applyMergePatch(deployment(), { metadata: { labels: { tier: null } }, spec: { template: null } });
  assert.deepEqual(next.metadata?.labels, { app: "web" });
  assert.deepEqual(next["spec"], { replicas: 1 });
});

test("objects merge recursively and scalars replace", () => {
  const next = applyMergePatch(deployment(), { metadata: { labels: { env: "prod" } }, spec: { replicas: 3 } });
  assert.deepEqual(next.metadata?.labels, { app: "web", tier: "front", env: "prod" });
  assert.equal((next["spec"] as Record<string, unknown>)["replicas"], 3);
});

test("lists are replaced, never merged", () => {
  const next = applyMergePatch(deployment(), {
    metadata: { finalizers: ["c"] },
    spec: { template: { spec: { containers: [{ name: "side", image: "side:v1" }] } } },
  });
  assert.deepEqual(next.metadata?.finalizers, ["c"]);
  assert.deepEqual(next["spec"], { replicas: 1, template: { spec: { containers: [{ name: "side", image: "side:v1" }] } } });
});

test("a null inside a newly added object is dropped", () => {
  const next = applyMergePatch(deployment(), { status: { ready: 1, gone: null } });
  assert.deepEqual(next["status"], { ready: 1 });
});

test("a body that is not a JSON object is rejected with 400", () => {
  for (const body of [[{ a: 1 }], "x", null, 3]) {
    assert.throws(() => applyMergePatch(deployment(), body), (err: unknown) => err instanceof StatusError && err.code === 400);
  }
});

test("merge patch never mutates the input nor shares structure with it", () => {
  const doc = deployment();
  const patch = { metadata: { labels: { tier: null } }, spec: { selector: { matchLabels: { app: "web" } } } };
  const before = structuredClone(doc);
  const patchBefore = structuredClone(patch);
  const next = applyMergePatch(doc, patch);
  assert.deepEqual(doc, before);
  assert.deepEqual(patch, patchBefore);
  (next.metadata?.finalizers as string[]).push("z");
  (((next["spec"] as Record<string, unknown>)["selector"] as Record<string, Record<string, string>>)["matchLabels"]!)["x"] = "y";
  assert.deepEqual(doc, before);
  assert.deepEqual(patch, patchBefore);
});
