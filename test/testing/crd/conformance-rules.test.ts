/**
 * The apiserver rules added for kube-apiserver 1.36 parity: structural-schema invariants, scale
 * subresource accessor errors, the CEL not-checked cause and kube-openapi's string validator.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { structuralCauses } from "../../../src/testing/crd/structural.ts";
import { celNotCheckedCause, customResourceCauses, schemaHasCelRules, scaleCauses, validateAgainstSchema } from "../../../src/testing/crd/schema.ts";
import { prepareCustomResource } from "../../../src/testing/crd/schema.ts";
import { requiredValue, invalidValue } from "../../../src/testing/status.ts";

const text = (causes: Array<{ field?: string; message?: string }>): string[] => causes.map((c) => `${c.field}: ${c.message}`);
const P = "spec.validation.openAPIV3Schema";

describe("structuralCauses", () => {
  it("requires a type per level, items for arrays and string kind/apiVersion, sorted by text", () => {
    const schema = {
      type: "object",
      properties: {
        kind: { type: "integer" },
        spec: { properties: { list: { type: "array" }, port: { "x-kubernetes-int-or-string": true } } },
        any: { "x-kubernetes-preserve-unknown-fields": true },
        tags: { type: "array", items: {} },
      },
    };
    assert.deepEqual(text(structuralCauses(schema, P)), [
      `${P}.properties[any].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[kind].type: Invalid value: "integer": must be string`,
      `${P}.properties[spec].properties[list].items: Required value: must be specified`,
      `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${P}.properties[tags].items.type: Required value: must not be empty for specified array items`,
    ]);
  });

  it("checks the root type, a root metadata schema and embedded resources", () => {
    assert.deepEqual(text(structuralCauses({ type: "string" }, P)), [`${P}.type: Invalid value: "string": must be object at the root`]);
    assert.deepEqual(text(structuralCauses({ properties: {} }, P)), [`${P}.type: Required value: must not be empty at the root`]);
    assert.deepEqual(text(structuralCauses({ type: "object", properties: { metadata: { type: "object", properties: { name: { type: "string" } } } } }, P)), []);
    assert.deepEqual(text(structuralCauses({ type: "object", properties: { metadata: { type: "object", properties: { labels: { type: "object" } } } } }, P)), [
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
    assert.deepEqual(text(structuralCauses({ type: "object", properties: { e: { type: "object", "x-kubernetes-embedded-resource": true } } }, P)), [
      `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ]);
  });
});

describe("scaleCauses", () => {
  const scale = { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" };
  it("reports Go accessor errors on the CRD's JSON paths", () => {
    assert.deepEqual(text(scaleCauses({ spec: { replicas: "three" } }, scale)), [
      ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64",
    ]);
    assert.deepEqual(text(scaleCauses({ spec: { replicas: 1.5 }, status: { replicas: -1, selector: 3 } }, scale)), [
      ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64",
      ".status.replicas: Invalid value: -1: should be a non-negative integer",
      '.status.selector: Invalid value: "": .status.selector accessor error: 3 is of the type int64, expected string',
    ]);
    assert.deepEqual(scaleCauses({ spec: { replicas: 3 } }, scale), []);
  });
});

describe("CEL not-checked cause", () => {
  it("is added only for blocking reasons and only when the schema has rules", () => {
    assert.equal(celNotCheckedCause([invalidValue("spec.x", 1, "too big")]), undefined);
    assert.equal(celNotCheckedCause([requiredValue("spec.x")])?.field, "<nil>");
    const rules = { type: "object", properties: { spec: { type: "object", required: ["a"], "x-kubernetes-validations": [{ rule: "true" }] } } };
    assert.equal(schemaHasCelRules(rules), true);
    assert.deepEqual(text(customResourceCauses({ spec: {} }, rules)), [
      "spec.a: Required value",
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    const plain = { type: "object", properties: { spec: { type: "object", required: ["a"] } } };
    assert.deepEqual(text(customResourceCauses({ spec: {} }, plain)), ["spec.a: Required value"]);
  });
});

describe("string validation like kube-openapi", () => {
  it("reports only the first failing of maxLength, minLength, pattern", () => {
    const schema = { type: "object", properties: { n: { type: "string", maxLength: 5, pattern: "^[a-z]+$" } } };
    assert.deepEqual(text(validateAgainstSchema({ n: "TooLongName" }, schema)), ["n: Too long: may not be more than 5 bytes"]);
    assert.deepEqual(text(validateAgainstSchema({ n: "ABC" }, schema)), [`n: Invalid value: "ABC": n in body should match '^[a-z]+$'`]);
  });
});

describe("genericSchemaCauses", () => {
  it("forbids uniqueItems, $ref, properties with additionalProperties and preserve-unknown-fields false", async () => {
    const { genericSchemaCauses } = await import("../../../src/testing/crd/structural.ts");
    const schema = {
      type: "object",
      properties: {
        a: { type: "array", uniqueItems: true, items: { type: "string" } },
        b: { type: "object", properties: { x: { type: "string" } }, additionalProperties: { type: "string" } },
        c: { type: "object", "x-kubernetes-preserve-unknown-fields": false },
      },
    };
    assert.deepEqual(text(genericSchemaCauses(schema, P)), [
      `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${P}.properties[b].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${P}.properties[c].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ]);
  });

  it("refuses a pattern Go's regexp (RE2) cannot compile: lookahead, backreferences, a bare repetition", async () => {
    const { genericSchemaCauses } = await import("../../../src/testing/crd/structural.ts");
    const schema = { type: "object", properties: {
      a: { type: "string", pattern: "+" }, b: { type: "string", pattern: "^(?=a)b$" }, c: { type: "string", pattern: "(a)\\1" }, d: { type: "string", pattern: "^[a-z]+$" },
    } };
    const causes = text(genericSchemaCauses(schema, P));
    assert.equal(causes.length, 3);
    assert.equal(causes[0], `${P}.properties[a].pattern: Invalid value: "+": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: \`+\``);
    assert.match(causes[1]!, /properties\[b\]\.pattern: Invalid value: .*must be a valid regular expression, but isn't: error parsing regexp: /);
    assert.match(causes[2]!, /properties\[c\]\.pattern: .*error parsing regexp: invalid escape sequence/);
  });
});
