import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { LeaderElector } from "../../src/lease/leader-election.ts";
import { SteppingClock } from "../support/stepping-clock.ts";
import { waitFor, within } from "../support/wait.ts";

describe("LeaderElector requests are bounded by the renew deadline", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const elector = (name: string) =>
    new LeaderElector({ client, namespace: "default", name, identity: "a", leaseDurationMs: 900, renewDeadlineMs: 600, retryPeriodMs: 100, logger: silentLogger });

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
  });

  it("gives up on a Lease GET that hangs and takes the Lease on the next attempt", async () => {
    cluster.inject({ verb: "get", resource: "leases", name: "hung-get", latencyMs: 30_000, times: 1 });
    const e = elector("hung-get");
    await e.start(AbortSignal.timeout(5000));
    try {
      await waitFor(() => e.isLeader(), "leading despite the hung GET");
    } finally {
      await within(e.stop(), "stop()");
    }
  });

  it("stop() and abandon() do not wait for a hung Lease request", async () => {
    cluster.inject({ verb: "get", resource: "leases", name: "hung-stop", latencyMs: 30_000, times: 2 });
    const stopped = elector("hung-stop");
    await stopped.start(AbortSignal.timeout(5000));
    await within(stopped.stop(), "stop() while the GET hangs", 2000);
    const abandoned = elector("hung-stop");
    await abandoned.start(AbortSignal.timeout(5000));
    await within(abandoned.abandon(), "abandon() while the GET hangs", 2000);
    assert.equal(stopped.isLeader() || abandoned.isLeader(), false);
  });
});

describe("LeaderElector and a 429 with Retry-After", () => {
  let cluster: LocalCluster;

  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
  });

  it("a candidate waits out Retry-After: 5 before its next attempt, not just its retry period", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    const clock = new SteppingClock();
    const e = new LeaderElector({ client, namespace: "default", name: "limited", identity: "a", leaseDurationMs: 900, renewDeadlineMs: 600, retryPeriodMs: 100, clock, logger: silentLogger });
    cluster.inject({ verb: "get", resource: "leases", name: "limited", code: 429, retryAfterSeconds: 5, times: 1 });
    const scheduled = clock.nextTimer();
    await e.start(AbortSignal.timeout(5000));
    try {
      await within(scheduled, "the next attempt to be scheduled");
      assert.equal(e.isLeader(), false);
      assert.ok(clock.nextDueIn()! >= 5000, `next attempt in ${clock.nextDueIn()} ms`);
      const next = clock.nextTimer();
      clock.advance(clock.nextDueIn()!);
      await within(next, "the attempt after Retry-After");
      assert.equal(e.isLeader(), true);
      assert.equal(cluster.requests.count({ verb: "get", resource: "leases", name: "limited" }), 2);
    } finally {
      await within(e.stop(), "stop()");
    }
  });
});
