/**
 * The renew deadline answers isLeader() and the write gate by itself: with the elector's clock
 * moved past the deadline while no timer runs (what a stalled event loop looks like to it),
 * the process no longer counts as leader and writes are refused.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Cache } from "../../src/cache/cache.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import type { Clock } from "../../src/util/clock.ts";
import { Controller } from "../../src/controller/controller.ts";
import { Action } from "../../src/controller/reconciler.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { LeaderElector } from "../../src/lease/leader-election.ts";
import { SteppingClock } from "../support/stepping-clock.ts";
import { waitFor, within } from "../support/wait.ts";
import { startClusterWithCache } from "../support/cluster-with-cache.ts";
import type { ClusterWithCache } from "../support/cluster-with-cache.ts";

const RENEW_MS = 400;
const CM = { apiVersion: "v1", kind: "ConfigMap" };

/** A stepped clock whose time can also jump without running any timer. */
function stallableClock(): { clock: Clock; timers: SteppingClock; stall: (ms: number) => void } {
  const timers = new SteppingClock();
  let stalled = 0;
  const clock: Clock = {
    now: () => timers.now() + stalled,
    setTimeout: (callback, ms) => timers.setTimeout(callback, ms),
    clearTimeout: (handle) => timers.clearTimeout(handle),
  };
  return { clock, timers, stall: (ms) => (stalled += ms) };
}

describe("the renew deadline, not its timer, decides leadership", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  let env: ClusterWithCache;
  const elector = (name: string, clock: Clock) =>
    new LeaderElector({ client, namespace: "default", name, identity: "a", leaseDurationMs: 600, renewDeadlineMs: RENEW_MS, retryPeriodMs: 100, clock, logger: silentLogger });

  before(async () => {
    env = await startClusterWithCache();
    ({ cluster, client, cache } = env);
  });
  after(() => env.stop());

  it("isLeader() answers false as soon as the renew deadline passed, before the deadline's timer has run", async () => {
    const { clock, timers, stall } = stallableClock();
    const e = elector("stalled-loop", clock);
    await e.start(AbortSignal.timeout(5000));
    try {
      await waitFor(() => e.isLeader(), "leading");
      stall(RENEW_MS - 1);
      assert.equal(e.isLeader(), true, "within the renew deadline");
      stall(1);
      assert.equal(e.isLeader(), false, "the renew deadline passed without a renewal");
      assert.ok(timers.pendingTimers() > 0, "no timer has run: the answer came from the deadline itself");
    } finally {
      await within(e.abandon(), "abandon()");
    }
  });

  it("refuses a reconcile's writes once the renew deadline passed, without a request", async () => {
    const { clock, stall } = stallableClock();
    const e = elector("stalled-writes", clock);
    let proceed!: () => void;
    const proceeding = new Promise<void>((resolve) => (proceed = resolve));
    let started = false;
    let outcome: unknown;
    const controller = new Controller({
      name: "gated", source: cache, leading: () => e.isLeader(), for: { kind: CM, namespace: "default" },
      reconcile: async (req) => {
        if (req.name !== "gated") return Action.done();
        started = true;
        await proceeding;
        outcome = await client.patch({ ...CM, ...req }, { data: { a: "2" } }, "merge").then(() => "written", (err: unknown) => err);
        return Action.done();
      },
    });
    await e.start(AbortSignal.timeout(5000));
    await controller.start(env.signal);
    try {
      await waitFor(() => e.isLeader(), "leading");
      await client.create({ ...CM, metadata: { name: "gated", namespace: "default" }, data: { a: "1" } });
      await waitFor(() => started, "the reconcile to start");
      stall(RENEW_MS);
      proceed();
      await waitFor(() => outcome !== undefined, "the reconcile's write to settle");
      assert.match(String((outcome as Error).message), /write refused: this process no longer leads/);
      assert.equal(cluster.requests.count({ verb: "patch", name: "gated" }), 0);
    } finally {
      await within(controller.abort(), "controller.abort()");
      await within(e.abandon(), "abandon()");
    }
  });
});
