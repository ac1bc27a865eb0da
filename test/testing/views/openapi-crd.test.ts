import { test } from "node:test";
import assert from "node:assert/strict";
import { crdDefinitionName, crdSchemas } from "../../../src/testing/views/openapi-crd.ts";
import { openApiGroupVersion, openApiRoot, openApiV2 } from "../../../src/testing/views/openapi.ts";
import { openApiV2Protobuf } from "../../../src/testing/views/openapi-v2-protobuf.ts";
import { builtinResourceTypes } from "../../../src/testing/builtin-kinds.ts";
import { typesOfCrd } from "../../../src/testing/crd-controller.ts";
import { crdDefaults } from "../../../src/testing/crd/crd-validation.ts";
import type { KubeObject, ResourceType } from "../../../src/testing/resource-type.ts";
import { FIXTURES, fixture } from "../crd/fixtures.ts";

type Schema = Record<string, any>;

function widgetType(schema: Record<string, unknown> | undefined, extra: Partial<ResourceType> = {}): ResourceType {
  return {
    group: "example.com",
    version: "v1",
    kind: "Widget",
    plural: "widgets",
    singular: "widget",
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ["get", "list", "watch", "create", "update", "patch", "delete"],
    status: false,
    scale: undefined,
    builtin: false,
    hasGeneration: true,
    requireResourceVersion: true,
    storageKey: "example.com/widgets",
    printerColumns: [],
    schema,
    listType: () => ({ type: "atomic" }),
    ...extra,
  };
}

const SCHEMA = {
  type: "object",
  description: "A widget.",
  "$schema": "not structural, dropped",
  properties: {
    metadata: { type: "object", properties: { name: { type: "string", maxLength: 20 } } },
    spec: {
      type: "object",
      required: ["size", "note"],
      properties: {
        size: { type: "integer", minimum: 1, default: 3, description: "How big." },
        note: { type: "string", nullable: true },
        port: { "x-kubernetes-int-or-string": true },
        shape: { type: "string", oneOf: [{ pattern: "^a" }, { pattern: "^b" }], not: { enum: ["c"] } },
        extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { kept: { type: "string" } } },
        anything: { type: "array", "x-kubernetes-preserve-unknown-fields": true, items: { type: "string" } },
        template: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object" } } },
        labels: { type: "object", additionalProperties: { type: "string" } },
      },
    },
  },
};

const v3 = (t = widgetType(SCHEMA)) => crdSchemas(t, "v3")!["com.example.v1.Widget"] as Schema;
const v2 = (t = widgetType(SCHEMA)) => crdSchemas(t, "v2")!["com.example.v1.Widget"] as Schema;

test("definition names reverse the group's DNS labels", () => {
  assert.equal(crdDefinitionName("example.com", "v1", "Widget"), "com.example.v1.Widget");
  assert.equal(crdDefinitionName("datainfra.io", "v1beta1", "Pinot"), "io.datainfra.v1beta1.Pinot");
  assert.equal(crdDefinitionName("monitoring.coreos.com", "v1", "PodMonitor"), "com.coreos.monitoring.v1.PodMonitor");
});

test("built-in types publish no schemas", () => {
  assert.equal(crdSchemas(widgetType(SCHEMA, { builtin: true }), "v3"), undefined);
});

test("the v3 kind schema gets apiVersion, kind, ObjectMeta metadata and its GVK", () => {
  const s = v3();
  assert.equal(s.description, "A widget.");
  assert.equal(s["$schema"], undefined, "non-structural keys are dropped");
  assert.equal(s.properties.apiVersion.type, "string");
  assert.equal(s.properties.kind.type, "string");
  assert.deepEqual(s.properties.metadata.allOf, [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }]);
  assert.deepEqual(s["x-kubernetes-group-version-kind"], [{ group: "example.com", kind: "Widget", version: "v1" }]);
});

test("v3 keeps value validations and defaults, and unfolds int-or-string and embedded resources", () => {
  const spec = v3().properties.spec;
  assert.deepEqual(spec.required, ["size", "note"]);
  assert.equal(spec.properties.size.default, 3);
  assert.equal(spec.properties.note.nullable, true);
  assert.deepEqual(spec.properties.port.anyOf, [{ type: "integer" }, { type: "string" }]);
  assert.equal(spec.properties.shape.oneOf.length, 2);
  assert.deepEqual(spec.properties.extra.properties, { kept: { type: "string" } });
  const template = spec.properties.template;
  assert.deepEqual(Object.keys(template.properties).sort(), ["apiVersion", "kind", "metadata", "spec"]);
  assert.deepEqual(template.required, ["kind", "apiVersion"]);
});

test("v2 drops what Swagger 2.0 cannot express, as kube-apiserver's conversion does", () => {
  const s = v2();
  assert.equal(s.properties.metadata.$ref, "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  const spec = s.properties.spec;
  assert.deepEqual(spec.required, ["size"], "a nullable field is no longer required");
  assert.equal(spec.properties.size.default, undefined, "defaults are not published in v2");
  assert.equal(spec.properties.size.minimum, 1);
  assert.deepEqual(spec.properties.note, {}, "nullable loses its type");
  assert.deepEqual(spec.properties.port, { "x-kubernetes-int-or-string": true });
  assert.deepEqual(spec.properties.shape, { type: "string" });
  assert.deepEqual(spec.properties.extra, { "x-kubernetes-preserve-unknown-fields": true });
  assert.deepEqual(spec.properties.anything, { "x-kubernetes-preserve-unknown-fields": true });
  assert.deepEqual(spec.properties.labels, { type: "object", additionalProperties: { type: "string" } });
  assert.equal(spec.properties.template.properties.metadata.$ref, "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
});

test("a root that preserves unknown fields publishes as a bare object in v2 only", () => {
  const t = widgetType({ type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { spec: { type: "object" } } });
  assert.deepEqual(v2(t), { type: "object", "x-kubernetes-group-version-kind": [{ group: "example.com", kind: "Widget", version: "v1" }] });
  assert.equal(v3(t).properties.spec.type, "object");
});

test("the list schema refers to the kind and uses the CRD's listKind", () => {
  const schemas = crdSchemas(widgetType(SCHEMA, { listKind: "WidgetCollection" }), "v3")!;
  const list = schemas["com.example.v1.WidgetCollection"] as Schema;
  assert.deepEqual(list.properties.items.items, { $ref: "#/components/schemas/com.example.v1.Widget" });
  assert.deepEqual(list["x-kubernetes-group-version-kind"], [{ group: "example.com", kind: "WidgetCollection", version: "v1" }]);
});

test("the root hash of a CR group/version changes when its schema does", () => {
  const before = openApiRoot([widgetType(SCHEMA)]).paths["apis/example.com/v1"]!.serverRelativeURL;
  const changed = structuredClone(SCHEMA) as Schema;
  changed.properties.spec.properties.size.description = "How large.";
  assert.notEqual(openApiRoot([widgetType(changed)]).paths["apis/example.com/v1"]!.serverRelativeURL, before);
});

test("the v2 document gains the custom kinds' definitions next to kube-apiserver's own", () => {
  const builtins = builtinResourceTypes();
  const base = openApiV2(builtins).definitions;
  assert.equal(base["com.example.v1.Widget"], undefined);
  assert.ok(base["io.k8s.api.apps.v1.Deployment"]);
  const defs = openApiV2([...builtins, widgetType(SCHEMA)]).definitions;
  assert.ok(defs["com.example.v1.Widget"] && defs["com.example.v1.WidgetList"]);
  assert.ok(defs["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]);
  assert.ok(openApiV2Protobuf([...builtins, widgetType(SCHEMA)]).includes(Buffer.from("com.example.v1.Widget")));
});

/**
 * Every `$ref` in `tree` resolves in `schemas`; in v2, every schema node is one kubectl's v2
 * model parser accepts.
 */
function checkPublishable(tree: Record<string, unknown>, schemas: Record<string, unknown>, prefix: string, form: "v3" | "v2"): void {
  const visit = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}[${i}]`));
    if (typeof node !== "object" || node === null) return;
    const s = node as Schema;
    if (typeof s.$ref === "string") {
      assert.ok(s.$ref.startsWith(prefix) && s.$ref.slice(prefix.length) in schemas, `${where}: dangling ${s.$ref}`);
    }
    if (form === "v2" && !("$ref" in s) && where.split(".").at(-1) !== "properties") {
      for (const key of ["anyOf", "oneOf", "not", "nullable", "default"]) assert.equal(s[key], undefined, `${where}: ${key} in v2`);
      if (s.type === "array") assert.ok(typeof s.items === "object" && !Array.isArray(s.items), `${where}: array without one item schema`);
      if (s.type !== undefined) assert.ok(["object", "array", "string", "number", "integer", "boolean"].includes(s.type), `${where}: type ${s.type}`);
    }
    for (const [k, v] of Object.entries(s)) if (!k.startsWith("x-") && k !== "enum") visit(v, `${where}.${k}`);
  };
  for (const [name, schema] of Object.entries(tree)) visit(schema, name);
}

test("the real fixture CRDs publish complete, self-contained v3 and v2 documents", () => {
  const crds = [FIXTURES.pinots, FIXTURES.podMonitors, FIXTURES.prometheusRules].map((f) => crdDefaults(fixture(f), new Date(0)) as KubeObject);
  const types = crds.flatMap(typesOfCrd);
  for (const t of types) {
    const gvPath = `apis/${t.group}/${t.version}`;
    const doc = openApiGroupVersion(types, gvPath)!;
    const schemas = doc.components!.schemas;
    assert.ok(schemas[crdDefinitionName(t.group, t.version, t.kind)], `${t.kind} in ${gvPath}`);
    checkPublishable(schemas, schemas, "#/components/schemas/", "v3");
    checkPublishable(doc.paths, schemas, "#/components/schemas/", "v3");
  }
  const definitions = openApiV2(types).definitions!;
  assert.ok(definitions["io.datainfra.v1beta1.Pinot"] && definitions["com.coreos.monitoring.v1.PrometheusRule"]);
  checkPublishable(definitions, definitions, "#/definitions/", "v2");
  assert.ok(openApiV2Protobuf(types).length > 0);
});
