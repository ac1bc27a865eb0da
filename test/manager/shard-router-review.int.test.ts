/**
 * Review tests of the sharded Manager's moving parts against LocalCluster over real HTTP: a
 * ShardRouter, a Cache and sharded Controllers driven bucket by bucket (no ring), so that each
 * handover step happens exactly when the test says.
 */
import { after, before, describe, it } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import { Controller } from "../../src/controller/controller.ts";
import type { Reconciler } from "../../src/controller/reconciler.ts";
import { ShardRouter } from "../../src/manager/shard-router.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { defineKind } from "../../src/kinds/custom-resource.ts";
import { createLogger, silentLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { WriteRefusedError, terminal } from "../../src/errors.ts";
import { bucketOfUid } from "../../src/cache/shard-buckets.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { FAST } from "../cache/fixtures.ts";

const DataApp = defineKind<{ gen?: number }>({ apiVersion: "example.com/v1", kind: "DataApp" });

describe("sharded controllers driven bucket by bucket (review)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await installDataApp(cluster.url);
  });
  after(() => within(cluster.stop(), "cluster.stop()", 30_000));

  /** A started cache, a router and one sharded controller on it, all stopped when the test ends. */
  async function rig(t: TestContext, reconcile: Reconciler, extra: { statusClient?: ConstructorParameters<typeof Controller>[0]["statusClient"]; resumeGraceMs?: number } = {}) {
    const records: LogRecord[] = [];
    const logger = createLogger({ level: "debug", sink: (r) => records.push(r) });
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, logger: silentLogger, timings: { ...FAST, ...(extra.resumeGraceMs !== undefined ? { resumeGraceMs: extra.resumeGraceMs } : {}) } });
    const controllers: Controller[] = [];
    const router = new ShardRouter({ cache, logger: silentLogger, metrics: new Metrics(), controllers: () => controllers });
    const controller = new Controller({
      name: "review", source: router, for: { kind: DataApp }, reconcile, logger, maxConcurrentReconciles: 2,
      sharding: { mayReconcile: (b) => router.buckets().has(b) },
      ...(extra.statusClient ? { statusClient: extra.statusClient } : {}),
    });
    controllers.push(controller);
    await cache.start(AbortSignal.timeout(10_000));
    const stopped = new AbortController();
    await controller.start(stopped.signal);
    t.after(async () => {
      await within(controller.abort(), "the controller to stop");
      await within(router.close(), "the router to close");
      await within(cache.stop(), "the cache to stop");
    });
    return { cache, router, controller, records };
  }

  /** A DataApp in `ns` whose UID hashes into a bucket for which `ok` holds (deleted and made again until one does). */
  async function dataAppIn(ns: string, name: string, ok: (bucket: number) => boolean): Promise<KubeObject> {
    for (let i = 0; i < 200; i++) {
      const app = await createDataApp(cluster.url, ns, name, { gen: 1 });
      if (ok(bucketOfUid(app.metadata.uid))) return app;
      await deleteDataApp(ns, name);
    }
    throw new Error("no UID in a wanted bucket after 200 tries");
  }

  async function deleteDataApp(ns: string, name: string): Promise<void> {
    const r = await raw(cluster.url, "DELETE", `/apis/example.com/v1/namespaces/${ns}/dataapps/${name}`);
    assert.ok(r.code === 200 || r.code === 202, r.text);
    await waitFor(async () => (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${ns}/dataapps/${name}`)).code === 404, `${name} to be gone`);
  }

  it("a key held while the primary's informer was stale runs once a rebuild swapped in a fresh informer", async (t) => {
    const ns = "held-swap";
    const runs: string[] = [];
    const { router, controller, records } = await rig(t, async (req) => void runs.push(req.name), { resumeGraceMs: 50 });
    const app = await dataAppIn(ns, "held", () => true);
    const bucket = bucketOfUid(app.metadata!.uid!);
    await router.start(bucket);
    await waitFor(() => runs.includes("held"), "the first reconcile");
    const facade = router.informers().find((f) => f.by === "uid")!;
    await waitFor(() => cluster.watchCount() === 1, "the primary informer's watch to be open");

    // The watch resumes only after 30 s: past the 50 ms grace the informer is stale.
    cluster.inject({ verb: "watch", resource: "dataapps", latencyMs: 30_000, times: 1 });
    cluster.dropWatches();
    await waitFor(() => facade.isStale(), "the primary informer to be stale");
    const before = runs.length;
    controller.enqueue({ namespace: ns, name: "held" });
    await waitFor(() => records.some((r) => r.msg.startsWith("held until the caches have caught up")), "the key to be held");

    // Another bucket comes in: the rebuilt informer (listed afresh, watching) replaces the stale one.
    await router.start((bucket + 1) % 64);
    assert.equal(facade.isStale(), false, "the swapped-in informer follows the server");
    await waitFor(() => runs.length > before, "the held key to run after the swap", 5_000);
  });

  it("a bucket's drain waits for the terminal-error status write of its last reconcile", async (t) => {
    const ns = "terminal-drain";
    let statusStarted = false;
    let statusEnded = -1;
    const statusClient = {
      patchStatus: (async (...args: Parameters<ResourceClient["patchStatus"]>) => {
        statusStarted = true;
        await new Promise((resolve) => setTimeout(resolve, 400));
        try {
          return await client.patchStatus(...args);
        } finally {
          statusEnded = performance.now();
        }
      }) as ResourceClient["patchStatus"],
    };
    const { router } = await rig(t, async () => {
      throw terminal(new Error("spec.gen is not allowed"));
    }, { statusClient });
    const app = await dataAppIn(ns, "bad", () => true);
    const bucket = bucketOfUid(app.metadata!.uid!);
    await router.start(bucket);
    await waitFor(() => statusStarted, "the terminal error's status write to start");
    await within(router.stop(bucket, new AbortController().signal), "the drain");
    const drainedAt = performance.now();
    assert.ok(statusEnded > 0 && statusEnded <= drainedAt, "the status write of the drained bucket's reconcile ended before the drain did");
  });

  it("a reconcile whose primary was deleted and re-created in a bucket it does not serve writes nothing for the new one", async (t) => {
    const ns = "recreated";
    let release!: () => void;
    const latch = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    let outcome: unknown;
    const { router, cache } = await rig(t, async (req) => {
      if (started) return;
      started = true;
      await latch;
      try {
        // Reads the primary again after a wait (as a reconcile does after earlier work).
        const app = await cache.get({ ...DataApp, namespace: req.namespace, name: req.name });
        if (!app) return;
        await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `for-${app.metadata!.uid}`, namespace: req.namespace }, data: {} });
        outcome = "written";
      } catch (err) {
        outcome = err;
      }
    });
    const first = await dataAppIn(ns, "app", () => true);
    const served = bucketOfUid(first.metadata!.uid!);
    await router.start(served);
    await waitFor(() => started, "the reconcile of the first object to start");

    await deleteDataApp(ns, "app");
    const second = await dataAppIn(ns, "app", (b) => b !== served);
    const facade = router.informers().find((f) => f.by === "uid")!;
    await waitFor(() => facade.get("app", ns) === undefined, "this replica to see the first object gone");
    // Finding a UID in another bucket may take several creates; the reconcile's reads must be past
    // all of them (an earlier one lies in the served bucket and would rightly be written for).
    await waitFor(async () => {
      const seen = await cache.get({ ...DataApp, namespace: ns, name: "app" });
      return seen === undefined || seen.metadata?.uid === second.metadata!.uid;
    }, "the reconcile's cache to see only the new object");
    release();
    await waitFor(() => outcome !== undefined, "the reconcile to end");
    const cm = await raw(cluster.url, "GET", `/api/v1/namespaces/${ns}/configmaps/for-${second.metadata!.uid}`);
    assert.equal(cm.code, 404, "no child written for an object of a bucket another replica serves");
    assert.ok(outcome instanceof WriteRefusedError, `the write was refused: ${String(outcome)}`);
  });

  it("a routed kind's get answers from the kind's full informer, when one runs, instead of the API", async (t) => {
    const ns = "routed-get";
    const { router, cache } = await rig(t, async () => undefined);
    await createDataApp(cluster.url, ns, "other", { gen: 1 });
    await router.start(0);
    // Something else (a `watches`, a cache.list) keeps every ConfigMap and DataApp cached.
    await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings", namespace: ns }, data: { a: "1" } });
    router.informer({ apiVersion: "v1", kind: "ConfigMap" }, { role: "owns" });
    const full = cache.informer({ apiVersion: "v1", kind: "ConfigMap" });
    const allApps = cache.informer(DataApp);
    await within(Promise.all([full.synced(), allApps.synced()]), "the full informers to sync");
    await waitFor(() => full.get("settings", ns), "the full informer to hold the ConfigMap");
    await waitFor(() => allApps.get("other", ns), "the full informer to hold the DataApp");
    const gets = () => cluster.requests.filter({ verb: "get", namespace: ns }).length;
    const before = gets();
    for (let i = 0; i < 5; i++) {
      const settings = await cache.get<KubeObject & { data?: Record<string, string> }>({ apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "settings" });
      assert.equal(settings?.data?.a, "1");
      assert.ok(await cache.get({ ...DataApp, namespace: ns, name: "other" }));
    }
    assert.equal(gets() - before, 0, "no API GET while a full informer holds the objects");
  });

  it("listByOwner of a kind routed by its own UID (a sharded primary) answers for every child, not the served buckets' share", async (t) => {
    const ns = "by-owner";
    const { router, cache } = await rig(t, async () => undefined);
    for (let b = 0; b < 32; b++) await router.start(b);
    const parent = await createDataApp(cluster.url, ns, "parent", { gen: 1 });
    const ref = { apiVersion: "example.com/v1", kind: "DataApp", name: "parent", uid: parent.metadata.uid, controller: true };
    const uids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await raw(cluster.url, "POST", `/apis/example.com/v1/namespaces/${ns}/dataapps`,
        { apiVersion: "example.com/v1", kind: "DataApp", metadata: { name: `child-${i}`, ownerReferences: [ref] }, spec: {} });
      assert.equal(r.code, 201, r.text);
      uids.push(r.body.metadata.uid);
    }
    assert.ok(uids.some((u) => bucketOfUid(u) >= 32) && uids.some((u) => bucketOfUid(u) < 32), "children on both sides of the served buckets");
    const children = await waitFor(async () => {
      const found = await cache.listByOwner(DataApp, parent.metadata.uid, { namespace: ns });
      return found.length >= uids.length ? found : undefined;
    }, "every child of the owner", 5_000);
    assert.deepEqual(children.map((c) => c.metadata!.uid).sort(), [...uids].sort());
  });
});
