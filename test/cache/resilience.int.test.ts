import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api, makeInformer } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import type { ReflectorTimings, SharedInformer } from "../../src/cache/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, Tally, assertBalanced, cm, namespace, waitForMirror } from "./fixtures.ts";

describe("the cache stays an exact mirror through watch and list failures", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const caches: Cache[] = [];

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(async () => {
    for (const c of caches) await within(c.stop(), "an earlier cache to stop");
    await within(cluster.stop(), "cluster.stop()");
  });

  /**
   * A cache with one informer on ConfigMaps of a new namespace, and a tally of its events.
   * Earlier tests' caches are stopped first, so every watch (and fault) is this cache's.
   */
  async function setup(ns: string, seed = 3, timings: ReflectorTimings = FAST) {
    for (const c of caches.splice(0)) await within(c.stop(), "an earlier cache to stop");
    await waitFor(() => cluster.watchCount() === 0, "no watches left");
    await namespace(client, ns);
    for (let i = 0; i < seed; i++) await client.create(cm(ns, `seed-${i}`));
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings });
    caches.push(cache);
    const informer: SharedInformer = cache.informer(CONFIGMAP, { namespace: ns });
    const tally = new Tally();
    informer.addEventHandler(tally.handler);
    const start = async () => {
      await cache.start(AbortSignal.timeout(10_000));
      await watching();
    };
    return { cache, informer, tally, start };
  }

  /** Waits until the (single) watch is open at the server. */
  function watching(): Promise<unknown> {
    return waitFor(() => cluster.watchCount() === 1, "the watch to be open");
  }

  /** Creates, updates and deletes a few ConfigMaps. */
  async function churn(ns: string, tag: string): Promise<void> {
    await client.create(cm(ns, `${tag}-new`));
    await client.patch({ ...CONFIGMAP, namespace: ns, name: "seed-0" }, { data: { v: tag } }, "merge");
    await client.create(cm(ns, `${tag}-gone`));
    await client.delete({ ...CONFIGMAP, namespace: ns, name: `${tag}-gone` });
  }

  it("resumes after cleanly dropped watches without relisting", async () => {
    const { cache, informer, tally, start } = await setup("clean-drop");
    await start();
    for (let round = 0; round < 3; round++) {
      const watchesBefore = informer.stats.watches;
      assert.equal(cluster.dropWatches(), 1);
      await churn("clean-drop", `r${round}`);
      await waitFor(() => informer.stats.watches > watchesBefore, "a new watch");
      await watching();
    }
    const state = await waitForMirror(cache, client, "clean-drop");
    assertBalanced(tally, state);
    assert.equal(informer.stats.lists, 1, "a clean close resumes from the last resourceVersion");
    assert.equal(informer.stats.watchFailures, 0);
  });

  it("keeps running through repeated abrupt connection drops", async () => {
    const { cache, informer, tally, start } = await setup("abrupt-drop");
    await start();
    for (let round = 0; round < 4; round++) {
      const failures = informer.stats.watchFailures;
      assert.equal(cluster.dropWatches({ abrupt: true }), 1);
      await waitFor(() => informer.stats.watchFailures > failures, "the failure to be seen");
      await churn("abrupt-drop", `r${round}`);
      await watching();
    }
    const state = await waitForMirror(cache, client, "abrupt-drop");
    assertBalanced(tally, state);
    assert.equal(informer.running, true);
  });

  it("survives the abrupt drop that stops client-node's own informer", async () => {
    const { cache, informer, start } = await setup("versus-client-node");
    await start();
    const theirs = makeInformer(cluster.kubeConfig, "/api/v1/namespaces/versus-client-node/configmaps",
      () => cluster.kubeConfig.makeApiClient(CoreV1Api).listNamespacedConfigMap({ namespace: "versus-client-node" }));
    const theirErrors: unknown[] = [];
    theirs.on("error", (err) => theirErrors.push(err));
    await within(theirs.start(), "client-node's informer to start");
    await waitFor(() => cluster.watchCount() === 2, "both watches open");
    cluster.dropWatches({ abrupt: true });
    await waitFor(() => theirErrors.length === 1 && informer.stats.watchFailures === 1, "both to see the failure");
    await client.create(cm("versus-client-node", "after-the-drop"));
    const state = await waitForMirror(cache, client, "versus-client-node");
    assert.ok(state.some((v) => v.includes("/after-the-drop@")));
    assert.equal(theirs.list().some((o) => o.metadata?.name === "after-the-drop"), false, "client-node's informer stopped");
    await within(theirs.stop(), "client-node's informer to stop");
  });

  it("relists after a compacted history (ERROR 410) and reports deletions made in the gap", async () => {
    const { cache, informer, tally, start } = await setup("compacted", 5);
    await start();
    // Hold the resumed watch at the server until the history it needs is gone.
    const held = cluster.inject({ verb: "watch", resource: "configmaps", latencyMs: 500 });
    cluster.dropWatches();
    await client.delete({ ...CONFIGMAP, namespace: "compacted", name: "seed-1" });
    await client.delete({ ...CONFIGMAP, namespace: "compacted", name: "seed-2" });
    await client.create(cm("compacted", "born-in-gap"));
    await client.patch({ ...CONFIGMAP, namespace: "compacted", name: "seed-3" }, { data: { v: "gap" } }, "merge");
    cluster.compact();
    assert.equal(held.hits, 1, "the resumed watch was held while the history was compacted");
    await waitFor(() => informer.stats.relists >= 1, "a relist");
    const state = await waitForMirror(cache, client, "compacted");
    assert.equal(informer.stats.lists, 2);
    assert.equal(tally.deletes.get("compacted/seed-1"), 1, "deletion in the gap reported");
    assert.equal(tally.deletes.get("compacted/seed-2"), 1);
    assert.equal(tally.updates.get("compacted/seed-3"), 1, "change in the gap reported as update");
    assert.equal(tally.adds.get("compacted/born-in-gap"), 1);
    assertBalanced(tally, state);
  });

  it("relists after an HTTP 410 on the watch request", async () => {
    const { cache, informer, tally, start } = await setup("http-410");
    await start();
    cluster.inject({ verb: "watch", resource: "configmaps", code: 410 });
    cluster.dropWatches();
    await churn("http-410", "a");
    await waitFor(() => informer.stats.relists >= 1, "a relist");
    assertBalanced(tally, await waitForMirror(cache, client, "http-410"));
  });

  for (const code of [500, 429]) {
    it(`retries a failing first list (${code} × 3) with backoff, then syncs`, async () => {
      const { cache, informer, tally, start } = await setup(`list-${code}`);
      const fault = cluster.inject({ verb: "list", resource: "configmaps", code, times: 3 });
      await start();
      assert.equal(fault.remaining, 0);
      assert.equal(informer.stats.listFailures, 3);
      assert.equal(tally.initialAdds, 3);
      await churn(`list-${code}`, "a");
      assertBalanced(tally, await waitForMirror(cache, client, `list-${code}`));
    });

    it(`retries a failing relist (${code} × 3) and reports the gap`, async () => {
      const { cache, informer, tally, start } = await setup(`relist-${code}`);
      await start();
      const fault = cluster.inject({ verb: "list", resource: "configmaps", code, times: 3 });
      cluster.inject({ verb: "watch", resource: "configmaps", code: 410 });
      cluster.dropWatches();
      await churn(`relist-${code}`, "a");
      await waitFor(() => fault.remaining === 0 && informer.stats.lists === 2, "the relist to succeed after the failures");
      assert.equal(informer.stats.listFailures, 3);
      assertBalanced(tally, await waitForMirror(cache, client, `relist-${code}`));
    });

    it(`reconnects a failing watch (${code} × 3) with backoff`, async () => {
      const { cache, informer, tally, start } = await setup(`watch-${code}`);
      await start();
      const fault = cluster.inject({ verb: "watch", resource: "configmaps", code, times: 3 });
      cluster.dropWatches();
      await churn(`watch-${code}`, "a");
      await waitFor(() => fault.remaining === 0, "the faults to be used up");
      await churn(`watch-${code}`, "b");
      assertBalanced(tally, await waitForMirror(cache, client, `watch-${code}`));
      assert.ok(informer.stats.watchFailures >= 3, `watch failures: ${informer.stats.watchFailures}`);
      assert.equal(informer.stats.lists, 2, "three failed resumes in a row fall back to a relist");
    });
  }

  it("resumes watches ended by the server's timeoutSeconds without relisting", async () => {
    const { cache, informer, tally, start } = await setup("timeouts", 3, { ...FAST, minWatchTimeoutSeconds: 1, maxWatchTimeoutSeconds: 1 });
    await start();
    await churn("timeouts", "a");
    await waitFor(() => informer.stats.watches >= 3, "two server-side watch timeouts", 10_000);
    await churn("timeouts", "b");
    assertBalanced(tally, await waitForMirror(cache, client, "timeouts"));
    assert.equal(informer.stats.lists, 1);
    assert.equal(informer.stats.watchFailures, 0);
  });
});
