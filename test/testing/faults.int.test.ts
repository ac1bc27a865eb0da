import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

describe("LocalCluster fault injection", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  });
  after(() => within(cluster.stop(), "LocalCluster to stop"));

  it("answers N matching requests with an injected code, then serves normally", async () => {
    cluster.requests.clear();
    const fault = cluster.inject({ verb: "list", resource: "configmaps", code: 500, times: 2 });
    for (let i = 0; i < 2; i++) {
      const err = await core.listNamespacedConfigMap({ namespace: "default" }).catch((e) => e);
      assert.ok(err instanceof ApiException);
      assert.equal(err.code, 500);
      assert.equal(JSON.parse(err.body).reason, "InternalError");
    }
    await core.listNamespacedConfigMap({ namespace: "default" });
    await core.listNamespacedSecret({ namespace: "default" });
    assert.equal(fault.hits, 2);
    assert.equal(cluster.requests.count({ verb: "list", resource: "configmaps", code: 500 }), 2);
    assert.equal(cluster.requests.count({ verb: "list", resource: "configmaps", code: 200 }), 1);
    assert.equal(cluster.requests.filter({ code: 500 }).every((r) => r.injected), true);
  });

  it("injects 429 with Retry-After", async () => {
    cluster.inject({ verb: "create", resource: "configmaps", code: 429, retryAfterSeconds: 3 });
    const r = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "limited" } });
    assert.equal(r.code, 429);
    assert.equal(r.headers.get("retry-after"), "3");
    assert.equal(r.body.reason, "TooManyRequests");
    assert.equal((await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "limited" } })).code, 201);
  });

  it("injects latency for matching requests only: the answer is held until the latency has passed", async (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] }); // LocalCluster runs in this process: its latency timer is now the test's
    const fault = cluster.inject({ verb: "get", resource: "configmaps", name: "limited", latencyMs: 200 });
    const held = { verb: "get", resource: "configmaps", name: "limited" };
    let answered = false;
    const reading = core.readNamespacedConfigMap({ name: "limited", namespace: "default" }).finally(() => (answered = true));
    await waitFor(() => fault.hits === 1, "the GET to reach the fault");
    t.mock.timers.tick(199);
    // A request the fault does not match is answered meanwhile; the matching one is still held.
    await core.listNamespacedConfigMap({ namespace: "default" });
    assert.equal(answered, false, "no answer before the latency has passed");
    assert.equal(cluster.requests.count(held), 0);
    t.mock.timers.tick(1);
    const cm = await within(reading, "the held GET once its latency had passed");
    assert.equal(cm.metadata?.name, "limited");
    assert.equal(cluster.requests.count({ ...held, code: 200 }), 1);
  });

  it("injects failures on watch requests", async () => {
    cluster.inject({ verb: "watch", resource: "configmaps", code: 500 });
    const r = await raw(cluster.url, "GET", "/api/v1/namespaces/default/configmaps?watch=true");
    assert.equal(r.code, 500);
    assert.equal(cluster.requests.count({ verb: "watch", code: 500 }), 1);
  });

  it("drops open watches and compacts history", async () => {
    const res = await within(fetch(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${cluster.resourceVersion}`), "the watch's response headers");
    await waitFor(() => cluster.watchCount() === 1, "watch open");
    assert.equal(cluster.dropWatches(), 1);
    await within(res.text(), "the dropped watch's stream to end");
    assert.equal(cluster.watchCount(), 0);
    const rv = cluster.resourceVersion;
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "after-compact" } } });
    cluster.compact();
    const expired = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, { signal: AbortSignal.timeout(5000) });
    const text = await within(expired.text(), "the watch from a compacted resourceVersion to answer 410 and end");
    assert.equal(JSON.parse(text.trim()).object.code, 410);
  });
});
