import { test } from "node:test";
import assert from "node:assert/strict";
import { AlreadyOwnedError, controllerOf, controllerRef, setControllerReference } from "../../src/entries/controller.ts";
import { OperatorRuntimeError } from "../../src/index.ts";
import type { KubeObject, Pod } from "../../src/index.ts";

const owner: KubeObject = { apiVersion: "replicaset.example.com/v1", kind: "PodSet", metadata: { name: "web", namespace: "default", uid: "uid-1" } };
const other: KubeObject = { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: { name: "rs", namespace: "default", uid: "uid-2" } };
const pod = (refs?: NonNullable<Pod["metadata"]>["ownerReferences"]): Pod => ({ apiVersion: "v1", kind: "Pod", metadata: { generateName: "web-", namespace: "default", ...(refs ? { ownerReferences: refs } : {}) } });

test("controllerRef names the owner with controller and blockOwnerDeletion true", () => {
  assert.deepEqual(controllerRef(owner), { apiVersion: "replicaset.example.com/v1", kind: "PodSet", name: "web", uid: "uid-1", controller: true, blockOwnerDeletion: true });
});

test("controllerRef refuses an owner that was never read from the API (no uid)", () => {
  assert.throws(() => controllerRef({ ...owner, metadata: { name: "web" } }), (err: Error) => err instanceof OperatorRuntimeError && /metadata\.uid/.test(err.message));
});

test("setControllerReference adds the controller and keeps other owners' non-controller references", () => {
  const friend = { apiVersion: "v1", kind: "ConfigMap", name: "cfg", uid: "uid-9" };
  const p = setControllerReference(owner, pod([friend]));
  assert.deepEqual(p.metadata?.ownerReferences, [friend, controllerRef(owner)]);
  assert.deepEqual(controllerOf(p), controllerRef(owner));
});

test("setControllerReference is idempotent for the same owner", () => {
  const p = setControllerReference(owner, setControllerReference(owner, pod()));
  assert.equal(p.metadata?.ownerReferences?.length, 1);
});

test("setControllerReference replaces a non-controller reference to the same owner", () => {
  const p = setControllerReference(owner, pod([{ apiVersion: "replicaset.example.com/v1", kind: "PodSet", name: "web", uid: "uid-1" }]));
  assert.deepEqual(p.metadata?.ownerReferences, [controllerRef(owner)]);
});

test("setControllerReference refuses an object another controller owns, and leaves it unchanged", () => {
  const p = pod([controllerRef(other)]);
  assert.throws(() => setControllerReference(owner, p), (err: Error) => err instanceof AlreadyOwnedError && err.controller.uid === "uid-2" && /ReplicaSet rs/.test(err.message));
  assert.deepEqual(p.metadata?.ownerReferences, [controllerRef(other)]);
});

test("setControllerReference refuses to cross namespaces or to give a namespaced owner a cluster-scoped object", () => {
  assert.throws(() => setControllerReference(owner, { ...pod(), metadata: { name: "p", namespace: "other" } }), /cannot cross namespaces/);
  assert.throws(() => setControllerReference(owner, { apiVersion: "v1", kind: "Namespace", metadata: { name: "ns" } }), /cluster-scoped object cannot have a namespaced owner/);
});

test("a cluster-scoped owner may control objects in any namespace", () => {
  const node = { apiVersion: "example.com/v1", kind: "Fleet", metadata: { name: "f", uid: "uid-3" } };
  assert.equal(controllerOf(setControllerReference(node, pod()))?.uid, "uid-3");
});

test("controllerOf ignores non-controller references", () => {
  assert.equal(controllerOf(pod([{ apiVersion: "v1", kind: "ConfigMap", name: "cfg", uid: "uid-9" }])), undefined);
  assert.equal(controllerOf(pod()), undefined);
});

test("setControllerReference compares the existing controller by uid: a re-created owner (same name, new uid) does not take over (unlike controller-runtime)", () => {
  const recreated: KubeObject = { ...owner, metadata: { ...owner.metadata, uid: "uid-1b" } };
  const p = pod([controllerRef(owner)]);
  assert.throws(() => setControllerReference(recreated, p), (err: Error) => err instanceof AlreadyOwnedError && err.controller.uid === "uid-1");
  assert.deepEqual(p.metadata?.ownerReferences, [controllerRef(owner)]);
});
