import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig, V1ConfigMap } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import {
  AlreadyExistsError, ApiError, ConflictError, GoneError, InvalidError, NotFoundError, OperatorRuntimeError, ServerError,
  TooManyRequestsError,
} from "../../src/errors.ts";
import { configMap, widgetCrd } from "./fixtures.ts";
import { within } from "../support/wait.ts";

const cmRef = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", namespace: "default", name });

/** The rejection of a promise, asserted to be an instance of `type`. */
async function rejection<E>(p: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected ${type.name}, but the call succeeded`);
}

describe("ResourceClient typed errors", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await client.create(widgetCrd());
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("refuses a client-node model without apiVersion and kind, saying how to fix it, before any request", async () => {
    const before = client.requests.count();
    const bare = Object.assign(new V1ConfigMap(), { metadata: { name: "model", namespace: "default" } });
    const err = await rejection(client.apply(bare), OperatorRuntimeError);
    assert.match(err.message, /needs apiVersion and kind/);
    assert.match(err.message, /model constructors .* leave them unset/);
    assert.equal(client.requests.count(), before, "nothing was sent");
    const written = await client.apply(Object.assign(new V1ConfigMap(), { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "model", namespace: "default" }, data: { a: "1" } }));
    assert.deepEqual(written.data, { a: "1" });
  });

  it("throws NotFoundError carrying the server's Status for a missing object", async () => {
    const err = await rejection(client.get(cmRef("nope")), NotFoundError);
    assert.equal(err.code, 404);
    assert.equal(err.reason, "NotFound");
    assert.equal(err.status.message, 'configmaps "nope" not found');
    assert.equal(err.status.details?.name, "nope");
    assert.equal(err.request, "get configmaps default/nope");
  });

  it("throws ConflictError when replacing with a stale resourceVersion", async () => {
    const first = await client.create(configMap("stale"));
    await client.replace({ ...first, data: { a: "2" } });
    const err = await rejection(client.replace({ ...first, data: { a: "3" } }), ConflictError);
    assert.equal(err.code, 409);
    assert.equal(err.reason, "Conflict");
    assert.match(err.message, /the object has been modified/);
  });

  it("throws AlreadyExistsError when creating an existing object", async () => {
    await client.create(configMap("twice"));
    const err = await rejection(client.create(configMap("twice")), AlreadyExistsError);
    assert.equal(err.reason, "AlreadyExists");
    assert.equal(err.status.message, 'configmaps "twice" already exists');
  });

  it("throws InvalidError with the per-field causes", async () => {
    const bad = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "bad", namespace: "default" }, spec: { size: 0, color: "green" } };
    const err = await rejection(client.create(bad), InvalidError);
    assert.equal(err.code, 422);
    assert.deepEqual(err.causes.map((c) => c.field).sort(), ["spec.color", "spec.size"]);
    assert.match(err.status.message ?? "", /^Widget.example.com "bad" is invalid/);
  });

  it("throws TooManyRequestsError with retryAfterSeconds on a 429", async () => {
    cluster.inject({ verb: "get", resource: "configmaps", code: 429, retryAfterSeconds: 2 });
    const err = await rejection(client.get(cmRef("anything")), TooManyRequestsError);
    assert.equal(err.code, 429);
    assert.equal(err.retryAfterSeconds, 2);
  });

  it("throws ServerError on a 500 and counts the failed request", async () => {
    client.requests.clear();
    cluster.inject({ verb: "list", resource: "configmaps", code: 500 });
    const err = await rejection(client.list({ apiVersion: "v1", kind: "ConfigMap" }), ServerError);
    assert.equal(err.code, 500);
    assert.equal(err.reason, "InternalError");
    assert.equal(client.requests.count({ verb: "list", resource: "configmaps", code: 500 }), 1);
  });

  it("throws GoneError on a 410 and a plain ApiError for other codes", async () => {
    cluster.inject({ verb: "list", resource: "configmaps", code: 410 });
    await rejection(client.list({ apiVersion: "v1", kind: "ConfigMap" }), GoneError);
    cluster.inject({ verb: "get", resource: "configmaps", code: 400 });
    const err = await rejection(client.get(cmRef("x")), ApiError);
    assert.equal(err.code, 400);
    assert.equal(err.constructor, ApiError);
  });

  it("names the kind and suggests a missing CRD when discovery does not know it", async () => {
    const err = await rejection(client.get({ apiVersion: "nothere.example.com/v1", kind: "Gadget", namespace: "default", name: "g" }), OperatorRuntimeError);
    assert.ok(!(err instanceof ApiError));
    assert.match(err.message, /"Gadget".*"nothere\.example\.com\/v1"/);
    assert.match(err.message, /CustomResourceDefinition may not be installed/);
    await assert.rejects(client.get({ apiVersion: "example.com/v1", kind: "Gizmo", namespace: "default", name: "g" }), /kind "Gizmo"/);
  });

  it("wraps network failures in an OperatorRuntimeError with the cause", async () => {
    const dead = await LocalCluster.start();
    const deadClient = new ResourceClient({ kubeConfig: dead.kubeConfig });
    await within(dead.stop(), "dead.stop()");
    const err = await rejection(deadClient.get(cmRef("x")), OperatorRuntimeError);
    assert.match(err.message, /discovery v1: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1 failed/);
    assert.ok(err.cause, "the native cause is kept");
    assert.equal(deadClient.requests.count({ verb: "discovery", code: 0 }), 1);
  });

  it("synthesizes a Status for non-Status error bodies and reads Retry-After from the header", async () => {
    // A proxy in front of the API server answers text, not a Status.
    const proxy = createServer((req, res) => {
      if (req.url === "/api/v1") {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ kind: "APIResourceList", groupVersion: "v1", resources: [{ name: "configmaps", kind: "ConfigMap", namespaced: true }] }));
      } else if (req.url?.endsWith("/slow")) {
        res.writeHead(429, { "Content-Type": "text/plain", "Retry-After": "7" });
        res.end("slow down");
      } else {
        res.writeHead(502, { "Content-Type": "text/html" });
        res.end("<html>bad gateway</html>");
      }
    });
    await within(new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve)), "the proxy to listen");
    try {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromClusterAndUser(
        { name: "proxy", server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, skipTLSVerify: true },
        { name: "user", token: "t" },
      );
      const viaProxy = new ResourceClient({ kubeConfig });
      const slow = await rejection(viaProxy.get(cmRef("slow")), TooManyRequestsError);
      assert.equal(slow.retryAfterSeconds, 7);
      assert.equal(slow.status.message, "slow down");
      const bad = await rejection(viaProxy.get(cmRef("bad")), ServerError);
      assert.deepEqual({ kind: bad.status.kind, code: bad.status.code, reason: bad.status.reason }, { kind: "Status", code: 502, reason: "InternalError" });
      assert.match(bad.status.message ?? "", /bad gateway/);
    } finally {
      proxy.closeAllConnections();
      await within(new Promise((resolve) => proxy.close(resolve)), "the proxy to close");
    }
  });
});
