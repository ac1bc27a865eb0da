/**
 * The pure parts of LocalCluster's CEL validation: values as CEL sees them, rule field paths,
 * evaluation errors, the request budget, and the cost estimate's wording.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { celRuleCauses } from "../../../src/testing/crd/cel-validate.ts";
import { ruleFieldPath } from "../../../src/testing/crd/cel-field-path.ts";
import { compileCelExpression } from "../../../src/testing/cel/compile.ts";
import { costErrorMessage, estimateCelCost, maxSizeOf } from "../../../src/testing/cel/cost-estimate.ts";

const text = (causes: { field?: string; message?: string }[]): string[] => causes.map((c) => `${c.field}: ${c.message}`);

describe("CEL values of a custom resource", () => {
  it("types integers, numbers and int-or-string per schema, and makes has() see absent fields", () => {
    const schema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: { i: { type: "integer" }, d: { type: "number" }, p: { "x-kubernetes-int-or-string": true }, s: { type: "string" } },
          "x-kubernetes-validations": [
            { rule: "type(self.i) == int && type(self.d) == double", message: "types" },
            { rule: "type(self.p) == int || type(self.p) == string", message: "int-or-string" },
            { rule: "!has(self.s)", message: "s is absent" },
          ],
        },
      },
    };
    assert.deepEqual(celRuleCauses({ spec: { i: 1, d: 1, p: 8080 } }, undefined, schema).causes, []);
    assert.deepEqual(text(celRuleCauses({ spec: { i: 1, d: 1.5, p: "http", s: "x" } }, undefined, schema).causes), ["spec: Invalid value: s is absent"]);
  });

  it("shows only name and generateName of metadata at the resource root", () => {
    const schema = { type: "object", "x-kubernetes-validations": [{ rule: "self.metadata.name == 'a' && !has(self.metadata.labels)", message: "root" }] };
    assert.deepEqual(celRuleCauses({ metadata: { name: "a", labels: { x: "y" } } }, undefined, schema).causes, []);
  });

  it("reports evaluation errors in cel-go's words", () => {
    const schema = { type: "object", properties: { spec: { type: "object", properties: { a: { type: "integer" } }, "x-kubernetes-validations": [{ rule: "self.b == 1" }, { rule: "self.a / 0 == 1" }] } } };
    assert.deepEqual(text(celRuleCauses({ spec: { a: 1 } }, undefined, schema).causes), [
      'spec: Invalid value: "object": no such key: b evaluating rule: self.b == 1',
      'spec: Invalid value: "object": division by zero evaluating rule: self.a / 0 == 1',
    ]);
  });

  it("stops every rule once the request's budget runs out", () => {
    const items = { type: "integer", "x-kubernetes-validations": [{ rule: "[1, 2, 3, 4, 5].all(x, x > 0)" }] };
    const schema = { type: "object", properties: { l: { type: "array", items } } };
    const { causes } = celRuleCauses({ l: [1, 2, 3, 4, 5, 6, 7, 8] }, undefined, schema, { budget: 20 });
    assert.deepEqual(text(causes), ['l[2]: Invalid value: "integer": validation failed due to running out of cost budget, no further validation rules will be run']);
  });
});

describe("updates", () => {
  const item = { type: "string", "x-kubernetes-validations": [{ rule: "self.startsWith('ok')", message: "starts with ok" }] };
  const schema = {
    type: "object",
    properties: {
      set: { type: "array", "x-kubernetes-list-type": "set", items: item },
      atomic: { type: "array", items: item },
      keep: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "immutable" }] },
    },
  };

  it("ratchets unchanged failing values into warnings: a set's unchanged items, an unchanged atomic list", () => {
    const old = { set: ["bad"], atomic: ["bad"], keep: "a" };
    const result = celRuleCauses({ set: ["bad", "worse"], atomic: ["bad"], keep: "a" }, old, schema);
    assert.deepEqual(text(result.causes), ['set[1]: Invalid value: "worse": starts with ok']);
    assert.deepEqual(result.warnings, ['set[0]: Invalid value: "bad": starts with ok', 'atomic[0]: Invalid value: "bad": starts with ok']);
  });

  it("never ratchets a transition rule, and skips it without an old value", () => {
    assert.deepEqual(text(celRuleCauses({ keep: "b" }, { keep: "a" }, schema).causes), ['keep: Invalid value: "b": immutable']);
    assert.deepEqual(celRuleCauses({ keep: "b" }, undefined, schema).causes, []);
    assert.deepEqual(celRuleCauses({ keep: "b" }, { other: 1 }, schema).causes, []);
  });

  it("binds oldSelf as an optional with optionalOldSelf", () => {
    const optional = { type: "object", properties: { v: { type: "string", "x-kubernetes-validations": [{ rule: "oldSelf.orValue('') != '' || self == 'first'", optionalOldSelf: true }] } } };
    assert.deepEqual(text(celRuleCauses({ v: "second" }, undefined, optional).causes), [`v: Invalid value: "second": failed rule: oldSelf.orValue('') != '' || self == 'first'`]);
    assert.deepEqual(celRuleCauses({ v: "second" }, { v: "first" }, optional).causes, []);
  });

  it("expands cel.bind", () => {
    const bound = { type: "object", properties: { n: { type: "integer" } }, "x-kubernetes-validations": [{ rule: "cel.bind(twice, self.n * 2, twice > 2 && twice < 10)" }] };
    assert.deepEqual(celRuleCauses({ n: 2 }, undefined, bound).causes, []);
    assert.equal(celRuleCauses({ n: 9 }, undefined, bound).causes.length, 1);
  });
});

describe("rule fieldPath", () => {
  const schema = { type: "object", properties: { spec: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } } } } };
  it("follows properties and map keys, quoted or not", () => {
    assert.deepEqual(ruleFieldPath(".spec.labels['a.b']", schema), { path: "spec.labels[a.b]" });
    assert.deepEqual(ruleFieldPath(".spec.labels.x", schema), { path: "spec.labels[x]" });
    assert.deepEqual(ruleFieldPath(".spec.nope", schema), { error: "does not refer to a valid field" });
    assert.deepEqual(ruleFieldPath("spec", schema), { error: "expected [ or . but got: spec" });
  });
});

describe("estimated cost", () => {
  it("bounds lists and strings by maxItems/maxLength, else by the largest request", () => {
    assert.equal(maxSizeOf({ type: "array", maxItems: 7, items: { type: "string" } }), 7);
    assert.equal(maxSizeOf({ type: "string" }), 3 * 1024 * 1024 - 2);
    const bounded = { type: "array", maxItems: 10, items: { type: "string", maxLength: 10 } };
    const unbounded = { type: "array", items: { type: "string" } };
    const rule = compileCelExpression("self.all(x, x.matches('^a'))").ast!;
    assert.ok(estimateCelCost(rule, bounded) < 100);
    assert.ok(estimateCelCost(rule, unbounded) > 10_000_000);
  });

  it("words the factor as kube-apiserver does", () => {
    const hint = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert.equal(costErrorMessage("estimated rule cost", 12_000_000, 10_000_000), `estimated rule cost exceeds budget by factor of 1.200000x ${hint}`);
    assert.equal(costErrorMessage("estimated rule cost", 25_000_000, 10_000_000), `estimated rule cost exceeds budget by factor of 2.5x ${hint}`);
    assert.equal(costErrorMessage("estimated rule cost", 2e9, 10_000_000), `estimated rule cost exceeds budget by factor of more than 100x ${hint}`);
  });
});
