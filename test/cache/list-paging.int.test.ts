/**
 * Informers list in pages (`limit` + `continue`, 500 objects by default as client-go's
 * reflector), so no list response is held whole; an expired continue token restarts the list in
 * one request; the cache transform applies to each page as it arrives.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { RequestCounter, ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { DEFAULT_LIST_PAGE_SIZE } from "../../src/cache/reflector.ts";
import { SharedInformer } from "../../src/cache/index.ts";
import { mapBounded } from "../../src/util/map-bounded.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, cm, namespace as createNamespace } from "./fixtures.ts";

describe("informer lists in pages", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const SMALL = "paging-small";
  const LARGE = "paging-large";

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await createNamespace(client, SMALL);
    await createNamespace(client, LARGE);
    await mapBounded(Array.from({ length: 120 }, (_, i) => i), 16, (i) => client.create(cm(SMALL, `c${i}`)));
    await mapBounded(Array.from({ length: DEFAULT_LIST_PAGE_SIZE + 20 }, (_, i) => i), 16, (i) => client.create(cm(LARGE, `c${i}`)));
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** Starts an informer, waits for its first list, stops it; answers what it cached and the list requests it made. */
  async function listOnce(namespace: string, options: { pageSize?: number; transform?: (o: KubeObject) => KubeObject } = {}) {
    cluster.requests.clear();
    const informer = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace, timings: FAST, ...options });
    await within(informer.start(), `the ${namespace} informer to sync`); // start() resolves once synced
    const items = informer.list();
    await informer.stop();
    const lists = cluster.requests.all().filter((r) => r.verb === "list" && r.resource === "configmaps" && r.namespace === namespace);
    return { items, lists };
  }

  it(`pages by ${DEFAULT_LIST_PAGE_SIZE} by default: ${DEFAULT_LIST_PAGE_SIZE + 20} objects are two list requests`, async () => {
    const { items, lists } = await listOnce(LARGE);
    assert.equal(items.length, DEFAULT_LIST_PAGE_SIZE + 20);
    assert.deepEqual(lists.map((r) => r.code), [200, 200]);
  });

  it("follows continue with the page size asked for, and pageSize 0 lists in one request", async () => {
    const paged = await listOnce(SMALL, { pageSize: 50 });
    assert.equal(paged.items.length, 120);
    assert.deepEqual(paged.lists.map((r) => r.code), [200, 200, 200], "120 objects in pages of 50");
    const whole = await listOnce(SMALL, { pageSize: 0 });
    assert.equal(whole.items.length, 120);
    assert.equal(whole.lists.length, 1);
  });

  it("an expired continue token (410) restarts the list in one request, and the cache holds every object once", async () => {
    cluster.inject({ verb: "list", resource: "configmaps", namespace: SMALL, latencyMs: 1, times: 1 }); // the first page
    cluster.inject({ verb: "list", resource: "configmaps", namespace: SMALL, code: 410, message: "The provided continue parameter is too old", times: 1 });
    const { items, lists } = await listOnce(SMALL, { pageSize: 50 });
    assert.deepEqual(lists.map((r) => r.code), [200, 410, 200]);
    assert.equal(items.length, 120);
    assert.equal(new Set(items.map((o) => o.metadata!.name)).size, 120, "no object twice (the first page's are dropped)");
  });

  it("transforms each page's objects as they arrive", async () => {
    let seen = 0;
    const { items } = await listOnce(SMALL, {
      pageSize: 50,
      transform: (o) => {
        seen++;
        return { ...o, data: { trimmed: "yes" } };
      },
    });
    assert.equal(seen, 120);
    assert.ok(items.every((o) => (o as { data?: Record<string, string> }).data?.trimmed === "yes"));
  });

  it("stop() aborts the page in flight and reads no more pages", async () => {
    cluster.inject({ verb: "list", resource: "configmaps", namespace: SMALL, latencyMs: 200, times: Infinity });
    try {
      const requests = new RequestCounter();
      const counted = new ResourceClient({ kubeConfig: cluster.kubeConfig, requests });
      const informer = new SharedInformer({ client: counted, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: SMALL, timings: FAST, pageSize: 3 });
      const lists = () => requests.all().filter((r) => r.verb === "list");
      void informer.start().catch(() => undefined);
      await waitFor(() => lists().length >= 1, "the first page to be read");
      await informer.stop();
      await waitFor(() => lists().some((r) => r.code === 0), "the page in flight to be aborted (recorded with code 0)");
      const read = lists().length;
      assert.ok(read <= 3, `${read} of 40 pages requested: the list stopped with the reflector`);
      // The aborted page was the last: reading another would have to start after the abort above.
      assert.equal(lists().at(-1)!.code, 0);
    } finally {
      cluster.clearFaults();
    }
  });

  it("a transform that throws leaves the object cached as received and the list complete", async () => {
    const { items } = await listOnce(SMALL, {
      pageSize: 50,
      transform: (o) => {
        if (o.metadata?.name === "c7") throw new Error("transform bug");
        return { ...o, data: { trimmed: "yes" } };
      },
    });
    assert.equal(items.length, 120, "the list completed: the informer synced");
    const c7 = items.find((o) => o.metadata?.name === "c7") as { data?: Record<string, string> } | undefined;
    assert.deepEqual(c7?.data, { v: "0" }, "c7 as the server sent it");
    assert.equal(items.filter((o) => (o as { data?: Record<string, string> }).data?.trimmed === "yes").length, 119);
  });
});
