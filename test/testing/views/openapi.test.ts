import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  openApiGroupVersion,
  openApiGroupVersionJson,
  openApiRoot,
  openApiV2,
  openApiV2Json,
} from "../../../src/testing/views/openapi.ts";
import { openApiV2Protobuf } from "../../../src/testing/views/openapi-v2-protobuf.ts";
import { builtinOpenApiV3Paths, builtinOpenApiV3Text, builtinSwaggerText } from "../../../src/testing/openapi/builtin-openapi.ts";
import type { ResourceType } from "../../../src/testing/resource-type.ts";

function resourceType(group: string, version: string, kind: string, plural: string, namespaced: boolean, builtin = true): ResourceType {
  return {
    group,
    version,
    kind,
    plural,
    singular: kind.toLowerCase(),
    namespaced,
    shortNames: [],
    categories: [],
    verbs: ["get", "list", "watch", "create", "update", "patch", "delete"],
    status: false,
    scale: undefined,
    builtin,
    hasGeneration: !builtin,
    requireResourceVersion: !builtin,
    storageKey: `${group}/${plural}`,
    printerColumns: [],
    schema: builtin ? undefined : { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } },
    listType: () => ({ type: "atomic" }),
  };
}

const widget = resourceType("example.com", "v1alpha1", "Widget", "widgets", true, false);
const types = [
  resourceType("", "v1", "ConfigMap", "configmaps", true),
  resourceType("apps", "v1", "Deployment", "deployments", true),
  widget,
];

const sha512 = (text: string) => createHash("sha512").update(text).digest("hex").toUpperCase();

test("the root is kube-apiserver's own index plus the custom group/versions, in byte order", () => {
  const root = openApiRoot(types);
  const keys = Object.keys(root.paths);
  assert.deepEqual(keys, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  for (const gvPath of builtinOpenApiV3Paths().filter((p) => /^(api\/v1|apis\/[^/]+\/[^/]+)$/.test(p))) {
    assert.equal(root.paths[gvPath]?.serverRelativeURL, `/openapi/v3/${gvPath}?hash=${sha512(builtinOpenApiV3Text(gvPath)!)}`);
  }
  assert.ok(root.paths["apis/batch/v1"] && root.paths["apis/policy/v1"] && root.paths["apis/autoscaling/v2"]);
  assert.match(root.paths["apis/example.com/v1alpha1"]!.serverRelativeURL, /^\/openapi\/v3\/apis\/example\.com\/v1alpha1\?hash=[0-9A-F]{128}$/);
  // The OIDC discovery paths have no vendored document: not listed.
  assert.equal(root.paths[".well-known/openid-configuration"], undefined);
});

test("a built-in group/version document is kube-apiserver's text, whatever types are served", () => {
  const served = openApiGroupVersionJson([], "/openapi/v3/apis/batch/v1?hash=stale");
  assert.ok(served);
  assert.equal(served.json, builtinOpenApiV3Text("apis/batch/v1"));
  assert.equal(served.hash, sha512(served.json));
  assert.equal(served.gvPath, "apis/batch/v1");
  const doc = openApiGroupVersion(types, "apis/apps/v1") as { paths: Record<string, { patch?: { requestBody: { content: Record<string, unknown> } } }> };
  const patch = doc.paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]!.patch!;
  assert.ok("application/strategic-merge-patch+json" in patch.requestBody.content);
  assert.ok(openApiGroupVersionJson([], "version"));
  assert.equal(openApiGroupVersionJson(types, "apis/nothing.example/v1"), undefined);
});

test("a custom group/version keeps its generated document, whose hash changes with its kinds", () => {
  const before = openApiGroupVersionJson(types, "apis/example.com/v1alpha1")!;
  assert.equal(before.hash, sha512(before.json));
  const doc = JSON.parse(before.json) as { paths: Record<string, { patch?: { requestBody: { content: Record<string, unknown> } } }>; components: { schemas: Record<string, unknown> } };
  const patch = doc.paths["/apis/example.com/v1alpha1/namespaces/{namespace}/widgets/{name}"]!.patch!;
  assert.deepEqual(Object.keys(patch.requestBody.content).sort(), ["application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json"]);
  assert.ok(doc.components.schemas["com.example.v1alpha1.Widget"]);
  const more = [...types, resourceType("example.com", "v1alpha1", "Gadget", "gadgets", false, false)];
  assert.notEqual(openApiRoot(more).paths["apis/example.com/v1alpha1"], openApiRoot(types).paths["apis/example.com/v1alpha1"]);
  assert.equal(openApiRoot(more).paths["api/v1"]!.serverRelativeURL, openApiRoot(types).paths["api/v1"]!.serverRelativeURL);
});

test("the v2 document is kube-apiserver's, with the custom kinds' paths and definitions merged in", () => {
  const builtinOnly = types.filter((t) => t.builtin);
  assert.equal(openApiV2Json(builtinOnly), builtinSwaggerText());
  const doc = openApiV2(types);
  assert.ok(doc.definitions["io.k8s.api.batch.v1.Job"]);
  assert.ok(doc.definitions["com.example.v1alpha1.Widget"] && doc.definitions["com.example.v1alpha1.WidgetList"]);
  const item = doc.paths["/apis/example.com/v1alpha1/namespaces/{namespace}/widgets/{name}"] as Record<string, Record<string, unknown>>;
  assert.deepEqual(item["patch"]!["x-kubernetes-group-version-kind"], { group: "example.com", kind: "Widget", version: "v1alpha1" });
  assert.ok((item["patch"]!["parameters"] as { name: string }[]).some((p) => p.name === "fieldValidation"));
  assert.ok(!(item["patch"]!["consumes"] as string[]).includes("application/strategic-merge-patch+json"));
  assert.ok(doc.paths["/apis/batch/v1/namespaces/{namespace}/jobs/{name}"]);
  assert.deepEqual(JSON.parse(openApiV2Json(types)), doc);
});

test("the v2 protobuf carries the built-in document and appends the custom kinds", () => {
  const builtinOnly = types.filter((t) => t.builtin);
  const base = openApiV2Protobuf(builtinOnly);
  assert.ok(base.includes(Buffer.from("io.k8s.api.batch.v1.Job")));
  assert.ok(base.includes(Buffer.from("/apis/batch/v1/namespaces/{namespace}/cronjobs/{name}")));
  assert.equal(openApiV2Protobuf(builtinOnly), base, "cached");
  const withWidget = openApiV2Protobuf(types);
  assert.ok(withWidget.subarray(0, base.length).equals(base));
  assert.ok(withWidget.subarray(base.length).includes(Buffer.from("com.example.v1alpha1.Widget")));
});
