import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AppsV1Api, KubernetesObjectApi, PatchStrategy } from "@kubernetes/client-node";
import type { KubernetesObject, V1Deployment } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

const deployment = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, namespace: "default" },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "main", image: "app:1", env: [{ name: "A", value: "1" }] }] } },
    ...extra,
  },
});

describe("LocalCluster PATCH and server-side apply", () => {
  let cluster: LocalCluster;
  let apps: AppsV1Api;
  let objects: KubernetesObjectApi;
  const path = (name: string) => `/apis/apps/v1/namespaces/default/deployments/${name}`;
  before(async () => {
    cluster = await LocalCluster.start();
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("json-patch: a failed test op → 422", async () => {
    await apps.createNamespacedDeployment({ namespace: "default", body: deployment("jp") as V1Deployment });
    const r = await raw(cluster.url, "PATCH", path("jp"), [{ op: "test", path: "/spec/replicas", value: 5 }], "application/json-patch+json");
    assert.equal(r.code, 422);
  });

  it("merge-patch: null deletes, lists replace", async () => {
    await apps.createNamespacedDeployment({ namespace: "default", body: deployment("mp") as V1Deployment });
    const r = await raw(cluster.url, "PATCH", path("mp"), { metadata: { labels: { x: "1" } }, spec: { template: { spec: { containers: [{ name: "other", image: "o" }] } } } }, "application/merge-patch+json");
    assert.equal(r.code, 200);
    assert.deepEqual(r.body.spec.template.spec.containers.map((c: any) => c.name), ["other"]);
    const d = await raw(cluster.url, "PATCH", path("mp"), { metadata: { labels: { x: null } } }, "application/merge-patch+json");
    assert.equal(d.body.metadata.labels, undefined);
  });

  it("strategic-merge on a built-in merges containers and env by name", async () => {
    await apps.createNamespacedDeployment({ namespace: "default", body: deployment("smp") as V1Deployment });
    const r = await raw(cluster.url, "PATCH", path("smp"),
      { spec: { template: { spec: { containers: [{ name: "main", env: [{ name: "B", value: "2" }] }] } } } }, "application/strategic-merge-patch+json");
    assert.equal(r.code, 200);
    const c = r.body.spec.template.spec.containers;
    assert.equal(c.length, 1);
    assert.equal(c[0].image, "app:1");
    assert.deepEqual(c[0].env.map((e: any) => e.name).sort(), ["A", "B"]);
  });

  it("server-side apply creates (201), needs a fieldManager, records managedFields", async () => {
    const none = await raw(cluster.url, "PATCH", path("ssa"), deployment("ssa"), "application/apply-patch+yaml");
    assert.equal(none.code, 422);
    assert.match(none.body.message, /fieldManager: Required value: is required for apply patch/);
    const created = await raw(cluster.url, "PATCH", `${path("ssa")}?fieldManager=alpha`, deployment("ssa"), "application/apply-patch+yaml");
    assert.equal(created.code, 201);
    const mf = created.body.metadata.managedFields;
    assert.equal(mf[0].manager, "alpha");
    assert.equal(mf[0].operation, "Apply");
    assert.ok(mf[0].fieldsV1["f:spec"]["f:replicas"]);
    const again = await raw(cluster.url, "PATCH", `${path("ssa")}?fieldManager=alpha`, deployment("ssa"), "application/apply-patch+yaml");
    assert.equal(again.code, 200);
    assert.equal(again.body.metadata.resourceVersion, created.body.metadata.resourceVersion, "identical apply is a no-op");
  });

  it("conflicts between managers → 409 with FieldManagerConflict; force takes ownership", async () => {
    await raw(cluster.url, "PATCH", `${path("own")}?fieldManager=alpha`, deployment("own"), "application/apply-patch+yaml");
    const clash = await raw(cluster.url, "PATCH", `${path("own")}?fieldManager=beta`,
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "own" }, spec: { replicas: 5 } }, "application/apply-patch+yaml");
    assert.equal(clash.code, 409);
    assert.equal(clash.body.reason, "Conflict");
    assert.equal(clash.body.details.causes[0].type ?? clash.body.details.causes[0].reason, "FieldManagerConflict");
    assert.equal(clash.body.details.causes[0].field, ".spec.replicas");
    assert.match(clash.body.message, /conflict with "alpha"/);
    const forced = await raw(cluster.url, "PATCH", `${path("own")}?fieldManager=beta&force=true`,
      { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "own" }, spec: { replicas: 5 } }, "application/apply-patch+yaml");
    assert.equal(forced.code, 200);
    assert.equal(forced.body.spec.replicas, 5);
    const managers = forced.body.metadata.managedFields.map((m: any) => m.manager).sort();
    assert.deepEqual(managers, ["alpha", "beta"]);
  });

  it("removes fields a manager stops applying, keeps fields another manager owns", async () => {
    const withLabels = (labels: Record<string, string>) => ({ ...deployment("drop"), metadata: { name: "drop", namespace: "default", labels } });
    await raw(cluster.url, "PATCH", `${path("drop")}?fieldManager=alpha`, withLabels({ a: "1", b: "2" }), "application/apply-patch+yaml");
    await raw(cluster.url, "PATCH", path("drop"), { metadata: { labels: { c: "3" } } }, "application/merge-patch+json");
    const r = await raw(cluster.url, "PATCH", `${path("drop")}?fieldManager=alpha`, withLabels({ a: "1" }), "application/apply-patch+yaml");
    assert.deepEqual(r.body.metadata.labels, { a: "1", c: "3" });
  });

  it("client-node's KubernetesObjectApi applies with PatchStrategy.ServerSideApply", async () => {
    const applied = await objects.patch(deployment("via-client") as KubernetesObject, undefined, undefined, "tests", true, PatchStrategy.ServerSideApply);
    assert.equal(applied.metadata?.name, "via-client");
  });

  it("force is refused on non-apply patches", async () => {
    const r = await raw(cluster.url, "PATCH", `${path("jp")}?force=true`, {}, "application/merge-patch+json");
    assert.equal(r.code, 422);
  });
});
