/**
 * A sharded controller does not dispatch a key while the write gate of its bucket is closed by
 * the clock — the state of a replica that wakes from a pause (SIGSTOP, a long GC) past its
 * lease, before the late timer that drains its buckets has run. A ShardRouter, a Cache and a
 * sharded Controller against LocalCluster, with the gate modelled as the ring's
 * `mayReconcile`: the bucket is served and the lease, by a clock the test moves, has not lapsed.
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
import { ManualClock } from "../../src/util/clock.ts";
import type { Clock } from "../../src/util/clock.ts";
import { ShardRouter } from "../../src/manager/shard-router.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { createLogger, silentLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { WriteRefusedError } from "../../src/errors.ts";
import { bucketOfUid } from "../../src/cache/shard-buckets.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { waitFor, within } from "../support/wait.ts";
import { FAST } from "../cache/fixtures.ts";

const LEASE_MS = 10_000;
/** How long the controller waits before it looks at a gated key again (`GATE_RECHECK_MS`). */
const RECHECK_MS = 1000;

/**
 * A ManualClock that can also jump without running its timers: a process that wakes from a
 * pause sees the new time at once, and its overdue timers only when they get to run.
 */
class PausingClock implements Clock {
  readonly #manual = new ManualClock();
  #late = 0;

  now(): number {
    return this.#manual.now() + this.#late;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    return this.#manual.setTimeout(callback, ms + this.#late);
  }

  clearTimeout(handle: unknown): void {
    this.#manual.clearTimeout(handle);
  }

  /** Time passes while no timer may run (the process is stopped). */
  pause(ms: number): void {
    this.#late += ms;
  }

  /** The overdue timers run (the process runs again), then time moves on by `ms`. */
  advance(ms: number): void {
    const late = this.#late;
    this.#late = 0;
    this.#manual.advance(late + ms);
  }
}

describe("a sharded controller's dispatch while its bucket's lease has lapsed", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "gate-test" });
    await installDataApp(cluster.url);
  });
  after(() => within(cluster.stop(), "cluster.stop()", 30_000));

  /** A started cache, a router and a sharded controller whose gate is `lease` by `clock`. */
  async function rig(t: TestContext, reconcile: Reconciler) {
    const records: LogRecord[] = [];
    const logger = createLogger({ level: "debug", sink: (r) => records.push(r) });
    const clock = new PausingClock();
    const lease = { until: LEASE_MS, renew: () => void (lease.until = clock.now() + LEASE_MS) };
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, logger: silentLogger, timings: FAST });
    const controllers: Controller[] = [];
    const router = new ShardRouter({ cache, logger: silentLogger, metrics: new Metrics(), controllers: () => controllers });
    const controller = new Controller({
      name: "gated", source: router, for: { kind: { apiVersion: "example.com/v1", kind: "DataApp" } }, reconcile, logger, clock, reconcileTimeoutMs: 0,
      // The ring's mayReconcile: the bucket runs here and the lease is valid by the clock.
      sharding: { mayReconcile: (b) => router.buckets().has(b) && clock.now() < lease.until },
    });
    controllers.push(controller);
    await cache.start(AbortSignal.timeout(10_000));
    await controller.start(new AbortController().signal);
    t.after(async () => {
      await within(controller.abort(), "the controller to stop");
      await within(router.close(), "the router to close");
      await within(cache.stop(), "the cache to stop");
    });
    const gated = () => records.filter((r) => r.msg === "not dispatched: the write gate of its bucket is closed").length;
    return { router, controller, clock, lease, gated };
  }

  it("holds back a key queued after the clock passed the lease, and runs it once the bucket is served again", async (t) => {
    const runs: string[] = [];
    const { router, controller, clock, lease, gated } = await rig(t, async (req) => void runs.push(req.name));
    const app: KubeObject = await createDataApp(cluster.url, "lapsed", "app", { gen: 1 });
    const bucket = bucketOfUid(app.metadata!.uid!);
    await router.start(bucket);
    await waitFor(() => runs.length === 1, "the first reconcile");

    clock.pause(LEASE_MS + 5_000); // stopped past the lease; it wakes before any timer has run
    controller.enqueue({ namespace: "lapsed", name: "app" });
    await client.patch({ apiVersion: "example.com/v1", kind: "DataApp", namespace: "lapsed", name: "app" }, { spec: { gen: 2 } }, "merge");
    await waitFor(() => gated() >= 2 || runs.length > 1, "the hand-made and the watched key to reach the gate (or run)");
    assert.equal(runs.length, 1, "not dispatched while the gate is closed");

    // The late timers run: the ring drains the bucket; the key looked at again is dropped.
    clock.advance(0);
    await within(router.stop(bucket, AbortSignal.abort()), "the drain");
    clock.advance(RECHECK_MS);
    assert.equal(runs.length, 1);

    lease.renew();
    await router.start(bucket);
    await waitFor(() => runs.length === 2, "the key to run once the bucket is served again");
  });

  it("runs a held key a second later when the lease turned out renewed in time (no drain)", async (t) => {
    const runs: string[] = [];
    const { router, controller, clock, lease, gated } = await rig(t, async (req) => void runs.push(req.name));
    const app: KubeObject = await createDataApp(cluster.url, "renewed", "app", { gen: 1 });
    await router.start(bucketOfUid(app.metadata!.uid!));
    await waitFor(() => runs.length === 1, "the first reconcile");

    clock.pause(LEASE_MS + 5_000);
    controller.enqueue({ namespace: "renewed", name: "app" });
    await waitFor(() => gated() >= 1 || runs.length > 1, "the key to reach the gate (or run)");
    assert.equal(runs.length, 1, "not dispatched while the gate is closed");
    lease.renew();
    clock.advance(RECHECK_MS - 1);
    assert.equal(runs.length, 1, "looked at again only after the recheck delay");
    clock.advance(1);
    await waitFor(() => runs.length === 2, "the key to run once the gate is open again");
  });

  it("after a write refused mid-reconcile, starts no new reconcile of the key (the issue's SIGSTOP case)", async (t) => {
    const ns = "mid-reconcile";
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    const outcomes: unknown[] = [];
    let started = false;
    const { router, clock, gated } = await rig(t, async (req) => {
      started = true;
      if (outcomes.length === 0) await paused; // SIGSTOP lands mid-reconcile
      try {
        await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${req.name}-${outcomes.length}`, namespace: ns }, data: {} });
        outcomes.push("written");
      } catch (err) {
        outcomes.push(err);
        throw err;
      }
    });
    const app: KubeObject = await createDataApp(cluster.url, ns, "app", { gen: 1 });
    await router.start(bucketOfUid(app.metadata!.uid!));
    await waitFor(() => started, "the reconcile to start");

    clock.pause(LEASE_MS + 5_000);
    // Another replica took the bucket and wrote the object: its watch event comes in on waking.
    await client.patch({ apiVersion: "example.com/v1", kind: "DataApp", namespace: ns, name: "app" }, { spec: { gen: 2 } }, "merge");
    resume();
    await waitFor(() => outcomes.length >= 1, "the paused reconcile to end");
    assert.ok(outcomes[0] instanceof WriteRefusedError, `its write was refused: ${String(outcomes[0])}`);
    clock.advance(100); // the backoff of the failed run falls due (the drain's timer has not run in this model)
    await waitFor(() => gated() >= 1 || outcomes.length > 1, "the requeued key to reach the gate (or run)");
    assert.equal(outcomes.length, 1, "no new reconcile of the key");
    assert.equal(cluster.requests.count({ verb: "create", resource: "configmaps", namespace: ns }), 0);
  });
});
