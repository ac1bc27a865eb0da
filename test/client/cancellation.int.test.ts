import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";
import { within } from "../support/wait.ts";

const CM = { apiVersion: "v1", kind: "ConfigMap" };
const NS = "default";
const dataOf = (cm: object) => (cm as { data?: Record<string, string> }).data ?? {};

describe("ResourceClient timeouts and signals", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    for (const name of ["slow", "aborted", "bound"]) await client.create({ ...CM, metadata: { name, namespace: NS }, data: { a: "1" } });
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
  });

  it("abandons a PATCH that gets no answer within requestTimeoutMs, and a call's own timeoutMs overrides it", async () => {
    const impatient = new ResourceClient({ kubeConfig: cluster.kubeConfig, requestTimeoutMs: 100 });
    cluster.inject({ verb: "patch", resource: "configmaps", name: "slow", latencyMs: 30_000, times: 2 });
    const err = await within(impatient.patch({ ...CM, namespace: NS, name: "slow" }, { data: { a: "2" } }, "merge").catch((e: unknown) => e), "the timed-out PATCH");
    assert.ok(err instanceof OperatorRuntimeError, String(err));
    assert.match(err.message, /patch configmaps default\/slow: no answer within 100 ms/);
    assert.equal((err.cause as Error).name, "TimeoutError");
    assert.deepEqual(impatient.requests.filter({ verb: "patch" }).map((r) => r.code), [0]);

    // The default client waits 30 s; this call waits 100 ms.
    const own = await within(client.patch({ ...CM, namespace: NS, name: "slow" }, { data: { a: "2" } }, "merge", { timeoutMs: 100 }).catch((e: unknown) => e), "the PATCH with its own timeout");
    assert.match((own as Error).message, /no answer within 100 ms/);
  });

  it("rejects a write whose signal is already aborted with the signal's reason, without sending a request", async () => {
    const reason = new Error("leadership lost");
    const before = cluster.requests.count({ resource: "configmaps" });
    const fresh = new ResourceClient({ kubeConfig: cluster.kubeConfig }); // no discovery cached either
    const err = await fresh.patch({ ...CM, namespace: NS, name: "aborted" }, { data: { a: "2" } }, "merge", { signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    assert.equal(err, reason);
    const again = await fresh.apply({ ...CM, metadata: { name: "aborted", namespace: NS } }, { signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    assert.equal(again, reason);
    assert.equal(cluster.requests.count({ resource: "configmaps" }), before, "no request reached the server");
    assert.equal(fresh.requests.all().length, 0, "nothing sent, discovery included");
  });

  it("withSignal binds a signal to every call: an in-flight call rejects with its reason and later calls send nothing", async () => {
    const abort = new AbortController();
    const bound = client.withSignal(abort.signal);
    assert.equal(dataOf(await bound.get({ ...CM, namespace: NS, name: "bound" })).a, "1");
    cluster.inject({ verb: "patch", resource: "configmaps", name: "bound", latencyMs: 30_000 });
    const inFlight = bound.patch({ ...CM, namespace: NS, name: "bound" }, { data: { a: "2" } }, "merge").catch((e: unknown) => e);
    const reason = new Error("reconcile aborted");
    abort.abort(reason);
    assert.equal(await within(inFlight, "the in-flight PATCH to reject"), reason);
    const patches = cluster.requests.count({ verb: "patch", name: "bound" }) + client.requests.count({ verb: "patch", name: "bound" });
    assert.equal(await bound.replace({ ...CM, metadata: { name: "bound", namespace: NS }, data: { a: "3" } }).catch((e: unknown) => e), reason);
    assert.equal(await bound.delete({ ...CM, namespace: NS, name: "bound" }).catch((e: unknown) => e), reason);
    assert.equal(cluster.requests.count({ verb: "patch", name: "bound" }) + client.requests.count({ verb: "patch", name: "bound" }), patches);
    assert.equal(cluster.requests.count({ verb: ["update", "delete"], name: "bound" }), 0);
    assert.equal(dataOf(await client.get({ ...CM, namespace: NS, name: "bound" })).a, "1", "the unbound client still works");
  });
});
