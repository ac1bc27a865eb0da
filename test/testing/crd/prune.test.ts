import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pruneUnknownFields, unknownFieldMessage } from "../../../src/testing/crd/schema.ts";
import type { JsonSchema } from "../../../src/testing/crd/schema.ts";
import { FIXTURES, fixture, storageSchema } from "./fixtures.ts";

const spec = (properties: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  properties: { spec: { type: "object", properties, ...extra } },
});

describe("pruneUnknownFields", () => {
  it("keeps every field of the real pinot-basic CR: the Pinot schema declares all of them", () => {
    const schema = storageSchema(fixture(FIXTURES.pinots));
    // No subtree of the Pinot schema preserves unknown fields, so nothing survives by being preserved:
    // each field of the CR is declared somewhere in the schema.
    assert.equal(JSON.stringify(schema).includes("x-kubernetes-preserve-unknown-fields"), false);
    const cr = fixture(FIXTURES.pinotBasic);
    const { object, prunedFields } = pruneUnknownFields(cr, schema);
    assert.deepEqual(prunedFields, []);
    assert.deepEqual(object, cr);
  });

  it("drops an unknown field of a PodMonitor, at the top of spec and inside a list element, and reports both", () => {
    const schema = storageSchema(fixture(FIXTURES.podMonitors));
    const pm = {
      apiVersion: "monitoring.coreos.com/v1",
      kind: "PodMonitor",
      metadata: { name: "web", namespace: "default", labels: { team: "a" } },
      spec: {
        selector: { matchLabels: { app: "web" } },
        typo: true,
        podMetricsEndpoints: [{ port: "metrics", interval: "30s", colour: "blue" }],
      },
    };
    const { object, prunedFields } = pruneUnknownFields(pm, schema);
    assert.deepEqual(prunedFields, ["spec.typo", "spec.podMetricsEndpoints[0].colour"]);
    assert.deepEqual(object, {
      apiVersion: "monitoring.coreos.com/v1",
      kind: "PodMonitor",
      metadata: { name: "web", namespace: "default", labels: { team: "a" } },
      spec: { selector: { matchLabels: { app: "web" } }, podMetricsEndpoints: [{ port: "metrics", interval: "30s" }] },
    });
    assert.equal((pm.spec as Record<string, unknown>)["typo"], true, "the input is not modified");
  });

  it("keeps apiVersion, kind and all of metadata at the root even when the schema does not declare them", () => {
    // Not a fresh literal: ObjectMeta has no key "anything", but a client may send one.
    const input = { apiVersion: "x.io/v1", kind: "X", metadata: { name: "a", anything: 1 }, other: 1 };
    const { object, prunedFields } = pruneUnknownFields(input, { type: "object" });
    assert.deepEqual(object, { apiVersion: "x.io/v1", kind: "X", metadata: { name: "a", anything: 1 } });
    assert.deepEqual(prunedFields, ["other"]);
  });

  it("keeps a subtree marked x-kubernetes-preserve-unknown-fields, but still prunes inside its declared properties", () => {
    const schema = spec({
      config: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        properties: { strict: { type: "object", properties: { a: { type: "string" } } } },
      },
      raw: { "x-kubernetes-preserve-unknown-fields": true },
    });
    const { object, prunedFields } = pruneUnknownFields(
      { spec: { config: { free: { deep: [1, { x: 2 }] }, strict: { a: "1", b: 2 } }, raw: [{ any: "thing" }] } },
      schema,
    );
    assert.deepEqual(object, { spec: { config: { free: { deep: [1, { x: 2 }] }, strict: { a: "1" } }, raw: [{ any: "thing" }] } });
    assert.deepEqual(prunedFields, ["spec.config.strict.b"]);
  });

  it("prunes map values with an additionalProperties schema and keeps them with additionalProperties: true", () => {
    const schema = spec({
      byName: { type: "object", additionalProperties: { type: "object", properties: { port: { type: "integer" } } } },
      labels: { type: "object", additionalProperties: true },
    });
    const { object, prunedFields } = pruneUnknownFields(
      { spec: { byName: { web: { port: 80, extra: 1 } }, labels: { a: "1", b: { c: 2 } } } },
      schema,
    );
    assert.deepEqual(object, { spec: { byName: { web: { port: 80 } }, labels: { a: "1", b: { c: 2 } } } });
    assert.deepEqual(prunedFields, ["spec.byName.web.extra"]);
  });

  it("keeps apiVersion, kind and metadata of an x-kubernetes-embedded-resource object", () => {
    const schema = spec({
      template: {
        type: "object",
        "x-kubernetes-embedded-resource": true,
        properties: { spec: { type: "object", properties: { replicas: { type: "integer" } } } },
      },
    });
    const template = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", labels: { a: "b" } }, spec: { replicas: 1, x: 1 }, y: 2 };
    const { object, prunedFields } = pruneUnknownFields({ spec: { template } }, schema);
    assert.deepEqual(object, {
      spec: { template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p", labels: { a: "b" } }, spec: { replicas: 1 } } },
    });
    assert.deepEqual(prunedFields, ["spec.template.spec.x", "spec.template.y"]);
  });

  it("leaves x-kubernetes-int-or-string values alone, whether int or string", () => {
    const schema = spec({ port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] } });
    assert.deepEqual(pruneUnknownFields({ spec: { port: 8080 } }, schema).object, { spec: { port: 8080 } });
    assert.deepEqual(pruneUnknownFields({ spec: { port: "http" } }, schema).object, { spec: { port: "http" } });
  });

  it("drops every member of an object whose schema declares none, like a bare status: {type: object}", () => {
    const schema = storageSchema(fixture(FIXTURES.pinots));
    const cr = { ...fixture(FIXTURES.pinotBasic), status: { phase: "Ready" } };
    assert.deepEqual(pruneUnknownFields(cr, schema).prunedFields, ["status.phase"]);
  });

  it("names a pruned field the way fieldValidation warnings do", () => {
    assert.equal(unknownFieldMessage("spec.x"), 'unknown field "spec.x"');
  });
});

describe("pruneUnknownFields with hostile keys", () => {
  it("treats a __proto__ key as data: pruned when unknown, kept as an own member when preserved", () => {
    const body = JSON.parse('{"spec":{"__proto__":{"polluted":true},"free":{"__proto__":{"x":1}}}}');
    const schema: JsonSchema = spec({ free: { type: "object", "x-kubernetes-preserve-unknown-fields": true } });
    const { object, prunedFields } = pruneUnknownFields(body, schema);
    assert.deepEqual(prunedFields, ["spec.__proto__"]);
    const free = (object["spec"] as Record<string, Record<string, unknown>>)["free"]!;
    assert.deepEqual(Object.keys(free), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(free), Object.prototype);
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
  });
});
