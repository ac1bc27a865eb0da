/**
 * Bodies of built-in kinds are decoded as kube-apiserver v1.36.2 decodes them into the kind's Go
 * struct: unknown fields are dropped with a `Warning` (or a 400 with `fieldValidation=Strict`,
 * nothing with `Ignore`), a value of the wrong type is a 400, empty `omitempty` collections are
 * left out, and server-side apply refuses undeclared fields with structured-merge-diff's 500.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { conformanceDeployment } from "../support/kube-objects.ts";

const NS = "decode";
const cmPath = `/api/v1/namespaces/${NS}/configmaps`;
const deployPath = `/apis/apps/v1/namespaces/${NS}/deployments`;

const deployment = conformanceDeployment;

describe("LocalCluster decodes built-in bodies as kube-apiserver does", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("drops an unknown field with a Warning header by default", async () => {
    const r = await raw(cluster.url, "POST", cmPath, { metadata: { name: "warned" }, data: { k: "v" }, spec: { x: 1 } });
    assert.equal(r.code, 201, r.text);
    assert.equal(r.headers.get("warning"), '299 - "unknown field \\"spec\\""');
    assert.equal(r.body.spec, undefined);
    const got = await raw(cluster.url, "GET", `${cmPath}/warned`);
    assert.equal(got.body.spec, undefined);
    assert.deepEqual(got.body.data, { k: "v" });
  });

  it("warns once per unknown field, with nested and list paths", async () => {
    const body = deployment("nested", { foo: 1 }, { bogus: true });
    const r = await raw(cluster.url, "POST", deployPath, body);
    assert.equal(r.code, 201, r.text);
    assert.equal(r.headers.get("warning"),
      '299 - "unknown field \\"spec.template.spec.containers[0].bogus\\"", 299 - "unknown field \\"spec.foo\\""');
    assert.equal(r.body.spec.foo, undefined);
    assert.equal(r.body.spec.template.spec.containers[0].bogus, undefined);
  });

  it("answers fieldValidation=Strict with kube-apiserver's 400, and Ignore with silence", async () => {
    const strict = await raw(cluster.url, "POST", `${cmPath}?fieldValidation=Strict`, { metadata: { name: "strict", typo: 1 }, spec: {} });
    assert.equal(strict.code, 400, strict.text);
    assert.equal(strict.body.reason, "BadRequest");
    assert.equal(strict.body.message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.typo", unknown field "spec"');
    assert.equal((await raw(cluster.url, "GET", `${cmPath}/strict`)).code, 404);

    const ignored = await raw(cluster.url, "POST", `${cmPath}?fieldValidation=Ignore`, { metadata: { name: "ignored" }, spec: {} });
    assert.equal(ignored.code, 201, ignored.text);
    assert.equal(ignored.headers.get("warning"), null);
    assert.equal(ignored.body.spec, undefined);
  });

  it("decodes updates and patch results too", async () => {
    const created = await raw(cluster.url, "POST", cmPath, { metadata: { name: "updated" }, data: { k: "v" } });
    const put = await raw(cluster.url, "PUT", `${cmPath}/updated`, { ...created.body, extra: "x" });
    assert.equal(put.code, 200, put.text);
    assert.equal(put.headers.get("warning"), '299 - "unknown field \\"extra\\""');
    assert.equal(put.body.extra, undefined);
    const patched = await raw(cluster.url, "PATCH", `${cmPath}/updated`, { metadata: { annotations: { a: "1" } }, other: 1 }, "application/merge-patch+json");
    assert.equal(patched.code, 200, patched.text);
    assert.equal(patched.headers.get("warning"), '299 - "unknown field \\"other\\""');
    assert.equal(patched.body.other, undefined);
    assert.equal(patched.body.metadata.annotations.a, "1");
  });

  it("answers a value of the wrong type with the Go decoder's 400", async () => {
    const r = await raw(cluster.url, "POST", deployPath, deployment("typed", { replicas: "three" }));
    assert.equal(r.code, 400, r.text);
    assert.equal(r.body.reason, "BadRequest");
    assert.equal(r.body.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.equal((await raw(cluster.url, "GET", `${deployPath}/typed`)).code, 404);
    const port = await raw(cluster.url, "POST", deployPath, deployment("port", {}, { ports: [{ containerPort: "80" }] }));
    assert.equal(port.code, 400, port.text);
    assert.match(port.body.message, /Go struct field ContainerPort\.spec\.template\.spec\.containers\.ports\.containerPort of type int32$/);
    const intOrString = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`,
      { metadata: { name: "svc" }, spec: { ports: [{ port: 80, targetPort: "http" }] } });
    assert.equal(intOrString.code, 201, intOrString.text);
  });

  it("leaves out empty optional maps and lists, and keeps empty structs", async () => {
    const r = await raw(cluster.url, "POST", cmPath, { metadata: { generateName: "gen-", labels: {} }, data: {} });
    assert.equal(r.code, 201, r.text);
    assert.equal(r.body.data, undefined);
    assert.equal(r.body.metadata.labels, undefined);
    assert.equal(JSON.stringify(r.body.metadata.managedFields[0].fieldsV1), '{"f:metadata":{"f:generateName":{}}}');
    const d = await raw(cluster.url, "POST", deployPath, deployment("empty", {}, { securityContext: {}, env: [] }));
    assert.equal(d.code, 201, d.text);
    const container = d.body.spec.template.spec.containers[0];
    assert.deepEqual(container.securityContext, {});
    assert.equal(container.env, undefined);
  });

  it("leaves kinds stored without conversion between versions alone (autoscaling/v1 HorizontalPodAutoscaler)", async () => {
    const r = await raw(cluster.url, "POST", `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`, {
      metadata: { name: "hpa" },
      spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    });
    assert.equal(r.code, 201, r.text);
    assert.equal(r.headers.get("warning"), null);
    assert.equal(r.body.spec.targetCPUUtilizationPercentage, 50);
  });

  it("answers server-side apply of an undeclared field with structured-merge-diff's 500", async () => {
    const body = deployment("applied", { foo: 1 });
    const r = await raw(cluster.url, "PATCH", `${deployPath}/applied?fieldManager=m1`, body, "application/apply-patch+yaml");
    assert.equal(r.code, 500, r.text);
    assert.deepEqual(r.body, {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code: 500,
      message: "failed to create typed patch object (/applied; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema",
    });
    assert.equal((await raw(cluster.url, "GET", `${deployPath}/applied`)).code, 404);
    const ok = await raw(cluster.url, "PATCH", `${deployPath}/applied?fieldManager=m1`, deployment("applied"), "application/apply-patch+yaml");
    assert.equal(ok.code, 201, ok.text);
  });

  it("answers apply without a fieldManager with PatchOptions' 422 and its cause", async () => {
    const r = await raw(cluster.url, "PATCH", `${deployPath}/nomanager`, deployment("nomanager"), "application/apply-patch+yaml");
    assert.equal(r.code, 422, r.text);
    assert.equal(r.body.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assert.deepEqual(r.body.details, {
      group: "meta.k8s.io",
      kind: "PatchOptions",
      causes: [{ reason: "FieldValueRequired", message: "Required value: is required for apply patch", field: "fieldManager" }],
    });
  });
});
