import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Cache } from "../../src/cache/cache.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { ManualClock } from "../../src/util/clock.ts";
import { Controller } from "../../src/controller/controller.ts";
import { Action } from "../../src/controller/reconciler.ts";
import { waitFor, within } from "../support/wait.ts";
import { startClusterWithCache } from "../support/cluster-with-cache.ts";
import type { ClusterWithCache } from "../support/cluster-with-cache.ts";

const CM = { apiVersion: "v1", kind: "ConfigMap" };

describe("Controller and a 429 with Retry-After", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  let env: ClusterWithCache;

  before(async () => {
    env = await startClusterWithCache();
    ({ cluster, client, cache } = env);
  });
  after(() => env.stop());

  it("requeues a reconcile that got 429 Retry-After: 5 no sooner than 5 s later, however short its backoff", async () => {
    await client.create({ ...CM, metadata: { name: "limited", namespace: "default" }, data: { a: "1" } });
    cluster.inject({ verb: "patch", resource: "configmaps", name: "limited", code: 429, retryAfterSeconds: 5, times: 1 });
    const clock = new ManualClock();
    let attempts = 0;
    const controller = new Controller({
      name: "retry-after", source: cache, clock, for: { kind: CM, namespace: "default" },
      reconcile: async (req) => {
        attempts++;
        await client.patch({ ...CM, ...req }, { metadata: { annotations: { seen: "yes" } } }, "merge");
        return Action.done();
      },
    });
    await controller.start(env.signal);
    try {
      await waitFor(() => attempts === 1 && controller.queue.processing() === 0, "the first reconcile to fail with 429");
      clock.advance(4999);
      assert.equal(controller.queue.len() + controller.queue.processing(), 0, "retried before Retry-After");
      assert.equal(attempts, 1);
      clock.advance(1);
      await waitFor(() => attempts >= 2 && cluster.requests.count({ verb: "patch", resource: "configmaps", name: "limited", code: 200 }) >= 1, "the retry after 5 s");
      assert.equal(cluster.requests.count({ verb: "patch", resource: "configmaps", name: "limited", code: 429 }), 1);
    } finally {
      await within(controller.abort(), "controller.abort()");
    }
  });
});
