/**
 * `__proto__`, `constructor` and `prototype` in request bodies are plain data keys: every write
 * path (create and update as JSON or YAML, merge, strategic merge, JSON Patch, server-side
 * apply, custom-resource pruning and defaulting) stores them as data or rejects them, and none
 * of them reaches a prototype of the server's process.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor } from "../support/wait.ts";

const HOSTILE_KEYS = ["__proto__", "constructor", "prototype"] as const;
/** What a polluting body would plant: a new member, a replaced method, the flag prune reads. */
const PAYLOAD = `{"polluted":"yes","toString":"x","controller":true}`;

/** The members of the built-in prototypes a body could reach, with the type of each value. */
function prototypeShape(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Object.getOwnPropertyNames(proto).sort().map((k) => `${k}:${typeof Object.getOwnPropertyDescriptor(proto, k)?.value}`).join(","))
    .join("|");
}

const BAG_CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "bags.proto.example.com" },
  spec: {
    group: "proto.example.com",
    scope: "Namespaced",
    names: { plural: "bags", singular: "bag", kind: "Bag" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              properties: {
                free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                map: { type: "object", additionalProperties: { type: "string" } },
                typed: { type: "object", properties: { size: { type: "integer", default: 1 } } },
                items: {
                  type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                  items: { type: "object", properties: { name: { type: "string" }, value: { type: "string" } } },
                },
              },
            },
          },
        },
      },
    }],
  },
};

interface Case {
  what: string;
  method: string;
  path: (name: string) => string;
  contentType: string;
  /** The body; `rv` is the seeded object's resourceVersion (for a PUT). */
  body: (name: string, key: string, rv: string) => string;
  /** The field of the 422 kube-apiserver answers (an invalid label key), when it rejects the body. */
  rejectedField?: string;
  /** Checks the stored object after a successful write. */
  stored?: (obj: any, key: string) => void;
}

const cmPath = (name: string) => `/api/v1/namespaces/proto/configmaps/${name}`;
const cmBody = (name: string, key: string, value = "v") =>
  `{"apiVersion":"v1","kind":"ConfigMap","${key}":${PAYLOAD},"metadata":{"name":"${name}","${key}":${PAYLOAD}},"data":{"a":"1","${key}":"${value}"}}`;
const cmYaml = (name: string, key: string) =>
  `apiVersion: v1\nkind: ConfigMap\n${key}: ${PAYLOAD}\nmetadata:\n  name: ${name}\n  ${key}: ${PAYLOAD}\ndata:\n  a: "1"\n  ${key}: "v"\n`;
/** An apply configuration with the key only under `data`: elsewhere kube-apiserver answers 500 "field not declared in schema". */
const cmApplyBody = (name: string, key: string, value: string) =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"a":"1","${key}":"${value}"}}`;
const hasData = (value: string) => (obj: any, key: string) => {
  assert.ok(Object.hasOwn(obj.data, key), `data keeps the key ${key}`);
  assert.equal(obj.data[key], value);
  assert.equal(obj.data.a, "1");
};

/** Writes to a ConfigMap that exists (the harness creates it first as plain JSON). */
const CONFIGMAP_CASES: Case[] = [
  { what: "create (JSON)", method: "POST", path: () => "/api/v1/namespaces/proto/configmaps", contentType: "application/json", body: (n, k) => cmBody(n, k), stored: hasData("v") },
  { what: "create (YAML)", method: "POST", path: () => "/api/v1/namespaces/proto/configmaps", contentType: "application/yaml", body: (n, k) => cmYaml(n, k), stored: hasData("v") },
  { what: "update (PUT)", method: "PUT", path: cmPath, contentType: "application/json", body: (n, k) => cmBody(n, k, "put"), stored: hasData("put") },
  {
    what: "merge patch", method: "PATCH", path: cmPath, contentType: "application/merge-patch+json",
    body: (_n, k) => `{"${k}":${PAYLOAD},"metadata":{"${k}":${PAYLOAD}},"data":{"${k}":"merged"}}`, stored: hasData("merged"),
  },
  {
    what: "strategic merge patch", method: "PATCH", path: cmPath, contentType: "application/strategic-merge-patch+json",
    body: (_n, k) => `{"${k}":${PAYLOAD},"metadata":{"${k}":${PAYLOAD},"labels":{"${k}":"x"}},"data":{"${k}":"strategic"}}`,
    rejectedField: "metadata.labels",
  },
  {
    what: "strategic merge patch of data", method: "PATCH", path: cmPath, contentType: "application/strategic-merge-patch+json",
    body: (_n, k) => `{"${k}":${PAYLOAD},"metadata":{"${k}":${PAYLOAD}},"data":{"${k}":"strategic"}}`, stored: hasData("strategic"),
  },
  {
    what: "strategic merge patch of an owner reference", method: "PATCH", path: cmPath, contentType: "application/strategic-merge-patch+json",
    body: (_n, k) => `{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"u","${k}":${PAYLOAD}}]}}`,
  },
  {
    what: "strategic merge patch directives", method: "PATCH", path: cmPath, contentType: "application/strategic-merge-patch+json",
    body: (_n, k) => `{"$setElementOrder/${k}":[{"name":"x"}],"$deleteFromPrimitiveList/${k}":["x"],"$retainKeys":["data","${k}"],"data":{"${k}":"kept"},"${k}":${PAYLOAD}}`,
  },
  {
    what: "server-side apply (JSON)", method: "PATCH", path: (n) => `${cmPath(n)}?fieldManager=proto-test`, contentType: "application/apply-patch+yaml",
    body: (n, k) => cmApplyBody(n, k, "applied"), stored: hasData("applied"),
  },
  {
    what: "server-side apply (YAML)", method: "PATCH", path: (n) => `${cmPath(n)}?fieldManager=proto-yaml`, contentType: "application/apply-patch+yaml",
    body: (n, k) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\ndata:\n  a: "1"\n  ${k}: "applied-yaml"\n`, stored: hasData("applied-yaml"),
  },
  {
    what: "JSON Patch add", method: "PATCH", path: cmPath, contentType: "application/json-patch+json",
    body: (_n, k) => `[{"op":"add","path":"/data/${k}","value":"added"}]`, stored: hasData("added"),
  },
  {
    what: "JSON Patch through the key", method: "PATCH", path: cmPath, contentType: "application/json-patch+json",
    body: (_n, k) => `[{"op":"add","path":"/${k}/polluted","value":"yes"},{"op":"add","path":"/metadata/${k}/controller","value":true}]`,
  },
  {
    what: "JSON Patch copy and move", method: "PATCH", path: cmPath, contentType: "application/json-patch+json",
    body: (_n, k) => `[{"op":"add","path":"/data/${k}","value":"first"},{"op":"copy","from":"/data/${k}","path":"/data/copied"},{"op":"move","from":"/data/copied","path":"/data/${k}"},{"op":"test","path":"/data/${k}","value":"first"}]`,
    stored: hasData("first"),
  },
];

const bagPath = (name: string) => `/apis/proto.example.com/v1/namespaces/proto/bags/${name}`;
const bagSpec = (k: string, value: string) =>
  `{"${k}":${PAYLOAD},"free":{"${k}":${PAYLOAD},"keep":{"${k}":"${value}"}},"map":{"${k}":"${value}"},"typed":{"${k}":${PAYLOAD}},"items":[{"name":"${k}","value":"${value}","${k}":${PAYLOAD}}]}`;
const bagBody = (name: string, k: string, value: string, rv?: string) =>
  `{"apiVersion":"proto.example.com/v1","kind":"Bag","${k}":${PAYLOAD},"metadata":{"name":"${name}"${rv ? `,"resourceVersion":"${rv}"` : ""}},"spec":${bagSpec(k, value)}}`;
const bagStored = (value: string) => (obj: any, key: string) => {
  assert.equal(obj.spec.free.keep[key], value, "preserved unknown fields keep the key as data");
  assert.ok(Object.hasOwn(obj.spec.free.keep, key));
  assert.equal(obj.spec.map[key], value, "a string map keeps the key");
  assert.equal(obj.spec.typed.size, 1, "defaults still apply");
  assert.ok(!Object.hasOwn(obj.spec.typed, key), "unknown fields of a typed object are pruned");
  assert.deepEqual(obj.spec.items.map((i: any) => [i.name, i.value]), [[key, value]]);
};

const BAG_CASES: Case[] = [
  { what: "custom resource create", method: "POST", path: () => "/apis/proto.example.com/v1/namespaces/proto/bags", contentType: "application/json", body: (n, k) => bagBody(n, k, "v"), stored: bagStored("v") },
  { what: "custom resource update", method: "PUT", path: bagPath, contentType: "application/json", body: (n, k, rv) => bagBody(n, k, "put", rv), stored: bagStored("put") },
  { what: "custom resource merge patch", method: "PATCH", path: bagPath, contentType: "application/merge-patch+json", body: (_n, k) => `{"spec":${bagSpec(k, "merged")}}`, stored: bagStored("merged") },
  {
    what: "custom resource apply", method: "PATCH", path: (n) => `${bagPath(n)}?fieldManager=proto-test`, contentType: "application/apply-patch+yaml",
    body: (n, k) => bagBody(n, k, "applied"), stored: bagStored("applied"),
  },
];

describe("prototype keys in request bodies are data, never prototype access", () => {
  let cluster: LocalCluster;
  const shape = prototypeShape();
  let serial = 0;

  before(async () => {
    cluster = await LocalCluster.start();
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: "proto" } });
    await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", BAG_CRD);
    await waitFor(async () => (await raw(cluster.url, "GET", "/apis/proto.example.com/v1/bags")).code === 200, "Bag served");
  });
  after(() => cluster.stop());

  const assertNoLeak = (what: string) => {
    assert.equal(prototypeShape(), shape, `${what}: the built-in prototypes are unchanged`);
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined, what);
    assert.equal(({} as Record<string, unknown>)["controller"], undefined, what);
  };

  for (const [kindPath, cases, seed] of [
    ["configmaps", CONFIGMAP_CASES, (n: string) => raw(cluster.url, "POST", "/api/v1/namespaces/proto/configmaps", { metadata: { name: n }, data: { a: "1" } })],
    ["bags", BAG_CASES, (n: string) => raw(cluster.url, "POST", "/apis/proto.example.com/v1/namespaces/proto/bags",
      { apiVersion: "proto.example.com/v1", kind: "Bag", metadata: { name: n }, spec: {} })],
  ] as const) {
    for (const c of cases) {
      for (const key of HOSTILE_KEYS) {
        it(`${c.what} with a ${key} key`, async () => {
          const name = `${kindPath.slice(0, -1)}-${serial++}`;
          const seeded = c.method === "POST" ? undefined : await seed(name);
          if (seeded) assert.ok(seeded.code < 300, seeded.text);
          const res = await raw(cluster.url, c.method, c.path(name), c.body(name, key, seeded?.body.metadata.resourceVersion ?? ""), c.contentType);
          assertNoLeak(`${c.what} (${key})`);
          assert.ok(res.code < 500, `${c.what} (${key}): no server error: ${res.code} ${res.text}`);
          const got = await raw(cluster.url, "GET", c.path(name).replace(/\?.*$/, "").replace(/\/(configmaps|bags)$/, `/$1/${name}`));
          assertNoLeak(`${c.what} (${key}) read back`);
          if (c.rejectedField && key === "__proto__") {
            assert.equal(res.code, 422, res.text);
            assert.deepEqual(res.body.details.causes.map((cause: any) => cause.field), [c.rejectedField]);
          }
          if (c.stored) {
            assert.ok(res.code < 300, `${c.what} (${key}): stored: ${res.code} ${res.text}`);
            c.stored(got.body, key);
          }
        });
      }
    }
  }

  it("a Builder pass after every hostile body prunes nothing it does not control", async () => {
    await installDataApp(cluster.url);
    const owner = await createDataApp(cluster.url, "proto", "app");
    // A ConfigMap the owner merely references (no controller flag): never the Builder's to prune.
    const ref = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid };
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "proto-builder" });
    await new Builder({ client, owner }).configMap({ metadata: { name: "desired" }, data: { a: "1" } }).reconcile();
    const managed = (await raw(cluster.url, "GET", "/api/v1/namespaces/proto/configmaps/desired")).body.metadata.labels;
    const foreign = await raw(cluster.url, "POST", "/api/v1/namespaces/proto/configmaps",
      { metadata: { name: "referenced", labels: managed, ownerReferences: [ref] }, data: { a: "1" } });
    assert.equal(foreign.code, 201, foreign.text);
    for (const key of HOSTILE_KEYS) {
      const res = await raw(cluster.url, "PATCH", cmPath("referenced"), `{"${key}":{"controller":true}}`, "application/strategic-merge-patch+json");
      assert.ok(res.code < 500, res.text);
    }
    assertNoLeak("strategic merge patches before the Builder pass");
    const result = await new Builder({ client, owner }).configMap({ metadata: { name: "desired" }, data: { a: "1" } }).reconcile();
    assert.equal(result.pruneSkipped, undefined, "prune ran");
    assert.deepEqual(result.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["unchanged ConfigMap/desired"]);
    assert.equal((await raw(cluster.url, "GET", "/api/v1/namespaces/proto/configmaps/referenced")).code, 200, "the referenced ConfigMap is still there");
  });

  it("the Builder keeps prototype keys of Secret stringData and ConfigMap data as data, and hashes them", async () => {
    const owner = await createDataApp(cluster.url, "proto", "keys");
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "proto-keys" });
    const pass = (value: string) => new Builder({ client, owner })
      .secret({ metadata: { name: "keys" }, stringData: JSON.parse('{"__proto__":"s","constructor":"c"}') })
      .configMap({ metadata: { name: "keys" }, data: JSON.parse(`{"__proto__":"${value}","a":"1"}`) })
      .deployment({
        metadata: { name: "keys" },
        spec: {
          selector: { matchLabels: { app: "keys" } },
          template: { metadata: { labels: { app: "keys" } }, spec: { containers: [{ name: "c", image: "x", envFrom: [{ configMapRef: { name: "keys" } }] }] } },
        },
      })
      .reconcile();
    const hashOf = async () => JSON.stringify((await raw(cluster.url, "GET", "/apis/apps/v1/namespaces/proto/deployments/keys")).body.spec.template.spec.containers[0].env);
    assert.ok((await pass("one")).ok);
    const secret = (await raw(cluster.url, "GET", "/api/v1/namespaces/proto/secrets/keys")).body;
    assert.deepEqual(Object.entries(secret.data), [["__proto__", Buffer.from("s").toString("base64")], ["constructor", Buffer.from("c").toString("base64")]]);
    const first = await hashOf();
    const second = await pass("two");
    assert.deepEqual(second.objects.map((o) => `${o.action} ${o.kind}`), ["unchanged Secret", "updated ConfigMap", "updated Deployment"]);
    assert.notEqual(await hashOf(), first, "a change under the __proto__ key rolls the pods");
    const third = await pass("two");
    assert.deepEqual(third.objects.map((o) => o.action), ["unchanged", "unchanged", "unchanged"], "no perpetual drift");
  });

  it("a CRD property named __proto__ is declared like any other: kept, defaulted, required, a list-map key, published", async () => {
    const crd = JSON.parse(`{
      "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
      "metadata": {"name": "protos.proto.example.com"},
      "spec": {"group": "proto.example.com", "scope": "Namespaced", "names": {"plural": "protos", "singular": "proto", "kind": "Proto"},
        "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {
          "spec": {"type": "object", "required": ["__proto__"], "properties": {
            "__proto__": {"type": "object", "properties": {"polluted": {"type": "string", "default": "yes"}, "size": {"type": "integer"}}},
            "items": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["__proto__"],
              "items": {"type": "object", "required": ["__proto__"], "properties": {"__proto__": {"type": "string"}, "v": {"type": "string"}}}}
          }}}}}}]}}`);
    const created = await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", JSON.stringify(crd));
    assert.equal(created.code, 201, created.text);
    const protos = "/apis/proto.example.com/v1/namespaces/proto/protos";
    await waitFor(async () => (await raw(cluster.url, "GET", protos)).code === 200, "Proto served");
    const body = (name: string, spec: string) => `{"apiVersion":"proto.example.com/v1","kind":"Proto","metadata":{"name":"${name}"},"spec":${spec}}`;

    const res = await raw(cluster.url, "POST", protos, body("p1", `{"__proto__":{"size":2,"undeclared":1},"items":[{"__proto__":"k1","v":"a"},{"__proto__":"k2"}]}`));
    assert.equal(res.code, 201, res.text);
    const got = JSON.parse((await raw(cluster.url, "GET", `${protos}/p1`)).text);
    assert.ok(Object.hasOwn(got.spec, "__proto__"), "spec.__proto__ is kept as a member");
    assert.deepEqual({ ...got.spec["__proto__"] }, { size: 2, polluted: "yes" }, "pruned of undeclared fields and defaulted");
    assertNoLeak("create with a declared __proto__ property");

    const missing = await raw(cluster.url, "POST", protos, body("p2", "{}"));
    assert.equal(missing.code, 422, missing.text);
    assert.deepEqual(missing.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ["FieldValueRequired spec.__proto__"]);
    const duplicate = await raw(cluster.url, "POST", protos, body("p3", `{"__proto__":{},"items":[{"__proto__":"k1"},{"__proto__":"k2"},{"__proto__":"k1"}]}`));
    assert.equal(duplicate.code, 422, duplicate.text);
    assert.deepEqual(duplicate.body.details.causes.map((c: any) => `${c.reason} ${c.field}`), ["FieldValueDuplicate spec.items[2]"]);

    const applied = await raw(cluster.url, "PATCH", `${protos}/p4?fieldManager=protos`, body("p4", `{"__proto__":{"size":3},"items":[{"__proto__":"k3","v":"c"}]}`), "application/apply-patch+yaml");
    assert.equal(applied.code, 201, applied.text);
    const entry = applied.body.metadata.managedFields.find((m: any) => m.manager === "protos");
    assert.deepEqual(entry.fieldsV1["f:spec"]["f:items"], { 'k:{"__proto__":"k3"}': { ".": {}, "f:__proto__": {}, "f:v": {} } });
    assert.ok(Object.hasOwn(entry.fieldsV1["f:spec"], "f:__proto__"));
    assert.deepEqual({ ...JSON.parse(applied.text).spec["__proto__"] }, { size: 3, polluted: "yes" });

    const v3 = await raw(cluster.url, "GET", "/openapi/v3/apis/proto.example.com/v1");
    const schema = JSON.parse(v3.text).components.schemas["com.example.proto.v1.Proto"];
    const specProps = schema.properties.spec.properties;
    assert.ok(Object.hasOwn(specProps, "__proto__"), `published spec properties: ${Object.keys(specProps)}`);
    assert.deepEqual(Object.keys(specProps["__proto__"].properties), ["polluted", "size"]);
    assertNoLeak("every write to a Proto");
  });
});
