import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "foreign";
const CM = `/api/v1/namespaces/${NS}/configmaps/settings`;
const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments/web`;

const settings = (): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" }, data: { mode: "fast" } });
const web = (env: Record<string, string>): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "web", image: "example/web:1", env: Object.entries(env).map(([name, value]) => ({ name, value })) }] },
    },
  },
});

const names = (items: { name: string }[] | undefined) => (items ?? []).map((i) => i.name).sort();

describe("list items other managers own: the Builder keeps its own items and leaves theirs (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  let registryUid: string;
  let env: Record<string, string> = { THEME: "dark", LEVEL: "info" };
  const get = (path: string) => raw(cluster.url, "GET", path).then((r) => r.body);
  const container = (d: any, name: string) => d.spec.template.spec.containers.find((c: { name: string }) => c.name === name);
  const pass = () => new Builder({ client, owner }).configMap(settings()).deployment(web(env)).reconcile();
  const actions = (r: Awaited<ReturnType<typeof pass>>) => r.objects.map((o) => `${o.action} ${o.kind}`);

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "foreign-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
    assert.equal((await pass()).ok, true);
    const registry = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "registry" } });
    registryUid = registry.body.metadata.uid;
    // Another tool, with its own field manager: a non-controller owner reference on our
    // ConfigMap; a sidecar, an env var and a volume in our Deployment's pod template.
    await client.apply({
      apiVersion: "v1", kind: "ConfigMap",
      metadata: { name: "settings", namespace: NS, ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "registry", uid: registryUid }] },
    }, { fieldManager: "registry-tool" });
    await client.apply({
      apiVersion: "apps/v1", kind: "Deployment",
      metadata: { name: "web", namespace: NS },
      spec: { template: { spec: {
        containers: [{ name: "web", env: [{ name: "INJECTED", value: "1" }] }, { name: "sidecar", image: "example/proxy:1" }],
        volumes: [{ name: "proxy-certs", emptyDir: {} }],
      } } },
    }, { fieldManager: "sidecar-injector" });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => cluster.requests.clear());

  const assertForeignItemsStay = async () => {
    const cm = await get(CM);
    assert.ok(cm.metadata.ownerReferences.some((r: { uid: string }) => r.uid === registryUid), "the other tool's owner reference stays");
    const d = await get(DEPLOY);
    assert.deepEqual(names(d.spec.template.spec.containers), ["sidecar", "web"], "the sidecar stays");
    assert.ok(container(d, "web").env.some((e: { name: string }) => e.name === "INJECTED"), "the injected env var stays");
    assert.deepEqual(names(d.spec.template.spec.volumes), ["proxy-certs"], "the injected volume stays");
  };

  it("makes zero writes, pass after pass, when another manager added items to its lists", async () => {
    for (const n of [1, 2]) {
      const result = await pass();
      assert.deepEqual(actions(result), ["unchanged ConfigMap", "unchanged Deployment"], `pass ${n}`);
      assert.equal(cluster.requests.writes(), 0, `pass ${n}: ${JSON.stringify(cluster.requests.summary())}`);
    }
    await assertForeignItemsStay();
  });

  it("corrects an edit of its own container and leaves the sidecar", async () => {
    const d = await get(DEPLOY);
    const i = d.spec.template.spec.containers.findIndex((c: { name: string }) => c.name === "web");
    const edit = await raw(cluster.url, "PATCH", `${DEPLOY}?fieldManager=kubectl-edit`, [{ op: "replace", path: `/spec/template/spec/containers/${i}/image`, value: "example/web:hacked" }], "application/json-patch+json");
    assert.equal(edit.code, 200);
    cluster.requests.clear();
    assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "updated Deployment"]);
    assert.equal(container(await get(DEPLOY), "web").image, "example/web:1");
    await assertForeignItemsStay();
    cluster.requests.clear();
    assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "unchanged Deployment"]);
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("removes an item it no longer desires and keeps the items others own", async () => {
    env = { THEME: "dark" };
    assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "updated Deployment"]);
    assert.deepEqual(names(container(await get(DEPLOY), "web").env), ["INJECTED", "THEME"]);
    await assertForeignItemsStay();
    cluster.requests.clear();
    assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "unchanged Deployment"]);
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("re-adds its item when another manager re-keys it, and leaves the re-keyed item to that manager", async () => {
    const d = await get(DEPLOY);
    const i = d.spec.template.spec.containers.findIndex((c: { name: string }) => c.name === "web");
    const j = container(d, "web").env.findIndex((e: { name: string }) => e.name === "THEME");
    const edit = await raw(cluster.url, "PATCH", `${DEPLOY}?fieldManager=kubectl-edit`, [{ op: "replace", path: `/spec/template/spec/containers/${i}/env/${j}/name`, value: "COLOR_THEME" }], "application/json-patch+json");
    assert.equal(edit.code, 200);
    cluster.requests.clear();
    assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "updated Deployment"]);
    // COLOR_THEME is kubectl-edit's item now (it set its key): documented, left alone.
    assert.deepEqual(names(container(await get(DEPLOY), "web").env), ["COLOR_THEME", "INJECTED", "THEME"]);
    await assertForeignItemsStay();
    cluster.requests.clear();
    assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "unchanged Deployment"]);
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });
});
