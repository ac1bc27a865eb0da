/**
 * A Manager stops promptly while a reconcile waits for an informer that never syncs (its list
 * keeps failing, e.g. for want of RBAC): the wait gives up when the stop begins, instead of
 * holding the drain for the 30 s reconcile timeout.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ConfigMap, Manager, ResourceClient, Action, Secret } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import { waitFor, within } from "../support/wait.ts";

describe("Manager.stop with an informer that never syncs", () => {
  it("ends the waiting reconcile and stops well before the reconcile timeout", async () => {
    const cluster = await LocalCluster.start();
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger });
    try {
      cluster.inject({ verb: "list", resource: "secrets", code: 500, times: 1_000_000 });
      let waiting = 0;
      let failure: unknown;
      mgr.controller("reads-secrets").for(ConfigMap).reconcile(async (req) => {
        waiting++;
        try {
          await mgr.cache.list(Secret, { namespace: req.namespace });
        } catch (err) {
          failure = err;
          throw err;
        }
        return Action.done();
      });
      await within(mgr.start(), "mgr.start()", 15_000);
      await new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test" })
        .create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "default" } });
      await waitFor(() => waiting > 0 && cluster.requests.count({ verb: "list", resource: "secrets", code: 500 }) > 0, "the reconcile to wait for Secrets");
      await within(mgr.stop(), "mgr.stop() (the reconcile timeout is 30 s)", 5_000);
      assert.match(String(failure), /cache: stopping; an informer that has not synced is not read/);
    } finally {
      await mgr.stop();
      await cluster.stop();
    }
  });
});
