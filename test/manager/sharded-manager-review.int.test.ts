/**
 * Review tests of sharded Managers against LocalCluster over real HTTP: stopping while a
 * bucket's informers cannot sync, and controllers registered after the Manager started.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager } from "../../src/manager/manager.ts";
import { ConfigMap } from "../../src/kinds/index.ts";
import { defineKind } from "../../src/kinds/custom-resource.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const DataApp = defineKind<{ gen?: number }>({ apiVersion: "example.com/v1", kind: "DataApp" });
const NS = "shards-review";
const TIMINGS = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 150 };

function sharded(cluster: LocalCluster, ring: string, identity: string): Manager {
  return new Manager({
    kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, fieldManager: "shard-review",
    sharding: { ring, namespace: NS, identity, ...TIMINGS },
  });
}

async function memberLeases(cluster: LocalCluster): Promise<number> {
  const r = await raw(cluster.url, "GET", `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`);
  return (r.body.items as unknown[]).length;
}

describe("sharded Managers (review)", () => {
  let cluster: LocalCluster;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()", 30_000));

  it("stops, and leaves the ring, while the informers of the buckets it is starting cannot sync", async () => {
    // The owned kind's bucket-labelled list fails for as long as the test runs.
    const fault = cluster.inject({ verb: "list", resource: "configmaps", code: 500, times: Infinity });
    const mgr = sharded(cluster, "nosync", "n1");
    mgr.controller("nosync").for(DataApp).owns(ConfigMap).reconcile(async () => undefined);
    try {
      await mgr.start();
      await waitFor(() => mgr.ring!.mayReconcile(0), "the member to start its buckets", 10_000);
      await waitFor(() => fault.hits > 0, "the bucket's ConfigMap list to fail");
      await within(mgr.stop(), "the Manager to stop", 10_000);
      assert.equal(await memberLeases(cluster), 0, "the member Lease deleted");
      await waitFor(() => cluster.watchCount() === 0, "no watch left open");
    } finally {
      cluster.clearFaults();
      await within(mgr.stop(), "the Manager to stop after the fault", 10_000);
    }
  });

  it("a controller registered after the Manager started reconciles the keys of the buckets already served", async () => {
    await createDataApp(cluster.url, NS, "late-1", { gen: 1 });
    await createDataApp(cluster.url, NS, "late-2", { gen: 1 });
    const mgr = sharded(cluster, "late", "l1");
    const early: string[] = [];
    const late: string[] = [];
    mgr.controller("early").for(DataApp).reconcile(async (req) => void early.push(req.name));
    try {
      await mgr.start();
      await waitFor(() => mgr.ring!.served().size === 64, "the only member to serve every bucket", 10_000);
      await waitFor(() => early.includes("late-1") && early.includes("late-2"), "the first controller to reconcile");
      mgr.controller("late").for(DataApp).reconcile(async (req) => void late.push(req.name));
      await waitFor(() => late.includes("late-1") && late.includes("late-2"), "the late controller to reconcile the existing owners", 5_000);
    } finally {
      await within(mgr.stop(), "the Manager to stop", 10_000);
    }
  });
});
