/**
 * Custom resources and CRDs answer as kube-apiserver v1.36.2 does (the answers recorded in
 * test/conformance/kube-apiserver-1.36.2.json, crd area): 422 cause order and texts, the CEL
 * "not checked" cause, structural-schema rejection and the Table of a CRD kind.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const GROUP = "conf.example.com";
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const TABLE = "application/json;as=Table;g=meta.k8s.io;v=v1";

function crdBody(plural: string, kind: string): any {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: "v1", served: true, storage: true }],
    },
  };
}

/** The Widget CRD of test/conformance/diff.py (widget_crd). */
function widgetCrd(): any {
  const crd = crdBody("widgets", "Widget");
  const v = crd.spec.versions[0];
  v.subresources = { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } };
  v.additionalPrinterColumns = [
    { name: "Size", type: "string", jsonPath: ".spec.size" },
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
  ];
  v.schema = { openAPIV3Schema: { type: "object", properties: {
    spec: { type: "object", required: ["size"],
      "x-kubernetes-validations": [{ rule: "!has(self.size) || self.size == 'large' || !has(self.replicas) || self.replicas <= 5", message: "small widgets have at most 5 replicas" }],
      properties: {
        size: { type: "string", enum: ["small", "large"] },
        replicas: { type: "integer", minimum: 0, maximum: 10, default: 1 },
        port: { "x-kubernetes-int-or-string": true },
        nested: { type: "object", default: {}, properties: { mode: { type: "string", default: "auto" }, level: { type: "integer", default: 3 } } },
        extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        name: { type: "string", maxLength: 5, pattern: "^[a-z]+$" },
        items: { type: "array", maxItems: 2, items: { type: "string" } },
      } },
    status: { type: "object", properties: { replicas: { type: "integer" }, selector: { type: "string" }, phase: { type: "string" } } },
  } } };
  return crd;
}

function widget(name: string, spec: unknown): unknown {
  return { apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name }, spec };
}

const NOT_CHECKED = {
  reason: "FieldValueInvalid",
  message: 'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  field: "<nil>",
};

describe("LocalCluster CRDs answer like kube-apiserver 1.36", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
    assert.equal((await raw(cluster.url, "POST", crdPath, widgetCrd())).code, 201);
    await waitFor(async () => (await raw(cluster.url, "GET", widgets)).code === 200 || undefined, "widgets served");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("reports schema errors sorted by field, one string error per field, then scale accessor errors and the CEL not-checked cause", async () => {
    const res = await raw(cluster.url, "POST", widgets, widget("bad", { replicas: "three", size: "medium", name: "TooLongName", items: ["a", "b", "c"] }));
    assert.equal(res.code, 422);
    assert.deepEqual(res.body.details.causes, [
      { reason: "FieldValueTooMany", message: "Too many: 3: must have at most 2 items", field: "spec.items" },
      { reason: "FieldValueTooLong", message: "Too long: may not be more than 5 bytes", field: "spec.name" },
      { reason: "FieldValueTypeInvalid", message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"', field: "spec.replicas" },
      { reason: "FieldValueNotSupported", message: 'Unsupported value: "medium": supported values: "small", "large"', field: "spec.size" },
      { reason: "FieldValueInvalid", message: "Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64", field: ".spec.replicas" },
      NOT_CHECKED,
    ]);
    assert.match(res.body.message, /^Widget\.conf\.example\.com "bad" is invalid: \[spec\.items: Too many: 3: must have at most 2 items, spec\.name: /);
    assert.match(res.body.message, /, <nil>: Invalid value: "null": some validation rules were not checked/);
  });

  it("sorts a property error before a required error of a later field", async () => {
    const res = await raw(cluster.url, "POST", widgets, widget("bad2", { replicas: 20 }));
    assert.equal(res.code, 422);
    assert.deepEqual(res.body.details.causes, [
      { reason: "FieldValueInvalid", message: "Invalid value: 20: spec.replicas in body should be less than or equal to 10", field: "spec.replicas" },
      { reason: "FieldValueRequired", message: "Required value", field: "spec.size" },
      NOT_CHECKED,
    ]);
  });

  it("adds the not-checked cause to int-or-string type errors", async () => {
    const res = await raw(cluster.url, "POST", widgets, widget("d", { size: "small", port: 1.5 }));
    assert.equal(res.code, 422);
    assert.deepEqual(res.body.details.causes, [
      { reason: "FieldValueTypeInvalid", message: 'Invalid value: "number": spec.port in body must be of type integer,string: "number"', field: "spec.port" },
      NOT_CHECKED,
    ]);
  });

  it("rejects a non-structural CRD with the structural-schema cause under spec.validation", async () => {
    const crd = crdBody("gadgets", "Gadget");
    crd.spec.versions[0].schema = { openAPIV3Schema: { type: "object", properties: {
      spec: { properties: { a: { type: "string" } } },
      status: { type: "object", "x-kubernetes-int-or-string": true },
    } } };
    const res = await raw(cluster.url, "POST", crdPath, crd);
    assert.equal(res.code, 422);
    assert.deepEqual(res.body.details.causes, [
      { reason: "FieldValueRequired", message: "Required value: must not be empty for specified object fields", field: "spec.validation.openAPIV3Schema.properties[spec].type" },
    ]);
    assert.equal(
      res.body.message,
      `CustomResourceDefinition.apiextensions.k8s.io "gadgets.${GROUP}" is invalid: spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields`,
    );
  });

  it("serves a Table whose Name column has ObjectMeta's description and rows with object null for includeObject=None", async () => {
    assert.equal((await raw(cluster.url, "POST", widgets, widget("w", { size: "small", replicas: 2 }))).code, 201);
    const res = await raw(cluster.url, "GET", `${widgets}/w?includeObject=None`, undefined, "application/json", { Accept: TABLE });
    assert.equal(res.code, 200);
    assert.equal(
      res.body.columnDefinitions[0].description,
      "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
    );
    assert.equal(res.body.rows.length, 1);
    assert.ok("object" in res.body.rows[0]);
    assert.equal(res.body.rows[0].object, null);
    assert.deepEqual(res.body.rows[0].cells.slice(0, 3), ["w", "small", 2]);
  });
});
