import { test } from "node:test";
import assert from "node:assert/strict";
import { V1Deployment } from "@kubernetes/client-node";
import { isControlledBy } from "../../src/index.ts";
import type { ConfigMap } from "../../src/index.ts";
import type { Greeting } from "../kinds/fixtures.ts";

const owner: Greeting = { apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "hello", uid: "uid-1" }, spec: { name: "Ada" } };
const child = (refs: NonNullable<ConfigMap["metadata"]>["ownerReferences"]): ConfigMap => ({ metadata: { name: "c", ownerReferences: refs } });
const ref = { apiVersion: "example.com/v1", kind: "Greeting", name: "hello", uid: "uid-1" };

test("an object is controlled by the owner whose UID its controller reference carries", () => {
  assert.equal(isControlledBy(child([{ ...ref, controller: true }]), owner), true);
});

test("a non-controller reference, another owner's reference or none is not control", () => {
  assert.equal(isControlledBy(child([{ ...ref, controller: false }]), owner), false);
  assert.equal(isControlledBy(child([ref]), owner), false);
  assert.equal(isControlledBy(child([{ ...ref, uid: "uid-2", controller: true }]), owner), false);
  assert.equal(isControlledBy(child(undefined), owner), false);
});

test("an owner without a UID (never created) is a TypeError naming the field, not a silent false", () => {
  const unsaved = { metadata: { name: "hello" } };
  assert.throws(() => isControlledBy(child([{ ...ref, uid: "", controller: true }]), unsaved),
    (err: unknown) => err instanceof TypeError && /isControlledBy\(obj, owner\): owner must be .*metadata\.uid/.test(err.message));
});

test("a UID string where the owner object belongs (the signature before 0.1) throws and says how to migrate", () => {
  assert.throws(() => isControlledBy(child([{ ...ref, controller: true }]), "uid-1" as never),
    (err: unknown) => err instanceof TypeError && /got a string\. Since 0\.1, pass the owner object, not its UID/.test(err.message));
});

test("owners and children may be client-node model objects", () => {
  const deployment = Object.assign(new V1Deployment(), { metadata: { name: "web", uid: "uid-1", creationTimestamp: new Date() } });
  const pod = { metadata: { ownerReferences: [{ apiVersion: "apps/v1", kind: "Deployment", name: "web", uid: "uid-1", controller: true }] } };
  assert.equal(isControlledBy(pod, deployment), true);
});
