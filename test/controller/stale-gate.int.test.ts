import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { ConfigMap, ResourceClient, Secret, createLogger } from "../../src/index.ts";
import { Controller } from "../../src/entries/controller.ts";
import { WriteRefusedError } from "../../src/entries/client.ts";
import { waitFor, within } from "../support/wait.ts";

describe("a reconcile whose write was refused because a cache was stale", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  const abort = new AbortController();

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "stale-gate" });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: { initialBackoffMs: 5, maxBackoffMs: 50 } });
    await within(cache.start(abort.signal), "the cache to start");
  });
  after(async () => {
    abort.abort();
    await within(cache.stop(), "cache.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  it("is held and run again without backoff, error log or terminal verdict, even when the cache caught up before it failed", async () => {
    const logs: { level: string; msg: string }[] = [];
    const logger = createLogger({ level: "debug", sink: (r) => void logs.push({ level: String(r.level), msg: String(r.msg) }) });
    const outcomes: string[] = [];
    const secrets = cache.informer(Secret);
    const controller = new Controller({
      name: "gate", source: cache, logger, for: { kind: ConfigMap }, owns: [{ kind: Secret }],
      reconcile: async (req) => {
        if (req.name !== "trigger") return;
        const run = outcomes.length + 1;
        if (run === 1) {
          cluster.dropWatches({ abrupt: true });
          await waitFor(() => secrets.isStale() || cache.informer(ConfigMap).isStale(), "a watched informer to go stale");
        }
        try {
          await client.apply({ apiVersion: "v1", kind: "Secret", metadata: { name: `s${run}`, namespace: "default" }, stringData: { a: "b" } });
          outcomes.push(`run ${run}: written`);
        } catch (err) {
          outcomes.push(`run ${run}: ${err instanceof WriteRefusedError ? "refused" : (err as Error).message}`);
          // More work before giving up, long enough for the caches to catch up.
          await waitFor(() => !secrets.isStale() && !cache.informer(ConfigMap).isStale(), "the caches to catch up");
          throw err;
        }
      },
    });
    await within(controller.start(abort.signal), "the controller to start");
    await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "trigger", namespace: "default" } });
    await waitFor(() => outcomes.length >= 2, "the reconcile to run again");
    await within(controller.abort(), "controller.abort()");

    assert.deepEqual(outcomes.slice(0, 2), ["run 1: refused", "run 2: written"]);
    assert.equal(controller.queue.numRequeues("default/trigger"), 0, "no backoff");
    assert.deepEqual(logs.filter((l) => l.level === "error" || l.level === "warn").map((l) => l.msg).filter((m) => /reconcile/.test(m)), [], "no error log");
    assert.ok(logs.some((l) => /held until the caches have caught up/.test(l.msg)));
  });
});
