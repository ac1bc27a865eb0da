import { test } from "node:test";
import assert from "node:assert/strict";
import {
  builtinColumns,
  evaluateJsonPath,
  humanDuration,
  shortHumanDuration,
  toTable,
  wantsTable,
} from "../../../src/testing/views/table.ts";
import type { KubeObject, PrinterColumn, ResourceType } from "../../../src/testing/resource-type.ts";

const now = new Date("2026-01-10T12:00:00Z");

function resourceType(overrides: Partial<ResourceType>): ResourceType {
  return {
    group: "example.com",
    version: "v1",
    kind: "Widget",
    plural: "widgets",
    singular: "widget",
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"],
    status: true,
    scale: undefined,
    builtin: false,
    hasGeneration: true,
    requireResourceVersion: true,
    storageKey: "example.com/widgets",
    printerColumns: [],
    schema: { type: "object" },
    listType: () => ({ type: "atomic" }),
    ...overrides,
  };
}

const widgetColumns: PrinterColumn[] = [
  { name: "Size", type: "integer", jsonPath: ".spec.size" },
  { name: "Image", type: "string", jsonPath: ".spec.containers[0].image", priority: 1 },
  { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: "Phase", type: "string", jsonPath: ".status.phase", description: "The phase." },
  { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
];

const widget: KubeObject = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w1", namespace: "default", resourceVersion: "12", creationTimestamp: "2026-01-10T11:57:00Z" },
  spec: { size: 3, containers: [{ name: "main", image: "nginx:1.27" }] },
  status: { conditions: [{ type: "Progressing", status: "False" }, { type: "Ready", status: "True" }] },
};

test("a CRD table has Name plus each printer column, with descriptions and priorities", () => {
  const table = toTable(resourceType({ printerColumns: widgetColumns }), [widget], "20", now);
  assert.equal(table.kind, "Table");
  assert.equal(table.apiVersion, "meta.k8s.io/v1");
  assert.deepEqual(table.metadata, { resourceVersion: "20" });
  const columns = table.columnDefinitions as Array<Record<string, unknown>>;
  assert.deepEqual(columns.map((c) => c.name), ["Name", "Size", "Image", "Ready", "Phase", "Age"]);
  assert.deepEqual(columns[0], { name: "Name", type: "string", format: "name", description: columns[0]!.description, priority: 0 });
  assert.equal(columns[1]!.description, "Custom resource definition column (in JSONPath format): .spec.size");
  assert.equal(columns[2]!.priority, 1);
  assert.equal(columns[4]!.description, "The phase.");
});

test("CRD cells follow nested and filtered JSONPaths, a missing value is a null cell and a date is an age", () => {
  const table = toTable(resourceType({ printerColumns: widgetColumns }), [widget], "20", now);
  const rows = table.rows as Array<{ cells: unknown[]; object: KubeObject }>;
  assert.deepEqual(rows[0]!.cells, ["w1", 3, "nginx:1.27", "True", null, "3m"]);
});

test("rows carry PartialObjectMetadata by default, the whole object or nothing on request", () => {
  const type = resourceType({ printerColumns: widgetColumns });
  const metaRow = (toTable(type, [widget], "20", now).rows as Array<Record<string, unknown>>)[0]!;
  assert.deepEqual(metaRow.object, { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: widget.metadata });
  const objectRow = (toTable(type, [widget], "20", now, "Object").rows as Array<Record<string, unknown>>)[0]!;
  assert.deepEqual(objectRow.object, widget);
  const bareRow = (toTable(type, [widget], "20", now, "None").rows as Array<Record<string, unknown>>)[0]!;
  assert.equal(bareRow.object, null, "includeObject=None: object is null, as kube-apiserver sends it");
});

test("a CRD without printer columns gets Name and Age like the apiextensions server", () => {
  const table = toTable(resourceType({}), [widget], "20", now);
  assert.deepEqual((table.columnDefinitions as Array<{ name: string; type: string }>).map((c) => [c.name, c.type]), [
    ["Name", "string"],
    ["Age", "date"],
  ]);
  assert.deepEqual((table.rows as Array<{ cells: unknown[] }>)[0]!.cells, ["w1", "3m"]);
});

test("typed CRD cells convert like the server: integers truncate, wrong types are null, bad dates are <invalid>", () => {
  const columns: PrinterColumn[] = [
    { name: "I", type: "integer", jsonPath: ".spec.ratio" },
    { name: "B", type: "boolean", jsonPath: ".spec.ratio" },
    { name: "S", type: "string", jsonPath: ".spec.labels" },
    { name: "D", type: "date", jsonPath: ".spec.when" },
  ];
  const obj = { metadata: { name: "x" }, spec: { ratio: 2.7, labels: { a: "b" }, when: "yesterday" } };
  const cells = (toTable(resourceType({ printerColumns: columns }), [obj], "1", now).rows as Array<{ cells: unknown[] }>)[0]!.cells;
  assert.deepEqual(cells, ["x", 2, null, '{"a":"b"}', "<invalid>"]);
});

test("built-in kinds use their printers: a ConfigMap shows Name, Data and Age", () => {
  const type = resourceType({ group: "", kind: "ConfigMap", plural: "configmaps", builtin: true });
  const cm = { metadata: { name: "cfg", creationTimestamp: "2026-01-10T11:54:30Z" }, data: { a: "1", b: "2" }, binaryData: { c: "" } };
  const table = toTable(type, [cm], "5", now);
  assert.deepEqual((table.columnDefinitions as Array<{ name: string }>).map((c) => c.name), ["Name", "Data", "Age"]);
  assert.deepEqual((table.rows as Array<{ cells: unknown[] }>)[0]!.cells, ["cfg", 3, "5m30s"]);
});

test("a Deployment row shows ready out of desired replicas", () => {
  const deploy = {
    metadata: { name: "web", creationTimestamp: "2026-01-08T12:00:00Z" },
    spec: { replicas: 3 },
    status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
  };
  assert.deepEqual(builtinColumns("Deployment")!.cells(deploy, now), ["web", "2/3", 3, 2, "2d"]);
});

test("a Service row shows type, cluster IP and ports", () => {
  const svc = {
    metadata: { name: "web", creationTimestamp: "2026-01-10T11:59:00Z" },
    spec: { type: "NodePort", clusterIP: "10.0.0.5", ports: [{ port: 80, nodePort: 30080, protocol: "TCP" }, { port: 53, protocol: "UDP" }] },
  };
  assert.deepEqual(builtinColumns("Service")!.cells(svc, now), ["web", "NodePort", "10.0.0.5", "<none>", "80:30080/TCP,53/UDP", "60s"]);
});

test("an Event row has a cell for every column, including the wide ones", () => {
  const printer = builtinColumns("Event")!;
  const ev = {
    metadata: { name: "web.1" },
    involvedObject: { kind: "Deployment", name: "web" },
    reason: "Synced",
    message: "ok ",
    type: "Normal",
    source: { component: "web-operator" },
    firstTimestamp: "2026-01-10T11:00:00Z",
    lastTimestamp: "2026-01-10T11:59:50Z",
    count: 7,
  };
  const cells = printer.cells(ev, now);
  assert.equal(cells.length, printer.columns.length);
  assert.deepEqual(cells, ["10s", "Normal", "Synced", "deployment/web", "", "web-operator", "ok", "60m", 7, "web.1"]);
});

test("an unknown built-in kind falls back to Name and Age", () => {
  const type = resourceType({ group: "", kind: "Gizmo", plural: "gizmos", builtin: true });
  const table = toTable(type, [widget], "1", now);
  assert.deepEqual((table.columnDefinitions as Array<{ name: string }>).map((c) => c.name), ["Name", "Age"]);
  assert.equal(builtinColumns("toString"), undefined);
});

test("kubectl's Accept header asks for a Table; plain JSON and other `as` values do not", () => {
  const kubectl =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
  assert.equal(wantsTable(kubectl), true);
  assert.equal(wantsTable("application/json; as=Table; g=meta.k8s.io; v=v1beta1"), true);
  assert.equal(wantsTable(undefined), false);
  assert.equal(wantsTable(""), false);
  assert.equal(wantsTable("application/json"), false);
  assert.equal(wantsTable("application/vnd.kubernetes.protobuf,application/json"), false);
  assert.equal(wantsTable("application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"), false);
  assert.equal(wantsTable("application/json;as=Table;v=v2;g=meta.k8s.io"), false);
  assert.equal(wantsTable("application/yaml;as=Table;v=v1;g=meta.k8s.io"), false);
});

test("JSONPath supports bracketed keys, negative indices and wildcards, and rejects recursive descent", () => {
  const obj = { metadata: { labels: { "app.kubernetes.io/name": "web" } }, items: [1, 2, 3] };
  assert.deepEqual(evaluateJsonPath(obj, ".metadata.labels['app.kubernetes.io/name']"), ["web"]);
  assert.deepEqual(evaluateJsonPath(obj, "{.items[-1]}"), [3]);
  assert.deepEqual(evaluateJsonPath(obj, "$.items[*]"), [1, 2, 3]);
  assert.deepEqual(evaluateJsonPath(obj, ".missing.deeper"), []);
  assert.equal(evaluateJsonPath(obj, "..items"), undefined);
});

test("ages read like kubectl's: short for CRD dates, two units for built-ins", () => {
  assert.equal(shortHumanDuration(5_000), "5s");
  assert.equal(shortHumanDuration(3 * 60_000 + 59_000), "3m");
  assert.equal(shortHumanDuration(49 * 3_600_000), "2d");
  assert.equal(shortHumanDuration(-5_000), "<invalid>");
  assert.equal(humanDuration(119_000), "119s");
  assert.equal(humanDuration(5 * 60_000), "5m");
  assert.equal(humanDuration(3 * 3_600_000 + 20 * 60_000), "3h20m");
  assert.equal(humanDuration(52 * 3_600_000), "2d4h");
  assert.equal(humanDuration(400 * 24 * 3_600_000), "400d");
  assert.equal(humanDuration(3 * 365 * 24 * 3_600_000 + 45 * 24 * 3_600_000), "3y45d");
});
