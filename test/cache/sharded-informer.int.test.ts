import { after, before, describe, it } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { Cache, InvalidSelectorError, SharedInformer, fnv1a64, formatShardSelector, splitHashSpace } from "../../src/cache/index.ts";
import type { HashRange } from "../../src/cache/index.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, Tally, cm, namespace } from "./fixtures.ts";

const [LOWER_RANGE, UPPER_RANGE] = splitHashSpace(2) as [HashRange, HashRange];
const LOWER = formatShardSelector("object.metadata.uid", [LOWER_RANGE]);
const UPPER = formatShardSelector("object.metadata.uid", [UPPER_RANGE]);
const inRange = (o: KubeObject, r: HashRange) => {
  const h = fnv1a64(o.metadata!.uid!);
  return h >= r.start && h < r.end;
};
const keys = (items: KubeObject[]) => items.map((o) => o.metadata!.name!).sort();

/** Runs the same scenarios against a KEP-5866 server and one that ignores the parameter. */
for (const sharded of [true, false]) {
  const mode = sharded ? "server" : "client";
  describe(`sharded SharedInformer against LocalCluster with shardedListWatch: ${sharded}`, () => {
    let cluster: LocalCluster;
    let client: ResourceClient;
    const records: LogRecord[] = [];
    const logger = createLogger({ level: "debug", sink: (r) => records.push(r) });

    before(async () => {
      cluster = await LocalCluster.start({ shardedListWatch: sharded });
      client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    });
    after(() => within(cluster.stop(), "cluster.stop()"));

    /** An informer of ConfigMaps in `ns` with a shard selector, stopped when the test ends. */
    const informer = (t: TestContext, ns: string, shardSelector: string) => {
      const i = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: ns, shardSelector, logger, timings: FAST });
      t.after(() => i.stop());
      return i;
    };

    it(`caches only its range, and reports the filtering as "${mode}"`, async (t) => {
      await namespace(client, "one");
      const made: KubeObject[] = [];
      for (let i = 0; i < 30; i++) made.push(await client.create(cm("one", `pre-${i}`)));
      const lower = informer(t, "one", LOWER);
      const tally = new Tally();
      lower.addEventHandler(tally.handler);
      assert.equal(lower.shardFiltering, undefined, "unknown before the first list");
      await lower.start(AbortSignal.timeout(5000));
      assert.equal(lower.shardFiltering, mode);
      assert.equal(lower.shardSelector, LOWER);
      assert.deepEqual(keys(lower.list()), keys(made.filter((o) => inRange(o, LOWER_RANGE))));
      assert.equal(tally.initialAdds, lower.list().length, "handlers heard only the range's objects");
      const listed = lower.list().length;
      assert.equal(lower.eventsReceived, listed, "eventsReceived counts the range's listed objects only");

      // Live changes: only the range's objects get in, with their updates and deletes.
      const live: KubeObject[] = [];
      for (let i = 0; i < 20; i++) live.push(await client.create(cm("one", `live-${i}`)));
      const liveMine = live.filter((o) => inRange(o, LOWER_RANGE));
      await waitFor(() => liveMine.every((o) => lower.get(o.metadata!.name!, "one")), "the range's new objects in the cache");
      for (const o of live) await client.patch({ ...CONFIGMAP, namespace: "one", name: o.metadata!.name! }, { data: { v: "1" } }, "merge");
      for (const o of live) await client.delete({ ...CONFIGMAP, namespace: "one", name: o.metadata!.name! });
      await waitFor(() => liveMine.every((o) => !lower.get(o.metadata!.name!, "one")), "the range's objects deleted from the cache");
      assert.deepEqual(keys(lower.list()), keys(made.filter((o) => inRange(o, LOWER_RANGE))));
      for (const o of live) {
        const key = `one/${o.metadata!.name}`;
        const mine = inRange(o, LOWER_RANGE);
        assert.deepEqual([tally.adds.get(key) ?? 0, tally.updates.get(key) ?? 0, tally.deletes.get(key) ?? 0], mine ? [1, 1, 1] : [0, 0, 0], key);
      }
      // Add, update and delete of each of the range's live objects; a relist would add its items.
      if (lower.stats.lists === 1) assert.equal(lower.eventsReceived, listed + 3 * liveMine.length);
      else assert.ok(lower.eventsReceived >= listed + 3 * liveMine.length);
    });

    it("two informers with complementary ranges partition every object, through changes and a relist", async (t) => {
      await namespace(client, "two");
      for (let i = 0; i < 30; i++) await client.create(cm("two", `o-${i}`));
      const lower = informer(t, "two", LOWER);
      const upper = informer(t, "two", UPPER);
      await Promise.all([lower.start(AbortSignal.timeout(5000)), upper.start(AbortSignal.timeout(5000))]);
      const partitioned = async () => {
        const all = keys((await client.listAll(CONFIGMAP, { namespace: "two" })).items);
        const l = keys(lower.list());
        const u = keys(upper.list());
        return l.every((k) => !u.includes(k)) && JSON.stringify([...l, ...u].sort()) === JSON.stringify(all);
      };
      assert.ok(await partitioned(), "after the first list");
      assert.ok(lower.list().length > 0 && upper.list().length > 0);
      for (let i = 0; i < 10; i++) await client.create(cm("two", `n-${i}`));
      await client.delete({ ...CONFIGMAP, namespace: "two", name: "o-0" });
      await waitFor(partitioned, "a partition of the live objects");

      // A 410 on both resumed watches forces relists, with changes made meanwhile: still a partition.
      cluster.inject({ verb: "watch", resource: "configmaps", code: 410, times: 2 });
      cluster.dropWatches();
      for (let i = 10; i < 15; i++) await client.create(cm("two", `n-${i}`));
      await client.delete({ ...CONFIGMAP, namespace: "two", name: "o-1" });
      await waitFor(() => lower.stats.relists === 1 && upper.stats.relists === 1, "both informers to relist");
      await waitFor(partitioned, "a partition after the relists");
      assert.equal(lower.shardFiltering, mode);
    });

    it(sharded ? "logs no warning when the server applies the selector" : "logs one warning naming the selector and KEP-5866", () => {
      const warnings = records.filter((r) => r.level === "warn" && String(r.msg).includes("shard selector"));
      if (sharded) {
        assert.deepEqual(warnings, []);
        return;
      }
      // One per informer started above (three), none repeated by the relists.
      assert.equal(warnings.length, 3, warnings.map((w) => w.msg).join("\n"));
      for (const w of warnings) {
        assert.match(String(w.msg), /ignored shard selector "shardRange\(object\.metadata\.uid, '0x[0-9a-f]{16}', '0x[0-9a-f]{16,17}'\)"/);
        assert.match(String(w.msg), /does not support KEP-5866 sharded list and watch .* filters client-side/);
        assert.ok(w.shardSelector === LOWER || w.shardSelector === UPPER);
      }
    });
  });
}

describe("shard selectors in SharedInformer and Cache", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a malformed shard selector throws InvalidSelectorError from the constructor", () => {
    assert.throws(
      () => new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, shardSelector: "shardRange(object.metadata.uid, '0x0', '0x1')" }),
      (err: unknown) => err instanceof InvalidSelectorError && err.selectorType === "shard" && /16-digit/.test(err.problem),
    );
  });

  it("an informer without a shard selector reports no shard filtering", async (t) => {
    const plain = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: "default", timings: FAST });
    t.after(() => plain.stop());
    await plain.start(AbortSignal.timeout(5000));
    assert.equal(plain.shardFiltering, undefined);
    assert.equal(plain.shardSelector, undefined);
  });

  it("Cache.informer keys informers by namespace, label selector and shard selector (in canonical form)", async (t) => {
    await namespace(client, "cache");
    const made: KubeObject[] = [];
    for (let i = 0; i < 20; i++) made.push(await client.create(cm("cache", `c-${i}`, { v: "0" }, { tier: i % 2 ? "web" : "db" })));
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    t.after(() => cache.stop());
    const lower = cache.informer(CONFIGMAP, { namespace: "cache", shardSelector: LOWER });
    const spaced = `shardRange( object.metadata.uid ,"0x0000000000000000","0x8000000000000000" )`;
    assert.equal(cache.informer(CONFIGMAP, { namespace: "cache", shardSelector: spaced }), lower, "the same selector, written otherwise");
    const webLower = cache.informer(CONFIGMAP, { namespace: "cache", labelSelector: "tier=web", shardSelector: LOWER });
    assert.notEqual(webLower, lower);
    assert.notEqual(cache.informer(CONFIGMAP, { namespace: "cache", shardSelector: UPPER }), lower);
    const plain = cache.informer(CONFIGMAP, { namespace: "cache" });
    assert.notEqual(plain, lower);
    assert.equal(cache.informer(CONFIGMAP, { namespace: "cache", labelSelector: "", shardSelector: "" }), plain, "empty selectors are none");
    assert.throws(() => cache.informer(CONFIGMAP, { shardSelector: "nonsense" }), InvalidSelectorError);

    await cache.start(AbortSignal.timeout(5000));
    assert.deepEqual(keys(lower.list()), keys(made.filter((o) => inRange(o, LOWER_RANGE))));
    assert.deepEqual(keys(webLower.list()), keys(made.filter((o) => inRange(o, LOWER_RANGE) && o.metadata!.labels!.tier === "web")));
    assert.equal(lower.shardFiltering, "server");
    // Reads are answered by an informer without selectors: every object.
    assert.deepEqual(keys(await cache.list(CONFIGMAP, { namespace: "cache" })), keys(made));
  });
});
