import { test } from "node:test";
import assert from "node:assert/strict";
import { storageRules } from "../../builders/storage.ts";
import type { KubeObject } from "../../src/client/types.ts";

function pvc(spec: Record<string, unknown> = {}, status?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "deep-storage", namespace: "pinot" },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "10Gi" } }, ...spec },
    ...(status ? { status } : {}),
  };
}

const fields = (obj: KubeObject) => storageRules.validate(obj).map((e) => e.field);
const changes = (live: KubeObject, desired: KubeObject) => storageRules.immutableChanges!(live, desired);
const size = (storage: string) => ({ resources: { requests: { storage } } });
const bound = { phase: "Bound" };

/** A live claim as the server returns it once bound: defaults and the bound volume filled in. */
function boundClaim(storage = "10Gi"): KubeObject {
  return pvc({ ...size(storage), storageClassName: "standard", volumeMode: "Filesystem", volumeName: "pvc-1234" }, { ...bound, capacity: { storage } });
}

test("a valid claim has no problems", () => {
  assert.deepEqual(storageRules.validate(pvc()), []);
  assert.deepEqual(storageRules.validate(pvc({ accessModes: ["ReadWriteOncePod", "ReadOnlyMany"], volumeMode: "Block", storageClassName: "fast", ...size("500Mi") })), []);
  assert.equal(storageRules.phase, "storage");
});

test("access modes must be present and known", () => {
  assert.deepEqual(fields(pvc({ accessModes: undefined })), ["spec.accessModes"]);
  assert.deepEqual(fields(pvc({ accessModes: [] })), ["spec.accessModes"]);
  const [err] = storageRules.validate(pvc({ accessModes: ["ReadWriteOnce", "WriteMany"] }));
  assert.equal(err!.field, "spec.accessModes[1]");
  assert.match(err!.fix, /ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod/);
});

test("the storage request is required and must be a positive quantity", () => {
  assert.deepEqual(fields(pvc({ resources: {} })), ["spec.resources.requests.storage"]);
  const [bad] = storageRules.validate(pvc(size("10GB")));
  assert.equal(bad!.message, 'PersistentVolumeClaim/deep-storage: spec.resources.requests.storage: "10GB" is not a quantity. Fix: write a size such as "10Gi", "500Mi" or "1T"');
  assert.deepEqual(fields(pvc(size("0"))), ["spec.resources.requests.storage"]);
  assert.deepEqual(fields({ metadata: { name: "x" } }), ["spec"]);
});

test("volumeMode and storageClassName are checked when set", () => {
  assert.deepEqual(fields(pvc({ volumeMode: "Raw", storageClassName: 5 })), ["spec.volumeMode", "spec.storageClassName"]);
});

test("growing a bound claim is allowed (volume expansion)", () => {
  assert.deepEqual(changes(boundClaim(), pvc(size("20Gi"))), []);
  assert.deepEqual(changes(boundClaim(), pvc(size("10240Mi"))), []);
});

test("shrinking a bound claim is refused", () => {
  assert.deepEqual(changes(boundClaim(), pvc(size("5Gi"))), ["spec.resources.requests.storage"]);
});

test("an unbound claim cannot be resized either way", () => {
  const pending = pvc({}, { phase: "Pending" });
  assert.deepEqual(changes(pending, pvc(size("20Gi"))), ["spec.resources.requests.storage"]);
  assert.deepEqual(changes(pending, pvc(size("5Gi"))), ["spec.resources.requests.storage"]);
  assert.deepEqual(changes(pending, pvc()), []);
});

test("server-filled defaults are not changes when the desired claim omits them", () => {
  assert.deepEqual(changes(boundClaim(), pvc()), []);
  assert.deepEqual(changes(boundClaim(), pvc({ storageClassName: "standard", volumeMode: "Filesystem", volumeName: "pvc-1234" })), []);
});

test("access modes, class, volume, selector and volume mode changes are refused", () => {
  const live = boundClaim();
  assert.deepEqual(changes(live, pvc({ accessModes: ["ReadWriteMany"] })), ["spec.accessModes"]);
  assert.deepEqual(changes(live, pvc({ storageClassName: "fast" })), ["spec.storageClassName"]);
  assert.deepEqual(changes(live, pvc({ volumeName: "pvc-9999" })), ["spec.volumeName"]);
  assert.deepEqual(changes(live, pvc({ selector: { matchLabels: { disk: "ssd" } } })), ["spec.selector"]);
  assert.deepEqual(changes(live, pvc({ volumeMode: "Block" })), ["spec.volumeMode"]);
  assert.deepEqual(changes(live, pvc({ accessModes: ["ReadWriteMany"], ...size("1Gi") })), ["spec.accessModes", "spec.resources.requests.storage"]);
});

test("an unbound claim without a class or volume may still get them", () => {
  const pending = pvc({}, { phase: "Pending" });
  assert.deepEqual(changes(pending, pvc({ storageClassName: "fast", volumeName: "pv-1" })), []);
  const boundWithoutClass = pvc({ volumeName: "pv-1" }, bound);
  assert.deepEqual(changes(boundWithoutClass, pvc({ storageClassName: "fast" })), ["spec.storageClassName"]);
});
