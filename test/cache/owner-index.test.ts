import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Indexer, objectKey } from "../../src/cache/indexer.ts";
import { OWNER_UID_INDEX, ownerUidIndexValues } from "../../src/cache/owner-index.ts";
import { RETAINED_BY_ANNOTATION } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";

const child = (name: string, refs: { uid: string; controller?: boolean }[], annotations?: Record<string, string>): KubeObject => ({
  metadata: { name, namespace: "default", ...(annotations ? { annotations } : {}),
    ownerReferences: refs.map((r) => ({ apiVersion: "v1", kind: "ConfigMap", name: "o", uid: r.uid, ...(r.controller !== undefined ? { controller: r.controller } : {}) })) },
});

describe("the owner-UID index", () => {
  it("files an object under its controller's UID only, and a retained claim under the owner it is retained for", () => {
    assert.deepEqual(ownerUidIndexValues(child("a", [{ uid: "u1", controller: true }, { uid: "u2" }, { uid: "u3", controller: false }])), ["u1"]);
    assert.deepEqual(ownerUidIndexValues(child("pvc", [], { [RETAINED_BY_ANNOTATION]: "u9" })), ["u9"]);
    assert.deepEqual(ownerUidIndexValues({ metadata: { name: "loose" } }), []);
  });

  it("follows a change of controller: the object moves to the new owner's entry", () => {
    const store = new Indexer<KubeObject>();
    store.addIndex(OWNER_UID_INDEX, ownerUidIndexValues);
    const a = child("a", [{ uid: "u1", controller: true }]);
    store.set(objectKey(a), a);
    for (let i = 0; i < 100; i++) {
      const other = child(`other-${i}`, [{ uid: `x${i}`, controller: true }]);
      store.set(objectKey(other), other);
    }
    assert.deepEqual(store.byIndex(OWNER_UID_INDEX, "u1").map((o) => o.metadata?.name), ["a"]);
    const moved = child("a", [{ uid: "u2", controller: true }]);
    store.set(objectKey(moved), moved);
    assert.deepEqual(store.byIndex(OWNER_UID_INDEX, "u1"), []);
    assert.deepEqual(store.byIndex(OWNER_UID_INDEX, "u2").map((o) => o.metadata?.name), ["a"]);
  });
});
