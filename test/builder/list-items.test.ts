import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { listKindsOf, matchingItems } from "../../src/builder/list-items.ts";
import { isSubset } from "../../src/builder/desired.ts";
import { driftPatch } from "../../src/builder/drift.ts";
import type { KubeObject } from "../../src/client/types.ts";

const same = (a: unknown, b: unknown) => Object.is(a, b);

const live: KubeObject = {
  apiVersion: "v1", kind: "Service",
  metadata: {
    name: "s", finalizers: ["a", "theirs"],
    managedFields: [
      { manager: "op", operation: "Apply", fieldsV1: { "f:metadata": { "f:finalizers": { 'v:"a"': {} } }, "f:spec": { "f:ports": { 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:port": {} } }, "f:selector": {} } } },
      { manager: "other", operation: "Update", fieldsV1: { "f:metadata": { "f:finalizers": { 'v:"theirs"': {} } }, "f:spec": { "f:ports": { 'k:{"port":9090,"protocol":"TCP"}': { ".": {} } } } } },
    ],
  },
  spec: { ports: [{ port: 9090, protocol: "TCP" }, { port: 80, protocol: "TCP", name: "http" }], selector: { app: "s" }, ips: ["x", "y"] },
};

describe("list items: kinds from managedFields, matching by key or value", () => {
  it("reads map keys, sets and atomic lists from every manager's fieldsV1", () => {
    const kinds = listKindsOf(live);
    assert.deepEqual(kinds(["spec", "ports"]), { type: "map", keys: ["port", "protocol"] });
    assert.deepEqual(kinds(["metadata", "finalizers"]), { type: "set" });
    assert.equal(kinds(["spec", "selector"]), undefined, "a leaf: atomic, compared by position");
  });

  it("matches a desired item by its key, a left-out key field (a defaulted protocol) matching any value", () => {
    const map = { type: "map", keys: ["port", "protocol"] } as const;
    assert.deepEqual(matchingItems({ port: 80 }, (live.spec as any).ports, map), [1]);
    assert.deepEqual(matchingItems({ port: 80, protocol: "UDP" }, (live.spec as any).ports, map), []);
    assert.deepEqual(matchingItems("theirs", ["a", "theirs"], { type: "set" }), [1]);
  });

  it("a desired list is held when its items are, whatever others added and wherever they sit", () => {
    const kinds = listKindsOf(live);
    assert.equal(isSubset({ spec: { ports: [{ port: 80, name: "http" }] }, metadata: { finalizers: ["a"] } }, live, same, kinds), true);
    assert.equal(isSubset({ spec: { ports: [{ port: 80, name: "web" }] } }, live, same, kinds), false);
    assert.equal(isSubset({ spec: { ports: [{ port: 80, name: "http" }] } }, live, same), false, "by position without managedFields");
    assert.equal(isSubset({ spec: { ips: ["x"] } }, live, same, kinds), false, "an atomic list must match whole");
  });

  it("the drift patch corrects or appends our items and never touches theirs", () => {
    const kinds = listKindsOf(live);
    assert.deepEqual(driftPatch({ spec: { ports: [{ port: 80, name: "web" }, { port: 81 }] }, metadata: { finalizers: ["b"] } }, live, same, kinds), [
      { op: "replace", path: "/spec/ports/1/name", value: "web" },
      { op: "add", path: "/spec/ports/-", value: { port: 81 } },
      { op: "add", path: "/metadata/finalizers/-", value: "b" },
    ]);
    assert.deepEqual(driftPatch({ spec: { ips: ["x"] } }, live, same, kinds), [{ op: "replace", path: "/spec/ips", value: ["x"] }]);
  });
});
