import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { OWNER_UID_LABEL } from "../../src/builder/owned-objects.ts";
import { bucketOfUid, SHARD_BUCKET_LABEL } from "../../src/cache/shard-buckets.ts";
import { controllerReference, isSubset, prepareDesired, stampDesiredHash, MANAGED_BY_LABEL, DESIRED_HASH_ANNOTATION } from "../../src/builder/desired.ts";
import { BuilderValidationError } from "../../src/errors.ts";
import { scalarComparer } from "../../src/builder/scalars.ts";
import type { KubeObject } from "../../src/client/types.ts";

const owner = { apiVersion: "example.com/v1", kind: "DataApp", metadata: { name: "demo", namespace: "apps", uid: "u-1" } };

describe("desired objects", () => {
  it("a controller reference needs the owner's uid", () => {
    const err = controllerReference({ apiVersion: "v1", kind: "X", metadata: { name: "n" } });
    assert.ok(err instanceof BuilderValidationError);
    assert.match(err.message, /owner\.metadata\.uid/);
  });

  it("deduplicates the owner reference and keeps other (non-controller) owners", () => {
    const ref = controllerReference(owner);
    assert.ok(!(ref instanceof BuilderValidationError));
    const input = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", ownerReferences: [
      { apiVersion: "example.com/v1", kind: "DataApp", name: "demo", uid: "u-1" },
      { apiVersion: "v1", kind: "ConfigMap", name: "other", uid: "u-2" },
    ] } };
    const d = prepareDesired(input, { ownerRef: ref, labels: { a: "1" }, managedBy: "op", namespace: "apps", namespaced: true, retainPersistentVolumeClaims: true, component: undefined });
    assert.deepEqual(d.metadata!.ownerReferences!.map((r) => `${r.uid}:${r.controller ?? false}`), ["u-2:false", "u-1:true"]);
    assert.equal(d.metadata!.namespace, "apps");
    assert.deepEqual(d.metadata!.labels, { a: "1", [MANAGED_BY_LABEL]: "op", [OWNER_UID_LABEL]: "u-1", [SHARD_BUCKET_LABEL]: String(bucketOfUid("u-1")) },
      "the owner-UID label finds the owner's children with one list per kind; the shard bucket, a sharded replica's watch");
    assert.equal(input.metadata.ownerReferences.length, 2, "the input is not modified");
  });

  it("folds Secret stringData into base64 data and drops server-owned fields", () => {
    const ref = controllerReference(owner) as Exclude<ReturnType<typeof controllerReference>, BuilderValidationError>;
    const d = prepareDesired({ apiVersion: "v1", kind: "Secret", metadata: { name: "s", uid: "x", resourceVersion: "9" }, stringData: { p: "pw" }, status: {} },
      { ownerRef: ref, labels: {}, managedBy: "op", namespace: "apps", namespaced: true, retainPersistentVolumeClaims: true, component: undefined });
    assert.deepEqual(d.data, { p: Buffer.from("pw").toString("base64") });
    assert.equal(d.stringData, undefined);
    assert.equal(d.metadata!.uid, undefined);
    assert.equal(d.metadata!.resourceVersion, undefined);
    assert.equal(d.status, undefined);
  });

  it("the desired hash ignores its own annotation and changes with content", () => {
    const a: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, data: { k: "1" } };
    const h1 = stampDesiredHash(a);
    assert.equal(stampDesiredHash(a), h1, "re-stamping is stable");
    assert.equal(a.metadata!.annotations?.[DESIRED_HASH_ANNOTATION], h1);
    const b = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, data: { k: "2" } };
    assert.notEqual(stampDesiredHash(b), h1);
  });

  it("desired ⊆ live: extra live fields are fine, list length and values must match, quantities compare by value", () => {
    assert.equal(isSubset({ a: 1, b: { c: "x" } }, { a: 1, b: { c: "x", d: 2 }, e: 3 }), true);
    assert.equal(isSubset({ l: [{ n: "a" }] }, { l: [{ n: "a", extra: 1 }] }), true);
    assert.equal(isSubset({ l: [{ n: "a" }] }, { l: [{ n: "a" }, { n: "b" }] }), false);
    assert.equal(isSubset({ a: 1 }, { a: 2 }), false);
    const builtin = scalarComparer("apps/v1");
    const limits = (cpu: string) => ({ spec: { containers: [{ resources: { limits: { cpu } } }] } });
    assert.equal(isSubset(limits("0.5"), limits("500m"), builtin), true);
    assert.equal(isSubset({ spec: { resources: { requests: { storage: "1024Mi" } } } }, { spec: { resources: { requests: { storage: "1Gi" } } } }, builtin), true);
    assert.equal(isSubset({ spec: { volumes: [{ emptyDir: { sizeLimit: "1024Mi" } }] } }, { spec: { volumes: [{ emptyDir: { sizeLimit: "1Gi" } }] } }, builtin), true);
    assert.equal(isSubset(limits("1"), limits("2"), builtin), false);
    assert.equal(isSubset({ name: "web" }, { name: "web2" }, builtin), false);
  });

  it("strings that only look like equal numbers differ outside quantity fields", () => {
    const core = scalarComparer("v1");
    assert.equal(isSubset({ data: { version: "1.10" } }, { data: { version: "1.1" } }, core), false);
    assert.equal(isSubset({ data: { port: "0080" } }, { data: { port: "80" } }, core), false);
    assert.equal(isSubset({ spec: { replicasText: "0.5" } }, { spec: { replicasText: "500m" } }, scalarComparer("apps/v1")), false);
    const custom = scalarComparer("example.com/v1");
    const limits = (cpu: string) => ({ spec: { resources: { limits: { cpu } } } });
    assert.equal(isSubset(limits("0.5"), limits("500m"), custom), false, "a CRD's strings are stored as sent");
  });
});
