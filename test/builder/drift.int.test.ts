import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "drift";

const settings = (): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" }, data: { version: "1.10", port: "0080" } });
const web = (cpu: string): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx", resources: { limits: { cpu, memory: "1024Mi" } } }] } },
  },
});

describe("drift: what the Builder corrects and what it leaves (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  const get = (path: string) => raw(cluster.url, "GET", path).then((r) => r.body);
  const mergePatch = (path: string, body: unknown) => raw(cluster.url, "PATCH", `${path}?fieldManager=kubectl-edit`, body, "application/merge-patch+json");
  const pass = (extra?: { labels?: Record<string, string> }) =>
    new Builder({ client, owner, labels: extra?.labels ?? {} }).configMap(settings()).deployment(web("0.5")).reconcile();

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "drift-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
    assert.equal((await pass()).ok, true);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => cluster.requests.clear());

  it("corrects a hand edit of ConfigMap data that only looks like the same number", async () => {
    await mergePatch(`/api/v1/namespaces/${NS}/configmaps/settings`, { data: { version: "1.1", port: "80" } });
    const result = await pass();
    assert.equal(result.objects.find((o) => o.kind === "ConfigMap")!.action, "updated");
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/settings`)).data, { version: "1.10", port: "0080" });
  });

  it("leaves a quantity the server spelled differently alone: zero writes", async () => {
    const path = `/apis/apps/v1/namespaces/${NS}/deployments/web`;
    const patch = [
      { op: "replace", path: "/spec/template/spec/containers/0/resources/limits/cpu", value: "500m" },
      { op: "replace", path: "/spec/template/spec/containers/0/resources/limits/memory", value: "1Gi" },
    ];
    assert.equal((await raw(cluster.url, "PATCH", path, patch, "application/json-patch+json")).code, 200);
    cluster.requests.clear();
    const result = await pass();
    assert.deepEqual(result.objects.map((o) => o.action), ["unchanged", "unchanged"]);
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("removes a field the desired state no longer has (the desired hash changed, the rest is a subset)", async () => {
    assert.equal((await pass({ labels: { tier: "frontend" } })).ok, true);
    assert.equal((await get(`/api/v1/namespaces/${NS}/configmaps/settings`)).metadata.labels.tier, "frontend");
    const result = await pass();
    assert.equal(result.objects.find((o) => o.kind === "ConfigMap")!.action, "updated");
    assert.equal((await get(`/api/v1/namespaces/${NS}/configmaps/settings`)).metadata.labels.tier, undefined);
  });
});
