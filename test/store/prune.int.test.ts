import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "pruning";
const cm = (name: string): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { a: "1" } });
const svc = (name: string): KubeObject => ({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } });

describe("prune through the Builder (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  const code = async (path: string) => (await raw(cluster.url, "GET", path)).code;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "prune-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("reports a failed prune list in the result and resolves, keeping what was already pruned", async () => {
    assert.equal((await new Builder({ client, owner }).configMap(cm("keep")).configMap(cm("gone")).service(svc("gone")).reconcile()).ok, true);
    cluster.inject({ verb: "list", resource: "services", code: 500 });
    const result = await new Builder({ client, owner }).configMap(cm("keep")).reconcile();
    assert.equal(result.ok, false);
    const lines = result.objects.map((o) => `${o.action} ${o.kind}/${o.name}`);
    assert.deepEqual(lines, ["unchanged ConfigMap/keep", "deleted ConfigMap/gone", "failed Service/*"]);
    const failed = result.objects.find((o) => o.action === "failed")!;
    assert.match(failed.reason ?? "", /listing Service objects to prune failed/);
    assert.equal(result.errors.length, 1);
    assert.equal(await code(`/api/v1/namespaces/${NS}/configmaps/gone`), 404);
    assert.equal(await code(`/api/v1/namespaces/${NS}/services/gone`), 200, "not pruned while its list failed");

    const retried = await new Builder({ client, owner }).configMap(cm("keep")).reconcile();
    assert.equal(retried.ok, true);
    assert.deepEqual(retried.objects.filter((o) => o.action === "deleted").map((o) => `${o.kind}/${o.name}`), ["Service/gone"]);
  });
});
