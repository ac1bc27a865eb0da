/**
 * CRD validation rules (`x-kubernetes-validations`) evaluated by LocalCluster over real HTTP,
 * with the real client-node: create, update (transition rules, ratcheting), status, dry run,
 * list items and map values, messageExpression / fieldPath / reason, runtime cost.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CustomObjectsApi } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { raw, waitFor, within } from "../../support/wait.ts";

const GROUP = "cel.example.com";
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const path = (plural: string, name = ""): string => `/apis/${GROUP}/v1/namespaces/default/${plural}${name ? `/${name}` : ""}`;

function crd(plural: string, kind: string, schema: unknown, subresources?: unknown): unknown {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: "v1", served: true, storage: true, ...(subresources ? { subresources } : {}), schema: { openAPIV3Schema: schema } }],
    },
  };
}

/** The original Greeting operator's rule, plus one rule of each kind this file checks. */
const greetingSchema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      "x-kubernetes-validations": [
        { rule: "has(self.name) != has(self.surname)", message: "exactly one of name and surname" },
        { rule: "!has(self.id) || !has(oldSelf.id) || self.id == oldSelf.id", message: "id is immutable" },
        { rule: "!has(self.count) || self.count < 10", messageExpression: "'count ' + string(self.count) + ' is not below 10'", fieldPath: ".count", reason: "FieldValueForbidden" },
        { rule: "!has(self.count) || self.count != 7", messageExpression: "self.nope", fieldPath: ".count" },
        { rule: "!has(self.shout) || self.shout == self.shout.upperAscii()" },
      ],
      properties: {
        name: { type: "string", maxLength: 63 },
        surname: { type: "string", maxLength: 63 },
        id: { type: "string", maxLength: 63 },
        count: { type: "integer" },
        shout: { type: "string", maxLength: 20 },
        version: {
          type: "string", maxLength: 10,
          "x-kubernetes-validations": [{ rule: "oldSelf.hasValue() || self.startsWith('v1')", optionalOldSelf: true, message: "a new version starts with v1" }],
        },
        tags: { type: "array", maxItems: 10, items: { type: "string", maxLength: 10, "x-kubernetes-validations": [{ rule: "self.startsWith('t-')", message: "tags start with t-" }] } },
        limits: { type: "object", maxProperties: 10, additionalProperties: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= 0" }] } },
        ports: {
          type: "array", maxItems: 10, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
          items: { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 10 }, port: { type: "integer" } },
            "x-kubernetes-validations": [{ rule: "self.port == oldSelf.port", message: "port is immutable" }] },
        },
      },
    },
    status: {
      type: "object",
      properties: { phase: { type: "string", maxLength: 20 } },
      "x-kubernetes-validations": [{ rule: "!has(self.phase) || self.phase in ['Ready', 'Pending']", message: "unknown phase" }],
    },
  },
};

/** A rule whose iteration runs out of the per-call cost limit at runtime. */
const costlySchema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        values: {
          type: "array", maxItems: 1000, items: { type: "integer" },
          "x-kubernetes-validations": [{ rule: "self.all(x, self.all(y, y >= 0))" }],
        },
      },
    },
  },
};

function greeting(name: string, spec: Record<string, unknown>): any {
  return { apiVersion: `${GROUP}/v1`, kind: "Greeting", metadata: { name, namespace: "default" }, spec };
}

/** The 422 causes client-node surfaces in its ApiException. */
async function causesOf(promise: Promise<unknown>): Promise<{ field?: string; reason?: string; message?: string }[]> {
  const err = await promise.then(
    () => assert.fail("expected a 422"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiException, String(err));
  assert.equal(err.code, 422, String(err.body));
  const status = typeof err.body === "string" ? JSON.parse(err.body) : err.body;
  assert.equal(status.reason, "Invalid");
  return status.details.causes;
}

describe("LocalCluster evaluates CRD validation rules (CEL)", () => {
  let cluster: LocalCluster;
  let api: CustomObjectsApi;
  before(async () => {
    cluster = await LocalCluster.start();
    api = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    for (const body of [crd("greetings", "Greeting", greetingSchema, { status: {} }), crd("costlies", "Costly", costlySchema)]) {
      const res = await raw(cluster.url, "POST", crdPath, body);
      assert.equal(res.code, 201, JSON.stringify(res.body));
    }
    await waitFor(async () => (await raw(cluster.url, "GET", path("greetings"))).code === 200 || undefined, "greetings served");
    await waitFor(async () => (await raw(cluster.url, "GET", path("costlies"))).code === 200 || undefined, "costlies served");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  const create = (body: any, dryRun?: string): Promise<any> =>
    api.createNamespacedCustomObject({ group: GROUP, version: "v1", namespace: "default", plural: body.kind === "Costly" ? "costlies" : "greetings", body, ...(dryRun ? { dryRun } : {}) });
  const replace = (body: any): Promise<any> =>
    api.replaceNamespacedCustomObject({ group: GROUP, version: "v1", namespace: "default", plural: "greetings", name: body.metadata.name, body });

  it("accepts an object passing its rules and rejects one failing them, in kube-apiserver's cause format", async () => {
    const ok = await create(greeting("hello", { name: "Ada" }));
    assert.equal(ok.spec.name, "Ada");
    assert.deepEqual(await causesOf(create(greeting("both", { name: "Ada", surname: "Lovelace" }))), [
      { reason: "FieldValueInvalid", field: "spec", message: "Invalid value: exactly one of name and surname" },
    ]);
  });

  it("renders a rule without message as 'failed rule: <rule>'", async () => {
    assert.deepEqual(await causesOf(create(greeting("shout", { name: "a", shout: "quiet" }))), [
      { reason: "FieldValueInvalid", field: "spec", message: "Invalid value: failed rule: !has(self.shout) || self.shout == self.shout.upperAscii()" },
    ]);
  });

  it("evaluates messageExpression, appends fieldPath and uses the rule's reason; a failing messageExpression falls back", async () => {
    assert.deepEqual(await causesOf(create(greeting("count", { name: "a", count: 12 }))), [
      { reason: "FieldValueForbidden", field: "spec.count", message: "Forbidden: count 12 is not below 10" },
    ]);
    assert.deepEqual(await causesOf(create(greeting("seven", { name: "a", count: 7 }))), [
      { reason: "FieldValueInvalid", field: "spec.count", message: "Invalid value: failed rule: !has(self.count) || self.count != 7" },
    ]);
  });

  it("runs rules on every list item and map value, at their paths", async () => {
    assert.deepEqual(await causesOf(create(greeting("items", { name: "a", tags: ["t-ok", "bad"], limits: { cpu: 1, mem: -1 } }))), [
      { reason: "FieldValueInvalid", field: "spec.tags[1]", message: 'Invalid value: "bad": tags start with t-' },
      { reason: "FieldValueInvalid", field: "spec.limits[mem]", message: "Invalid value: -1: failed rule: self >= 0" },
    ]);
  });

  it("does not store a dry-run create that passes, and refuses one that fails", async () => {
    const dry = await create(greeting("dry", { surname: "Hopper" }), "All");
    assert.equal(dry.spec.surname, "Hopper");
    assert.equal((await raw(cluster.url, "GET", path("greetings", "dry"))).code, 404);
    assert.equal((await causesOf(create(greeting("dry", {}), "All")))[0]!.message, "Invalid value: exactly one of name and surname");
  });

  it("runs transition rules (oldSelf) on update only, with the old value at the same place", async () => {
    await create(greeting("immutable", { name: "a", id: "one", ports: [{ name: "http", port: 80 }] }));
    const live = await api.getNamespacedCustomObject({ group: GROUP, version: "v1", namespace: "default", plural: "greetings", name: "immutable" });
    assert.deepEqual(await causesOf(replace({ ...live, spec: { ...live.spec, id: "two" } })), [
      { reason: "FieldValueInvalid", field: "spec", message: "Invalid value: id is immutable" },
    ]);
    // listType=map items correlate by key: changing the port of "http" fails, adding "https" does not.
    assert.deepEqual(await causesOf(replace({ ...live, spec: { ...live.spec, ports: [{ name: "http", port: 81 }] } })), [
      { reason: "FieldValueInvalid", field: "spec.ports[0]", message: "Invalid value: port is immutable" },
    ]);
    const updated = await replace({ ...live, spec: { ...live.spec, ports: [{ name: "https", port: 443 }, { name: "http", port: 80 }] } });
    assert.equal(updated.spec.ports.length, 2);
  });

  it("runs optionalOldSelf transition rules on create too, with oldSelf an optional", async () => {
    assert.deepEqual(await causesOf(create(greeting("v2", { name: "a", version: "v2" }))), [
      { reason: "FieldValueInvalid", field: "spec.version", message: 'Invalid value: "v2": a new version starts with v1' },
    ]);
    const created = await create(greeting("v1", { name: "a", version: "v1.0" }));
    const updated = await replace({ ...created, spec: { ...created.spec, version: "v2" } });
    assert.equal(updated.spec.version, "v2");
  });

  it("ratchets: an unchanged value failing a rule without oldSelf is a warning on update, a changed one an error", async () => {
    const schema = (rules: unknown[]): unknown => ({
      type: "object",
      properties: { spec: { type: "object", properties: {
        legacy: { type: "string", maxLength: 20, "x-kubernetes-validations": rules },
        other: { type: "string", maxLength: 20 },
      } } },
    });
    assert.equal((await raw(cluster.url, "POST", crdPath, crd("ratchets", "Ratchet", schema([])))).code, 201);
    await waitFor(async () => (await raw(cluster.url, "GET", path("ratchets"))).code === 200 || undefined, "ratchets served");
    const created = await raw(cluster.url, "POST", path("ratchets"), { apiVersion: `${GROUP}/v1`, kind: "Ratchet", metadata: { name: "r" }, spec: { legacy: "old" } });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    // The CRD gains a rule the stored object fails.
    const live = await raw(cluster.url, "GET", `${crdPath}/ratchets.${GROUP}`);
    live.body.spec.versions[0].schema.openAPIV3Schema = schema([{ rule: "self.startsWith('new')", message: "legacy must start with new" }]);
    assert.equal((await raw(cluster.url, "PUT", `${crdPath}/ratchets.${GROUP}`, live.body)).code, 200);
    await waitFor(async () => {
      const res = await raw(cluster.url, "POST", path("ratchets"), { apiVersion: `${GROUP}/v1`, kind: "Ratchet", metadata: { name: "probe" }, spec: { legacy: "old" } }, "application/json", {});
      return res.code === 422 || undefined;
    }, "the new rule in force");
    const stored = await raw(cluster.url, "GET", path("ratchets", "r"));
    const same = await raw(cluster.url, "PUT", path("ratchets", "r"), { ...stored.body, spec: { legacy: "old", other: "changed" } });
    assert.equal(same.code, 200, JSON.stringify(same.body));
    assert.match(same.headers.get("warning") ?? "", /spec\.legacy: Invalid value: \\?"old\\?": legacy must start with new/);
    const changed = await raw(cluster.url, "PUT", path("ratchets", "r"), { ...same.body, spec: { legacy: "older", other: "changed" } });
    assert.equal(changed.code, 422);
    assert.deepEqual(changed.body.details.causes, [{ reason: "FieldValueInvalid", field: "spec.legacy", message: 'Invalid value: "older": legacy must start with new' }]);
  });

  it("validates status rules on status updates", async () => {
    await create(greeting("status", { name: "a" }));
    const live = await raw(cluster.url, "GET", path("greetings", "status"));
    const bad = await raw(cluster.url, "PUT", `${path("greetings", "status")}/status`, { ...live.body, status: { phase: "Exploded" } });
    assert.equal(bad.code, 422, JSON.stringify(bad.body));
    assert.deepEqual(bad.body.details.causes, [{ reason: "FieldValueInvalid", field: "status", message: "Invalid value: unknown phase" }]);
    const good = await raw(cluster.url, "PUT", `${path("greetings", "status")}/status`, { ...live.body, status: { phase: "Ready" } });
    assert.equal(good.code, 200, JSON.stringify(good.body));
  });

  it("stops a rule that iterates too much with kube-apiserver's cost error, without hanging", async () => {
    const values = Array.from({ length: 1000 }, (_, i) => i);
    const causes = await causesOf(create({ apiVersion: `${GROUP}/v1`, kind: "Costly", metadata: { name: "c", namespace: "default" }, spec: { values } }));
    assert.deepEqual(causes, [
      {
        reason: "FieldValueInvalid",
        field: "spec.values",
        message:
          "Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, y >= 0))",
      },
    ]);
    const small = await create({ apiVersion: `${GROUP}/v1`, kind: "Costly", metadata: { name: "small", namespace: "default" }, spec: { values: [1, 2, 3] } });
    assert.deepEqual(small.spec.values, [1, 2, 3]);
  });
});
