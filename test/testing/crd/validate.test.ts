import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { prepareCustomResource, validateAgainstSchema } from "../../../src/testing/crd/schema.ts";
import type { JsonSchema } from "../../../src/testing/crd/schema.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";
import { StatusError } from "../../../src/testing/status.ts";
import { FIXTURES, causesOf, fixture, storageSchema } from "./fixtures.ts";

const podMonitorSchema = storageSchema(fixture(FIXTURES.podMonitors));
const ctx = { kind: "PodMonitor", group: "monitoring.coreos.com", name: "web" };

/** A valid PodMonitor whose spec is extended with `spec`. */
function podMonitor(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: "monitoring.coreos.com/v1", kind: "PodMonitor", metadata: { name: "web" }, spec: { selector: {}, ...spec } };
}

/** `field: message` of each cause of the 422 that preparing `obj` throws. */
function rejected(obj: KubeObject, schema: JsonSchema = podMonitorSchema): string[] {
  return causesOf(() => prepareCustomResource(obj, schema, ctx)).map((c) => `${c.field}: ${c.message}`);
}

const spec = (properties: JsonSchema, required: string[] = []): JsonSchema => ({
  type: "object",
  properties: { spec: { type: "object", properties, required } },
});

describe("validateAgainstSchema through prepareCustomResource", () => {
  it("accepts the real pinot-basic CR against the Pinot schema", () => {
    const schema = storageSchema(fixture(FIXTURES.pinots));
    const cr = fixture(FIXTURES.pinotBasic);
    const { object, prunedFields } = prepareCustomResource(cr, schema, { kind: "Pinot", group: "datainfra.io", name: "pinot-simple" });
    assert.deepEqual(prunedFields, []);
    assert.deepEqual(object, cr, "the Pinot schema has no defaults, so nothing is added either");
  });

  it("rejects a value of the wrong type with the apiserver's message", () => {
    const schema = spec({ size: { type: "integer" } });
    let thrown: unknown;
    try {
      prepareCustomResource({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { size: "big" } }, schema, {
        kind: "Widget",
        group: "example.com",
        name: "w",
      });
    } catch (err) {
      thrown = err;
    }
    assert.ok(thrown instanceof StatusError);
    assert.equal(thrown.code, 422);
    assert.equal(
      thrown.message,
      'Widget.example.com "w" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    );
    assert.deepEqual(thrown.details?.causes, [
      {
        reason: "FieldValueTypeInvalid",
        field: "spec.size",
        message: 'Invalid value: "string": spec.size in body must be of type integer: "string"',
      },
    ]);
  });

  it("requires the fields a schema lists as required", () => {
    const pm = podMonitor({});
    delete (pm["spec"] as Record<string, unknown>)["selector"];
    assert.deepEqual(rejected(pm), ["spec.selector: Required value"]);
    assert.deepEqual(rejected({ apiVersion: "monitoring.coreos.com/v1", kind: "PodMonitor", metadata: { name: "web" } }), ["spec: Required value"]);
  });

  it("rejects a value outside an enum, listing the supported values", () => {
    assert.deepEqual(rejected(podMonitor({ selectorMechanism: "Magic" })), [
      'spec.selectorMechanism: Unsupported value: "Magic": supported values: "RelabelConfig", "RoleSelector"',
    ]);
  });

  it("rejects a string that does not match the pattern, with the field path inside a list", () => {
    const pattern = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$";
    assert.deepEqual(rejected(podMonitor({ podMetricsEndpoints: [{ port: "m", interval: "30s" }, { interval: "half a minute" }] })), [
      `spec.podMetricsEndpoints[1].interval: Invalid value: "half a minute": spec.podMetricsEndpoints[1].interval in body should match '${pattern}'`,
    ]);
  });

  it("enforces minimum and maximum", () => {
    assert.deepEqual(rejected(podMonitor({ podMetricsEndpoints: [{ portNumber: 0 }, { portNumber: 70000 }], targetLimit: -1 })), [
      "spec.podMetricsEndpoints[0].portNumber: Invalid value: 0: spec.podMetricsEndpoints[0].portNumber in body should be greater than or equal to 1",
      "spec.podMetricsEndpoints[1].portNumber: Invalid value: 70000: spec.podMetricsEndpoints[1].portNumber in body should be less than or equal to 65535",
      "spec.targetLimit: Invalid value: -1: spec.targetLimit in body should be greater than or equal to 0",
    ]);
  });

  it("enforces exclusive bounds and multipleOf", () => {
    const schema = spec({
      ratio: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
      step: { type: "integer", multipleOf: 5 },
    });
    assert.deepEqual(rejected({ spec: { ratio: 1, step: 7 } }, schema), [
      "spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1",
      "spec.step: Invalid value: 7: spec.step in body should be a multiple of 5",
    ]);
    assert.deepEqual(validateAgainstSchema({ spec: { ratio: 0.5, step: 10 } }, schema), []);
  });

  it("enforces string lengths, item counts and property counts", () => {
    const schema = spec({
      name: { type: "string", minLength: 2, maxLength: 5 },
      short: { type: "string", minLength: 2 },
      tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
      more: { type: "array", items: { type: "string" }, minItems: 1 },
      labels: { type: "object", additionalProperties: { type: "string" }, minProperties: 1, maxProperties: 1 },
      none: { type: "object", additionalProperties: { type: "string" }, minProperties: 1 },
    });
    assert.deepEqual(
      rejected({ spec: { name: "toolong", short: "a", tags: ["a", "b", "c"], more: [], labels: { a: "1", b: "2" }, none: {} } }, schema),
      [
        // Sorted by field path, as kube-apiserver reports them.
        "spec.labels: Too many: 2: must have at most 1 item",
        "spec.more: Invalid value: 0: spec.more in body should have at least 1 items",
        "spec.name: Too long: may not be more than 5 bytes",
        "spec.none: Invalid value: 0: spec.none in body should have at least 1 properties",
        'spec.short: Invalid value: "a": spec.short in body should be at least 2 chars long',
        "spec.tags: Too many: 3: must have at most 2 items",
      ],
    );
  });

  it("accepts both an integer and a string for x-kubernetes-int-or-string, and nothing else", () => {
    for (const targetPort of [8080, "metrics"]) {
      assert.doesNotThrow(() => prepareCustomResource(podMonitor({ podMetricsEndpoints: [{ targetPort }] }), podMonitorSchema, ctx));
    }
    const causes = rejected(podMonitor({ podMetricsEndpoints: [{ targetPort: true }] }));
    assert.equal(
      causes[0],
      'spec.podMetricsEndpoints[0].targetPort: Invalid value: "boolean": spec.podMetricsEndpoints[0].targetPort in body must be of type integer,string: "boolean"',
    );
  });

  it("checks the pattern of an int-or-string only when it is a string", () => {
    const pattern = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";
    assert.doesNotThrow(() => prepareCustomResource(podMonitor({ nativeHistogramMinBucketFactor: 2 }), podMonitorSchema, ctx));
    assert.doesNotThrow(() => prepareCustomResource(podMonitor({ nativeHistogramMinBucketFactor: "1.5" }), podMonitorSchema, ctx));
    assert.deepEqual(rejected(podMonitor({ nativeHistogramMinBucketFactor: "lots" })), [
      `spec.nativeHistogramMinBucketFactor: Invalid value: "lots": spec.nativeHistogramMinBucketFactor in body should match '${pattern}'`,
    ]);
  });

  it("reports duplicates in x-kubernetes-list-type set and map lists", () => {
    assert.deepEqual(rejected(podMonitor({ scrapeProtocols: ["PrometheusProto", "OpenMetricsText1.0.0", "PrometheusProto"] })), [
      'spec.scrapeProtocols[2]: Duplicate value: "PrometheusProto"',
    ]);
    const rules = {
      apiVersion: "monitoring.coreos.com/v1",
      kind: "PrometheusRule",
      metadata: { name: "r" },
      spec: { groups: [{ name: "a", rules: [] }, { name: "b" }, { name: "a" }] },
    };
    assert.deepEqual(rejected(rules, storageSchema(fixture(FIXTURES.prometheusRules))), ['spec.groups[2]: Duplicate value: {"name":"a"}']);
  });

  it("checks basic string formats", () => {
    const schema = spec({ at: { type: "string", format: "date-time" }, ip: { type: "string", format: "ipv4" }, pw: { type: "string", format: "password" } });
    assert.deepEqual(validateAgainstSchema({ spec: { at: "2025-01-02T03:04:05Z", ip: "10.0.0.1", pw: "x" } }, schema), []);
    assert.deepEqual(rejected({ spec: { at: "yesterday", ip: "10.0.0.300" } }, schema), [
      'spec.at: Invalid value: "yesterday": spec.at in body must be of type date-time: "yesterday"',
      'spec.ip: Invalid value: "10.0.0.300": spec.ip in body must be of type ipv4: "10.0.0.300"',
    ]);
  });

  it("accepts null only where the schema is nullable", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { spec: { type: "object", properties: { maybe: { type: "string", nullable: true } } }, list: { type: "array", items: { type: "string" } } },
    };
    assert.deepEqual(validateAgainstSchema({ spec: { maybe: null }, list: ["a", null] }, schema), [
      { reason: "FieldValueTypeInvalid", field: "list[1]", message: 'Invalid value: "null": list[1] in body must be of type string: "null"' },
    ]);
  });

  it("supports allOf, anyOf, oneOf and not", () => {
    const schema = spec({
      either: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, anyOf: [{ required: ["a"] }, { required: ["b"] }] },
      exactly: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, oneOf: [{ required: ["a"] }, { required: ["b"] }] },
      both: { type: "integer", allOf: [{ minimum: 1 }, { maximum: 3 }] },
      never: { type: "string", not: { enum: ["forbidden"] } },
    });
    assert.deepEqual(validateAgainstSchema({ spec: { either: { b: "x" }, exactly: { a: "x" }, both: 2, never: "ok" } }, schema), []);
    assert.deepEqual(rejected({ spec: { either: {}, exactly: { a: "x", b: "y" }, both: 5, never: "forbidden" } }, schema), [
      'spec.both: Invalid value: "": spec.both in body must validate all the schemas (allOf)',
      "spec.both: Invalid value: 5: spec.both in body should be less than or equal to 3",
      'spec.either: Invalid value: "": spec.either in body must validate at least one schema (anyOf)',
      "spec.either.a: Required value",
      'spec.exactly: Invalid value: "": spec.exactly in body must validate one and only one schema (oneOf)',
      'spec.never: Invalid value: "": spec.never in body must not validate the schema (not)',
    ]);
  });

  it("requires apiVersion and kind in an embedded resource", () => {
    const schema = spec({ template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true } });
    assert.deepEqual(rejected({ spec: { template: { metadata: {} } } }, schema), [
      "spec.template.apiVersion: Required value: must not be empty",
      "spec.template.kind: Required value: must not be empty",
    ]);
  });

  it("skips x-kubernetes-validations (CEL) rules instead of failing them", () => {
    const schema = spec({ size: { type: "integer", "x-kubernetes-validations": [{ rule: "self > 100", message: "too small" }] } });
    assert.deepEqual(validateAgainstSchema({ spec: { size: 1 } }, schema), []);
  });

  it("reports every violation of an object at once, in the order of its fields", () => {
    const causes = causesOf(() =>
      prepareCustomResource(podMonitor({ scrapeClass: "", selectorMechanism: "x", targetLimit: "many" }), podMonitorSchema, ctx),
    );
    assert.deepEqual(
      causes.map((c) => [c.field, c.reason]),
      [
        ["spec.scrapeClass", "FieldValueInvalid"],
        ["spec.selectorMechanism", "FieldValueNotSupported"],
        ["spec.targetLimit", "FieldValueTypeInvalid"],
      ],
    );
  });
});
