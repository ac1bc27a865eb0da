import { test } from "node:test";
import assert from "node:assert/strict";
import { FieldSet, fieldsOf, printPath, systemFields } from "../../../src/testing/apply/field-set.ts";
import type { ListTypeLookup } from "../../../src/testing/resource-type.ts";

const lists: ListTypeLookup = (path) => {
  const last = path[path.length - 1];
  if (last === "containers" || last === "env") return { type: "map", keys: ["name"] };
  if (last === "ports") return { type: "map", keys: ["protocol", "containerPort"] };
  if (last === "finalizers") return { type: "set" };
  return { type: "atomic" };
};

const deployment = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "default", uid: "u", resourceVersion: "7", labels: { app: "web" }, finalizers: ["a"] },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: "web" } },
    template: {
      spec: {
        containers: [{ name: "c", image: "nginx", ports: [{ containerPort: 80, protocol: "TCP" }], args: ["-v"] }],
      },
    },
  },
};

test("fieldsOf makes maps granular, map-lists keyed, set-lists by value and other lists atomic", () => {
  assert.deepEqual(fieldsOf(deployment, lists).printedPaths(), [
    ".metadata.finalizers[=\"a\"]",
    ".metadata.labels.app",
    ".spec.replicas",
    ".spec.selector.matchLabels.app",
    ".spec.template.spec.containers[name=\"c\"]",
    ".spec.template.spec.containers[name=\"c\"].args",
    ".spec.template.spec.containers[name=\"c\"].image",
    ".spec.template.spec.containers[name=\"c\"].name",
    ".spec.template.spec.containers[name=\"c\"].ports[containerPort=80,protocol=\"TCP\"]",
    ".spec.template.spec.containers[name=\"c\"].ports[containerPort=80,protocol=\"TCP\"].containerPort",
    ".spec.template.spec.containers[name=\"c\"].ports[containerPort=80,protocol=\"TCP\"].protocol",
  ]);
});

test("fieldsOf skips the server-owned fields and whatever else the filter names", () => {
  const withStatus = { ...deployment, status: { replicas: 2 } };
  const set = fieldsOf(withStatus, lists, (names) => systemFields(names) || names[0] === "status");
  assert.equal(set.hasWithin(["f:status"]), false);
  assert.equal(set.hasWithin(["f:metadata", "f:name"]), false);
  assert.equal(set.hasWithin(["f:apiVersion"]), false);
  assert.equal(fieldsOf(withStatus, lists).has(["f:status", "f:replicas"]), true);
});

test("empty maps and empty lists are leaves", () => {
  const set = fieldsOf({ metadata: { labels: {} }, spec: { containers: [] } }, lists);
  assert.deepEqual(set.printedPaths(), [".metadata.labels", ".spec.containers"]);
});

test("a map-list whose items can't be told apart is one leaf", () => {
  const set = fieldsOf({ spec: { containers: [{ name: "a" }, { name: "a" }] } }, lists);
  assert.deepEqual(set.printedPaths(), [".spec.containers"]);
});

test("FieldsV1 round trip keeps the exact JSON shape with dot markers for keyed items", () => {
  const fieldsV1 = {
    "f:metadata": { "f:labels": { "f:app": {} } },
    "f:spec": { "f:containers": { 'k:{"name":"c"}': { ".": {}, "f:image": {}, "f:name": {} } } },
  };
  const set = FieldSet.fromFieldsV1(fieldsV1);
  assert.deepEqual(set.toFieldsV1(), fieldsV1);
  assert.equal(JSON.stringify(set.toFieldsV1()), JSON.stringify(fieldsV1));
  assert.deepEqual(set.printedPaths(), [
    ".metadata.labels.app",
    ".spec.containers[name=\"c\"]",
    ".spec.containers[name=\"c\"].image",
    ".spec.containers[name=\"c\"].name",
  ]);
  assert.deepEqual(FieldSet.fromFieldsV1(fieldsOf(deployment, lists).toFieldsV1()).toFieldsV1(), fieldsOf(deployment, lists).toFieldsV1());
});

test("FieldsV1 written by others is normalized and unknown keys are skipped", () => {
  const set = FieldSet.fromFieldsV1({ "f:spec": { "f:ports": { 'k:{"protocol":"TCP", "port":80}': {} }, "x:junk": {} } });
  assert.deepEqual(set.toFieldsV1(), { "f:spec": { "f:ports": { 'k:{"port":80,"protocol":"TCP"}': {} } } });
});

test("union, difference and intersection work leaf by leaf", () => {
  const a = FieldSet.of([["f:spec", "f:a"], ["f:spec", "f:b"], ["f:spec", "f:list", 'k:{"name":"x"}']]);
  const b = FieldSet.of([["f:spec", "f:b"], ["f:spec", "f:c"], ["f:spec", "f:list", 'k:{"name":"x"}', "f:name"]]);
  assert.deepEqual(a.union(b).printedPaths(), [".spec.a", ".spec.b", ".spec.c", ".spec.list[name=\"x\"]", ".spec.list[name=\"x\"].name"]);
  assert.deepEqual(a.difference(b).printedPaths(), [".spec.a", ".spec.list[name=\"x\"]"]);
  assert.deepEqual(a.intersection(b).printedPaths(), [".spec.b"]);
  assert.equal(a.intersection(FieldSet.of([["f:other"]])).isEmpty(), true);
  assert.equal(b.hasWithin(["f:spec", "f:list", 'k:{"name":"x"}']), true);
  assert.equal(b.has(["f:spec", "f:list", 'k:{"name":"x"}']), false);
  assert.equal(a.union(b).size, 5);
  assert.equal(a.equals(FieldSet.of([...a.paths()])), true);
});

test("paths print as the API server prints them", () => {
  assert.equal(printPath(["f:spec", "f:replicas"]), ".spec.replicas");
  assert.equal(printPath(["f:spec", "f:containers", 'k:{"name":"c"}', "f:image"]), '.spec.containers[name="c"].image');
  assert.equal(printPath(["f:metadata", "f:finalizers", 'v:"x"']), '.metadata.finalizers[="x"]');
  assert.equal(printPath(["f:items", "i:3"]), ".items[3]");
});
