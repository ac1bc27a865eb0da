/**
 * LeaderElector against LocalCluster, over real HTTP, with time stepped by the test: each
 * candidate has its own SteppingClock (as each replica has its own monotonic clock) and Lease
 * stamps of EPOCH + that clock's time. A step advances a clock to a timer and waits, bounded,
 * until the elector has finished what the timer started; nothing depends on how fast the
 * machine is, and the time bounds asserted are the protocol's, on the stepped clocks.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { LeaderElector } from "../../src/lease/leader-election.ts";
import type { LeaderElectorOptions, StoppedLeadingReason } from "../../src/lease/leader-election.ts";
import { LEASE_KIND } from "../../src/lease/lease-record.ts";
import type { Lease } from "../../src/lease/lease-record.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { SteppingClock } from "../support/stepping-clock.ts";
import { within } from "../support/wait.ts";

const NS = "default";
const WARM_NS = "warm-up";
const LEASE_MS = 600;
const RENEW_MS = 400;
const RETRY_MS = 100;
/** Candidates retry after RETRY_MS plus up to 20 % jitter. */
const RETRY_MAX = RETRY_MS * 1.2;
/** Wall-clock time of clock time 0: a candidate stamps the Lease with EPOCH + its clock's time. */
const EPOCH = Date.parse("2030-01-01T00:00:00Z");
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
/** The MicroTime stamp a candidate writes at clock time `ms`. */
const stamp = (ms: number) => new Date(EPOCH + ms).toISOString().replace("Z", "000Z");

/** An elector, its clock, and what its callbacks reported, at which clock times. */
interface Candidate {
  id: string;
  elector: LeaderElector;
  clock: SteppingClock;
  started: number[];
  stopped: { reason: StoppedLeadingReason; at: number }[];
  newLeaders: string[];
  /** Resolves when leading first ends. */
  stoppedLeading: Promise<void>;
}

/** `client`, except that `get` waits, once answered, until `gate` resolves; `answered` runs at each answer. */
function gatedGets(client: ResourceClient, answered: () => void, gate: Promise<void>): ResourceClient {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (prop !== "get") return value.bind(target);
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } finally {
          answered();
          await gate;
        }
      };
    },
  });
}

describe("LeaderElector against LocalCluster (lease 600 ms, renew deadline 400 ms, retry 100 ms, stepped clocks)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const all: Candidate[] = [];

  const candidate = (id: string, lease: string, extra: Partial<LeaderElectorOptions> = {}): Candidate => {
    const clock = new SteppingClock();
    const elector = new LeaderElector({
      client, namespace: NS, name: lease, identity: id, leaseDurationMs: LEASE_MS, renewDeadlineMs: RENEW_MS, retryPeriodMs: RETRY_MS,
      logger: silentLogger, clock, now: () => EPOCH + clock.now(), ...extra,
    });
    let ended!: () => void;
    const c: Candidate = { id, elector, clock, started: [], stopped: [], newLeaders: [], stoppedLeading: new Promise((r) => (ended = r)) };
    elector.onStartedLeading(() => c.started.push(clock.now()));
    elector.onStoppedLeading((reason) => {
      c.stopped.push({ reason, at: clock.now() });
      ended();
    });
    elector.onNewLeader((leader) => c.newLeaders.push(leader));
    all.push(c);
    return c;
  };
  const signal = () => new AbortController().signal;
  /** Starts `c` and waits until its first attempt has ended and the next one is scheduled. */
  const start = async (c: Candidate) => {
    const scheduled = c.clock.nextTimer();
    await within(c.elector.start(signal()), `${c.id}'s start()`);
    await within(scheduled, `${c.id}'s first attempt`);
  };
  /** Advances `c`'s clock to its next timer and waits until that step is over (next step scheduled, or leading ended). Returns the step's clock time. */
  const step = async (c: Candidate) => {
    const due = c.clock.nextDueIn();
    assert.notEqual(due, undefined, `${c.id} has a next step scheduled`);
    const scheduled = c.clock.nextTimer();
    c.clock.advance(due!);
    await within(Promise.race([scheduled, c.stoppedLeading]), `${c.id}'s step at ${c.clock.now()} ms`);
    return c.clock.now();
  };
  /**
   * Lets `ms` pass on each candidate's clock in turn, waiting until each one whose timer fired
   * has finished that attempt, so a candidate sees the writes of those stepped before it.
   */
  const elapse = async (ms: number, ...cs: Candidate[]) => {
    for (const c of cs) {
      const scheduled = c.clock.nextTimer();
      if (c.clock.advance(ms) > 0) await within(Promise.race([scheduled, c.stoppedLeading]), `${c.id}'s attempt at ${c.clock.now()} ms`);
    }
  };
  const getLease = (name: string) => client.get<Lease>({ ...LEASE_KIND, namespace: NS, name });

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    // An attempt is bounded in real time by the renew deadline (400 ms). The process's first Lease
    // requests (connection set-up, code not yet compiled) once took longer than that in a loaded
    // full run: take that cost here, not in the first test's first attempt.
    // (In a namespace of its own: the tests count the Lease requests of theirs.)
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: WARM_NS } });
    const warm = await client.create<Lease>({ ...LEASE_KIND, metadata: { name: "warm-up", namespace: WARM_NS }, spec: { holderIdentity: "nobody" } });
    await client.replace<Lease>({ ...warm, spec: { ...warm.spec, holderIdentity: "still-nobody" } });
    await client.get<Lease>({ ...LEASE_KIND, namespace: WARM_NS, name: "warm-up" });
    await client.delete({ ...LEASE_KIND, namespace: WARM_NS, name: "warm-up" });
  });
  after(async () => {
    await within(Promise.all(all.map((c) => c.elector.stop())), "every elector to stop");
    await within(cluster.stop(), "LocalCluster to stop");
  });

  it("rejects timings that break leaseDuration > renewDeadline > retryPeriod > 0", () => {
    assert.throws(() => new LeaderElector({ client, namespace: NS, name: "x", identity: "a", leaseDurationMs: 400, renewDeadlineMs: 400 }), /leaseDurationMs > renewDeadlineMs/);
    assert.throws(() => new LeaderElector({ client, namespace: NS, name: "x", identity: "" }), /identity are required/);
  });

  it("acquires a missing Lease: creates it with its identity, leaseTransitions 0 and MicroTime stamps, then renews it every retry period", async () => {
    const metrics = new Metrics();
    const a = candidate("alpha", "acquire", { metrics });
    const firstAttempt = a.clock.nextTimer();
    await within(a.elector.start(signal()), "alpha's start()");
    assert.equal(a.elector.isLeader(), false, "start() returns before the first attempt has its answer");
    assert.deepEqual(a.started, []);
    await within(firstAttempt, "alpha's first attempt");
    assert.equal(a.elector.isLeader(), true);
    const lease = await getLease("acquire");
    assert.equal(lease.spec?.holderIdentity, "alpha");
    assert.equal(lease.spec?.leaseTransitions, 0);
    assert.equal(lease.spec?.leaseDurationSeconds, 1, "600 ms rounds up to whole seconds");
    assert.match(lease.spec?.acquireTime ?? "", MICRO_TIME);
    assert.equal(lease.spec?.acquireTime, stamp(0));
    assert.equal(lease.spec?.renewTime, stamp(0));
    assert.deepEqual(a.newLeaders, ["alpha"]);
    assert.deepEqual(a.started, [0]);
    assert.match(await metrics.text(), /leader_election_master_status\{name="acquire"\} 1/);

    const renewals = () => cluster.requests.count({ verb: "update", resource: "leases", name: "acquire", code: 200 });
    for (const n of [1, 2]) {
      assert.equal(await step(a), n * RETRY_MS, "the next renewal is one retry period later");
      const renewed = await getLease("acquire");
      assert.equal(renewed.spec?.renewTime, stamp(n * RETRY_MS));
      assert.equal(renewed.spec?.acquireTime, lease.spec?.acquireTime, "renewals keep acquireTime");
      assert.equal(renewed.spec?.leaseTransitions, 0);
      assert.equal(renewals(), n, "one PUT per renewal");
    }
    assert.equal(a.elector.isLeader(), true);
    assert.equal(cluster.requests.count({ verb: "create", resource: "leases", namespace: NS, code: 201 }), 1);
    await within(a.elector.stop(), "alpha's stop()");
    assert.match(await metrics.text(), /leader_election_master_status\{name="acquire"\} 0/);
  });

  it("a second candidate stands by while the leader renews; stop() releases and the standby leads at its next attempt", async () => {
    const a = candidate("alpha", "handover");
    const b = candidate("beta", "handover");
    await start(a);
    assert.equal(a.elector.isLeader(), true);
    await start(b); // returns although beta cannot lead
    assert.deepEqual(b.newLeaders, ["alpha"], "beta's first attempt saw alpha");
    assert.equal(b.elector.isLeader(), false);

    // Two lease durations of renewals: beta sees the Lease change each time and never leads.
    for (let t = 0; t < 2 * LEASE_MS; t += RETRY_MAX) {
      await elapse(RETRY_MAX, a, b);
      assert.equal(b.elector.isLeader(), false, `beta stands by at ${b.clock.now()} ms`);
    }
    assert.deepEqual(b.started, []);
    assert.equal(a.elector.isLeader(), true);

    await within(a.elector.stop(), "alpha's stop()");
    assert.deepEqual(a.stopped.map((s) => s.reason), ["stopped"]);
    assert.equal(a.elector.isLeader(), false);
    assert.equal((await getLease("handover")).spec?.holderIdentity, "", "stop() released the Lease");
    const releasedAt = b.clock.now();
    await step(b);
    assert.equal(b.elector.isLeader(), true, "beta takes the released Lease at its next attempt");
    assert.ok(b.started[0]! - releasedAt <= RETRY_MAX, `beta led ${b.started[0]! - releasedAt} ms (its clock) after the release: within a retry period, no lease expiry awaited`);
    const lease = await getLease("handover");
    assert.equal(lease.spec?.holderIdentity, "beta");
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.equal(lease.spec?.acquireTime, stamp(b.started[0]!));
    assert.deepEqual(b.newLeaders, ["alpha", "beta"]);
  });

  it("stop() writes the release: holderIdentity \"\", leaseDurationSeconds 1, leaseTransitions kept", async () => {
    const a = candidate("alpha", "release");
    await start(a);
    assert.equal(a.elector.isLeader(), true);
    const held = await getLease("release");
    await within(a.elector.stop(), "alpha's stop()");
    const released = await getLease("release");
    assert.equal(released.spec?.holderIdentity, "");
    assert.equal(released.spec?.leaseDurationSeconds, 1);
    assert.equal(released.spec?.leaseTransitions, held.spec?.leaseTransitions);
    assert.match(released.spec?.renewTime ?? "", MICRO_TIME);
    assert.equal(a.clock.pendingTimers(), 0, "a stopped elector leaves no timer behind");
    const updates = cluster.requests.count({ verb: "update", resource: "leases", name: "release" });
    await within(a.elector.stop(), "alpha's second stop()");
    assert.equal(cluster.requests.count({ verb: "update", resource: "leases", name: "release" }), updates, "stop() is idempotent");
  });

  it("when the leader dies without releasing, the standby takes over after the lease duration, within lease duration + retry period", async () => {
    const a = candidate("alpha", "crash");
    const b = candidate("beta", "crash");
    await start(a);
    await start(b);
    assert.deepEqual(b.newLeaders, ["alpha"]);
    for (let i = 0; i < 3; i++) await elapse(RETRY_MAX, a, b); // three renewals, each seen by beta

    await within(a.elector.abandon(), "alpha's abandon()"); // as if the process were killed: no release, no callbacks
    assert.deepEqual(a.stopped, []);
    assert.equal((await getLease("crash")).spec?.holderIdentity, "alpha", "the Lease still names alpha");
    const lastSeen = b.clock.now(); // beta's last attempt saw alpha's last renewal
    while (!b.elector.isLeader()) {
      assert.ok(b.clock.now() - lastSeen <= LEASE_MS + RETRY_MAX, `beta still stands by ${b.clock.now() - lastSeen} ms after alpha's last renewal`);
      await step(b);
    }
    const tookOver = b.started[0]! - lastSeen;
    assert.ok(tookOver >= LEASE_MS, `never before the lease duration: took over ${tookOver} ms after alpha's last renewal`);
    assert.ok(tookOver <= LEASE_MS + RETRY_MAX, `took over ${tookOver} ms after alpha's last renewal`);
    const lease = await getLease("crash");
    assert.equal(lease.spec?.holderIdentity, "beta");
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.equal(lease.spec?.acquireTime, stamp(b.started[0]!), "acquireTime is the takeover time");
  });

  it("stops leading the moment renewals have failed for the renew deadline, then no longer campaigns, and releases on stop() once the API answers again", async () => {
    const metrics = new Metrics();
    const a = candidate("alpha", "renew", { metrics });
    await start(a);
    assert.equal(a.elector.isLeader(), true);
    const lastRenewal = a.clock.now(); // its create, the last write that succeeds
    const fault = cluster.inject({ verb: "update", resource: "leases", name: "renew", code: 500, times: 100 });
    while (a.stopped.length === 0) {
      assert.ok(a.clock.now() - lastRenewal < RENEW_MS, `alpha still leads ${a.clock.now() - lastRenewal} ms after its last successful renewal`);
      await step(a);
    }
    assert.equal(a.stopped[0]!.reason, "renew-deadline");
    assert.equal(a.stopped[0]!.at - lastRenewal, RENEW_MS, "leading ends when the renew deadline passes, not later");
    assert.equal(a.elector.isLeader(), false);
    assert.ok(fault.hits >= 2, `renewals were retried (${fault.hits} failed PUTs)`);
    assert.match(await metrics.text(), /leader_election_master_status\{name="renew"\} 0/);

    // A lost elector no longer campaigns: no timer is left, so however long it waits, nothing runs.
    assert.equal(a.clock.pendingTimers(), 0);
    assert.equal(a.clock.advance(10 * LEASE_MS), 0);
    cluster.clearFaults();
    await within(a.elector.stop(), "alpha's stop()");
    assert.equal(a.stopped.length, 1, "onStoppedLeading runs once");
    assert.equal((await getLease("renew")).spec?.holderIdentity, "", "released: the Lease, unchanged since alpha's last write, is cleared");
  });

  it("two candidates racing to create the Lease: exactly one leads", async () => {
    // Each candidate's first GET answers 404; the test lets them go on (to create) only once both have.
    let answers = 0;
    let bothAnswered!: () => void;
    const bothRead = new Promise<void>((r) => (bothAnswered = r));
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const raceClient = gatedGets(client, () => ++answers === 2 && bothAnswered(), gate);
    const a = candidate("alpha", "race", { client: raceClient });
    const b = candidate("beta", "race", { client: raceClient });
    const creates = (code?: number) => cluster.requests.count({ verb: "create", resource: "leases", namespace: NS, ...(code ? { code } : {}) });
    const createsBefore = creates();
    const conflictsBefore = creates(409);
    const firstAttempts = Promise.all([a.clock.nextTimer(), b.clock.nextTimer()]);
    await within(a.elector.start(signal()), "alpha's start()");
    await within(b.elector.start(signal()), "beta's start()");
    await within(bothRead, "both candidates' first GET");
    assert.equal(creates(), createsBefore, "neither created before both had read");
    open();
    await within(firstAttempts, "both first attempts");
    assert.equal(creates() - createsBefore, 2, "both tried to create");
    assert.equal(creates(409) - conflictsBefore, 1, "one create answered AlreadyExists");
    assert.equal(a.elector.isLeader() !== b.elector.isLeader(), true, "exactly one leads");
    const winner = a.elector.isLeader() ? a : b;
    const loser = winner === a ? b : a;

    // The loser retries at once, sees the winner, and stands by through two lease durations of renewals.
    await step(loser);
    assert.equal(loser.elector.leader(), winner.id);
    for (let t = 0; t < 2 * LEASE_MS; t += RETRY_MAX) {
      await elapse(RETRY_MAX, winner, loser);
      assert.equal(winner.elector.isLeader(), true, `${winner.id} leads at ${winner.clock.now()} ms`);
      assert.equal(loser.elector.isLeader(), false, `never two leaders (${loser.clock.now()} ms)`);
    }
    assert.deepEqual(loser.started, []);
    assert.equal((await getLease("race")).spec?.holderIdentity, winner.id);
    assert.equal(loser.elector.leader(), winner.id);
  });
});
