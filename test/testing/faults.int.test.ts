import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import type { ApiServerVerb, FaultSpec, RequestMatcher } from "../../src/testing/index.ts";
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

  it("matches a create by the name in its body (a POST's URL names no object), and logs it as injected", async () => {
    cluster.requests.clear();
    const fault = cluster.inject({ verb: "create", resource: "configmaps", name: "held", code: 503, times: 1 });
    const other = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "passes" } });
    assert.equal(other.code, 201, "a create of another name is not matched");
    const held = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "held" } });
    assert.equal(held.code, 503);
    assert.equal(held.body.reason, "ServiceUnavailable");
    assert.equal(fault.hits, 1);
    assert.deepEqual(cluster.requests.filter({ verb: "create", name: "held" }).map((r) => [r.code, r.injected]), [[503, true]]);
    assert.equal((await raw(cluster.url, "GET", "/api/v1/namespaces/default/configmaps/held")).code, 404, "nothing was stored");
    assert.equal((await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "held" } })).code, 201, "the fault fired once");
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
    const held: RequestMatcher = { verb: "get", resource: "configmaps", name: "limited" };
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

  it("refuses a fault that could never fire, naming the field and the fix", async () => {
    const refused = (fault: unknown, message: string | RegExp) =>
      assert.throws(() => cluster.inject(fault as FaultSpec), (err: unknown) => {
        assert.ok(err instanceof TypeError, String(err));
        if (typeof message === "string") assert.equal(err.message, message);
        else assert.match(err.message, message);
        return true;
      });
    // @ts-expect-error: the client's "apply" is not an API server verb
    assert.throws(() => cluster.inject({ verb: "apply", resource: "configmaps", code: 500 }), TypeError);
    refused({ verb: "apply", resource: "configmaps", code: 500 },
      'cluster.inject: verb "apply" is not an API server verb: server-side apply is a "patch"; use verb: "patch"');
    refused({ verb: "aply", code: 500 },
      'cluster.inject: verb "aply" is not an API server verb; use one of "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"');
    refused({ verb: ["get", "apply"], code: 500 }, /^cluster\.inject: verb\[1\] "apply" is not an API server verb: server-side apply is a "patch"/);
    refused({ verb: [], code: 500 }, /verb is an empty array, which matches no request/);
    refused({ verb: "get", code: 200 },
      "cluster.inject: code 200 is not an HTTP error code; a fault answers with an error from 400 to 599, e.g. code: 500 (leave code out for a latency-only fault)");
    refused({ verb: "get", code: 1234 }, /^cluster\.inject: code 1234 is not an HTTP error code/);
    refused({ verb: "get", code: "500" }, /^cluster\.inject: code "500" is not an HTTP error code/);
    refused({ verb: "get" }, /has neither a code nor a latency, so it would do nothing; set code \(e\.g\. 500\) and\/or latencyMs/);
    refused({ verb: "get", status: 500 }, /^cluster\.inject: unknown field "status"; a fault has verb, resource, namespace, name, code, /);
    refused({ verb: "get", code: 500, times: 0 }, /times 0 is not a count of requests; set it to an integer >= 1, or Infinity/);
    refused({ verb: "get", latencyMs: -1 }, /latencyMs -1 is not a duration/);
    refused({ verb: "get", latencyMs: Number.NaN }, /latencyMs NaN is not a duration/);
    refused({ resource: 7, code: 500 }, /resource is 7; set it to a resource plural such as "configmaps"/);
    refused(null, /^LocalCluster\.inject\(fault\): fault must be a fault \(\{ verb\?, resource\?, code\?, latencyMs\?, times\? \}\), got null/);
    // None of them was added: requests are served normally.
    cluster.requests.clear();
    assert.equal((await raw(cluster.url, "GET", "/api/v1/namespaces/default/configmaps")).code, 200);
    assert.deepEqual(cluster.requests.all().map((r) => `${r.verb} ${r.code} ${r.injected}`), ["list 200 false"]);
  });

  it("keeps accepting every fault that can fire: a code, a latency alone, verbs as an array, Infinity times", () => {
    for (const fault of [
      { verb: "patch", resource: "services", code: 500, times: 1 },
      { verb: "watch", resource: "configmaps", latencyMs: 500 },
      { verb: ["update", "get"], resource: "leases", code: 503, times: Infinity },
      { code: 429, retryAfterSeconds: 2, message: "slow down" },
      { verb: "deletecollection", resource: ["pods", "secrets"], namespace: "default", code: 403, latencyMs: 0 },
    ] satisfies FaultSpec[]) {
      assert.doesNotThrow(() => cluster.inject(fault), JSON.stringify(fault));
    }
    cluster.clearFaults();
  });

  it("counts by API server verb only: a client verb in a query is an error, not a silent 0", async () => {
    cluster.requests.clear();
    await raw(cluster.url, "PATCH", "/api/v1/namespaces/default/configmaps/applied?fieldManager=test",
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "applied" } }, "application/apply-patch+yaml");
    assert.equal(cluster.requests.count({ verb: "patch", resource: "configmaps", name: "applied" }), 1, "server-side apply is a patch");
    // @ts-expect-error: the client's "apply" is not an API server verb
    assert.throws(() => cluster.requests.count({ verb: "apply" }),
      { name: "TypeError", message: 'requests.count: verb "apply" is not an API server verb: server-side apply is a "patch"; use verb: "patch"' });
    assert.throws(() => cluster.requests.filter({ verb: ["list", "discovery" as ApiServerVerb] }), /requests\.filter: verb\[1\] "discovery" is not an API server verb: discovery requests/);
  });

  it("logs a POST to a named path as a create and answers 405, as the API server does", async () => {
    cluster.requests.clear();
    const r = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps/named", { metadata: { name: "named" } });
    assert.equal(r.code, 405);
    assert.deepEqual(cluster.requests.summary(), { "create configmaps 405": 1 });
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
