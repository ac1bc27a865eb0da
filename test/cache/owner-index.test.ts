import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Indexer, objectKey } from "../../src/cache/indexer.ts";
import { OWNER_UID_INDEX, ownerUidIndexValues } from "../../src/cache/owner-index.ts";
import { RETAINED_BY_ANNOTATION } from "../../src/entries/builder.ts";
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

  it("keeps answering in filing order while values go from one object to several and back", () => {
    const store = new Indexer<KubeObject>();
    store.addIndex(OWNER_UID_INDEX, ownerUidIndexValues);
    const names = (uid: string) => store.byIndex(OWNER_UID_INDEX, uid).map((o) => o.metadata?.name);
    const put = (o: KubeObject) => store.set(objectKey(o), o);
    put(child("a", [{ uid: "u1", controller: true }]));
    put(child("a", [{ uid: "u1", controller: true }])); // the same key again: still one
    assert.deepEqual(names("u1"), ["a"]);
    put(child("b", [{ uid: "u1", controller: true }]));
    put(child("c", [{ uid: "u1", controller: true }]));
    assert.deepEqual(names("u1"), ["a", "b", "c"]);
    store.delete("default/a");
    store.delete("default/c");
    assert.deepEqual(names("u1"), ["b"]);
    put(child("d", [{ uid: "u1", controller: true }]));
    assert.deepEqual(names("u1"), ["b", "d"]);
    // An object filed under two values (its controller and a retained-for annotation) leaves both.
    put(child("e", [{ uid: "u1", controller: true }], { [RETAINED_BY_ANNOTATION]: "u2" }));
    assert.deepEqual([names("u1"), names("u2")], [["b", "d", "e"], ["e"]]);
    put(child("e", [{ uid: "u3", controller: true }]));
    assert.deepEqual([names("u1"), names("u2"), names("u3")], [["b", "d"], [], ["e"]]);
    store.delete("default/e");
    assert.deepEqual(store.indexValues(OWNER_UID_INDEX).sort(), ["u1"]);
    assert.deepEqual(store.list("default").map((o) => o.metadata?.name).sort(), ["b", "d"]);
    store.delete("default/b");
    store.delete("default/d");
    assert.deepEqual([store.list("default"), store.indexValues(OWNER_UID_INDEX)], [[], []]);
  });

  it("files a cluster-scoped object whose key is its name, and one namespace holding a single object", () => {
    const store = new Indexer<KubeObject>();
    const lone = { metadata: { name: "x", namespace: "solo" } };
    const cluster = { metadata: { name: "node-1" } };
    store.set(objectKey(lone), lone);
    store.set(objectKey(cluster), cluster);
    assert.deepEqual(store.list("solo"), [lone]);
    assert.deepEqual(store.list(""), [cluster]);
  });
});
