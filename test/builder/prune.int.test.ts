import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import { MANAGED_BY_LABEL } from "../../src/entries/builder.ts";
import type { KubeObject } from "../../src/index.ts";
import type { ObjectReader } from "../../src/entries/client.ts";
import { prune } from "../../src/builder/prune.ts";
import { DesiredInventory } from "../../src/builder/desired-inventory.ts";
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
  describe("prune() itself", () => {
    const MANAGER = { key: MANAGED_BY_LABEL, value: "prune-test" };
    const COMPONENT = { key: "operator-runtime.io/component", value: undefined };
    const kinds = [{ apiVersion: "v1", kind: "ConfigMap" }];
    const child = (name: string, labels: Record<string, string>) => ({
      metadata: { name, labels, ownerReferences: [{ apiVersion: "example.com/v1", kind: "DataApp", name: "demo", uid: owner.metadata.uid, controller: true }] },
      data: { v: "1" },
    });
    const run = (reader: ObjectReader) => prune({
      reader, deleter: client, owner, managedBy: MANAGER, component: COMPONENT, kinds, namespace: NS,
      store: new DesiredInventory(), persistentVolumeClaims: false, dryRun: false,
    });
    /** A reader whose lists ignore label selectors, as a cache holding every object of a kind may. */
    const unselective = (): ObjectReader => {
      const api = client.reader();
      return { get: (ref) => api.get(ref), list: (kind, o) => api.list(kind, { ...o, labelSelector: undefined }) };
    };

    it("never deletes an object without the managed-by label, even one the owner controls", async () => {
      await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, child("hand-made", {}));
      const results = await run(unselective());
      assert.equal(results.some((r) => r.name === "hand-made"), false, JSON.stringify(results));
      assert.equal(await code(`/api/v1/namespaces/${NS}/configmaps/hand-made`), 200);
      const viaBuilder = await new Builder({ client, owner }).configMap(cm("keep")).reconcile();
      assert.equal(viaBuilder.objects.some((o) => o.name === "hand-made"), false);
      assert.equal(await code(`/api/v1/namespaces/${NS}/configmaps/hand-made`), 200);
    });

    it("never deletes on a stale decision: an object changed since the list survives (delete preconditions)", async () => {
      await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, child("stale", { [MANAGED_BY_LABEL]: MANAGER.value }));
      const snapshot = await client.reader().list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: NS });
      // Someone changes it after the list: the decision to prune was made on an old version.
      await raw(cluster.url, "PATCH", `/api/v1/namespaces/${NS}/configmaps/stale`, { data: { v: "2" } }, "application/merge-patch+json");
      const stale: ObjectReader = { get: (ref) => client.reader().get(ref), list: async () => snapshot as never };
      const results = await run(stale);
      const mine = results.find((r) => r.name === "stale");
      assert.equal(mine?.action, "failed", JSON.stringify(results));
      assert.equal(await code(`/api/v1/namespaces/${NS}/configmaps/stale`), 200, "the changed object survives");
    });
  });
});
