import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { RequestCounter, ResourceClient } from "../../src/client/index.ts";
import type { ClientRequestRecord } from "../../src/client/index.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";
import { configMap, widgetCrd } from "./fixtures.ts";
import { within } from "../support/wait.ts";

describe("ResourceClient discovery and request counting", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("maps kinds to resources, skipping subresource entries", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    assert.deepEqual(await client.resourceFor({ apiVersion: "apps/v1", kind: "Deployment" }),
      { group: "apps", version: "v1", kind: "Deployment", plural: "deployments", namespaced: true });
    assert.deepEqual(await client.resourceFor({ apiVersion: "v1", kind: "Namespace" }),
      { group: "", version: "v1", kind: "Namespace", plural: "namespaces", namespaced: false });
    assert.equal((await client.resourceFor({ apiVersion: "events.k8s.io/v1", kind: "Event" })).plural, "events");
  });

  it("caches discovery: a second request of the same kind makes no discovery request", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await client.create(configMap("cached"));
    assert.equal(client.requests.count({ verb: "discovery" }), 1);
    await client.get({ apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "cached" });
    await client.list({ apiVersion: "v1", kind: "Namespace" });
    assert.equal(client.requests.count({ verb: "discovery" }), 1, "same group/version: served from the cache");
    await Promise.all([1, 2, 3].map(() => client.resourceFor({ apiVersion: "apps/v1", kind: "StatefulSet" })));
    assert.equal(client.requests.count({ verb: "discovery", resource: "apps/v1" }), 1, "concurrent lookups share one request");
  });

  it("refetches discovery once for a CRD created after the first lookup", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    const gadget = { apiVersion: "late.example.com/v1", kind: "Gadget" };
    await assert.rejects(client.resourceFor(gadget), (err: unknown) =>
      err instanceof OperatorRuntimeError && /CustomResourceDefinition may not be installed/.test(err.message));
    assert.equal(client.requests.count({ verb: "discovery", resource: "late.example.com/v1" }), 1);
    await client.create(widgetCrd("late.example.com", "Gadget", "gadgets"));
    const created = await client.create({ ...gadget, metadata: { name: "g1", namespace: "default" }, spec: { size: 1 } });
    assert.equal((created.spec as { color: string }).color, "red");
    assert.equal(client.requests.count({ verb: "discovery", resource: "late.example.com/v1" }), 2, "refetched once");
    await client.get({ ...gadget, namespace: "default", name: "g1" });
    assert.equal(client.requests.count({ verb: "discovery", resource: "late.example.com/v1" }), 2, "then cached");
    // A second kind in a cached group/version that does not exist: one refetch, then the error.
    await assert.rejects(client.resourceFor({ apiVersion: "late.example.com/v1", kind: "Sprocket" }), /kind "Sprocket"/);
    assert.equal(client.requests.count({ verb: "discovery", resource: "late.example.com/v1" }), 3);
  });

  it("counts every request with verb, resource, namespace, name, code and duration", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    const ref = { apiVersion: "v1", kind: "ConfigMap", namespace: "kube-system", name: "counted" };
    await client.create(configMap("counted", { a: "1" }, "kube-system"));
    await client.get(ref);
    await client.get({ ...ref, name: "absent" }).catch(() => undefined);
    await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "kube-system" });
    await client.replace({ ...(await client.get(ref)), data: { a: "2" } });
    await client.patch(ref, { data: { b: "1" } }, "merge");
    await client.apply(configMap("counted", { a: "2", b: "1" }, "kube-system"), { force: true });
    await client.delete(ref);

    assert.deepEqual(client.requests.summary(), {
      "discovery v1 200": 1,
      "create configmaps 201": 1,
      "get configmaps 200": 2,
      "get configmaps 404": 1,
      "list configmaps 200": 1,
      "update configmaps 200": 1,
      "patch configmaps 200": 1,
      "apply configmaps 200": 1,
      "delete configmaps 200": 1,
    });
    assert.equal(client.requests.writes(), 5);
    assert.equal(client.requests.writes({ name: "counted" }), 5);
    assert.equal(client.requests.count({ verb: ["get", "list"] }), 4);
    assert.equal(client.requests.count({ code: 404 }), 1);
    const get = client.requests.filter({ verb: "get", code: 200 })[0]!;
    assert.deepEqual({ ...get, durationMs: 0 }, { verb: "get", resource: "configmaps", namespace: "kube-system", name: "counted", code: 200, durationMs: 0 });
    assert.ok(get.durationMs > 0);
    assert.equal(client.requests.all().length, 10);
    assert.equal(cluster.requests.writes({ namespace: "kube-system" }), 5, "the server saw the same writes");
    client.requests.clear();
    assert.equal(client.requests.count(), 0);
  });

  it("tells onRequest listeners about every request and can share one counter between clients", async () => {
    const shared = new RequestCounter();
    const seen: ClientRequestRecord[] = [];
    const stop = shared.onRequest((r) => seen.push(r));
    const a = new ResourceClient({ kubeConfig: cluster.kubeConfig, requests: shared });
    const b = new ResourceClient({ kubeConfig: cluster.kubeConfig, requests: shared });
    assert.equal(a.requests, b.requests);
    await a.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "default" });
    await b.list({ apiVersion: "v1", kind: "Secret" }, { namespace: "default" });
    assert.deepEqual(seen.map((r) => `${r.verb} ${r.resource}`), ["discovery v1", "list configmaps", "discovery v1", "list secrets"]);
    stop();
    await a.list({ apiVersion: "v1", kind: "ConfigMap" });
    assert.equal(seen.length, 4, "unsubscribed");
    assert.equal(shared.count(), 5);
  });

  it("keeps only the newest records when a maximum is set", () => {
    const counter = new RequestCounter({ maxRecords: 3 });
    for (let i = 0; i < 10; i++) counter.record({ verb: "get", resource: "pods", name: `p${i}`, code: 200, durationMs: 1 });
    assert.deepEqual(counter.all().map((r) => r.name), ["p7", "p8", "p9"]);
    assert.equal(counter.count(), 3);
  });
});
