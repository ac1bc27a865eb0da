import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api, Watch, makeInformer } from "@kubernetes/client-node";
import type { V1ConfigMap } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

describe("LocalCluster watch", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start({ bookmarkIntervalMs: 50 });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "w" } } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("sends ADDED for existing objects when no resourceVersion is given, then live events", async () => {
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "pre" } } });
    const w = await openWatch(cluster.url, "/api/v1/namespaces/w/configmaps?watch=true");
    assert.equal(w.res.headers.get("content-type"), "application/json");
    await waitFor(() => w.events.length === 1, "initial ADDED");
    assert.equal(w.events[0].type, "ADDED");
    assert.equal(w.events[0].object.kind, "ConfigMap");
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "live" } } });
    await core.deleteNamespacedConfigMap({ name: "live", namespace: "w" });
    await waitFor(() => w.events.length === 3, "live events");
    assert.deepEqual(w.events.map((e) => e.type), ["ADDED", "ADDED", "DELETED"]);
    assert.ok(Number(w.events[2].object.metadata.resourceVersion) > Number(w.events[1].object.metadata.resourceVersion),
      "DELETED carries the deletion's resourceVersion");
    w.stop();
  });

  it("sends no event for a no-op write", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "noop" }, data: { a: "1" } } });
    const w = await openWatch(cluster.url, `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${cm.metadata!.resourceVersion}`);
    await core.replaceNamespacedConfigMap({ name: "noop", namespace: "w", body: cm });
    await core.patchNamespacedConfigMap({ name: "noop", namespace: "w", body: [{ op: "add", path: "/data/b", value: "2" }] });
    await waitFor(() => w.events.length >= 1, "the real change");
    assert.deepEqual(w.events.map((e) => `${e.type} ${JSON.stringify(e.object.data)}`), ['MODIFIED {"a":"1","b":"2"}']);
    w.stop();
  });

  it("replays changes after a given resourceVersion", async () => {
    const start = await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "r1" } } });
    await core.patchNamespacedConfigMap({ name: "r1", namespace: "w", body: [{ op: "add", path: "/data", value: { a: "1" } }] });
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "r2" } } });
    const w = await openWatch(cluster.url, `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${start.metadata!.resourceVersion}`);
    await waitFor(() => w.events.length === 2, "replayed events");
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ["MODIFIED r1", "ADDED r2"]);
    w.stop();
  });

  it("answers a too-old resourceVersion with one ERROR 410 event and a clean close", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "old" } } });
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "newer" } } });
    cluster.compact();
    const w = await openWatch(cluster.url, `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${cm.metadata!.resourceVersion}`);
    await within(w.done, "the watch from a compacted resourceVersion to end");
    assert.equal(w.res.status, 200);
    assert.equal(w.events.length, 1);
    assert.equal(w.events[0].type, "ERROR");
    assert.equal(w.events[0].object.code, 410);
    assert.equal(w.events[0].object.reason, "Expired");
    assert.match(w.events[0].object.message, /^too old resource version: \d+ \(\d+\)$/);
  });

  it("turns label selector transitions into ADDED and DELETED", async () => {
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "sel", labels: { tier: "a" } } } });
    const w = await openWatch(cluster.url, "/api/v1/namespaces/w/configmaps?watch=true&labelSelector=tier%3Db");
    await core.patchNamespacedConfigMap({ name: "sel", namespace: "w", body: [{ op: "replace", path: "/metadata/labels/tier", value: "b" }] });
    await core.patchNamespacedConfigMap({ name: "sel", namespace: "w", body: [{ op: "add", path: "/data", value: { x: "y" } }] });
    await core.patchNamespacedConfigMap({ name: "sel", namespace: "w", body: [{ op: "replace", path: "/metadata/labels/tier", value: "c" }] });
    await waitFor(() => w.events.length === 3, "transition events");
    assert.deepEqual(w.events.map((e) => e.type), ["ADDED", "MODIFIED", "DELETED"]);
    w.stop();
  });

  it("filters by field selector and sends bookmarks when asked", async () => {
    const w = await openWatch(cluster.url, "/api/v1/namespaces/w/configmaps?watch=true&fieldSelector=metadata.name%3Dbm&allowWatchBookmarks=true");
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "not-bm" } } });
    await core.createNamespacedConfigMap({ namespace: "w", body: { metadata: { name: "bm" } } });
    // Events arrive in order: once "bm" is in, "not-bm" (created first) would have been too.
    await waitFor(() => w.events.some((e) => e.type === "ADDED" && e.object.metadata.name === "bm"), "the ADDED event of bm");
    await waitFor(() => w.events.some((e) => e.type === "BOOKMARK"), "a bookmark");
    const nonBookmarks = w.events.filter((e) => e.type !== "BOOKMARK");
    assert.deepEqual(nonBookmarks.map((e) => e.object.metadata.name), ["bm"]);
    const bm = w.events.find((e) => e.type === "BOOKMARK");
    assert.equal(bm.object.kind, "ConfigMap");
    assert.match(bm.object.metadata.resourceVersion, /^\d+$/);
    w.stop();
  });

  it("ends the stream cleanly after timeoutSeconds", async () => {
    const w = await openWatch(cluster.url, "/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=" + cluster.resourceVersion + "&timeoutSeconds=1");
    await within(w.done, "the watch to end after timeoutSeconds=1");
    assert.ok(w.isEnded());
  });

  it("implements sendInitialEvents with an initial-events-end bookmark and rejects it without NotOlderThan", async () => {
    const bad = await raw(cluster.url, "GET", "/api/v1/namespaces/w/configmaps?watch=true&sendInitialEvents=true");
    assert.equal(bad.code, 422);
    const w = await openWatch(cluster.url, "/api/v1/namespaces/w/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true");
    await waitFor(() => w.events.some((e) => e.type === "BOOKMARK"), "initial-events-end");
    const end = w.events.find((e) => e.type === "BOOKMARK");
    assert.equal(end.object.metadata.annotations["k8s.io/initial-events-end"], "true");
    assert.ok(w.events.indexOf(end) > 0, "ADDED events come first");
    w.stop();
  });

  it("client-node's Watch and makeInformer keep an exact mirror through drops and a 410", async () => {
    await core.createNamespace({ body: { metadata: { name: "mirror" } } });
    const informer = makeInformer(cluster.kubeConfig, "/api/v1/namespaces/mirror/configmaps",
      () => core.listNamespacedConfigMap({ namespace: "mirror" }));
    const errors: unknown[] = [];
    informer.on("error", (e) => errors.push(e));
    await within(informer.start(), "client-node's informer to start");
    for (let i = 0; i < 20; i++) await core.createNamespacedConfigMap({ namespace: "mirror", body: { metadata: { name: `m${i}` }, data: { v: "0" } } });
    const serverState = async () => (await core.listNamespacedConfigMap({ namespace: "mirror" })).items
      .map((c: V1ConfigMap) => `${c.metadata!.name}@${c.metadata!.resourceVersion}`).sort().join(",");
    const mirrorState = () => informer.list("mirror").map((c) => `${c.metadata!.name}@${c.metadata!.resourceVersion}`).sort().join(",");
    await waitFor(async () => mirrorState() === (await serverState()), "mirror after creates");

    // Dropped watch: client-node reconnects from its resourceVersion and replays what it missed.
    assert.ok(cluster.dropWatches() >= 1);
    for (let i = 0; i < 5; i++) await core.replaceNamespacedConfigMap({ name: `m${i}`, namespace: "mirror", body: { metadata: { name: `m${i}` }, data: { v: "1" } } });
    await core.deleteNamespacedConfigMap({ name: "m19", namespace: "mirror" });
    await waitFor(async () => mirrorState() === (await serverState()), "mirror after a dropped watch", 10_000);

    // Compacted history + dropped watch: the resume gets 410, client-node relists.
    cluster.compact();
    cluster.dropWatches();
    await core.deleteNamespacedConfigMap({ name: "m18", namespace: "mirror" });
    await core.createNamespacedConfigMap({ namespace: "mirror", body: { metadata: { name: "after-410" } } });
    await waitFor(async () => mirrorState() === (await serverState()), "mirror after a 410", 10_000);
    assert.deepEqual(errors, []);
    await within(informer.stop(), "client-node's informer to stop");
  });

  it("an abrupt drop stops client-node's informer with an error (the flaw our cache fixes)", async () => {
    const informer = makeInformer(cluster.kubeConfig, "/api/v1/namespaces/mirror/configmaps",
      () => core.listNamespacedConfigMap({ namespace: "mirror" }));
    const errors: unknown[] = [];
    informer.on("error", (e) => errors.push(e));
    await within(informer.start(), "client-node's informer to start");
    await waitFor(() => cluster.watchCount() >= 1, "informer watching");
    cluster.dropWatches({ abrupt: true });
    await waitFor(() => errors.length === 1, "informer error");
    await within(informer.stop(), "client-node's informer to stop");
  });

  it("works with client-node's Watch class on a cluster-scoped resource", async () => {
    const seen: string[] = [];
    const watch = new Watch(cluster.kubeConfig);
    const req = await within(watch.watch("/api/v1/namespaces", {}, (type, obj) => seen.push(`${type} ${obj.metadata.name}`), () => undefined), "client-node's Watch to connect");
    await waitFor(() => seen.includes("ADDED default"), "seeded namespaces");
    await core.createNamespace({ body: { metadata: { name: "watched-ns" } } });
    await waitFor(() => seen.includes("ADDED watched-ns"), "new namespace");
    req.abort();
  });
});
