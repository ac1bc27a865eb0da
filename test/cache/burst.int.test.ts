import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, Tally, assertBalanced, cm, namespace, waitForMirror } from "./fixtures.ts";
import { mulberry32 } from "../../examples/greeting/mutator.ts";


describe("a burst of 1,000 writes", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
  });
  after(async () => {
    await within(cache.stop(), "cache.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  it("misses and duplicates nothing, even with watches dropped mid-burst", async () => {
    const NS = "burst";
    await namespace(client, NS);
    const informer = cache.informer(CONFIGMAP, { namespace: NS });
    const tally = new Tally();
    informer.addEventHandler(tally.handler);
    await cache.start(AbortSignal.timeout(10_000));
    await waitFor(() => cluster.watchCount() === 1, "the watch to be open");

    const random = mulberry32(20_26);
    const existing = new Set<string>();
    const deleted: string[] = [];
    const updatesMade = new Map<string, number>();
    let next = 0;
    let ops = 0;
    while (ops < 1000) {
      // A batch of concurrent writes, each on a different object.
      const busy = new Set<string>();
      const batch: Promise<unknown>[] = [];
      for (let i = 0; i < 25 && ops < 1000; i++, ops++) {
        const r = random();
        const pick = [...existing].filter((n) => !busy.has(n));
        if (existing.size < 20 || r < 0.4 || pick.length === 0) {
          const reuse = r < 0.05 ? deleted.find((n) => !busy.has(n)) : undefined;
          const name = reuse ?? `cm-${next++}`;
          if (reuse) deleted.splice(deleted.indexOf(reuse), 1);
          busy.add(name);
          existing.add(name);
          batch.push(client.create(cm(NS, name, { v: "0" })));
        } else if (r < 0.75) {
          const name = pick[Math.floor(random() * pick.length)]!;
          busy.add(name);
          updatesMade.set(`${NS}/${name}`, (updatesMade.get(`${NS}/${name}`) ?? 0) + 1);
          batch.push(client.patch({ ...CONFIGMAP, namespace: NS, name }, { data: { v: String(ops) } }, "merge"));
        } else {
          const name = pick[Math.floor(random() * pick.length)]!;
          busy.add(name);
          existing.delete(name);
          deleted.push(name);
          batch.push(client.delete({ ...CONFIGMAP, namespace: NS, name }));
        }
      }
      await Promise.all(batch);
      if (ops === 300) cluster.dropWatches();
      if (ops === 650) cluster.dropWatches({ abrupt: true });
    }

    const state = await waitForMirror(cache, client, NS, CONFIGMAP, 20_000);
    assert.equal(state.length, existing.size);
    assert.deepEqual(new Set(state.map((v) => v.slice(v.indexOf("/") + 1, v.lastIndexOf("@")))), existing);
    assertBalanced(tally, state);
    assert.equal(informer.stats.relists, 0, "the drops were resumed from the last resourceVersion");
    for (const [key, n] of updatesMade) assert.equal(tally.updates.get(key) ?? 0, n, `updates of ${key}`);
    assert.equal([...tally.updates.values()].reduce((a, b) => a + b, 0), [...updatesMade.values()].reduce((a, b) => a + b, 0));
  });
});
