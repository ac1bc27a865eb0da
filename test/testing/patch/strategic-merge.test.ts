import { test } from "node:test";
import assert from "node:assert/strict";
import { applyStrategicMergePatch } from "../../../src/testing/patch/strategic-merge.ts";
import { builtinListType } from "../../../src/testing/patch/merge-keys.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";

type Obj = Record<string, any>;

function deployment(): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web" }, finalizers: ["a", "b"] },
    spec: {
      replicas: 1,
      template: {
        spec: {
          containers: [
            {
              name: "app",
              image: "app:v1",
              args: ["--a", "--b"],
              env: [{ name: "A", value: "1" }, { name: "B", value: "2" }],
              ports: [{ containerPort: 80, name: "http" }, { containerPort: 443, name: "https" }],
            },
            { name: "side", image: "side:v1" },
          ],
          volumes: [{ name: "data", emptyDir: {} }],
          tolerations: [{ key: "a", operator: "Exists" }],
        },
      },
    },
    status: { conditions: [{ type: "Available", status: "False" }, { type: "Progressing", status: "True" }] },
  };
}

function podSpec(doc: KubeObject): Obj {
  return (doc["spec"] as Obj)["template"]["spec"];
}

function patchPodSpec(spec: Obj): Obj {
  return { spec: { template: { spec } } };
}

function hasDirective(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasDirective);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([k, v]) => k.startsWith("$") || hasDirective(v));
}

test("containers merge by name and env merges by name inside them", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    containers: [
      { name: "app", image: "app:v2", env: [{ name: "B", value: "two" }, { name: "C", value: "3" }] },
      { name: "new", image: "new:v1" },
    ],
  }), "Deployment");
  const [app, side, added] = podSpec(next)["containers"];
  assert.equal(app.image, "app:v2");
  assert.deepEqual(app.env, [{ name: "A", value: "1" }, { name: "B", value: "two" }, { name: "C", value: "3" }]);
  assert.deepEqual(app.args, ["--a", "--b"]);
  assert.deepEqual(side, { name: "side", image: "side:v1" });
  assert.deepEqual(added, { name: "new", image: "new:v1" });
});

test("container ports merge by containerPort", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    containers: [{ name: "app", ports: [{ containerPort: 443, protocol: "TCP" }, { containerPort: 8080, name: "metrics" }] }],
  }), "Deployment");
  assert.deepEqual(podSpec(next)["containers"][0].ports, [
    { containerPort: 80, name: "http" },
    { containerPort: 443, name: "https", protocol: "TCP" },
    { containerPort: 8080, name: "metrics" },
  ]);
});

test("Service ports merge by port", () => {
  const svc: KubeObject = { kind: "Service", spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
  const next = applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, "Service");
  assert.deepEqual((next["spec"] as Obj)["ports"], [{ port: 80, targetPort: 9090 }, { port: 443 }]);
});

test("$patch: delete on a list element removes the matching element", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    containers: [{ name: "side", $patch: "delete" }, { name: "app", env: [{ name: "A", $patch: "delete" }] }],
  }), "Deployment");
  const containers = podSpec(next)["containers"];
  assert.deepEqual(containers.map((c: Obj) => c["name"]), ["app"]);
  assert.deepEqual(containers[0].env, [{ name: "B", value: "2" }]);
});

test("$patch: replace replaces a map or a whole keyed list", () => {
  const next = applyStrategicMergePatch(deployment(), {
    metadata: { labels: { $patch: "replace", only: "this" } },
    spec: { template: { spec: { containers: [{ $patch: "replace" }, { name: "solo", image: "solo:v1" }] } } },
  }, "Deployment");
  assert.deepEqual(next.metadata?.labels, { only: "this" });
  assert.deepEqual(podSpec(next)["containers"], [{ name: "solo", image: "solo:v1" }]);
});

test("$patch: delete on a map empties it", () => {
  const next = applyStrategicMergePatch(deployment(), { metadata: { labels: { $patch: "delete" } } }, "Deployment");
  assert.deepEqual(next.metadata?.labels, {});
});

test("$retainKeys drops stored keys that are not listed", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    volumes: [{ name: "data", $retainKeys: ["name", "hostPath"], hostPath: { path: "/data" } }],
  }), "Deployment");
  assert.deepEqual(podSpec(next)["volumes"], [{ name: "data", hostPath: { path: "/data" } }]);
});

test("$retainKeys that omits a patched key is rejected with 422", () => {
  assert.throws(
    () => applyStrategicMergePatch(deployment(), { spec: { $retainKeys: ["replicas"], paused: true } }, "Deployment"),
    (err: unknown) => err instanceof StatusError && err.code === 422,
  );
});

test("$deleteFromPrimitiveList removes values from a primitive list", () => {
  const next = applyStrategicMergePatch(deployment(), {
    metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] },
    spec: { template: { spec: { containers: [{ name: "app", "$deleteFromPrimitiveList/args": ["--b"] }] } } },
  }, "Deployment");
  assert.deepEqual(next.metadata?.finalizers, ["b"]);
  assert.deepEqual(podSpec(next)["containers"][0].args, ["--a"]);
});

test("finalizers merge as a set union", () => {
  const next = applyStrategicMergePatch(deployment(), { metadata: { finalizers: ["b", "c"] } }, "Deployment");
  assert.deepEqual(next.metadata?.finalizers, ["a", "b", "c"]);
});

test("conditions merge by type", () => {
  const next = applyStrategicMergePatch(deployment(), {
    status: { conditions: [{ type: "Available", status: "True" }, { type: "ReplicaFailure", status: "False" }] },
  }, "Deployment");
  assert.deepEqual((next["status"] as Obj)["conditions"], [
    { type: "Available", status: "True" },
    { type: "Progressing", status: "True" },
    { type: "ReplicaFailure", status: "False" },
  ]);
});

test("lists without a merge key are replaced", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    tolerations: [{ key: "b", operator: "Exists" }],
    containers: [{ name: "app", args: ["--c"] }],
  }), "Deployment");
  assert.deepEqual(podSpec(next)["tolerations"], [{ key: "b", operator: "Exists" }]);
  assert.deepEqual(podSpec(next)["containers"][0].args, ["--c"]);
});

test("null deletes a key and maps merge recursively", () => {
  const next = applyStrategicMergePatch(deployment(), {
    metadata: { labels: { app: null, tier: "front" } },
    spec: { replicas: null, paused: true },
  }, "Deployment");
  assert.deepEqual(next.metadata?.labels, { tier: "front" });
  assert.equal((next["spec"] as Obj)["replicas"], undefined);
  assert.equal((next["spec"] as Obj)["paused"], true);
});

test("$setElementOrder orders the listed elements and is stripped", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    "$setElementOrder/containers": [{ name: "side" }, { name: "app" }],
    containers: [{ name: "app", image: "app:v3" }],
  }), "Deployment");
  assert.deepEqual(podSpec(next)["containers"].map((c: Obj) => c["name"]), ["side", "app"]);
  assert.equal(hasDirective(next), false);
});

test("no directive key remains in the output, even in newly added elements", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    containers: [{ name: "new", $patch: "merge", env: [{ name: "X", value: "1", $patch: "merge" }] }],
    volumes: [{ name: "cache", $retainKeys: ["name", "emptyDir"], emptyDir: {} }],
    "$setElementOrder/volumes": [{ name: "cache" }, { name: "data" }],
    "$deleteFromPrimitiveList/nothing": ["x"],
  }), "Deployment");
  assert.equal(hasDirective(next), false);
  assert.deepEqual(podSpec(next)["volumes"], [{ name: "cache", emptyDir: {} }, { name: "data", emptyDir: {} }]);
});

test("a list lookup can stand in for a kind name", () => {
  const next = applyStrategicMergePatch(deployment(), patchPodSpec({
    containers: [{ name: "app", ports: [{ containerPort: 80, protocol: "UDP" }] }],
  }), builtinListType("Deployment"));
  assert.deepEqual(podSpec(next)["containers"][0].ports[0], { containerPort: 80, name: "http", protocol: "UDP" });
});

test("a body that is not a JSON object is rejected with 400", () => {
  for (const body of [[], "x", null]) {
    assert.throws(
      () => applyStrategicMergePatch(deployment(), body, "Deployment"),
      (err: unknown) => err instanceof StatusError && err.code === 400,
    );
  }
});

test("a keyed list element without its merge key is rejected with 400", () => {
  assert.throws(
    () => applyStrategicMergePatch(deployment(), patchPodSpec({ containers: [{ image: "x" }] }), "Deployment"),
    (err: unknown) => err instanceof StatusError && err.code === 400 && /merge key: name/.test(err.message),
  );
});

test("strategic merge never mutates the input or the patch", () => {
  const doc = deployment();
  const patch = patchPodSpec({
    containers: [{ name: "app", env: [{ name: "A", $patch: "delete" }] }, { name: "side", $patch: "delete" }],
    "$setElementOrder/containers": [{ name: "app" }],
  });
  const before = structuredClone(doc);
  const patchBefore = structuredClone(patch);
  const next = applyStrategicMergePatch(doc, patch, "Deployment");
  assert.deepEqual(doc, before);
  assert.deepEqual(patch, patchBefore);
  podSpec(next)["volumes"][0].name = "changed";
  assert.deepEqual(doc, before);
});
