import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, Manager, Action, finalizer, createLogger } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const DATAAPP = { apiVersion: "example.com/v1", kind: "DataApp" };
const NS = "ctrl";

describe("Controller with the Manager: owned objects, finalizers, metrics", () => {
  let cluster: LocalCluster;
  let mgr: Manager;
  const reconciles: string[] = [];
  const cleanups = new Map<string, number>();
  let failCleanup = 0;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator", healthPort: 0, healthHost: "127.0.0.1", logger: createLogger({ level: (process.env.TEST_LOG as never) ?? "error" }) });
    mgr.controller("dataapp")
      .for(DATAAPP)
      .owns({ apiVersion: "v1", kind: "ConfigMap" })
      .reconcile(async (req) => {
        reconciles.push(`${req.namespace}/${req.name}`);
        const app = mgr.cache.informer<KubeObject>(DATAAPP).get(req.name, req.namespace);
        if (!app) return Action.done();
        return finalizer(mgr.client, app, "example.com/cleanup", {
          apply: async (obj) => {
            const result = await new Builder({ client: mgr.client, owner: obj, reader: mgr.cache })
              .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${req.name}-config` }, data: { owner: req.name } })
              .reconcile();
            if (!result.ok) throw new AggregateError(result.errors, "children failed");
          },
          cleanup: async () => {
            if (failCleanup > 0) {
              failCleanup--;
              throw new Error("cleanup failed (test)");
            }
            cleanups.set(req.name, (cleanups.get(req.name) ?? 0) + 1);
          },
        });
      });
    await within(mgr.start(), "mgr.start()", 15_000);
  });
  after(async () => {
    await within(mgr.stop(), "mgr.stop()", 15_000);
    await within(cluster.stop(), "cluster.stop()");
  });

  it("creates children, and restores a deleted or edited child by re-reconciling its owner", async () => {
    await createDataApp(cluster.url, NS, "alpha");
    const cmPath = `/api/v1/namespaces/${NS}/configmaps/alpha-config`;
    await waitFor(async () => (await raw(cluster.url, "GET", cmPath)).code === 200, "child created");
    const app = (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/dataapps/alpha`)).body;
    assert.deepEqual(app.metadata.finalizers, ["example.com/cleanup"]);
    const before = reconciles.length;
    await raw(cluster.url, "DELETE", cmPath);
    await waitFor(async () => (await raw(cluster.url, "GET", cmPath)).code === 200, "child restored after deletion");
    assert.ok(reconciles.slice(before).includes(`${NS}/alpha`), "the owner was re-reconciled");
    await raw(cluster.url, "PATCH", cmPath, { data: { owner: "tampered" } }, "application/merge-patch+json");
    await waitFor(async () => (await raw(cluster.url, "GET", cmPath)).body.data.owner === "alpha", "child edit reverted");
  });

  it("runs cleanup exactly once per deletion, then the object goes away", async () => {
    await createDataApp(cluster.url, NS, "beta");
    await waitFor(async () => (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/dataapps/beta`)).body.metadata.finalizers?.length === 1, "finalizer added");
    await raw(cluster.url, "DELETE", `/apis/example.com/v1/namespaces/${NS}/dataapps/beta`);
    await waitFor(async () => (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/dataapps/beta`)).code === 404, "owner gone");
    assert.equal(cleanups.get("beta"), 1);
    await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/beta-config`)).code === 404, "child collected");
  });

  it("keeps the finalizer while cleanup fails and retries with backoff until it succeeds", async () => {
    await createDataApp(cluster.url, NS, "gamma");
    await waitFor(async () => (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/dataapps/gamma`)).body.metadata.finalizers?.length === 1, "finalizer added");
    failCleanup = 3;
    await raw(cluster.url, "DELETE", `/apis/example.com/v1/namespaces/${NS}/dataapps/gamma`);
    await waitFor(() => failCleanup === 0, "three failed cleanups");
    await waitFor(async () => (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/dataapps/gamma`)).code === 404, "owner gone after a successful cleanup");
    assert.equal(cleanups.get("gamma"), 1);
  });

  it("exposes reconcile counts, durations and queue depth on /metrics", async () => {
    const port = mgr.health!.port;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
    const success = value(/controller_runtime_reconcile_total\{controller="dataapp",result="success"\} (\d+)/);
    const errors = value(/controller_runtime_reconcile_errors_total\{controller="dataapp"\} (\d+)/);
    assert.ok(success >= 1);
    assert.equal(errors, 3, "the three failed cleanups");
    const count = value(/controller_runtime_reconcile_time_seconds_count\{controller="dataapp"\} (\d+)/);
    assert.equal(count, reconciles.length, "one duration sample per reconcile");
    assert.equal(value(/controller_runtime_reconcile_total\{controller="dataapp",result="error"\} (\d+)/) + success +
      (value(/controller_runtime_reconcile_total\{controller="dataapp",result="requeue"\} (\d+)/) || 0) +
      (value(/controller_runtime_reconcile_total\{controller="dataapp",result="requeue_after"\} (\d+)/) || 0), reconciles.length);
    assert.match(text, /workqueue_depth\{[^}]*name="dataapp"[^}]*\} 0/);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    assert.equal(ready.status, 200);
  });
});
