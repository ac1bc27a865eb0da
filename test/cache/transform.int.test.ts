import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { Cache, SharedInformer, stripManagedFields } from "../../src/cache/index.ts";
import { Manager } from "../../src/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, namespace } from "./fixtures.ts";

const NS = "transform";
const applied = (name: string, v: string): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data: { v } });

describe("what the cache stores: managedFields dropped by default, a transform option (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "transform-test" });
    await namespace(client, NS);
    await client.apply(applied("listed", "1"));
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** Starts a cache, writes one object by apply after the list, and returns both copies. */
  const listedAndWatched = async (cache: Cache, name: string) => {
    const informer = cache.informer(CONFIGMAP, { namespace: NS });
    const seen: KubeObject[] = [];
    informer.addEventHandler({ add: (o) => seen.push(o), update: (_, o) => seen.push(o) });
    await cache.start(AbortSignal.timeout(5000));
    const written = await client.apply(applied(name, "1"));
    assert.ok(written.metadata?.managedFields?.length, "the API answer has managedFields");
    const watched = await waitFor(() => informer.get(name, NS), `${name} to reach the cache`);
    return { listed: informer.get("listed", NS)!, watched, seen };
  };

  it("drops metadata.managedFields from listed and watched objects by default, and keeps the rest", async () => {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    try {
      const { listed, watched, seen } = await listedAndWatched(cache, "watched-default");
      for (const o of [listed, watched, ...seen]) {
        assert.equal(o.metadata?.managedFields, undefined, `${o.metadata?.name} has no managedFields`);
        assert.ok(o.metadata?.uid && o.metadata.resourceVersion, "the rest of the metadata stays");
        assert.equal((o as { data?: { v?: string } }).data?.v, "1");
      }
      const viaRead = await cache.get({ ...CONFIGMAP, namespace: NS, name: "watched-default" });
      assert.equal(viaRead, watched, "reads answer the stored copy");
    } finally {
      await cache.stop();
    }
  });

  it('keeps managedFields with transform: "none"', async () => {
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST, transform: "none" });
    try {
      const { listed, watched } = await listedAndWatched(cache, "watched-none");
      assert.ok(listed.metadata?.managedFields?.length, "the listed copy keeps them");
      assert.ok(watched.metadata?.managedFields?.length, "the watched copy keeps them");
    } finally {
      await cache.stop();
    }
  });

  it("applies a transform of your own to every stored object and to what handlers receive", async () => {
    const transform = (o: KubeObject): KubeObject => {
      const lean = stripManagedFields(o);
      return { ...lean, metadata: { ...lean.metadata, annotations: { trimmed: "yes" } } };
    };
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST, transform });
    try {
      const { listed, watched, seen } = await listedAndWatched(cache, "watched-custom");
      for (const o of [listed, watched, ...seen]) {
        assert.deepEqual(o.metadata?.annotations, { trimmed: "yes" });
        assert.equal(o.metadata?.managedFields, undefined);
      }
    } finally {
      await cache.stop();
    }
  });

  it("a SharedInformer on its own and the Manager's cache take the same option", async () => {
    const informer = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: NS, timings: FAST, transform: "none" });
    try {
      await informer.start(AbortSignal.timeout(5000));
      assert.ok(informer.get("listed", NS)?.metadata?.managedFields?.length);
    } finally {
      await informer.stop();
    }
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, recorder: false, cache: { transform: "none" } });
    mgr.cache.informer(CONFIGMAP, { namespace: NS });
    await mgr.start();
    try {
      assert.ok((await mgr.cache.get({ ...CONFIGMAP, namespace: NS, name: "listed" }))?.metadata?.managedFields?.length);
    } finally {
      await mgr.stop();
    }
  });
});

describe("stripManagedFields", () => {
  it("returns the object itself when it has none, and a copy without them otherwise", () => {
    const bare: KubeObject = { metadata: { name: "a" } };
    assert.equal(stripManagedFields(bare), bare);
    const full: KubeObject = { apiVersion: "v1", metadata: { name: "a", managedFields: [{ manager: "m" }] }, data: { k: "v" } };
    const lean = stripManagedFields(full);
    assert.deepEqual(lean, { apiVersion: "v1", metadata: { name: "a" }, data: { k: "v" } });
    assert.ok(full.metadata?.managedFields, "the input is left as it was");
  });
});
