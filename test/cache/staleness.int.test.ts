import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import type { ReflectorTimings, SharedInformer } from "../../src/cache/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, cm, namespace } from "./fixtures.ts";

describe("when an informer counts as stale", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const caches: Cache[] = [];

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(async () => {
    for (const c of caches) await within(c.stop(), "a cache to stop");
    await within(cluster.stop(), "cluster.stop()");
  });

  /** A started cache with one ConfigMap informer on a new namespace, counting its `caughtUp()` calls (one per stale period). */
  async function watched(ns: string, timings: ReflectorTimings) {
    for (const c of caches.splice(0)) await within(c.stop(), "an earlier cache to stop");
    await waitFor(() => cluster.watchCount() === 0, "no watches left");
    await namespace(client, ns);
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings });
    caches.push(cache);
    const informer: SharedInformer = cache.informer(CONFIGMAP, { namespace: ns });
    const seen = { caughtUp: 0 };
    informer.addEventHandler({ caughtUp: () => void seen.caughtUp++ });
    await within(cache.start(AbortSignal.timeout(10_000)), "the cache to start");
    await waitFor(() => cluster.watchCount() === 1, "the watch to be open");
    return { informer, seen };
  }

  it("a clean watch close whose resume is accepted promptly never makes it stale", async () => {
    const { informer, seen } = await watched("clean-close", { ...FAST, resumeGraceMs: 60_000 });
    for (let round = 0; round < 3; round++) {
      const watches = informer.stats.watches;
      assert.equal(cluster.dropWatches(), 1);
      await client.create(cm("clean-close", `after-${round}`));
      await waitFor(() => informer.get(`after-${round}`, "clean-close") !== undefined, "the resumed watch to deliver the create");
      assert.ok(informer.stats.watches > watches);
    }
    assert.equal(informer.isStale(), false);
    assert.equal(seen.caughtUp, 0, "never went stale, so never caught up");
    assert.equal(informer.stats.lists, 1);
  });

  it("a clean close whose resume is not accepted within resumeGraceMs makes it stale until it is", async () => {
    const { informer, seen } = await watched("slow-resume", { ...FAST, resumeGraceMs: 50 });
    // The resumed watch waits 2 s at the server before it is accepted: far longer than the 50 ms grace.
    cluster.inject({ verb: "watch", resource: "configmaps", namespace: "slow-resume", latencyMs: 2_000, times: 1 });
    assert.equal(cluster.dropWatches(), 1);
    await waitFor(() => informer.isStale(), "the informer to count as stale after the grace");
    await waitFor(() => !informer.isStale(), "the slow resume to be accepted");
    assert.equal(seen.caughtUp, 1);
    assert.equal(informer.stats.lists, 1, "caught up by the resume, not a relist");
  });

  it("a failed watch makes it stale at once, whatever the grace", async () => {
    const { informer, seen } = await watched("failed", { ...FAST, resumeGraceMs: 60_000 });
    const failures = informer.stats.watchFailures;
    cluster.dropWatches({ abrupt: true });
    await waitFor(() => informer.stats.watchFailures > failures && seen.caughtUp === 1, "the failed watch to be resumed");
    assert.equal(informer.isStale(), false);
  });
});
