import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager, Action, createLogger } from "../../src/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

describe("a demoted leader", () => {
  let cluster: LocalCluster;

  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
  });

  it("stops writing the moment leadership is lost, even from a reconcile that ignores its signal", async () => {
    const mgr = new Manager({
      kubeConfig: cluster.kubeConfig, healthPort: false, logger: createLogger({ sink: () => undefined }),
      leaderElection: { namespace: "default", name: "demoted", identity: "solo", leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 200 },
    });
    const patches = () => cluster.requests.count({ verb: "patch", resource: "configmaps", name: "writer" });
    let writesAtLoss: number | undefined;
    let stoppedBy: unknown;
    mgr.elector!.onStoppedLeading(() => (writesAtLoss = patches()));
    mgr.controller("writer").for({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "default" })
      .reconcile(async (req) => {
        if (req.name !== "writer") return Action.done();
        // Writes as fast as it can and never looks at its signal.
        try {
          for (let i = 0; ; i++) await mgr.client.patch({ apiVersion: "v1", kind: "ConfigMap", ...req }, { data: { i: String(i) } }, "merge");
        } catch (err) {
          stoppedBy = err;
        }
        return Action.done();
      });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      await waitFor(() => mgr.isLeader(), "leading");
      await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "writer" } });
      await waitFor(() => patches() >= 20, "the reconcile writing");

      cluster.inject({ verb: ["update", "get"], resource: "leases", code: 500, times: 1000 });
      await within(mgr.lost, "the Manager to report lost leadership", 10_000);
      await waitFor(() => stoppedBy !== undefined, "the writing reconcile to be stopped by a refused write");
      // Refused by whichever gate closes first: the aborted signal or the passed renew deadline.
      assert.match((stoppedBy as Error).message, /^(controller aborted|write refused: this process no longer leads)$/);
      assert.ok(writesAtLoss !== undefined);
      assert.ok(patches() - writesAtLoss <= 1, `${patches() - writesAtLoss} writes reached the server after the loss (at most the one in flight may)`);
    } finally {
      cluster.clearFaults();
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });
});
