/**
 * The dashboard's Ownership view from real Managers on LocalCluster: leader and standby under
 * leader election (a standby answers a plan with the reason), and the shard ring of two sharded
 * replicas (every bucket served by exactly one, as the ring assigned it).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Action, ConfigMap, Manager, ResourceClient } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import { describeTrigger } from "../../src/entries/controller.ts";
import type { DashboardState } from "../../src/dashboard/types.ts";
import { waitFor, within } from "../support/wait.ts";

const NS = "default";
const TIMINGS = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 150 };

describe("the dashboard's ownership view (LocalCluster, real HTTP)", () => {
  let cluster: LocalCluster;
  const managers: Manager[] = [];

  const state = async (mgr: Manager): Promise<DashboardState> => (await fetch(new URL("api/state", mgr.dashboardUrl))).json() as Promise<DashboardState>;
  const manager = (extra: Partial<ConstructorParameters<typeof Manager>[0]>): Manager => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, dashboard: { port: 0 }, ...extra });
    mgr.controller("cms").for(ConfigMap).reconcile(async () => Action.done());
    managers.push(mgr);
    return mgr;
  };

  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(async () => {
    await Promise.all(managers.map((m) => within(m.stop(), "mgr.stop()", 15_000)));
    await within(cluster.stop(), "cluster.stop()");
  });

  it("shows the leader and the standby, the Lease's holder on both; a standby refuses plans with the reason", async () => {
    const leaderElection = { namespace: NS, name: "dash-lease", ...TIMINGS };
    await new ResourceClient({ kubeConfig: cluster.kubeConfig }).create({ ...ConfigMap, metadata: { name: "existing", namespace: NS }, data: { a: "1" } });
    const a = manager({ leaderElection: { ...leaderElection, identity: "replica-a" } });
    await within(a.start(), "a.start()", 15_000);
    await waitFor(async () => (await state(a)).ownership.role === "leader", "a to lead");
    const b = manager({ leaderElection: { ...leaderElection, identity: "replica-b" } });
    await within(b.start(), "b.start()", 15_000);
    const [sa, sb] = await waitFor(async () => {
      const both = [await state(a), await state(b)];
      return both.every((s) => s.ownership.leaderElection?.holder === "replica-a") ? both : undefined;
    }, "both to see replica-a hold the Lease");
    assert.equal(sa.ownership.role, "leader");
    assert.equal(sa.ownership.identity, "replica-a");
    assert.equal(sb.ownership.role, "standby");
    assert.equal(sb.ownership.identity, "replica-b");
    assert.deepEqual(sb.ownership.leaderElection, { namespace: NS, name: "dash-lease", holder: "replica-a" });
    // The leader's first runs say why they ran: it won the Lease (and so does the metric).
    const first = await waitFor(async () => (await state(a)).timeline.find((r) => r.trigger.initial && r.key === `${NS}/existing` && r.outcome === "done"), "the leader's run of the first list");
    assert.equal(first.trigger.leadership, true);
    assert.match(describeTrigger(first.trigger), /\(initial list: leadership won\)$/);
    assert.match(await a.metrics.text(), /operator_runtime_reconcile_triggers_total\{controller="cms",kind="ConfigMap",reason="leadership"\} [1-9]/);
    assert.equal(sb.timeline.length, 0, "the standby reconciles nothing");
    const refused = await fetch(new URL(`api/plan?controller=cms&key=${NS}/x`, b.dashboardUrl));
    assert.equal(refused.status, 409);
    assert.match(((await refused.json()) as { error: string }).error, /standby replica, ask the leader/);
  });

  it("shows the shard ring: two members, each bucket assigned to one, and the buckets this replica serves", async () => {
    const sharding = { ring: "dash-ring", namespace: NS, ...TIMINGS };
    const x = manager({ sharding: { ...sharding, identity: "shard-x" } });
    const y = manager({ sharding: { ...sharding, identity: "shard-y" } });
    await within(Promise.all([x.start(), y.start()]), "the sharded Managers' start()", 15_000);
    const [sx, sy] = await waitFor(async () => {
      const both = [await state(x), await state(y)];
      const ok = both.every((s) => s.ownership.sharding?.members.length === 2 && s.ownership.sharding.served.length > 0)
        && both[0]!.ownership.sharding!.served.length + both[1]!.ownership.sharding!.served.length === 64;
      return ok ? both : undefined;
    }, "the ring to split the buckets between the two", 15_000);
    for (const [s, mgr, id] of [[sx!, x, "shard-x"], [sy!, y, "shard-y"]] as const) {
      const ring = s.ownership.sharding!;
      assert.equal(s.ownership.role, "always");
      assert.equal(s.ownership.identity, id);
      assert.equal(ring.ring, "dash-ring");
      assert.equal(ring.buckets, 64);
      assert.deepEqual(ring.served, [...mgr.ring!.served()].sort((p, q) => p - q));
      const mine = ring.members.find((m) => m.identity === id)!;
      assert.deepEqual(mine.buckets, ring.served, "the buckets assigned to this replica are those it serves");
      assert.ok(ring.handovers.some((h) => h.change === "served"), "its buckets were handed to it");
    }
    const all = [...sx!.ownership.sharding!.served, ...sy!.ownership.sharding!.served].sort((p, q) => p - q);
    assert.deepEqual(all, Array.from({ length: 64 }, (_, i) => i), "every bucket served by exactly one replica");
  });
});
