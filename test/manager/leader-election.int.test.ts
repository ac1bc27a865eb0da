import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { LeaderElector } from "../../src/manager/leader-election.ts";
import type { LeaderElectorOptions, StoppedLeadingReason } from "../../src/manager/leader-election.ts";
import { LEASE_KIND } from "../../src/manager/lease-record.ts";
import type { Lease } from "../../src/manager/lease-record.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { waitFor } from "../support/wait.ts";

const NS = "default";
const LEASE_MS = 600;
const RENEW_MS = 400;
const RETRY_MS = 100;
/** Candidates retry after RETRY_MS plus up to 20 % jitter. */
const RETRY_MAX = RETRY_MS * 1.2;
/** Scheduling and request latency allowed on top of a protocol bound. */
const SLACK = 400;
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** An elector plus what its callbacks reported, with times. */
interface Candidate {
  elector: LeaderElector;
  started: number[];
  stopped: { reason: StoppedLeadingReason; t: number }[];
  newLeaders: string[];
}

describe("LeaderElector against LocalCluster (lease 600 ms, renew deadline 400 ms, retry 100 ms)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const all: Candidate[] = [];

  const candidate = (identity: string, lease: string, extra: Partial<LeaderElectorOptions> = {}): Candidate => {
    const elector = new LeaderElector({
      client, namespace: NS, name: lease, identity, leaseDurationMs: LEASE_MS, renewDeadlineMs: RENEW_MS, retryPeriodMs: RETRY_MS,
      logger: silentLogger, ...extra,
    });
    const c: Candidate = { elector, started: [], stopped: [], newLeaders: [] };
    elector.onStartedLeading(() => c.started.push(Date.now()));
    elector.onStoppedLeading((reason) => c.stopped.push({ reason, t: Date.now() }));
    elector.onNewLeader((id) => c.newLeaders.push(id));
    all.push(c);
    return c;
  };
  const start = (c: Candidate) => c.elector.start(new AbortController().signal);
  const getLease = (name: string) => client.get<Lease>({ ...LEASE_KIND, namespace: NS, name });
  /** Waits until the holder has renewed `n` more times (each renewal changes renewTime). */
  const renewals = async (name: string, n: number, during: () => void = () => undefined) => {
    const seen = new Set<string>();
    await waitFor(async () => {
      during();
      seen.add((await getLease(name)).spec?.renewTime ?? "");
      return seen.size > n;
    }, `${n} renewals of ${name}`, 10_000);
  };

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(async () => {
    await Promise.all(all.map((c) => c.elector.stop()));
    await cluster.stop();
  });

  it("rejects timings that break leaseDuration > renewDeadline > retryPeriod > 0", () => {
    assert.throws(() => new LeaderElector({ client, namespace: NS, name: "x", identity: "a", leaseDurationMs: 400, renewDeadlineMs: 400 }), /leaseDurationMs > renewDeadlineMs/);
    assert.throws(() => new LeaderElector({ client, namespace: NS, name: "x", identity: "" }), /identity are required/);
  });

  it("acquires a missing Lease: creates it with its identity, leaseTransitions 0 and MicroTime stamps, then renews it", async () => {
    const metrics = new Metrics();
    const a = candidate("alpha", "acquire", { metrics });
    cluster.inject({ verb: "get", resource: "leases", name: "acquire", latencyMs: 300 });
    const t0 = Date.now();
    await start(a);
    assert.ok(Date.now() - t0 < 100, "start() returns without waiting for leadership");
    assert.equal(a.elector.isLeader(), false);
    await waitFor(() => a.elector.isLeader(), "alpha leads");
    const lease = await getLease("acquire");
    assert.equal(lease.spec?.holderIdentity, "alpha");
    assert.equal(lease.spec?.leaseTransitions, 0);
    assert.equal(lease.spec?.leaseDurationSeconds, 1, "600 ms rounds up to whole seconds");
    assert.match(lease.spec?.acquireTime ?? "", MICRO_TIME);
    assert.match(lease.spec?.renewTime ?? "", MICRO_TIME);
    assert.deepEqual(a.newLeaders, ["alpha"]);
    assert.equal(a.started.length, 1);
    assert.match(await metrics.text(), /leader_election_master_status\{name="acquire"\} 1/);

    await renewals("acquire", 2);
    const renewed = await getLease("acquire");
    assert.equal(renewed.spec?.acquireTime, lease.spec?.acquireTime, "renewals keep acquireTime");
    assert.equal(renewed.spec?.leaseTransitions, 0);
    assert.ok(renewed.spec!.renewTime! > lease.spec!.renewTime!);
    assert.equal(cluster.requests.count({ verb: "create", resource: "leases", code: 201 }), 1);
    await a.elector.stop();
    assert.match(await metrics.text(), /leader_election_master_status\{name="acquire"\} 0/);
  });

  it("a second candidate stands by while the leader renews; stop() releases and the standby leads within about a retry period", async () => {
    const a = candidate("alpha", "handover");
    const b = candidate("beta", "handover");
    await start(a);
    await waitFor(() => a.elector.isLeader(), "alpha leads");
    await start(b);
    await waitFor(() => b.newLeaders.includes("alpha"), "beta sees alpha");
    // Well past a lease duration of renewals: beta never leads.
    await renewals("handover", Math.ceil((2 * LEASE_MS) / RETRY_MS), () => assert.equal(b.elector.isLeader(), false));
    assert.equal(b.started.length, 0);

    const stoppedAt = Date.now();
    await a.elector.stop();
    assert.deepEqual(a.stopped.map((s) => s.reason), ["stopped"]);
    assert.equal(a.elector.isLeader(), false);
    await waitFor(() => b.elector.isLeader(), "beta leads after the release");
    const handover = b.started[0]! - stoppedAt;
    assert.ok(handover < LEASE_MS, `beta led ${handover} ms after alpha's release, before any lease expiry`);
    assert.ok(handover <= RETRY_MAX + SLACK, `beta led ${handover} ms after the release (retry period ${RETRY_MS} ms)`);
    const lease = await getLease("handover");
    assert.equal(lease.spec?.holderIdentity, "beta");
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.ok(b.newLeaders.includes("beta"));
  });

  it("stop() writes the release: holderIdentity \"\", leaseDurationSeconds 1, leaseTransitions kept", async () => {
    const a = candidate("alpha", "release");
    await start(a);
    await waitFor(() => a.elector.isLeader(), "alpha leads");
    const held = await getLease("release");
    await a.elector.stop();
    const released = await getLease("release");
    assert.equal(released.spec?.holderIdentity, "");
    assert.equal(released.spec?.leaseDurationSeconds, 1);
    assert.equal(released.spec?.leaseTransitions, held.spec?.leaseTransitions);
    assert.match(released.spec?.renewTime ?? "", MICRO_TIME);
    const updates = cluster.requests.count({ verb: "update", resource: "leases", name: "release" });
    await a.elector.stop();
    assert.equal(cluster.requests.count({ verb: "update", resource: "leases", name: "release" }), updates, "stop() is idempotent");
  });

  it("when the leader dies without releasing, the standby takes over after the lease duration, within lease duration + retry period", async () => {
    const a = candidate("alpha", "crash");
    const b = candidate("beta", "crash");
    await start(a);
    await waitFor(() => a.elector.isLeader(), "alpha leads");
    await start(b);
    await waitFor(() => b.newLeaders.includes("alpha"), "beta sees alpha");
    await renewals("crash", 3);

    await a.elector.abandon(); // as if the process were killed: no release, no callbacks
    const killedAt = Date.now();
    const lastRenew = Date.parse((await getLease("crash")).spec!.renewTime!);
    assert.equal(a.stopped.length, 0);
    await waitFor(() => b.elector.isLeader(), "beta takes over", 5000);
    const tookOver = b.started[0]!;
    assert.ok(tookOver - lastRenew >= LEASE_MS, `never before the lease duration: ${tookOver - lastRenew} ms after alpha's last renewal`);
    assert.ok(tookOver - killedAt <= LEASE_MS + RETRY_MAX + SLACK, `took over ${tookOver - killedAt} ms after the kill`);
    const lease = await getLease("crash");
    assert.equal(lease.spec?.holderIdentity, "beta");
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.notEqual(lease.spec?.acquireTime, undefined);
    assert.ok(Date.parse(lease.spec!.acquireTime!) >= lastRenew, "acquireTime is the takeover time");
  });

  it("stops leading at once when renewals fail for the renew deadline, and releases on stop() once the API answers again", async () => {
    const metrics = new Metrics();
    const a = candidate("alpha", "renew", { metrics });
    await start(a);
    await waitFor(() => a.elector.isLeader(), "alpha leads");
    const fault = cluster.inject({ verb: "update", resource: "leases", name: "renew", code: 500, times: 100 });
    const failingFrom = Date.now();
    await waitFor(() => a.stopped.length > 0, "alpha stops leading", 5000);
    const after = a.stopped[0]!.t - failingFrom;
    assert.equal(a.stopped[0]!.reason, "renew-deadline");
    assert.ok(after <= RENEW_MS + RETRY_MS + 200, `stopped leading ${after} ms after renewals began failing`);
    assert.equal(a.elector.isLeader(), false);
    assert.ok(fault.hits >= 2, `renewals were retried (${fault.hits} failed PUTs)`);
    assert.match(await metrics.text(), /leader_election_master_status\{name="renew"\} 0/);

    const hits = fault.hits;
    await new Promise((r) => setTimeout(r, 3 * RETRY_MS)); // a lost elector no longer campaigns
    assert.equal(fault.hits, hits);
    cluster.clearFaults();
    await a.elector.stop();
    assert.equal(a.stopped.length, 1, "onStoppedLeading runs once");
    assert.equal((await getLease("renew")).spec?.holderIdentity, "", "released: the Lease, unchanged since alpha's last write, is cleared");
  });

  it("two candidates racing to create the Lease: exactly one leads", async () => {
    const a = candidate("alpha", "race");
    const b = candidate("beta", "race");
    // Delay both first GETs so both see 404 and both POST.
    cluster.inject({ verb: "get", resource: "leases", name: "race", latencyMs: 50, times: 2 });
    const creates = cluster.requests.count({ verb: "create", resource: "leases" });
    await Promise.all([start(a), start(b)]);
    await waitFor(() => a.elector.isLeader() || b.elector.isLeader(), "someone leads");
    let both = 0;
    await renewals("race", Math.ceil((2 * LEASE_MS) / RETRY_MS), () => {
      if (a.elector.isLeader() && b.elector.isLeader()) both++;
    });
    assert.equal(both, 0, "never two leaders");
    const winner = a.elector.isLeader() ? a : b;
    const loser = winner === a ? b : a;
    assert.equal(loser.elector.isLeader(), false);
    assert.equal(loser.started.length, 0);
    assert.equal((await getLease("race")).spec?.holderIdentity, winner.elector.identity);
    assert.equal(loser.elector.leader(), winner.elector.identity);
    assert.equal(cluster.requests.count({ verb: "create", resource: "leases" }) - creates, 2, "both tried to create");
    assert.equal(cluster.requests.count({ verb: "create", resource: "leases", code: 409 }), 1, "one create answered AlreadyExists");
  });
});
