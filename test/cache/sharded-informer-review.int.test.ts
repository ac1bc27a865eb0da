/**
 * Review tests of ShardedInformer against LocalCluster over real HTTP: setBuckets calls racing
 * the end of a rebuild, many bucket changes in a row (no informer or watch left behind), and a
 * stop while a rebuild cannot sync.
 */
import { after, before, describe, it } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { Cache, ShardedInformer } from "../../src/cache/index.ts";
import type { CacheInformerOptions, SharedInformer } from "../../src/cache/index.ts";
import type { KindRef, KubeObject } from "../../src/client/index.ts";
import { SHARD_BUCKET_LABEL } from "../../src/cache/shard-buckets.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, cm, namespace } from "./fixtures.ts";

describe("ShardedInformer (review)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  async function startedCache(t: TestContext): Promise<Cache> {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    await cache.start(AbortSignal.timeout(5_000));
    t.after(() => within(cache.stop(), "the cache to stop"));
    return cache;
  }

  /** One ConfigMap labelled for each bucket in `buckets`, in `ns`. */
  async function labelled(ns: string, buckets: number[]): Promise<void> {
    await namespace(client, ns);
    for (const b of buckets) await client.create(cm(ns, `b-${b}`, { v: "0" }, { [SHARD_BUCKET_LABEL]: String(b) }));
  }

  const names = (f: ShardedInformer) => f.list().map((o) => o.metadata!.name!).sort();

  it("honours a setBuckets call made at any moment around the end of a rebuild", async (t) => {
    const ns = "race-end";
    await labelled(ns, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const cache = await startedCache(t);
    for (let depth = 0; depth < 8; depth++) {
      // A host that, as it hands back the old informer, asks for another set `depth` microtasks later.
      let late: Promise<void> | undefined;
      let made = false;
      let armed = false;
      const facade: ShardedInformer = new ShardedInformer({
        kind: CONFIGMAP, namespace: ns, by: "label",
        host: {
          informer: (kind, options) => cache.informer(kind, options),
          release: async (informer: SharedInformer) => {
            await cache.release(informer);
            if (!armed) return;
            armed = false;
            let hop: () => void = () => {
              late = facade.setBuckets([1, 2, 3]);
              made = true;
            };
            for (let i = 0; i < depth; i++) {
              const next = hop;
              hop = () => queueMicrotask(next);
            }
            queueMicrotask(hop);
          },
        },
      });
      t.after(() => facade.stop());
      await facade.setBuckets([1]);
      armed = true;
      await facade.setBuckets([1, 2]);
      await waitFor(() => made, `the late call (depth ${depth}) to be made`);
      await within(late!, `the late call (depth ${depth}) to settle`);
      assert.deepEqual(facade.buckets(), [1, 2, 3]);
      assert.deepEqual(names(facade), ["b-1", "b-2", "b-3"], `a call ${depth} microtasks after the release is served`);
      await facade.stop();
    }
  });

  it("leaves one informer and one watch after many bucket changes, and none after stop", async (t) => {
    const ns = "churn";
    await labelled(ns, [0, 1, 2, 3, 4, 5, 6, 7]);
    const cache = await startedCache(t);
    await waitFor(() => cluster.watchCount() === 0, "no watch from earlier tests");
    const facade = new ShardedInformer({ host: cache, kind: CONFIGMAP, namespace: ns, by: "label" });
    t.after(() => facade.stop());
    const pending: Promise<void>[] = [];
    let set: number[] = [];
    for (let i = 0; i < 40; i++) {
      set = [...new Set([...set.filter((b) => (b + i) % 3 !== 0), i % 8])].sort((a, b) => a - b);
      pending.push(facade.setBuckets(set));
      if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (i % 11 === 0) await pending.at(-1);
    }
    await within(Promise.all(pending), "every setBuckets call to settle", 20_000);
    assert.deepEqual(names(facade), set.map((b) => `b-${b}`).sort());
    assert.equal(cache.informers().length, 1, "only the current informer is in the cache");
    assert.equal(cache.informers()[0], facade.current);
    await waitFor(() => cluster.watchCount() === 1, "one watch open");
    await facade.stop();
    assert.equal(cache.informers().length, 0);
    await waitFor(() => cluster.watchCount() === 0, "no watch open after stop");
  });

  it("stops at once while a rebuild waits for a list that keeps failing, leaving no informer", async (t) => {
    const ns = "never-syncs";
    await labelled(ns, [1]);
    const cache = await startedCache(t);
    const facade = new ShardedInformer({ host: cache, kind: CONFIGMAP, namespace: ns, by: "label" });
    await facade.setBuckets([1]);
    const fault = cluster.inject({ verb: "list", resource: "configmaps", namespace: ns, code: 500, times: Infinity });
    t.after(() => cluster.clearFaults());
    const rebuild = facade.setBuckets([1, 2]);
    rebuild.catch(() => undefined);
    await waitFor(() => fault.hits > 0, "the rebuild's list to fail");
    await within(facade.stop(), "stop during the rebuild");
    await within(rebuild, "the rebuild to give up");
    assert.equal(cache.informers().length, 0, "neither the old nor the syncing informer is left");
    assert.equal(facade.current, undefined);
  });

  it("gives up a rebuild whose list keeps failing when another set is asked for, and serves that set", async (t) => {
    const ns = "superseded";
    await labelled(ns, [1, 2, 3]);
    const cache = await startedCache(t);
    // The informer for buckets 1 and 2 lists where every list is refused (as without RBAC).
    const denied = "superseded-denied";
    await namespace(client, denied);
    const facade = new ShardedInformer({
      kind: CONFIGMAP, namespace: ns, by: "label",
      host: {
        informer: (kind, options) => cache.informer(kind, /\b1,2\b/.test(options.labelSelector ?? "") ? { ...options, namespace: denied } : options),
        release: (informer: SharedInformer) => cache.release(informer),
      },
    });
    t.after(() => facade.stop());
    await facade.setBuckets([1]);
    const fault = cluster.inject({ verb: "list", resource: "configmaps", namespace: denied, code: 403, times: Infinity });
    t.after(() => cluster.clearFaults());
    const stuck = facade.setBuckets([1, 2]);
    await waitFor(() => fault.hits > 0, "the rebuild for buckets 1,2 to fail its list");
    assert.deepEqual(names(facade), ["b-1"], "the old set still serves");
    await within(facade.setBuckets([1, 3]), "the newer set to be served although the older rebuild never synced");
    await within(stuck, "the superseded call to settle with the newest set");
    assert.deepEqual(names(facade), ["b-1", "b-3"]);
    assert.equal(cache.informers().length, 1, "the superseded informer is released");
    assert.equal(facade.pending, undefined);
  });

  it("never goes back in time at a swap: it waits for the new informer to catch up with what the old one delivered", async (t) => {
    const ns = "no-going-back";
    await labelled(ns, [1, 2]);
    const cache = await startedCache(t);
    // The new informer's list is answered at once, but (as with a large list still in transfer)
    // the facade learns it synced only 300 ms later; its watch starts only after 1 s.
    let slow = false;
    const proxied = new WeakMap<object, SharedInformer<any>>();
    const facade: ShardedInformer = new ShardedInformer({
      kind: CONFIGMAP, namespace: ns, by: "label",
      host: {
        informer: <T extends KubeObject>(kind: KindRef, options: CacheInformerOptions) => {
          const informer = cache.informer<T>(kind, options);
          if (!slow) return informer;
          const slowed = new Proxy(informer, {
            get: (target, prop) => {
              if (prop === "synced") return () => target.synced().then(() => new Promise((resolve) => setTimeout(resolve, 300)));
              const value: unknown = Reflect.get(target, prop, target);
              return typeof value === "function" ? value.bind(target) : value;
            },
          });
          proxied.set(slowed, informer);
          return slowed;
        },
        release: (informer) => cache.release(proxied.get(informer) ?? informer),
      },
    });
    t.after(() => facade.stop());
    const seen: string[] = [];
    facade.addEventHandler({ update: (_, o) => void seen.push(`${o.metadata!.name}@${o.metadata!.resourceVersion}`) });
    await facade.setBuckets([1]);
    await waitFor(() => cluster.watchCount() === 1, "the first informer's watch to be open");

    slow = true;
    cluster.inject({ verb: "watch", resource: "configmaps", namespace: ns, latencyMs: 1_000, times: 1 });
    const rebuild = facade.setBuckets([1, 2]);
    await waitFor(() => cluster.requests.filter({ verb: "list", resource: "configmaps", namespace: ns }).length >= 2, "the new informer's list");
    const changed = await client.patch({ ...CONFIGMAP, namespace: ns, name: "b-1" }, { data: { v: "1" } }, "merge");
    await waitFor(() => facade.get("b-1", ns)?.metadata?.resourceVersion === changed.metadata!.resourceVersion, "the old informer to deliver the change");
    await within(rebuild, "the rebuild", 5_000);
    assert.equal(facade.get("b-1", ns)?.metadata?.resourceVersion, changed.metadata!.resourceVersion, "the change is still there after the swap");
    assert.equal((facade.get("b-1", ns) as { data?: Record<string, string> } | undefined)?.data?.v, "1");
    assert.deepEqual(seen, [`b-1@${changed.metadata!.resourceVersion}`], "handlers heard the change once, and no step back");
  });
});
