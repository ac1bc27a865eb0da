import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { Cache, SharedInformer } from "../../src/cache/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, PERSON, Tally, cm, installPerson, namespace, person, waitForVersion } from "./fixtures.ts";

type Person = KubeObject & { spec: { firstName: string; surname: string } };

describe("SharedInformer against LocalCluster", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await installPerson(client);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("synced() resolves after the first list, with every existing object added as part of it", async () => {
    await namespace(client, "sync");
    for (let i = 0; i < 5; i++) await client.create(cm("sync", `pre-${i}`));
    const informer = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: "sync", timings: FAST });
    const tally = new Tally();
    informer.addEventHandler(tally.handler);
    assert.equal(informer.hasSynced(), false);
    assert.equal(informer.lastSyncResourceVersion(), "");
    await informer.start(AbortSignal.timeout(5000));
    assert.equal(informer.hasSynced(), true);
    assert.equal(informer.list().length, 5);
    assert.equal(tally.initialAdds, 5, "the first list reports adds with isInitialList=true");
    assert.ok(Number(informer.lastSyncResourceVersion()) >= Number((await client.get({ ...CONFIGMAP, namespace: "sync", name: "pre-4" })).metadata!.resourceVersion));
    await within(informer.synced(), "synced() again"); // resolves again at once
    await within(informer.stop(), "informer.stop()");
  });

  it("handlers get add, update(old, new) and delete(last state); late handlers get a replay", async () => {
    await namespace(client, "handlers");
    const informer = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: "handlers", timings: FAST });
    await informer.start(AbortSignal.timeout(5000));
    const events: string[] = [];
    informer.addEventHandler({
      add: (o, initial) => events.push(`add ${o.metadata!.name} ${initial}`),
      update: (o, n) => events.push(`update ${n.metadata!.name} ${(o as any).data.v}->${(n as any).data.v}`),
      delete: (o) => events.push(`delete ${o.metadata!.name} ${(o as any).data.v}`),
    });
    await client.create(cm("handlers", "a", { v: "1" }));
    await client.patch({ ...CONFIGMAP, namespace: "handlers", name: "a" }, { data: { v: "2" } }, "merge");
    await client.delete({ ...CONFIGMAP, namespace: "handlers", name: "a" });
    await waitFor(() => events.length === 3, "three events");
    assert.deepEqual(events, ["add a false", "update a 1->2", "delete a 2"]);

    await client.create(cm("handlers", "b"));
    await waitFor(() => informer.get("b", "handlers"), "b cached");
    const late: string[] = [];
    const unsubscribe = informer.addEventHandler({ add: (o, initial) => late.push(`${o.metadata!.name} ${initial}`) });
    assert.deepEqual(late, ["b true"], "existing objects are replayed as initial adds");
    unsubscribe();
    await client.create(cm("handlers", "c"));
    await waitFor(() => informer.get("c", "handlers"), "c cached");
    assert.deepEqual(late, ["b true"], "an unsubscribed handler hears nothing more");
    await within(informer.stop(), "informer.stop()");
  });

  it("a throwing handler does not stop other handlers or the informer", async () => {
    await namespace(client, "throwing");
    const informer = new SharedInformer({ client, kubeConfig: cluster.kubeConfig, kind: CONFIGMAP, namespace: "throwing", timings: FAST });
    const seen: string[] = [];
    informer.addEventHandler({ add: () => { throw new Error("handler bug"); } });
    informer.addEventHandler({ add: (o) => seen.push(o.metadata!.name!) });
    await informer.start(AbortSignal.timeout(5000));
    await client.create(cm("throwing", "x"));
    await client.create(cm("throwing", "y"));
    await waitFor(() => seen.length === 2, "both adds");
    assert.deepEqual(seen, ["x", "y"]);
    await within(informer.stop(), "informer.stop()");
  });

  it("keeps an index (people by surname) correct through creates, updates and deletes", async () => {
    await namespace(client, "people");
    const informer = new SharedInformer<Person>({ client, kubeConfig: cluster.kubeConfig, kind: PERSON, timings: FAST });
    await client.create(person("people", "emma", "Emma", "Wiggle"));
    informer.addIndex("surname", (p) => (p.spec?.surname ? [p.spec.surname] : []));
    await informer.start(AbortSignal.timeout(5000));
    const names = (surname: string) => informer.byIndex("surname", surname).map((p) => p.metadata!.name).sort();
    assert.deepEqual(names("Wiggle"), ["emma"]);

    await client.create(person("people", "simon", "Simon", "Wiggle"));
    const lachy = await client.create(person("people", "lachy", "Lachy", "Smith"));
    await waitForVersion(informer, "people", "lachy", lachy.metadata!.resourceVersion);
    assert.deepEqual(names("Wiggle"), ["emma", "simon"]);
    assert.deepEqual(names("Smith"), ["lachy"]);

    const moved = await client.patch({ ...PERSON, namespace: "people", name: "simon" }, { spec: { surname: "Smith" } }, "merge");
    await waitForVersion(informer, "people", "simon", moved.metadata!.resourceVersion);
    assert.deepEqual(names("Wiggle"), ["emma"]);
    assert.deepEqual(names("Smith"), ["lachy", "simon"]);

    await client.delete({ ...PERSON, namespace: "people", name: "lachy" });
    await waitForVersion(informer, "people", "lachy", undefined);
    assert.deepEqual(names("Smith"), ["simon"]);

    // An index added after sync is built from the cached objects.
    informer.addIndex("firstName", (p) => [p.spec.firstName]);
    assert.deepEqual(informer.byIndex("firstName", "Emma").map((p) => p.metadata!.name), ["emma"]);
    assert.throws(() => informer.byIndex("age", "3"), /index "age" does not exist/);
    assert.throws(() => informer.addIndex("surname", () => []), /already exists/);
    await within(informer.stop(), "informer.stop()");
  });

  it("the Cache shares one informer per kind and scope, and starts late informers at once", async () => {
    await namespace(client, "shared");
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST });
    const a = cache.informer(CONFIGMAP, { namespace: "shared" });
    assert.equal(cache.informer(CONFIGMAP, { namespace: "shared" }), a);
    assert.notEqual(cache.informer(CONFIGMAP), a);
    await cache.start(AbortSignal.timeout(5000));
    assert.equal(cache.hasSynced(), true);
    const late = cache.informer(PERSON, { namespace: "shared" });
    await within(late.synced(), "the late informer to sync");
    assert.equal(late.hasSynced(), true);
    await within(cache.stop(), "cache.stop()");
  });
});
