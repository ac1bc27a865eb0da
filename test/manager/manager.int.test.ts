import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager, Action, createLogger } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import { defaultHealthHost } from "../../src/manager/manager.ts";
import { raw, waitFor, within } from "../support/wait.ts";

describe("Manager leadership", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("serves /healthz on loopback unless it runs in a pod or is told otherwise", async () => {
    assert.equal(defaultHealthHost({ KUBERNETES_SERVICE_HOST: "10.96.0.1" }), "0.0.0.0");
    assert.equal(defaultHealthHost({}), "127.0.0.1");
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: 0, logger: silentLogger });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      assert.equal(mgr.health!.host, defaultHealthHost(process.env));
      assert.equal((await fetch(`http://127.0.0.1:${mgr.health!.port}/healthz`)).status, 200);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("stops reconciling at once when leadership is lost and reports it", async () => {
    const mgr = new Manager({
      kubeConfig: cluster.kubeConfig, healthPort: 0, healthHost: "127.0.0.1", logger: createLogger({ level: "error" }),
      leaderElection: { namespace: "default", name: "lost-test", identity: "solo", leaseDurationMs: 900, renewDeadlineMs: 600, retryPeriodMs: 100 },
    });
    const seen: string[] = [];
    let inFlightAborted = false;
    mgr.controller("cms").for({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "default" })
      .reconcile(async (req, { signal }) => {
        seen.push(req.name);
        if (req.name === "hold") {
          const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
          await within(aborted, "the in-flight reconcile's signal to abort", 15_000).catch(() => undefined); // asserted below
          inFlightAborted = signal.aborted;
        }
        return Action.done();
      });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
    await waitFor(() => mgr.isLeader(), "leading");
    await waitFor(async () => (await fetch(`http://127.0.0.1:${mgr.health!.port}/readyz`)).status === 200, "ready");
    await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "before" } });
    await waitFor(() => seen.includes("before"), "reconciled while leading");
    await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "hold" } });
    await waitFor(() => seen.includes("hold"), "a reconcile in flight");

    cluster.inject({ verb: ["update", "get"], resource: "leases", code: 500, times: 1000 });
    await within(mgr.lost, "the Manager to report lost leadership", 10_000);
    assert.equal(mgr.isLeader(), false);
    assert.equal(inFlightAborted, true, "the running reconcile saw its signal aborted");
    cluster.clearFaults();
    await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "after" } });
    // The cache still sees "after"; the stopped controller must not reconcile it.
    await waitFor(() => mgr.cache.informer({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "default" }).get("after", "default"), "cache sees the new object");
    const queue = mgr.controllers()[0]!.queue;
    assert.equal(queue.isShuttingDown(), true, "the controller's queue is shut down");
    assert.equal(queue.len() + queue.processing(), 0, "nothing queued or running");
    assert.equal(seen.includes("after"), false, "no reconcile after leadership was lost");
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });
});
