import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { queryBool } from "../../src/testing/request-info.ts";
import { raw, waitFor } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

describe("boolean query parameters", () => {
  it("reads 0 and false (any case) as false, any other value as true, absence as undefined", () => {
    const read = (qs: string) => queryBool(new URLSearchParams(qs), "watch");
    for (const t of ["watch=true", "watch=True", "watch=TRUE", "watch=1", "watch=", "watch=yes", "watch=t"]) assert.equal(read(t), true, t);
    for (const f of ["watch=false", "watch=False", "watch=FALSE", "watch=0"]) assert.equal(read(f), false, f);
    assert.equal(read("other=1"), undefined);
  });
});

describe("LocalCluster reads boolean query parameters as kube-apiserver does", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start({ bookmarkIntervalMs: 20 });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "qb" } } });
    await core.createNamespacedConfigMap({ namespace: "qb", body: { metadata: { name: "one" } } });
  });
  after(() => cluster.stop());

  for (const value of ["True", "TRUE", "1", "", "yes"]) {
    it(`watch=${value} opens a watch (the official Python client sends watch=True)`, async () => {
      const w = await openWatch(cluster.url, `/api/v1/namespaces/qb/configmaps?watch=${value}`);
      await waitFor(() => w.events.length >= 1, "the initial ADDED event");
      assert.equal(w.events[0].type, "ADDED");
      assert.equal(w.events[0].object.metadata.name, "one");
      assert.equal(w.isEnded(), false, "a watch stays open");
      w.stop();
      await w.done;
    });
  }

  for (const value of ["false", "False", "FALSE", "0"]) {
    it(`watch=${value} is a list`, async () => {
      const r = await raw(cluster.url, "GET", `/api/v1/namespaces/qb/configmaps?watch=${value}`);
      assert.equal(r.code, 200);
      assert.equal(r.body.kind, "ConfigMapList");
      assert.deepEqual(r.body.items.map((i: any) => i.metadata.name), ["one"]);
    });
  }

  it("allowWatchBookmarks=True sends bookmarks; False sends none", async () => {
    const on = await openWatch(cluster.url, "/api/v1/namespaces/qb/configmaps?watch=1&allowWatchBookmarks=True");
    const off = await openWatch(cluster.url, "/api/v1/namespaces/qb/configmaps?watch=1&allowWatchBookmarks=False");
    await waitFor(() => on.events.some((e) => e.type === "BOOKMARK"), "a bookmark on the watch that allows them");
    // The bookmark timer is per watch: by the time `on` has two, `off` would have had one too.
    await waitFor(() => on.events.filter((e) => e.type === "BOOKMARK").length >= 2, "a second bookmark");
    assert.deepEqual(off.events.map((e) => e.type), ["ADDED"]);
    on.stop();
    off.stop();
    await Promise.all([on.done, off.done]);
  });

  it("sendInitialEvents=True ends the initial events with the initial-events-end bookmark", async () => {
    const w = await openWatch(cluster.url,
      "/api/v1/namespaces/qb/configmaps?watch=true&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true");
    await waitFor(() => w.events.some((e) => e.object?.metadata?.annotations?.["k8s.io/initial-events-end"] === "true"),
      "the initial-events-end bookmark");
    assert.equal(w.events[0].type, "ADDED");
    w.stop();
    await w.done;
  });

  it("force=True forces a server-side apply conflict", async () => {
    const apply = (manager: string, value: string, query: string) =>
      raw(cluster.url, "PATCH", `/api/v1/namespaces/qb/configmaps/forced?fieldManager=${manager}${query}`,
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "forced" }, data: { k: value } }, "application/apply-patch+yaml");
    assert.equal((await apply("first", "a", "")).code, 201);
    assert.equal((await apply("second", "b", "&force=False")).code, 409, "force=False is no force");
    const forced = await apply("second", "b", "&force=True");
    assert.equal(forced.code, 200, forced.text);
    assert.equal(forced.body.data.k, "b");
  });

  it("orphanDependents=True orphans the dependents; False deletes them", async () => {
    for (const [value, orphaned] of [["True", true], ["False", false]] as const) {
      const owner = await core.createNamespacedConfigMap({ namespace: "qb", body: { metadata: { name: `owner-${value.toLowerCase()}` } } });
      await core.createNamespacedConfigMap({
        namespace: "qb",
        body: { metadata: { name: `dep-${value.toLowerCase()}`, ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: owner.metadata!.name!, uid: owner.metadata!.uid! }] } },
      });
      const del = await raw(cluster.url, "DELETE", `/api/v1/namespaces/qb/configmaps/owner-${value.toLowerCase()}?orphanDependents=${value}`);
      assert.equal(del.code, 200, del.text);
      if (orphaned) {
        const dep = await waitFor(async () => {
          const r = await raw(cluster.url, "GET", `/api/v1/namespaces/qb/configmaps/dep-${value.toLowerCase()}`);
          return r.code === 200 && r.body.metadata.ownerReferences === undefined ? r : undefined;
        }, "the orphaned dependent without its owner reference");
        assert.equal(dep.body.metadata.name, `dep-${value.toLowerCase()}`);
      } else {
        await waitFor(async () => (await raw(cluster.url, "GET", `/api/v1/namespaces/qb/configmaps/dep-${value.toLowerCase()}`)).code === 404,
          "the dependent deleted by the garbage collector");
      }
    }
  });
});
