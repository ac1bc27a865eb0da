/**
 * Writes of large objects do no redundant deep copies, and what they answer is unchanged:
 * the structure-sharing and copy-saving pieces of the write path, each checked on its own,
 * then a large custom resource created and patched over HTTP.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { pruneUnknownFields } from "../../src/testing/crd/prune.ts";
import { mergePatch, mergePatchInPlace } from "../../src/util/merge-patch.ts";
import { FieldSet } from "../../src/testing/apply/field-set.ts";
import { compareObjects } from "../../src/testing/apply/object-fields.ts";
import { jsonEqual } from "../../src/testing/json-value.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const PRESERVING = {
  type: "object",
  properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true }, status: { type: "object", properties: { n: { type: "integer" } } } },
};

describe("large writes: no redundant copies", () => {
  it("pruning keeps a preserved subtree and the root's managedFields by reference, and copies the rest", () => {
    const managedFields = [{ manager: "m", operation: "Update", fieldsType: "FieldsV1", fieldsV1: { "f:spec": {} } }];
    const input = { apiVersion: "x/v1", kind: "X", metadata: { name: "a", labels: { k: "v" }, managedFields }, spec: { deep: { a: [1, { b: 2 }] } }, status: { n: 1, gone: true } };
    const before = JSON.stringify(input);
    const { object, prunedFields } = pruneUnknownFields(input, PRESERVING);
    assert.equal(JSON.stringify(input), before, "the input is not modified");
    assert.deepEqual(prunedFields, ["status.gone"]);
    assert.equal(object.spec, input.spec);
    assert.equal(object.metadata!.managedFields, managedFields);
    assert.notEqual(object.metadata, input.metadata);
    assert.notEqual(object.metadata!.labels, input.metadata.labels);
    assert.notEqual(object.status, input.status);
  });

  it("mergePatchInPlace patches its target itself, with mergePatch's members and member order", () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ a: 1, b: { c: 2, d: 3 }, e: 4 }, { b: { d: null, f: [1] } }],
      [{ a: 1, b: 2, c: 3 }, { a: 9, x: null, b: null }],
      [{ a: "s", b: { c: { d: 1 } } }, { a: { z: null, y: 1 }, b: { c: "flat" } }],
      [{ "2": 1, "1": 2, k: 3 }, { "0": 1, k: { v: null } }],
      [JSON.parse('{"__proto__": {"a": 1}, "b": 1}') as Record<string, unknown>, JSON.parse('{"__proto__": {"c": 2}}') as Record<string, unknown>],
    ];
    for (const [target, patch] of cases) {
      const want = JSON.stringify(mergePatch(structuredClone(target), patch));
      const patchText = JSON.stringify(patch);
      const doc = structuredClone(target);
      assert.equal(mergePatchInPlace(doc, patch), doc);
      assert.equal(JSON.stringify(doc), want, `patching ${JSON.stringify(target)} with ${patchText}`);
      assert.equal(JSON.stringify(patch), patchText, "the patch is not modified");
    }
    assert.equal(({} as Record<string, unknown>).c, undefined);
  });

  it("mergePatchInPlace keeps untouched members by reference and shares nothing with the patch", () => {
    const big = { k: "v" };
    const doc: Record<string, unknown> = { spec: { big, small: 1 } };
    const patch = { spec: { small: 2, added: { x: [1] } } };
    mergePatchInPlace(doc, patch);
    const spec = doc.spec as Record<string, unknown>;
    assert.equal(spec.big, big);
    assert.notEqual(spec.added, patch.spec.added);
    assert.deepEqual(Object.keys(spec), ["big", "small", "added"]);
  });

  it("mergePatch copies plain JSON itself and a Date as structuredClone does", () => {
    const when = new Date(0);
    const result = mergePatch({ a: { when } }, { b: [1, { c: 2 }] }) as { a: { when: Date }; b: unknown[] };
    assert.ok(result.a.when instanceof Date);
    assert.notEqual(result.a.when, when);
    assert.deepEqual(result.b, [1, { c: 2 }]);
  });

  it("FieldSet.builder builds what FieldSet.of builds from the same paths", () => {
    const paths = [["f:spec", "f:b"], ["f:spec", "f:a"], ["f:metadata", "f:labels", "f:x"], ["f:spec"], ["f:list", 'k:{"name":"c"}'], ["f:list", "i:10"], ["f:list", "i:9"]];
    const builder = FieldSet.builder();
    for (const path of paths) builder.add(path);
    const built = builder.build();
    assert.ok(built.equals(FieldSet.of(paths)));
    assert.equal(JSON.stringify(built.toFieldsV1()), JSON.stringify(FieldSet.of(paths).toFieldsV1()));
    assert.deepEqual(built.printedPaths(), [".list[name=\"c\"]", ".list[9]", ".list[10]", ".metadata.labels.x", ".spec", ".spec.a", ".spec.b"]);
  });

  it("compareObjects skips equal scalars and still finds every change", () => {
    const old = { spec: { same: "x", nil: null, changed: 1, gone: 2, nested: { a: 1 } } };
    const next = { spec: { same: "x", nil: null, changed: 3, added: 4, nested: { a: 1, b: 2 } } };
    const change = compareObjects(old, next, () => ({ type: "atomic" }));
    assert.deepEqual(change.added.printedPaths(), [".spec.added", ".spec.nested.b"]);
    assert.deepEqual(change.modified.printedPaths(), [".spec.changed"]);
    assert.deepEqual(change.removed.printedPaths(), [".spec.gone"]);
  });

  it("jsonEqual: undefined members count as absent, key order does not matter", () => {
    assert.ok(jsonEqual({ a: 1, b: undefined, c: [1, { d: 2 }] }, { c: [1, { d: 2 }], a: 1 }));
    assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: 2 }));
    assert.ok(!jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 }));
    assert.ok(!jsonEqual({ a: undefined }, { b: null }));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
  });
});

describe("large writes over HTTP", () => {
  let cluster: LocalCluster;
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "bags.big.example.com" },
    spec: {
      group: "big.example.com", scope: "Namespaced", names: { plural: "bags", singular: "bag", kind: "Bag", listKind: "BagList" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: PRESERVING } }],
    },
  };
  const bags = "/apis/big.example.com/v1/namespaces/default/bags";
  before(async () => {
    cluster = await LocalCluster.start();
    assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).code, 201);
    await waitFor(async () => (await raw(cluster.url, "GET", bags)).code === 200 || undefined, "bags served");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a create and a merge patch of a 20,000-key custom resource answer exactly what is stored, with every field managed", async () => {
    const spec: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) spec[`k${i}`] = i % 3 === 0 ? { n: i } : `v${i}`;
    const created = await raw(cluster.url, "POST", bags, { apiVersion: "big.example.com/v1", kind: "Bag", metadata: { name: "b" }, spec, status: { n: 1 } });
    assert.equal(created.code, 201);
    assert.equal(created.text, (await raw(cluster.url, "GET", `${bags}/b`)).text);
    assert.deepEqual(created.body.status, { n: 1 });
    const fields = created.body.metadata.managedFields[0].fieldsV1["f:spec"] as Record<string, unknown>;
    assert.equal(Object.keys(fields).length, 20_001);
    assert.deepEqual(Object.keys(fields).slice(0, 4), [".", "f:k0", "f:k1", "f:k10"]);
    assert.deepEqual(fields["f:k3"], { ".": {}, "f:n": {} });

    const patched = await raw(cluster.url, "PATCH", `${bags}/b`, { spec: { k1: null, k3: { m: 1 }, zz: "new" } }, "application/merge-patch+json");
    assert.equal(patched.code, 200);
    assert.equal(patched.text, (await raw(cluster.url, "GET", `${bags}/b`)).text);
    const keys = Object.keys(patched.body.spec);
    assert.deepEqual(keys.slice(-2), ["k3", "zz"], "members the merge patch sets come after the others (mergePatch order)");
    assert.deepEqual(patched.body.spec.k3, { n: 3, m: 1 });
    assert.equal(patched.body.spec.k1, undefined);
    assert.equal(patched.body.metadata.generation, 2);
    const after = patched.body.metadata.managedFields[0].fieldsV1["f:spec"] as Record<string, unknown>;
    assert.equal(after["f:k1"], undefined);
    assert.deepEqual(after["f:k3"], { ".": {}, "f:m": {}, "f:n": {} });
    assert.deepEqual(after["f:zz"], {});

    const same = await raw(cluster.url, "PATCH", `${bags}/b`, { spec: { zz: "new" } }, "application/merge-patch+json");
    assert.equal(same.text, patched.text, "a patch that changes nothing keeps the object");
  });
});
