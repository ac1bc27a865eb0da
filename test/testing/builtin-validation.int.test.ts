/**
 * Validation of built-in kinds over HTTP: LocalCluster answers an invalid Deployment, Pod,
 * Service, Job or PVC with kube-apiserver v1.36's 422 — every cause at once, in its order, with
 * its field paths and messages (the recorded answers of test/conformance, `errors/422
 * Deployment …`), through the real client-node and raw HTTP, and stores nothing.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, AppsV1Api, BatchV1Api, CoreV1Api } from "@kubernetes/client-node";
import type { V1Deployment } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { conformanceDeployment, rejection } from "../support/kube-objects.ts";

/** The conformance sequences' Deployment, with its container port 80. */
const deployment = (name: string): any => conformanceDeployment(name, {}, { ports: [{ containerPort: 80 }] });

const NS = "default";

type Cause = { reason: string; field: string; message: string };

/** Asserts kube-apiserver's 422 body for `kind` `name` with exactly `causes`. */
function assertInvalid(r: { code: number; body: any }, kind: string, group: string, name: string, causes: Cause[]): void {
  assert.equal(r.code, 422, JSON.stringify(r.body));
  assert.equal(r.body.kind, "Status");
  assert.equal(r.body.status, "Failure");
  assert.equal(r.body.reason, "Invalid");
  assert.equal(r.body.code, 422);
  assert.deepEqual(r.body.details, { name, ...(group ? { group } : {}), kind, causes });
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  assert.equal(r.body.message, `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${summary}`);
}

const C = "spec.template.spec.containers[0]";
const DNS_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character " +
  "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/** `errors/422 Deployment validation, one invalid field at a time`: [label, mutation, cause]. */
const ONE_AT_A_TIME: [string, (d: any) => void, Cause][] = [
  ["replicas=-1", (d) => (d.spec.replicas = -1), { reason: "FieldValueInvalid", field: "spec.replicas", message: "Invalid value: -1: must be greater than or equal to 0" }],
  ["image empty", (d) => (d.spec.template.spec.containers[0].image = ""), { reason: "FieldValueRequired", field: `${C}.image`, message: "Required value" }],
  [
    "containerPort 70000",
    (d) => (d.spec.template.spec.containers[0].ports = [{ containerPort: 70000 }]),
    { reason: "FieldValueInvalid", field: `${C}.ports[0].containerPort`, message: "Invalid value: 70000: must be between 1 and 65535, inclusive" },
  ],
  [
    "container name with caps",
    (d) => (d.spec.template.spec.containers[0].name = "Bad"),
    { reason: "FieldValueInvalid", field: `${C}.name`, message: `Invalid value: "Bad": ${DNS_LABEL_MSG}` },
  ],
  [
    "duplicate container names",
    (d) => d.spec.template.spec.containers.push({ name: "c", image: "x" }),
    { reason: "FieldValueDuplicate", field: "spec.template.spec.containers[1].name", message: 'Duplicate value: "c"' },
  ],
  ["env var without name", (d) => (d.spec.template.spec.containers[0].env = [{ value: "x" }]), { reason: "FieldValueRequired", field: `${C}.env[0].name`, message: "Required value" }],
  [
    "resources limit < request",
    (d) => (d.spec.template.spec.containers[0].resources = { requests: { cpu: "2" }, limits: { cpu: "1" } }),
    { reason: "FieldValueInvalid", field: `${C}.resources.requests`, message: 'Invalid value: "2": must be less than or equal to cpu limit of 1' },
  ],
];

describe("built-in kind validation over HTTP (kube-apiserver v1.36 422s)", { timeout: 60_000 }, () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let batch: BatchV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    batch = cluster.kubeConfig.makeApiClient(BatchV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a Deployment with several invalid fields gets all four causes at once, in kube's order (client-node)", async () => {
    const d = deployment("web");
    d.spec.selector = { matchLabels: { app: "other" } };
    d.spec.replicas = -1;
    d.spec.template.spec.containers[0].image = "";
    d.spec.template.spec.containers[0].ports = [{ containerPort: 70000 }];
    const r = await rejection(apps.createNamespacedDeployment({ namespace: NS, body: d as V1Deployment }));
    assertInvalid(r, "Deployment", "apps", "web", [
      { reason: "FieldValueInvalid", field: "spec.replicas", message: "Invalid value: -1: must be greater than or equal to 0" },
      { reason: "FieldValueInvalid", field: "spec.template.metadata.labels", message: 'Invalid value: {"app":"web"}: `selector` does not match template `labels`' },
      { reason: "FieldValueRequired", field: `${C}.image`, message: "Required value" },
      { reason: "FieldValueInvalid", field: `${C}.ports[0].containerPort`, message: "Invalid value: 70000: must be between 1 and 65535, inclusive" },
    ]);
    const get = await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/deployments/web`);
    assert.equal(get.code, 404, "nothing stored");
  });

  it("one invalid field at a time: each its own single cause (raw HTTP)", async () => {
    for (const [i, [label, mutate, cause]] of ONE_AT_A_TIME.entries()) {
      const d = deployment(`d${i}`);
      mutate(d);
      const r = await raw(cluster.url, "POST", `/apis/apps/v1/namespaces/${NS}/deployments`, d);
      assert.equal(r.code, 422, `${label}: ${r.text}`);
      assertInvalid(r, "Deployment", "apps", `d${i}`, [cause]);
    }
  });

  it("the same rules apply on update (PUT) and to the result of a patch", async () => {
    await apps.createNamespacedDeployment({ namespace: NS, body: deployment("upd") as V1Deployment });
    const live = await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/deployments/upd`);
    const changed = structuredClone(live.body);
    changed.spec.template.spec.containers[0].image = "";
    const put = await raw(cluster.url, "PUT", `/apis/apps/v1/namespaces/${NS}/deployments/upd`, changed);
    assertInvalid(put, "Deployment", "apps", "upd", [{ reason: "FieldValueRequired", field: `${C}.image`, message: "Required value" }]);
    const patch = await raw(
      cluster.url,
      "PATCH",
      `/apis/apps/v1/namespaces/${NS}/deployments/upd`,
      [{ op: "replace", path: "/spec/replicas", value: -3 }],
      "application/json-patch+json",
    );
    assertInvalid(patch, "Deployment", "apps", "upd", [{ reason: "FieldValueInvalid", field: "spec.replicas", message: "Invalid value: -3: must be greater than or equal to 0" }]);
    const after = await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/deployments/upd`);
    assert.equal(after.body.metadata.resourceVersion, live.body.metadata.resourceVersion, "nothing stored");
  });

  it("a Pod's containers are validated with kube's paths", async () => {
    const r = await rejection(
      core.createNamespacedPod({
        namespace: NS,
        body: { metadata: { name: "p" }, spec: { containers: [{ name: "main", image: "busybox", ports: [{ containerPort: 0 }], volumeMounts: [{ name: "nope", mountPath: "/x" }] }] } },
      }),
    );
    assertInvalid(r, "Pod", "", "p", [
      { reason: "FieldValueRequired", field: "spec.containers[0].ports[0].containerPort", message: "Required value" },
      { reason: "FieldValueNotFound", field: "spec.containers[0].volumeMounts[0].name", message: 'Not found: "nope"' },
    ]);
  });

  it("a Service needs ports (unless headless), and names for each of several", async () => {
    const none = await rejection(core.createNamespacedService({ namespace: NS, body: { metadata: { name: "s1" }, spec: { selector: { app: "x" } } } }));
    assertInvalid(none, "Service", "", "s1", [{ reason: "FieldValueRequired", field: "spec.ports", message: "Required value" }]);
    const unnamed = await rejection(
      core.createNamespacedService({ namespace: NS, body: { metadata: { name: "s2" }, spec: { ports: [{ port: 80 }, { name: "b", port: 81 }] } } }),
    );
    assertInvalid(unnamed, "Service", "", "s2", [{ reason: "FieldValueRequired", field: "spec.ports[0].name", message: "Required value" }]);
    const headless = await core.createNamespacedService({ namespace: NS, body: { metadata: { name: "s3" }, spec: { clusterIP: "None", selector: { app: "x" } } } });
    assert.equal(headless.spec?.clusterIP, "None");
  });

  it("a Job's pod template may not keep the default restartPolicy Always", async () => {
    const r = await rejection(
      batch.createNamespacedJob({ namespace: NS, body: { metadata: { name: "j" }, spec: { template: { spec: { containers: [{ name: "c", image: "busybox" }] } } } } }),
    );
    assertInvalid(r, "Job", "batch", "j", [
      { reason: "FieldValueNotSupported", field: "spec.template.spec.restartPolicy", message: 'Unsupported value: "Always": supported values: "OnFailure", "Never"' },
    ]);
  });

  it("a PVC needs access modes and a storage request", async () => {
    const r = await rejection(core.createNamespacedPersistentVolumeClaim({ namespace: NS, body: { metadata: { name: "pvc" }, spec: {} } }));
    assertInvalid(r, "PersistentVolumeClaim", "", "pvc", [
      { reason: "FieldValueRequired", field: "spec.accessModes", message: "Required value: at least 1 access mode is required" },
      { reason: "FieldValueRequired", field: "spec.resources[storage]", message: "Required value" },
    ]);
  });

  it("a quantity that does not parse is a 400 from decoding, as kube-apiserver answers", async () => {
    const d = deployment("q");
    d.spec.template.spec.containers[0].resources = { limits: { memory: "lots" } };
    const r = await raw(cluster.url, "POST", `/apis/apps/v1/namespaces/${NS}/deployments`, d);
    assert.equal(r.code, 400, r.text);
    assert.equal(r.body.reason, "BadRequest");
    assert.equal(
      r.body.message,
      `Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  });
});
