/**
 * A CRD's CEL validation rules are checked when the CRD is written, as kube-apiserver checks
 * them: rule fields, compilation (a function LocalCluster lacks is an error naming it, never a
 * silently passing rule; `cel.bind` works, the two-variable comprehensions are refused),
 * `oldSelf` placement, `optionalOldSelf`, and the estimated cost.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, ApiextensionsV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { raw, within } from "../../support/wait.ts";

const GROUP = "celcrd.example.com";
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const AT = "spec.validation.openAPIV3Schema";

function crd(spec: unknown): any {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `things.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural: "things", singular: "thing", kind: "Thing", listKind: "ThingList" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec } } } }],
    },
  };
}

/** A spec schema with the given rules on it. */
function withRules(rules: unknown[], properties: Record<string, unknown> = { a: { type: "string", maxLength: 10 } }): unknown {
  return { type: "object", properties, "x-kubernetes-validations": rules };
}

describe("LocalCluster checks CEL rules when a CRD is written", () => {
  let cluster: LocalCluster;
  let ext: ApiextensionsV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** The causes of a refused CRD create (raw JSON: client-node's serializer drops `enum`/`default`). */
  async function refused(spec: unknown): Promise<{ field?: string; reason?: string; message?: string }[]> {
    const res = await raw(cluster.url, "POST", crdPath, crd(spec));
    assert.equal(res.code, 422, JSON.stringify(res.body));
    assert.equal(res.body.reason, "Invalid");
    return res.body.details.causes;
  }

  it("accepts a CRD whose rules compile, through client-node", async () => {
    const body = crd(withRules([{ rule: "self.a.startsWith('x')", message: "a starts with x" }]));
    const created = await ext.createCustomResourceDefinition({ body });
    assert.equal(created.metadata?.name, `things.${GROUP}`);
    await ext.deleteCustomResourceDefinition({ name: `things.${GROUP}` });
  });

  it("refuses a rule that does not parse, naming the rule's field, with kube-apiserver's value and prefix", async () => {
    const causes = await refused(withRules([{ rule: "self.a +" }]));
    assert.equal(causes.length, 1);
    assert.equal(causes[0]!.field, `${AT}.properties[spec].x-kubernetes-validations[0].rule`);
    assert.equal(causes[0]!.reason, "FieldValueInvalid");
    assert.match(
      causes[0]!.message!,
      /^Invalid value: apiextensions\.ValidationRule\{Rule:"self\.a \+", Message:"", MessageExpression:"", Reason:\(\*apiextensions\.FieldValueErrorReason\)\(nil\), FieldPath:"", OptionalOldSelf:\(\*bool\)\(nil\)\}: compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    );
  });

  it("refuses an unknown function or variable, and a Kubernetes function LocalCluster does not implement says so", async () => {
    const causes = await refused(
      withRules([
        { rule: "noSuchFunction(self.a)" },
        { rule: "other == 1" },
        { rule: "self.a.transformList(i, v, v) == []" },
        { rule: "[1].all(i, v, v > 0)" },
        { rule: "cel.bind(x, self.a, x == 'y')" },
      ]),
    );
    assert.deepEqual(causes.map((c) => c.field), [0, 1, 2, 3].map((i) => `${AT}.properties[spec].x-kubernetes-validations[${i}].rule`));
    assert.match(causes[0]!.message!, /compilation failed: ERROR: <input>:1:\d+: undeclared reference to 'noSuchFunction' \(in container ''\)$/);
    assert.match(causes[1]!.message!, /undeclared reference to 'other' \(in container ''\)$/);
    assert.match(causes[2]!.message!, /LocalCluster does not implement the Kubernetes CEL function transformList/);
    assert.match(causes[3]!.message!, /LocalCluster does not implement the two-variable form of all\(\)/);
  });

  it("checks message, messageExpression, reason and fieldPath like kube-apiserver", async () => {
    const causes = await refused(
      withRules([
        { rule: "true", message: " " },
        { rule: "true", messageExpression: " " },
        { rule: "true", reason: "FieldValueWrong" },
        { rule: "true", fieldPath: ".nope" },
        { rule: "true\n&& true" },
      ]),
    );
    const base = `${AT}.properties[spec].x-kubernetes-validations`;
    assert.deepEqual(causes, [
      { reason: "FieldValueInvalid", field: `${base}[0].message`, message: 'Invalid value: " ": message must be non-empty if specified' },
      { reason: "FieldValueRequired", field: `${base}[1].messageExpression`, message: "Required value: messageExpression must be non-empty if specified" },
      {
        reason: "FieldValueNotSupported",
        field: `${base}[2].reason`,
        message: 'Unsupported value: "FieldValueWrong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      },
      { reason: "FieldValueInvalid", field: `${base}[3].fieldPath`, message: 'Invalid value: ".nope": fieldPath must be a valid path' },
      { reason: "FieldValueRequired", field: `${base}[4].message`, message: "Required value: message must be specified if rule contains line breaks" },
    ]);
  });

  it("refuses a messageExpression that does not compile", async () => {
    const causes = await refused(withRules([{ rule: "true", messageExpression: "'a' +" }]));
    assert.equal(causes[0]!.field, `${AT}.properties[spec].x-kubernetes-validations[0].messageExpression`);
    assert.match(causes[0]!.message!, /: messageExpression compilation failed: ERROR: /);
  });

  it("allows oldSelf only where old and new values correlate, and optionalOldSelf only on transition rules", async () => {
    const causes = await refused({
      type: "object",
      properties: {
        list: { type: "array", maxItems: 5, items: { type: "string", maxLength: 5, "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } },
        plain: { type: "string", maxLength: 5, "x-kubernetes-validations": [{ rule: "self != 'x'", optionalOldSelf: true }] },
      },
    });
    assert.deepEqual(causes, [
      {
        reason: "FieldValueInvalid",
        field: `${AT}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule`,
        message: `Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${AT}.properties[spec].properties[list]`,
      },
      {
        reason: "FieldValueInvalid",
        field: `${AT}.properties[spec].properties[plain].x-kubernetes-validations[0].optionalOldSelf`,
        message: "Invalid value: true: may not be set if oldSelf is not used in rule",
      },
    ]);
  });

  it("accepts optionalOldSelf on a transition rule", async () => {
    const res = await raw(cluster.url, "POST", crdPath, crd(withRules([{ rule: "!oldSelf.hasValue() || self.a == oldSelf.value().a", optionalOldSelf: true }])));
    assert.equal(res.code, 201, JSON.stringify(res.body));
    await ext.deleteCustomResourceDefinition({ name: `things.${GROUP}` });
  });

  it("refuses a rule whose estimated cost exceeds the per-rule and the whole-schema budgets, with the maxItems/maxLength hint", async () => {
    const causes = await refused({
      type: "object",
      properties: {
        names: { type: "array", items: { type: "string" }, "x-kubernetes-validations": [{ rule: "self.all(x, self.exists(y, x.matches(y)))" }] },
      },
    });
    const rulePath = `${AT}.properties[spec].properties[names].x-kubernetes-validations[0].rule`;
    const hint = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert.deepEqual(causes, [
      { reason: "FieldValueForbidden", field: rulePath, message: `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}` },
      { reason: "FieldValueForbidden", field: rulePath, message: "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema" },
      {
        reason: "FieldValueForbidden",
        field: AT,
        message: `Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
      },
    ]);
    // The same rule with bounds is accepted.
    const bounded = await raw(cluster.url, "POST", crdPath, crd({
      type: "object",
      properties: {
        names: { type: "array", maxItems: 10, items: { type: "string", maxLength: 20 }, "x-kubernetes-validations": [{ rule: "self.all(x, self.exists(y, x.matches(y)))" }] },
      },
    }));
    assert.equal(bounded.code, 201, JSON.stringify(bounded.body));
    await ext.deleteCustomResourceDefinition({ name: `things.${GROUP}` }).catch((e: unknown) => assert.ok(e instanceof ApiException));
  });
});
