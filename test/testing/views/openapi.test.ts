import { test } from "node:test";
import assert from "node:assert/strict";
import { openApiGroupVersion, openApiGroupVersionPath, openApiRoot } from "../../../src/testing/views/openapi.ts";
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
    schema: undefined,
    listType: () => ({ type: "atomic" }),
  };
}

const types = [
  resourceType("", "v1", "ConfigMap", "configmaps", true),
  resourceType("", "v1", "Namespace", "namespaces", false),
  resourceType("apps", "v1", "Deployment", "deployments", true),
  resourceType("apps", "v1", "StatefulSet", "statefulsets", true),
  resourceType("events.k8s.io", "v1", "Event", "events", true),
  resourceType("example.com", "v1alpha1", "Widget", "widgets", true, false),
];

type PatchOp = {
  parameters: Array<{ name: string; in: string }>;
  requestBody: { content: Record<string, unknown> };
  "x-kubernetes-group-version-kind": { group: string; version: string; kind: string };
};

function patchOps(gvPath: string): Map<string, PatchOp> {
  const doc = openApiGroupVersion(types, gvPath);
  assert.ok(doc, `no document for ${gvPath}`);
  const ops = new Map<string, PatchOp>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = (item as { patch?: PatchOp }).patch;
    if (op) ops.set(path, op);
  }
  return ops;
}

test("the root lists each served group/version with a hashed server-relative URL", () => {
  const root = openApiRoot(types);
  assert.deepEqual(Object.keys(root.paths), ["api/v1", "apis/apps/v1", "apis/events.k8s.io/v1", "apis/example.com/v1alpha1"]);
  for (const [gvPath, entry] of Object.entries(root.paths)) {
    assert.match(entry.serverRelativeURL, new RegExp(`^/openapi/v3/${gvPath.replace(/\./g, "\\.")}\\?hash=[0-9A-F]{128}$`));
  }
});

test("the root's hashes are stable and change when a group/version gains a kind", () => {
  const before = openApiRoot(types).paths;
  assert.deepEqual(openApiRoot([...types].reverse()).paths, before);
  const after = openApiRoot([...types, resourceType("apps", "v1", "DaemonSet", "daemonsets", true)]).paths;
  assert.notEqual(after["apis/apps/v1"]!.serverRelativeURL, before["apis/apps/v1"]!.serverRelativeURL);
  assert.equal(after["api/v1"]!.serverRelativeURL, before["api/v1"]!.serverRelativeURL);
});

test("each group/version document has one PATCH operation per kind carrying its GVK", () => {
  for (const gvPath of Object.keys(openApiRoot(types).paths)) {
    const ops = patchOps(gvPath);
    const kinds = types.filter((t) => openApiGroupVersionPath(t) === gvPath).map((t) => t.kind).sort();
    assert.deepEqual([...ops.values()].map((op) => op["x-kubernetes-group-version-kind"].kind).sort(), kinds);
  }
  const core = patchOps("api/v1");
  assert.deepEqual(core.get("/api/v1/namespaces/{namespace}/configmaps/{name}")?.["x-kubernetes-group-version-kind"], {
    group: "",
    version: "v1",
    kind: "ConfigMap",
  });
  assert.deepEqual(core.get("/api/v1/namespaces/{name}")?.["x-kubernetes-group-version-kind"], { group: "", version: "v1", kind: "Namespace" });
  assert.ok(patchOps("apis/apps/v1").has("/apis/apps/v1/namespaces/{namespace}/deployments/{name}"));
});

test("every PATCH operation offers fieldValidation and the non-strategic patch types", () => {
  for (const gvPath of Object.keys(openApiRoot(types).paths)) {
    for (const op of patchOps(gvPath).values()) {
      assert.ok(op.parameters.some((p) => p.name === "fieldValidation" && p.in === "query"));
      assert.deepEqual(Object.keys(op.requestBody.content).sort(), [
        "application/apply-patch+yaml",
        "application/json-patch+json",
        "application/merge-patch+json",
      ]);
    }
  }
});

test("a group/version document is found from its URL and is absent for unknown group/versions", () => {
  const url = openApiRoot(types).paths["apis/apps/v1"]!.serverRelativeURL;
  assert.deepEqual(openApiGroupVersion(types, url), openApiGroupVersion(types, "apis/apps/v1"));
  assert.equal(openApiGroupVersion(types, "apis/batch/v1"), undefined);
  assert.equal(openApiGroupVersion(types, "apis/apps/v1")?.openapi, "3.0.0");
});
