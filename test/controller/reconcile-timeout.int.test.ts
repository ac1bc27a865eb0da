import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Cache } from "../../src/cache/cache.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { Controller } from "../../src/controller/controller.ts";
import { Action } from "../../src/controller/reconciler.ts";
import { waitFor, within } from "../support/wait.ts";
import { startClusterWithCache } from "../support/cluster-with-cache.ts";
import type { ClusterWithCache } from "../support/cluster-with-cache.ts";

const CM = { apiVersion: "v1", kind: "ConfigMap" };

describe("Controller reconcile timeout", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  let env: ClusterWithCache;

  before(async () => {
    env = await startClusterWithCache();
    ({ cluster, client, cache } = env);
    for (const name of ["stalled", "deaf"]) await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  });
  after(() => env.stop());

  it("aborts a reconcile held by a stalled PATCH after reconcileTimeoutMs, so the one worker goes on to the next key", async () => {
    const ns = "stalled";
    cluster.inject({ verb: "patch", resource: "configmaps", namespace: ns, name: "hung", latencyMs: 30_000, times: 1 });
    const reconciled: string[] = [];
    let hungReason: unknown;
    const controller = new Controller({
      name: "timeouts", source: cache, reconcileTimeoutMs: 300, maxConcurrentReconciles: 1, for: { kind: CM, namespace: ns },
      reconcile: async (req, { signal }) => {
        if (req.name === "hung" && !reconciled.includes("hung")) {
          try {
            await client.patch({ ...CM, ...req }, { metadata: { annotations: { seen: "yes" } } }, "merge", { signal });
          } catch (err) {
            hungReason = err;
            throw err;
          }
        }
        reconciled.push(req.name);
        return Action.done();
      },
    });
    await controller.start(env.signal);
    try {
      await client.create({ ...CM, metadata: { name: "hung", namespace: ns } });
      await waitFor(() => cluster.requests.count({ verb: "patch", namespace: ns, name: "hung" }) > 0 || client.requests.count({ verb: "patch", namespace: ns }) > 0 || controller.queue.processing() > 0, "the hung reconcile to start");
      await client.create({ ...CM, metadata: { name: "other", namespace: ns } });
      // The PATCH would hold the worker for 30 s; the timeout frees it after 300 ms.
      await waitFor(() => reconciled.includes("other"), "the other key to be reconciled while the PATCH still stalls");
      assert.match(String((hungReason as Error | undefined)?.message), /reconcile of stalled\/hung timed out after 300 ms/, "the PATCH rejected with the signal's reason");
      await waitFor(() => reconciled.includes("hung"), "the hung key retried with backoff");
    } finally {
      await within(controller.abort(), "controller.abort()");
    }
  });

  it("does not run a timed-out key again while its run ignores the signal, and retries it once that run returns", async () => {
    const ns = "deaf";
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const starts: string[] = [];
    let running = 0;
    let overlapped = false;
    let stuckSignal: AbortSignal | undefined;
    const controller = new Controller({
      name: "deaf", source: cache, reconcileTimeoutMs: 200, maxConcurrentReconciles: 1, for: { kind: CM, namespace: ns },
      reconcile: async (req, { signal }) => {
        starts.push(req.name);
        if (req.name !== "stuck") return Action.done();
        stuckSignal ??= signal;
        if (++running > 1) overlapped = true;
        try {
          if (starts.filter((n) => n === "stuck").length === 1) await released; // ignores its signal
        } finally {
          running--;
        }
        return Action.done();
      },
    });
    await controller.start(env.signal);
    try {
      await client.create({ ...CM, metadata: { name: "stuck", namespace: ns } });
      await waitFor(() => stuckSignal?.aborted, "the stuck reconcile to time out");
      // Events for the stuck key keep coming while its first run hangs past the timeout.
      for (let i = 0; i < 5; i++) {
        await client.patch({ ...CM, namespace: ns, name: "stuck" }, { data: { i: String(i) } }, "merge");
        await client.create({ ...CM, metadata: { name: `other-${i}`, namespace: ns } });
      }
      await waitFor(() => starts.filter((n) => n.startsWith("other-")).length === 5, "the other keys to run");
      assert.deepEqual(starts.filter((n) => n === "stuck"), ["stuck"], "not run again while the timed-out run goes on");
      release();
      await waitFor(() => starts.filter((n) => n === "stuck").length >= 2, "the stuck key retried once its run returned");
      assert.equal(overlapped, false, "never two runs of one key at once");
    } finally {
      await within(controller.abort(), "controller.abort()");
    }
  });
});
