import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyDefaults, prepareCustomResource } from "../../../src/testing/crd/schema.ts";
import type { JsonSchema } from "../../../src/testing/crd/schema.ts";
import { FIXTURES, fixture, storageSchema } from "./fixtures.ts";

const spec = (properties: JsonSchema): JsonSchema => ({
  type: "object",
  properties: { spec: { type: "object", properties } },
});

describe("applyDefaults", () => {
  it("gives a PodMonitor relabeling its default action and a secret reference its default name, after pruning an unknown field", () => {
    const schema = storageSchema(fixture(FIXTURES.podMonitors));
    const pm = {
      apiVersion: "monitoring.coreos.com/v1",
      kind: "PodMonitor",
      metadata: { name: "web" },
      spec: {
        selector: {},
        unknownKnob: 1,
        podMetricsEndpoints: [
          {
            port: "metrics",
            relabelings: [{ sourceLabels: ["__meta_pod_name"], targetLabel: "pod" }, { action: "drop", regex: "x" }],
            basicAuth: { username: { key: "user" } },
          },
        ],
      },
    };
    const { object, prunedFields } = prepareCustomResource(pm, schema, { kind: "PodMonitor", group: "monitoring.coreos.com", name: "web" });
    assert.deepEqual(prunedFields, ["spec.unknownKnob"]);
    const endpoint = (object["spec"] as any).podMetricsEndpoints[0];
    assert.deepEqual(
      endpoint.relabelings.map((r: any) => r.action),
      ["replace", "drop"],
    );
    assert.deepEqual(endpoint.basicAuth.username, { key: "user", name: "" });
    assert.equal((object["spec"] as any).unknownKnob, undefined);
  });

  it("applies a parent's default before defaulting its children", () => {
    const schema = spec({
      resources: {
        type: "object",
        default: {},
        properties: { cpu: { type: "string", default: "100m" }, memory: { type: "string", default: "128Mi" } },
      },
    });
    assert.deepEqual(applyDefaults({ spec: {} }, schema), { spec: { resources: { cpu: "100m", memory: "128Mi" } } });
    assert.deepEqual(applyDefaults({ spec: { resources: { cpu: "1" } } }, schema), { spec: { resources: { cpu: "1", memory: "128Mi" } } });
  });

  it("defaults inside array items and additionalProperties values", () => {
    const schema = spec({
      ports: { type: "array", items: { type: "object", properties: { protocol: { type: "string", default: "TCP" } } } },
      volumes: { type: "object", additionalProperties: { type: "object", properties: { size: { type: "string", default: "1Gi" } } } },
    });
    assert.deepEqual(applyDefaults({ spec: { ports: [{}, { protocol: "UDP" }], volumes: { data: {}, logs: { size: "5Gi" } } } }, schema), {
      spec: { ports: [{ protocol: "TCP" }, { protocol: "UDP" }], volumes: { data: { size: "1Gi" }, logs: { size: "5Gi" } } },
    });
  });

  it("never replaces a value that is present, but treats null in a non-nullable field as missing", () => {
    const schema = spec({
      mode: { type: "string", default: "auto" },
      note: { type: "string" },
      hint: { type: "string", nullable: true, default: "x" },
      size: { type: "integer", default: 3 },
    });
    assert.deepEqual(applyDefaults({ spec: { mode: null, note: null, hint: null, size: 0 } }, schema), {
      spec: { mode: "auto", hint: null, size: 0 },
    });
  });

  it("does not default a missing parent that has no default of its own, and leaves the input alone", () => {
    const schema = spec({ nested: { type: "object", properties: { a: { type: "string", default: "x" } } } });
    const input = { spec: {} };
    assert.deepEqual(applyDefaults(input, schema), { spec: {} });
    assert.deepEqual(input, { spec: {} });
  });

  it("copies default values, so objects never share them", () => {
    const schema = spec({ tags: { type: "array", items: { type: "string" }, default: ["a"] } });
    const one = applyDefaults({ spec: {} }, schema) as any;
    one.spec.tags.push("b");
    assert.deepEqual(applyDefaults({ spec: {} }, schema), { spec: { tags: ["a"] } });
  });
});
