/**
 * Sharded Managers in one process against LocalCluster over real HTTP: three replicas split
 * the owners, each watching only its buckets' owners (KEP-5866 shard selector) and children
 * (bucket label), never reconciling a key another replica reconciles at the same time; a
 * graceful stop hands its buckets over; a server without KEP-5866 makes them filter
 * client-side and say so.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager } from "../../src/manager/manager.ts";
import { Controller } from "../../src/controller/controller.ts";
import { Builder } from "../../src/builder/builder.ts";
import { ConfigMap } from "../../src/kinds/index.ts";
import { defineKind } from "../../src/kinds/custom-resource.ts";
import type { KubeObject } from "../../src/client/types.ts";
import { SHARD_BUCKETS, SHARD_BUCKET_LABEL, bucketOfUid } from "../../src/cache/shard-buckets.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const DataApp = defineKind<{ gen: number }>({ apiVersion: "example.com/v1", kind: "DataApp" });
const NS = "shards";
const TIMINGS = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 150 };

interface Run {
  replica: string;
  key: string;
  start: number;
  end: number;
}

/** Reconciles of one key by two replicas that overlap in time. */
function overlaps(runs: Run[]): string[] {
  const byKey = new Map<string, Run[]>();
  for (const r of runs) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const found: string[] = [];
  for (const [key, list] of byKey) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 1; i < list.length; i++) {
      const prev = list.slice(0, i).find((p) => p.replica !== list[i]!.replica && p.end > list[i]!.start);
      if (prev) found.push(`${key}: ${prev.replica} [${prev.start}, ${prev.end}] and ${list[i]!.replica} from ${list[i]!.start}`);
    }
  }
  return found;
}

function replica(cluster: LocalCluster, id: string, runs: Run[], ring = "dataapp", slowMs = 0): Manager {
  const mgr = new Manager({
    kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, fieldManager: "shard-test",
    sharding: { ring, namespace: NS, identity: id, ...TIMINGS },
  });
  mgr.controller("dataapp").for(DataApp).owns(ConfigMap).maxConcurrentReconciles(4).reconcile(async (req, { signal }) => {
    const start = performance.now();
    const app = await mgr.cache.get({ ...DataApp, namespace: req.namespace, name: req.name });
    if (!app) return;
    if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    await new Builder({ client: mgr.client, owner: app, reader: mgr.cache, signal })
      .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${req.name}-cfg` }, data: { gen: String(app.spec.gen) } })
      .reconcile();
    runs.push({ replica: id, key: `${req.namespace}/${req.name}`, start, end: performance.now() });
  });
  return mgr;
}

/** Waits until every owner's ConfigMap carries `gen`. */
async function converged(cluster: LocalCluster, owners: number, gen: number, what: string): Promise<void> {
  await waitFor(async () => {
    const r = await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps`);
    const ok = (r.body.items as KubeObject[]).filter((cm) => (cm as { data?: { gen?: string } }).data?.gen === String(gen));
    return ok.length === owners;
  }, what, 60_000);
}

async function setGen(cluster: LocalCluster, names: string[], gen: number): Promise<void> {
  for (const name of names) {
    const r = await raw(cluster.url, "PATCH", `/apis/example.com/v1/namespaces/${NS}/dataapps/${name}`, { spec: { gen } }, "application/merge-patch+json");
    assert.equal(r.code, 200, r.text);
  }
}

/** Every bucket served by exactly one of `mgrs`. */
function partitioned(mgrs: Manager[]): boolean {
  const counts = new Array<number>(SHARD_BUCKETS).fill(0);
  for (const m of mgrs) for (const b of m.ring!.served()) counts[b]!++;
  return counts.every((c) => c === 1);
}

describe("sharded Managers", () => {
  let cluster: LocalCluster;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()", 30_000));

  it("three replicas split the owners and their children, reconcile each key on one replica at a time, and hand over on stop", async () => {
    const runs: Run[] = [];
    const names = Array.from({ length: 60 }, (_, i) => `app-${i}`);
    for (const name of names) await createDataApp(cluster.url, NS, name, { gen: 1 });
    const mgrs = ["r1", "r2", "r3"].map((id) => replica(cluster, id, runs));
    try {
      await Promise.all(mgrs.map((m) => m.start()));
      await waitFor(() => partitioned(mgrs), "three replicas to split the 64 buckets", 30_000);
      await converged(cluster, names.length, 1, "every owner reconciled");

      // Each replica caches only its buckets' owners and children, filtered by the server.
      for (const m of mgrs) {
        const served = m.ring!.served();
        const informers = m.cache.informers();
        const apps = informers.filter((i) => i.kind.kind === "DataApp");
        const cms = informers.filter((i) => i.kind.kind === "ConfigMap");
        assert.equal(apps.length, 1, "one DataApp informer, with a shard selector");
        assert.ok(apps[0]!.shardSelector, "the DataApp informer has a shard selector");
        // A custom resource: filtered by the server, which (as kube-apiserver v1.36.2) sends no
        // shardInfo echo for it, and no object of another shard arrived.
        assert.equal(apps[0]!.shardFiltering, "unconfirmed");
        assert.equal(cms.length, 1, "one ConfigMap informer, with the bucket label selector");
        assert.match(cms[0]!.labelSelector ?? "", /^operator-runtime\.io\/shard-bucket in \(/);
        for (const app of apps[0]!.list()) assert.ok(served.has(bucketOfUid(app.metadata!.uid!)), "a cached owner is in a served bucket");
        for (const cm of cms[0]!.list()) assert.ok(served.has(Number(cm.metadata!.labels![SHARD_BUCKET_LABEL])), "a cached child is in a served bucket");
        assert.ok(apps[0]!.list().length < names.length, "a replica does not cache every owner");
        assert.match(await m.metrics.text(), new RegExp(`operator_runtime_shard_buckets ${served.size}\\b`));
      }
      // Nor does the Builder's prune make a replica cache every object of a kind: each informer
      // is selected, and it reads only the kinds it is told about (the owned ConfigMaps).
      for (const m of mgrs) {
        for (const i of m.cache.informers()) assert.ok(i.shardSelector || i.labelSelector, `${i.name} watches every ${i.kind.kind}`);
        assert.deepEqual(m.cache.informers().map((i) => i.kind.kind).filter((k) => k !== "DataApp" && k !== "ConfigMap"), [], "no informer of a kind the Builder was not told about");
      }
      const total = mgrs.reduce((n, m) => n + m.cache.informers().find((i) => i.kind.kind === "DataApp")!.list().length, 0);
      assert.equal(total, names.length, "together the replicas cache each owner once");

      await setGen(cluster, names, 2);
      await converged(cluster, names.length, 2, "every owner reconciled again after a change");

      // A graceful stop hands its buckets to the others.
      await within(mgrs[0]!.stop(), "r1 to stop", 20_000);
      await waitFor(() => partitioned(mgrs.slice(1)), "the two others to take every bucket", 20_000);
      await setGen(cluster, names, 3);
      await converged(cluster, names.length, 3, "every owner reconciled by the remaining two");
      assert.deepEqual(overlaps(runs), [], "no key reconciled by two replicas at once");
      const by = new Set(runs.map((r) => r.replica));
      assert.equal(by.size, 3, "every replica reconciled");
    } finally {
      await Promise.all(mgrs.map((m) => within(m.stop(), "a replica to stop", 20_000)));
    }
    const leases = await raw(cluster.url, "GET", `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`);
    assert.equal(leases.body.items.length, 0, "every member Lease deleted on stop");
  });

  it("a joining replica starts a bucket's keys only after the replica serving it drained their running reconciles", async () => {
    const runs: Run[] = [];
    const names = Array.from({ length: 40 }, (_, i) => `slow-${i}`);
    for (const name of names) await createDataApp(cluster.url, NS, name, { gen: 1 });
    const mgrs = ["s1", "s2"].map((id) => replica(cluster, id, runs, "slow", 300));
    try {
      await Promise.all(mgrs.map((m) => m.start()));
      await waitFor(() => partitioned(mgrs), "two replicas to split the buckets", 30_000);
      await converged(cluster, names.length, 1, "every owner reconciled");
      // Keep every key busy while a third replica joins and takes about a third of the buckets.
      let gen = 2;
      let joined = false;
      const churn = (async () => {
        while (!joined) await setGen(cluster, names, gen++);
      })();
      const third = replica(cluster, "s3", runs, "slow", 300);
      mgrs.push(third);
      await third.start();
      await waitFor(() => partitioned(mgrs), "three replicas to split the buckets", 30_000);
      joined = true;
      await churn;
      await setGen(cluster, names, 1000);
      await converged(cluster, names.length, 1000, "every owner reconciled after the join");
      assert.ok(runs.some((r) => r.replica === "s3"), "the new replica reconciled keys");
      assert.deepEqual(overlaps(runs), [], "no key reconciled by two replicas at once");
    } finally {
      await Promise.all(mgrs.map((m) => within(m.stop(), "a replica to stop", 20_000)));
    }
  });

  it("stays ready while an informer rebuilt for a bucket handover is still listing", async () => {
    const runs: Run[] = [];
    await createDataApp(cluster.url, NS, "ready-0", { gen: 1 });
    const first = replica(cluster, "ready-1", runs, "ready");
    const mgrs = [first];
    try {
      await first.start();
      await waitFor(() => first.ring!.served().size === SHARD_BUCKETS, "the first replica to serve every bucket", 30_000);
      await waitFor(() => first.ready(), "the first replica to be ready", 30_000);
      // From now on every ConfigMap list fails: the informers the first replica rebuilds for the
      // buckets it keeps never finish their list, while the ones they replace keep serving.
      const fault = cluster.inject({ verb: "list", resource: "configmaps", code: 500, times: Infinity });
      const second = replica(cluster, "ready-2", runs, "ready");
      mgrs.push(second);
      void second.start().catch(() => undefined);
      await waitFor(() => first.ring!.served().size < SHARD_BUCKETS, "the first replica to hand buckets over", 30_000);
      await waitFor(() => fault.hits > 1, "a rebuilt ConfigMap list to fail", 30_000);
      assert.ok(first.cache.informers().some((i) => i.kind.kind === "ConfigMap" && !i.hasSynced()), "a rebuilt informer is still listing");
      assert.equal(first.ready(), true, "readiness does not wait for an informer that is not serving yet");
      cluster.clearFaults();
    } finally {
      cluster.clearFaults();
      await Promise.all(mgrs.map((m) => within(m.stop(), "a replica to stop", 30_000)));
    }
  });

  it("sharding cannot be combined with leader election, and takes no controller it cannot shard", () => {
    assert.throws(() => new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false,
      sharding: { ring: "x", namespace: NS }, leaderElection: { namespace: NS, name: "x" } }), /sharding and leaderElection cannot be combined/);
    assert.throws(() => new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false,
      sharding: { ring: "Not A Label", namespace: NS } }), /ring/);
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, sharding: { ring: "x", namespace: NS } });
    const plain = new Controller({ name: "plain", source: mgr.cache, for: { kind: DataApp }, reconcile: async () => undefined });
    assert.throws(() => mgr.add(plain), /needs leader election, which a sharded Manager does not hold/);
  });
});

describe("sharded Managers on an API server without KEP-5866", () => {
  let cluster: LocalCluster;

  before(async () => {
    cluster = await LocalCluster.start({ shardedListWatch: false });
    await installDataApp(cluster.url);
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()", 30_000));

  it("filter owners client-side, say so in a metric, and still split the keys", async () => {
    const runs: Run[] = [];
    const names = Array.from({ length: 30 }, (_, i) => `old-${i}`);
    for (const name of names) await createDataApp(cluster.url, NS, name, { gen: 1 });
    const mgrs = ["a", "b"].map((id) => replica(cluster, id, runs, "legacy"));
    try {
      await Promise.all(mgrs.map((m) => m.start()));
      await waitFor(() => partitioned(mgrs), "two replicas to split the buckets", 30_000);
      await converged(cluster, names.length, 1, "every owner reconciled");
      for (const m of mgrs) {
        const apps = m.cache.informers().find((i) => i.kind.kind === "DataApp")!;
        assert.equal(apps.shardFiltering, "client");
        for (const app of apps.list()) assert.ok(m.ring!.served().has(bucketOfUid(app.metadata!.uid!)));
        assert.match(await m.metrics.text(), /operator_runtime_shard_client_filtering\{resource="DataApp\.example\.com\/v1"\} 1/);
      }
      assert.deepEqual(overlaps(runs), []);
    } finally {
      await Promise.all(mgrs.map((m) => within(m.stop(), "a replica to stop", 20_000)));
    }
  });
});
