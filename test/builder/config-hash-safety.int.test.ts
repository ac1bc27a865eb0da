import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";
import { config, secret, server } from "./fixtures.ts";

const NS = "hashes";

describe("config hashes describe config the cluster holds (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  const get = (path: string) => raw(cluster.url, "GET", path).then((r) => r.body);
  const sts = () => get(`/apis/apps/v1/namespaces/${NS}/statefulsets/server`);
  const envOf = (o: any): Record<string, string> =>
    Object.fromEntries((o.spec.template.spec.containers[0].env ?? []).map((e: any) => [e.name, e.value]));

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator" });
    owner = await createDataApp(cluster.url, NS, "demo");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("holds a workload back while a Secret it reads failed to be written, and rolls it once the Secret is written", async () => {
    const pass = (password: string) => new Builder({ client, owner }).configMap(config()).secret(secret(password)).statefulSet(server()).reconcile();
    assert.equal((await pass("one")).ok, true);
    const before = envOf(await sts());

    cluster.inject({ verb: "patch", resource: "secrets", code: 500 });
    const failed = await pass("two");
    assert.equal(failed.ok, false);
    const byName = Object.fromEntries(failed.objects.map((o) => [`${o.kind}/${o.name}`, o]));
    assert.equal(byName["Secret/app-secret"]!.action, "failed");
    assert.equal(byName["StatefulSet/server"]!.action, "waiting");
    assert.match(byName["StatefulSet/server"]!.reason ?? "", /Secret\/hashes\/app-secret/);
    assert.deepEqual(envOf(await sts()), before, "the pods keep the hash of the Secret they run with");

    const retried = await pass("two");
    assert.equal(retried.ok, true, retried.errors.map((e) => e.message).join("\n"));
    const after = envOf(await sts());
    assert.notEqual(after.SECRET_APP_SECRET_HASH, before.SECRET_APP_SECRET_HASH, "the StatefulSet rolls with the written Secret");
    assert.equal(retried.objects.find((o) => o.kind === "StatefulSet")!.action, "updated");
  });

  it("a read error of a referenced ConfigMap fails that workload for the pass, writing nothing for it; NotFound means absent", async () => {
    // app-config is not added by this Builder: its hash comes from the live ConfigMap.
    const pass = () => new Builder({ client, owner, prune: false }).secret(secret("two")).statefulSet(server()).reconcile();
    assert.equal((await pass()).ok, true);
    const before = await sts();
    assert.ok(envOf(before).CONFIGMAP_APP_CONFIG_HASH, "the live ConfigMap is hashed");

    cluster.inject({ verb: "get", resource: "configmaps", name: "app-config", code: 500 });
    const result = await pass();
    assert.equal(result.ok, false);
    const statefulSet = result.objects.find((o) => o.kind === "StatefulSet")!;
    assert.equal(statefulSet.action, "failed");
    assert.match(statefulSet.error!.message, /ConfigMap\/hashes\/app-config/);
    const after = await sts();
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion, "nothing written for the workload");

    await raw(cluster.url, "DELETE", `/api/v1/namespaces/${NS}/configmaps/app-config`);
    const absent = await pass();
    assert.equal(absent.ok, true, absent.errors.map((e) => e.message).join("\n"));
    assert.equal(envOf(await sts()).CONFIGMAP_APP_CONFIG_HASH, undefined, "a ConfigMap that does not exist has no hash");
  });

  it("hashes a ConfigMap the Builder does not add, and rolls the workload when its data changes", async () => {
    const unmanaged: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app-config" }, data: { "app.properties": "threads=1" } };
    await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, unmanaged);
    const pass = () => new Builder({ client, owner, prune: false }).secret(secret("two")).statefulSet(server()).reconcile();
    assert.equal((await pass()).ok, true);
    const first = envOf(await sts()).CONFIGMAP_APP_CONFIG_HASH;
    assert.ok(first);
    await raw(cluster.url, "PATCH", `/api/v1/namespaces/${NS}/configmaps/app-config`, { data: { "app.properties": "threads=2" } }, "application/merge-patch+json");
    const result = await pass();
    assert.equal(result.objects.find((o) => o.kind === "StatefulSet")!.action, "updated");
    assert.notEqual(envOf(await sts()).CONFIGMAP_APP_CONFIG_HASH, first);
  });
});
