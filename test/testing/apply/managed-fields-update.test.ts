/**
 * managedFields as kube-apiserver v1.36.2 records them (expected values from the recorded real
 * answers in test/conformance/kube-apiserver-1.36.2.json): `".": {}` for a map, list or list
 * item a write created (not for the value structs the Go zero value already holds), atomic maps
 * as one leaf, and list items named with their key fields' defaults.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { recordUpdate, serverSideApply } from "../../../src/testing/apply/server-side-apply.ts";
import { builtinFieldType, crdFieldType, goValue } from "../../../src/testing/apply/field-types.ts";
import { compareObjects } from "../../../src/testing/apply/object-fields.ts";
import { fieldsOf } from "../../../src/testing/apply/field-set.ts";
import type { KubeObject, ListTypeLookup, ManagedFieldsEntry } from "../../../src/testing/resource-type.ts";

const T1 = "2026-01-01T00:00:00Z";
const T2 = "2026-01-01T00:01:00Z";
const atomic: ListTypeLookup = () => ({ type: "atomic" });

function fieldsAfterCreate(obj: KubeObject, apiVersion: string): unknown {
  const entries = recordUpdate({ old: undefined, updated: obj, manager: "m", apiVersion, listType: atomic, now: T1 });
  assert.equal(entries.length, 1);
  return entries[0]?.fieldsV1;
}

function withManagedFields(obj: KubeObject, managedFields: ManagedFieldsEntry[]): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, managedFields } };
}

const deployment = (): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "ns", labels: { app: "web" } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "c", image: "nginx:1.25", ports: [{ containerPort: 80, protocol: "TCP" }], resources: {} }], securityContext: {} },
    },
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
  },
  status: {},
});

test("a ConfigMap create records its data and labels maps as created ('.')", () => {
  const cm: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", labels: { env: "x" }, finalizers: ["x/y"] }, data: { k: "v" }, binaryData: { b: "AA==" } };
  assert.deepEqual(fieldsAfterCreate(cm, "v1"), {
    "f:binaryData": { ".": {}, "f:b": {} },
    "f:data": { ".": {}, "f:k": {} },
    "f:metadata": { "f:finalizers": { ".": {}, 'v:"x/y"': {} }, "f:labels": { ".": {}, "f:env": {} } },
  });
});

test("an empty optional map is omitted as Go omits it (generateName create with data: {})", () => {
  const cm: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { generateName: "gen-", name: "gen-abcde" }, data: {} };
  assert.deepEqual(fieldsAfterCreate(cm, "v1"), { "f:metadata": { "f:generateName": {} } });
});

test("a Deployment create: no '.' for the value structs spec, template, strategy; '.' for what the create made", () => {
  assert.deepEqual(fieldsAfterCreate(deployment(), "apps/v1"), {
    "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
    "f:spec": {
      "f:replicas": {},
      "f:selector": {},
      "f:strategy": { "f:rollingUpdate": { ".": {}, "f:maxSurge": {}, "f:maxUnavailable": {} }, "f:type": {} },
      "f:template": {
        "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
        "f:spec": {
          "f:containers": {
            'k:{"name":"c"}': {
              ".": {},
              "f:image": {},
              "f:name": {},
              "f:ports": { ".": {}, 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {}, "f:protocol": {} } },
              "f:resources": {},
            },
          },
          "f:securityContext": {},
        },
      },
    },
  });
});

test("a Service's spec.selector is an atomic map: one leaf", () => {
  const svc: KubeObject = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "s" },
    spec: { selector: { app: "web" }, ports: [{ port: 80, protocol: "TCP", targetPort: 80 }], type: "ClusterIP" },
  };
  assert.deepEqual(fieldsAfterCreate(svc, "v1"), {
    "f:spec": {
      "f:ports": { ".": {}, 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:port": {}, "f:protocol": {}, "f:targetPort": {} } },
      "f:selector": {},
      "f:type": {},
    },
  });
});

test("a custom resource create starts from nothing: '.' on spec and nested maps", () => {
  const widget: KubeObject = { apiVersion: "d.example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { size: "s", nested: { mode: "a" } } };
  assert.deepEqual(fieldsAfterCreate(widget, "d.example.com/v1"), { "f:spec": { ".": {}, "f:nested": { ".": {}, "f:mode": {} }, "f:size": {} } });
});

test("a label patch: the first label creates the map ('.'), a later one does not", () => {
  const cm: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: "v" } };
  const created = withManagedFields(cm, recordUpdate({ old: undefined, updated: cm, manager: "creator", apiVersion: "v1", listType: atomic, now: T1 }));
  const labelled: KubeObject = { ...created, metadata: { ...created.metadata, labels: { a: "1" } } };
  const first = recordUpdate({ old: created, updated: labelled, manager: "labeller", apiVersion: "v1", listType: atomic, now: T2 });
  assert.deepEqual(first.find((e) => e.manager === "labeller")?.fieldsV1, { "f:metadata": { "f:labels": { ".": {}, "f:a": {} } } });
  const once = withManagedFields(labelled, first);
  const second = recordUpdate({ old: once, updated: { ...once, metadata: { ...once.metadata, labels: { a: "1", b: "2" } } }, manager: "other", apiVersion: "v1", listType: atomic, now: T2 });
  assert.deepEqual(second.find((e) => e.manager === "other")?.fieldsV1, { "f:metadata": { "f:labels": { "f:b": {} } } });
  assert.deepEqual(second.find((e) => e.manager === "labeller")?.fieldsV1, { "f:metadata": { "f:labels": { ".": {}, "f:a": {} } } });
});

test("removing a map leaves no '.' behind in any entry", () => {
  const cm: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", labels: { a: "1" } }, data: { k: "v" } };
  const created = withManagedFields(cm, recordUpdate({ old: undefined, updated: cm, manager: "creator", apiVersion: "v1", listType: atomic, now: T1 }));
  const unlabelled: KubeObject = { ...created, metadata: { name: "a", managedFields: created.metadata?.managedFields } };
  const entries = recordUpdate({ old: created, updated: unlabelled, manager: "other", apiVersion: "v1", listType: atomic, now: T2 });
  assert.deepEqual(entries.map((e) => [e.manager, e.fieldsV1]), [["creator", { "f:data": { ".": {}, "f:k": {} } }]]);
});

test("an update records the fields defaulting added (old vs new object), nothing the old object had", () => {
  const old = deployment();
  const stored = withManagedFields(old, recordUpdate({ old: undefined, updated: old, manager: "creator", apiVersion: "apps/v1", listType: atomic, now: T1 }));
  const next = structuredClone(stored);
  (next.spec as any).revisionHistoryLimit = 10;
  (next.spec as any).template.spec.containers[0].imagePullPolicy = "IfNotPresent";
  const entries = recordUpdate({ old: stored, updated: next, manager: "editor", apiVersion: "apps/v1", listType: atomic, now: T2 });
  assert.deepEqual(entries.find((e) => e.manager === "editor")?.fieldsV1, {
    "f:spec": { "f:revisionHistoryLimit": {}, "f:template": { "f:spec": { "f:containers": { 'k:{"name":"c"}': { "f:imagePullPolicy": {} } } } } },
  });
});

test("apply: a port without protocol is the defaulted TCP item, and the applier does not own f:protocol", () => {
  const applied = deployment();
  delete applied.status;
  delete (applied.spec as any).strategy;
  (applied.spec as any).template.spec = { containers: [{ name: "c", image: "nginx:1.25", ports: [{ containerPort: 80 }] }] };
  const { object } = serverSideApply({ live: undefined, applied, manager: "m1", force: false, apiVersion: "apps/v1", listType: atomic, now: T1 });
  assert.deepEqual((object.spec as any).template.spec.containers[0].ports, [{ containerPort: 80, protocol: "TCP" }]);
  const entry = object.metadata?.managedFields?.[0];
  assert.deepEqual((entry?.fieldsV1 as any)["f:spec"], {
    "f:replicas": {},
    "f:selector": {},
    "f:template": {
      "f:metadata": { "f:labels": { "f:app": {} } },
      "f:spec": {
        "f:containers": {
          'k:{"name":"c"}': { ".": {}, "f:image": {}, "f:name": {}, "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} } } },
        },
      },
    },
  });
  // Applying it again matches the live TCP port: no second port, nothing changes.
  const again = serverSideApply({ live: object, applied, manager: "m1", force: false, apiVersion: "apps/v1", listType: atomic, now: T2 });
  assert.equal(again.changed, false);
  assert.equal((again.object.spec as any).template.spec.containers[0].ports.length, 1);
});

test("apply: a LabelSelector is atomic, replaced whole and owned as one leaf", () => {
  const first = deployment();
  delete first.status;
  const { object } = serverSideApply({ live: undefined, applied: first, manager: "a", force: false, apiVersion: "apps/v1", listType: atomic, now: T1 });
  const second: KubeObject = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { selector: { matchExpressions: [{ key: "app", operator: "Exists" }] } } };
  const result = serverSideApply({ live: object, applied: second, manager: "b", force: true, apiVersion: "apps/v1", listType: atomic, now: T2 });
  assert.deepEqual((result.object.spec as any).selector, { matchExpressions: [{ key: "app", operator: "Exists" }] });
  assert.deepEqual(result.object.metadata?.managedFields?.find((e) => e.manager === "b")?.fieldsV1, { "f:spec": { "f:selector": {} } });
});

test("goValue: a built-in kind's zero value holds its value structs and null for required pointers and lists", () => {
  const type = builtinFieldType("apps/v1", "Deployment");
  assert.ok(type);
  assert.deepEqual(goValue({}, type), {
    metadata: {},
    spec: { selector: null, strategy: {}, template: { metadata: {}, spec: { containers: null } } },
    status: {},
  });
  assert.deepEqual(goValue({ kind: "Service" }, builtinFieldType("v1", "Service")!), { kind: "Service", metadata: {}, spec: {}, status: { loadBalancer: {} } });
  assert.equal(builtinFieldType("example.com/v1", "Widget"), undefined);
});

test("compareObjects: a list created with items gets '.', a required list that was null does not", () => {
  const type = builtinFieldType("v1", "Pod")!;
  const pod: KubeObject = { spec: { containers: [{ name: "c" }], tolerations: [{ key: "k" }] } };
  const change = compareObjects(goValue({}, type) as KubeObject, goValue(pod, type) as KubeObject, type);
  assert.deepEqual(change.added.toFieldsV1(), { "f:spec": { "f:containers": { 'k:{"name":"c"}': { ".": {}, "f:name": {}, "f:resources": {} } }, "f:tolerations": {} } });
});

test("a CRD schema decides list types, map types and key defaults; metadata is the built-in ObjectMeta", () => {
  const type = crdFieldType({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: {
          ports: { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"], items: { type: "object", properties: { port: { type: "integer" }, protocol: { type: "string", default: "TCP" } } } },
          selector: { type: "object", "x-kubernetes-map-type": "atomic", additionalProperties: { type: "string" } },
          tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
        },
      },
    },
  });
  const obj: KubeObject = { metadata: { finalizers: ["f"] }, spec: { ports: [{ port: 1 }], selector: { a: "b" }, tags: ["x"] } };
  assert.deepEqual(fieldsOf(obj, type).printedPaths(), [
    '.metadata.finalizers[="f"]',
    '.spec.ports[port=1,protocol="TCP"]',
    '.spec.ports[port=1,protocol="TCP"].port',
    ".spec.selector",
    '.spec.tags[="x"]',
  ]);
});

test("apply: a map the manager owns as created ('.') is kept while the apply still sets a key in it", () => {
  const cm = (labels: Record<string, string>): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", labels }, data: { k: "v" } });
  const first = serverSideApply({ live: undefined, applied: cm({ app: "x", tier: "y" }), manager: "op", force: false, apiVersion: "v1", listType: atomic, now: T1 }).object;
  // The Builder moves a create's Update entry (with `.` on labels) into its Apply entry.
  const entry = first.metadata!.managedFields![0]!;
  (entry.fieldsV1 as any)["f:metadata"]["f:labels"]["."] = {};
  const next = serverSideApply({ live: first, applied: cm({ app: "x" }), manager: "op", force: false, apiVersion: "v1", listType: atomic, now: T2 }).object;
  assert.deepEqual(next.metadata?.labels, { app: "x" });
  const none = serverSideApply({ live: next, applied: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: "v" } }, manager: "op", force: false, apiVersion: "v1", listType: atomic, now: T2 }).object;
  assert.equal(none.metadata?.labels, undefined);
});

test("a custom resource without a schema still has ObjectMeta metadata: finalizers are a set", () => {
  const widget: KubeObject = { apiVersion: "d.example.com/v1", kind: "Widget", metadata: { name: "w", finalizers: ["x/y"] }, spec: { size: "s" } };
  assert.deepEqual(fieldsAfterCreate(widget, "d.example.com/v1"), {
    "f:metadata": { "f:finalizers": { ".": {}, 'v:"x/y"': {} } },
    "f:spec": { ".": {}, "f:size": {} },
  });
});
