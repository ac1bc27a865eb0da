import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { ObjectReader } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, cm, namespace } from "./fixtures.ts";

const SECRET = { apiVersion: "v1", kind: "Secret" } as const;
const NAMESPACE = { apiVersion: "v1", kind: "Namespace" } as const;

describe("Cache as an ObjectReader and a Runnable", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await namespace(client, "reader-a");
    await namespace(client, "reader-b");
    await client.create(cm("reader-a", "web", { v: "1" }, { app: "web", tier: "front" }));
    await client.create(cm("reader-a", "db", { v: "1" }, { app: "db" }));
    await client.create(cm("reader-b", "web", { v: "1" }, { app: "web", tier: "back" }));
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("answers get and list from memory, with the newest copy once the watch delivers a write", async () => {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    const reader: ObjectReader = cache;
    cache.informer(CONFIGMAP);
    await cache.start(AbortSignal.timeout(5000));
    const listsBefore = cluster.requests.count({ verb: "list", resource: "configmaps" });

    const web = await reader.get({ ...CONFIGMAP, namespace: "reader-a", name: "web" });
    assert.equal((web as any).data.v, "1");
    assert.equal(await reader.get({ ...CONFIGMAP, namespace: "reader-a", name: "missing" }), undefined);

    const written = await client.patch({ ...CONFIGMAP, namespace: "reader-a", name: "web" }, { data: { v: "2" } }, "merge");
    const fresh = await waitFor(async () => {
      const o = await reader.get({ ...CONFIGMAP, namespace: "reader-a", name: "web" });
      return o?.metadata?.resourceVersion === written.metadata!.resourceVersion ? o : undefined;
    }, "the write to reach the cache");
    assert.equal((fresh as any).data.v, "2");

    const names = async (opts: Parameters<Cache["list"]>[1]) =>
      (await cache.list(CONFIGMAP, opts)).map((o) => `${o.metadata!.namespace}/${o.metadata!.name}`).sort();
    assert.deepEqual(await names({ namespace: "reader-a", labelSelector: "app" }), ["reader-a/db", "reader-a/web"]);
    assert.deepEqual(await names({ labelSelector: "app=web" }), ["reader-a/web", "reader-b/web"]);
    assert.deepEqual(await names({ labelSelector: "app==web,tier!=front" }), ["reader-b/web"]);
    assert.deepEqual(await names({ namespace: "reader-a", labelSelector: "!tier" }), ["reader-a/db"]);
    assert.deepEqual(await names({ labelSelector: "tier in (front, back),app" }), ["reader-a/web", "reader-b/web"]);
    assert.deepEqual(await names({ labelSelector: "app=web", fieldSelector: "metadata.namespace=reader-b" }), ["reader-b/web"]);
    assert.deepEqual(await names({ namespace: "reader-b", fieldSelector: "metadata.name!=web" }), []);
    assert.equal(cluster.requests.count({ verb: "list", resource: "configmaps" }), listsBefore, "no API list per read");
    assert.equal(cache.informers().length, 1, "the all-namespaces informer served the namespaced reads");

    await assert.rejects(cache.list(CONFIGMAP, { labelSelector: "app=(web" }), (err: Error) =>
      err instanceof OperatorRuntimeError && /invalid label selector "app=\(web"/.test(err.message));
    await assert.rejects(cache.list(CONFIGMAP, { fieldSelector: "data.v=1" }), /field selector "data.v" is not supported by the cache/);
    await assert.rejects(cache.get({ ...CONFIGMAP, name: "web" }), /is namespaced but no namespace was given/);
    await within(cache.stop(), "cache.stop()");
    await assert.rejects(cache.get({ ...CONFIGMAP, namespace: "reader-a", name: "web" }), /read after stop/);
  });

  it("creates the informer a read needs on first use, and serves cluster-scoped kinds", async () => {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    await assert.rejects(cache.list(SECRET), /read before start/);
    await cache.start(AbortSignal.timeout(5000));
    await client.create({ ...SECRET, metadata: { name: "token", namespace: "reader-b" }, stringData: { t: "x" } });
    const secret = await waitFor(() => cache.get({ ...SECRET, namespace: "reader-b", name: "token" }), "the secret");
    assert.equal(secret.metadata?.name, "token");
    const ns = await cache.get({ ...NAMESPACE, name: "reader-a" });
    assert.equal(ns?.metadata?.name, "reader-a");
    assert.ok((await cache.list(NAMESPACE)).length >= 6);
    assert.equal(cache.informers().length, 2);
    assert.equal(cache.hasSynced(), true);
    await within(cache.stop(), "cache.stop()");
  });

  it("a namespace-scoped informer serves reads of its namespace", async () => {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    const scoped = cache.informer(CONFIGMAP, { namespace: "reader-b" });
    await cache.start(AbortSignal.timeout(5000));
    assert.deepEqual((await cache.list(CONFIGMAP, { namespace: "reader-b" })).map((o) => o.metadata!.name), ["web"]);
    assert.equal(cache.informers().length, 1);
    assert.deepEqual(scoped.list().map((o) => o.metadata!.namespace), ["reader-b"]);
    await within(cache.stop(), "cache.stop()");
  });

  it("stop() ends every watch, and an aborted start stops the cache", async () => {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    cache.informer(CONFIGMAP);
    cache.informer(SECRET, { namespace: "reader-a" });
    await cache.start(AbortSignal.timeout(5000));
    await waitFor(() => cluster.watchCount() === 2, "two watches");
    await within(cache.stop(), "cache.stop()");
    await waitFor(() => cluster.watchCount() === 0, "no watches after stop");
    assert.ok(cache.informers().every((i) => !i.running));

    const fault = cluster.inject({ verb: "list", resource: "services", code: 500, times: Infinity });
    const stuck = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    stuck.informer({ apiVersion: "v1", kind: "Service" });
    const controller = new AbortController();
    const starting = stuck.start(controller.signal);
    await waitFor(() => fault.hits >= 2, "the list to be retried");
    controller.abort(new Error("shutting down"));
    await assert.rejects(starting, /shutting down/);
    assert.equal(stuck.informers()[0]!.running, false);
    cluster.clearFaults();
  });

  it("a read or a start waiting for a first list that keeps failing ends with a clear error", async () => {
    const PVC = { apiVersion: "v1", kind: "PersistentVolumeClaim" } as const;
    const fault = cluster.inject({ verb: "list", resource: "persistentvolumeclaims", code: 503, times: Infinity });
    const reading = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST, readSyncTimeoutMs: 100 });
    await reading.start(AbortSignal.timeout(5000));
    await assert.rejects(reading.list(PVC, { namespace: "reader-a" }), /PersistentVolumeClaim has not synced within 100 ms/);
    await within(reading.stop(), "reading.stop()");

    const starting = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    starting.informer(PVC);
    const started = starting.start(AbortSignal.timeout(5000));
    await waitFor(() => fault.hits >= 4, "the list to fail again");
    await within(starting.stop(), "starting.stop()");
    await assert.rejects(started, /cache: stopped before it synced/);
    cluster.clearFaults();
  });

  it("leaves nothing that keeps a stopped process alive", async () => {
    const script = fileURLToPath(new URL("./stopped-process.ts", import.meta.url));
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`the stopped process did not exit within 15 s; output: ${out} ${err}`));
      }, 15_000);
      child.on("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 0, err);
    assert.equal(JSON.parse(out.trim()).stopped, true);
  });
});
