import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Builder, BuilderValidationError, Pod, ResourceClient } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { Expectations, REPLICA_SET_LABEL, ReplicaSetReconciler, controllerRef, replicaDeletionOrder } from "../../src/entries/controller.ts";
import { SHARD_BUCKET_LABEL, bucketOfUid } from "../../src/entries/sharding.ts";
import type { KubeObject } from "../../src/index.ts";
import type { ReplicaTemplate } from "../../src/entries/controller.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { waitFor, within } from "../support/wait.ts";
import { FakeInformer, fakeSource } from "../support/fake-informer.ts";

const template: ReplicaTemplate<Pod> = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx:1.27" }] } };

describe("ReplicaSetReconciler against LocalCluster", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  const abort = new AbortController();

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "set-test" });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    await within(cache.start(abort.signal), "the cache to start");
  });
  after(async () => {
    abort.abort();
    await within(cache.stop(), "cache.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  const podsOf = async (ns: string) => (await client.list(Pod, { namespace: ns })).items.filter((p) => !p.metadata?.deletionTimestamp);
  const creates = (ns: string) => cluster.requests.count({ verb: "create", resource: "pods", namespace: ns, code: 201 });
  /** Waits until the cache shows `n` pods in `ns` and the set's expectations are met. */
  const settled = (set: ReplicaSetReconciler<Pod>, owner: KubeObject, ns: string, n: number) =>
    waitFor(() => cache.informer(Pod).list(ns).length === n && set.expectations.satisfied(`${owner.metadata!.uid}/${set.name}`), `${n} pods in the cache`);

  it("scales 0 → 3 → 1 → 0 with generated names, the controller reference and the set label", async () => {
    const ns = "scale";
    const owner = await createDataApp(cluster.url, ns, "web");
    const set = new ReplicaSetReconciler({ kind: Pod, source: cache });
    const r3 = await set.reconcile({ client, owner, replicas: 3, template });
    assert.equal(r3.ok, true);
    assert.deepEqual(r3.objects.map((o) => o.action), ["created", "created", "created"]);
    assert.equal(r3.replicas, 0, "counts are what the cache showed at the start of the pass");
    const pods = await podsOf(ns);
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.match(p.metadata!.name!, /^web-[a-z0-9]{5}$/);
      assert.deepEqual(p.metadata!.ownerReferences, [controllerRef(owner)]);
      assert.deepEqual(p.metadata!.labels, { app: "web", [REPLICA_SET_LABEL]: "replicas", [SHARD_BUCKET_LABEL]: String(bucketOfUid(owner.metadata.uid)) });
    }
    await settled(set, owner, ns, 3);
    const again = await set.reconcile({ client, owner, replicas: 3, template });
    assert.deepEqual(again.objects, []);
    assert.equal(again.replicas, 3);

    const r1 = await set.reconcile({ client, owner, replicas: 1, template });
    assert.deepEqual(r1.objects.map((o) => o.action), ["deleted", "deleted"]);
    await settled(set, owner, ns, 1);
    const r0 = await set.reconcile({ client, owner, replicas: 0, template });
    assert.deepEqual(r0.objects.map((o) => o.action), ["deleted"]);
    await settled(set, owner, ns, 0);
    assert.equal((await podsOf(ns)).length, 0);
    assert.equal(creates(ns), 3);
  });

  it("a second pass on a cache that has not shown the first pass's creates creates nothing", async () => {
    const ns = "stale";
    const owner = await createDataApp(cluster.url, ns, "web");
    const lagging = new FakeInformer<Pod>();
    const set = new ReplicaSetReconciler({ kind: Pod, source: fakeSource(lagging) });
    const first = await set.reconcile({ client, owner, replicas: 3, template });
    assert.equal(first.objects.filter((o) => o.action === "created").length, 3);
    const second = await set.reconcile({ client, owner, replicas: 3, template });
    assert.deepEqual(second.objects, []);
    assert.match(second.waitingOn ?? "", /the cache to show 3 creation\(s\) of Pod objects/);
    assert.ok(second.requeueAfterMs! > 0 && second.requeueAfterMs! <= 5 * 60_000);
    assert.equal(creates(ns), 3);

    // The cache catches up: the pass after that has nothing to do.
    for (const p of await podsOf(ns)) lagging.add(p);
    const third = await set.reconcile({ client, owner, replicas: 3, template });
    assert.deepEqual(third.objects, []);
    assert.equal(third.waitingOn, undefined);
    assert.equal(creates(ns), 3);
  });

  it("without expectations (a zero TTL) the same two passes double-create: what expectations prevent", async () => {
    const ns = "stale-control";
    const owner = await createDataApp(cluster.url, ns, "web");
    const set = new ReplicaSetReconciler({ kind: Pod, source: fakeSource(new FakeInformer<Pod>()), expectations: new Expectations({ ttlMs: 0 }) });
    await set.reconcile({ client, owner, replicas: 2, template });
    await set.reconcile({ client, owner, replicas: 2, template });
    assert.equal(creates(ns), 4);
  });

  it("deletes wait for a stale cache too: no second delete of the same pods", async () => {
    const ns = "stale-delete";
    const owner = await createDataApp(cluster.url, ns, "web");
    const lagging = new FakeInformer<Pod>();
    const set = new ReplicaSetReconciler({ kind: Pod, source: fakeSource(lagging) });
    await set.reconcile({ client, owner, replicas: 2, template });
    for (const p of await podsOf(ns)) lagging.add(p);
    const down = await set.reconcile({ client, owner, replicas: 0, template });
    assert.equal(down.objects.filter((o) => o.action === "deleted").length, 2);
    const waiting = await set.reconcile({ client, owner, replicas: 0, template });
    assert.match(waiting.waitingOn ?? "", /2 deletion\(s\)/);
    assert.equal(cluster.requests.count({ verb: "delete", resource: "pods", namespace: ns }), 2);
  });

  it("a failed create lowers the expectations and stops the batch, so the next pass tries again", async () => {
    const ns = "failing";
    const owner = await createDataApp(cluster.url, ns, "web");
    const set = new ReplicaSetReconciler({ kind: Pod, source: cache });
    cluster.inject({ verb: "create", resource: "pods", namespace: ns, code: 500, times: 1 });
    const failed = await set.reconcile({ client, owner, replicas: 3, template });
    assert.equal(failed.ok, false);
    assert.deepEqual(failed.objects.map((o) => o.action), ["failed"], "the first batch (one create) failed: the rest were not sent");
    assert.equal(set.expectations.satisfied(`${owner.metadata.uid}/replicas`), true);
    const retry = await set.reconcile({ client, owner, replicas: 3, template });
    assert.deepEqual(retry.objects.map((o) => o.action), ["created", "created", "created"]);
  });

  it("two sets sharing one Expectations (and its author observing it too) never count an add twice", async () => {
    const ns = "shared";
    const owner = await createDataApp(cluster.url, ns, "web");
    const lagging = new FakeInformer<Pod>();
    const shared = new Expectations();
    const a = new ReplicaSetReconciler({ kind: Pod, source: fakeSource(lagging), name: "a", expectations: shared });
    new ReplicaSetReconciler({ kind: Pod, source: fakeSource(lagging), name: "b", expectations: shared });
    shared.observe(lagging); // as the Expectations doc shows: keyed by the controller's uid, another key
    const first = await a.reconcile({ client, owner, replicas: 4, template });
    assert.equal(first.objects.filter((o) => o.action === "created").length, 4);
    const created = await podsOf(ns);
    lagging.add(created[0]!);
    lagging.add(created[1]!); // the cache shows 2 of the 4 creates so far
    assert.equal(shared.pending(`${owner.metadata.uid}/a`)?.creations, 2);
    const second = await a.reconcile({ client, owner, replicas: 4, template });
    assert.deepEqual(second.objects, [], "still waiting for 2 creations: nothing created");
    assert.equal(creates(ns), 4);
  });

  it("creates nothing for an owner being deleted, and still reports its counts", async () => {
    const ns = "deleting";
    const owner = await createDataApp(cluster.url, ns, "web");
    const members = new FakeInformer<Pod>();
    const set = new ReplicaSetReconciler({ kind: Pod, source: fakeSource(members) });
    await set.reconcile({ client, owner, replicas: 1, template });
    const [pod] = await podsOf(ns);
    members.add({ ...pod!, status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] } });
    const deleting = { ...owner, metadata: { ...owner.metadata, deletionTimestamp: "2024-01-01T00:00:00Z", finalizers: ["example.com/keep"] } };
    const up = await set.reconcile({ client, owner: deleting, replicas: 3, template });
    assert.deepEqual(up.objects, [], "no new member for an owner being deleted");
    assert.equal(up.ok, true);
    assert.deepEqual({ replicas: up.replicas, readyReplicas: up.readyReplicas }, { replicas: 1, readyReplicas: 1 });
    assert.equal(creates(ns), 1);
    const down = await set.reconcile({ client, owner: deleting, replicas: 0, template });
    assert.deepEqual(down.objects.map((o) => o.action), ["deleted"], "surplus members are still deleted");
  });

  it("a create that timed out may have happened: its expectation stays until the cache shows it (or the TTL)", async () => {
    const ns = "timeout";
    const owner = await createDataApp(cluster.url, ns, "web");
    const impatient = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "set-test", requestTimeoutMs: 50 });
    const lagging = new FakeInformer<Pod>();
    const set = new ReplicaSetReconciler({ kind: Pod, source: fakeSource(lagging) });
    cluster.inject({ verb: "create", resource: "pods", namespace: ns, latencyMs: 500, times: 1 });
    const first = await set.reconcile({ client: impatient, owner, replicas: 1, template });
    assert.deepEqual(first.objects.map((o) => o.action), ["failed"]);
    assert.equal(set.expectations.pending(`${owner.metadata.uid}/replicas`)?.creations, 1, "not lowered: the create may have happened");
    const second = await set.reconcile({ client: impatient, owner, replicas: 1, template });
    assert.deepEqual(second.objects, [], "waits for the cache instead of creating a second member");
    assert.match(second.waitingOn ?? "", /1 creation/);
  });

  it("never counts or deletes objects the owner does not control or that belong to another set or a Builder", async () => {
    const ns = "foreign";
    const owner = await createDataApp(cluster.url, ns, "web");
    const pod = (name: string, meta: Record<string, unknown>): KubeObject => ({ apiVersion: "v1", kind: "Pod", metadata: { name, namespace: ns, ...meta }, spec: template.spec });
    await client.create(pod("orphan", { labels: { [REPLICA_SET_LABEL]: "replicas" } }));
    await client.create(pod("other-set", { labels: { [REPLICA_SET_LABEL]: "workers" }, ownerReferences: [controllerRef(owner)] }));
    await new Builder({ client, owner, manages: [Pod] }).object(pod("fixed", {})).reconcile();
    const set = new ReplicaSetReconciler({ kind: Pod, source: cache });
    const up = await set.reconcile({ client, owner, replicas: 1, template });
    assert.equal(up.replicas, 0);
    await settled(set, owner, ns, 4);
    // A Builder pass that keeps its own pod must not prune the set's member (members carry no managed-by label).
    const builder = await new Builder({ client, owner, manages: [Pod] }).object(pod("fixed", {})).reconcile();
    assert.deepEqual(builder.objects.map((o) => `${o.action} ${o.name}`), ["unchanged fixed"]);
    const down = await set.reconcile({ client, owner, replicas: 0, template });
    assert.equal(down.objects.length, 1);
    await settled(set, owner, ns, 3);
    assert.deepEqual((await podsOf(ns)).map((p) => p.metadata!.name).sort(), ["fixed", "orphan", "other-set"]);
  });

  it("refuses a replica count that is not an integer >= 0 before any request", async () => {
    const owner = await createDataApp(cluster.url, "bad", "web");
    const set = new ReplicaSetReconciler({ kind: Pod, source: cache });
    for (const replicas of [-1, 1.5, Number.NaN]) {
      await assert.rejects(set.reconcile({ client, owner, replicas, template }), (err: Error) => err instanceof BuilderValidationError && err.field === "replicas");
    }
  });
});

describe("replicaDeletionOrder", () => {
  const pod = (name: string, created: string, state: "pending" | "notReady" | "ready"): KubeObject => ({
    apiVersion: "v1", kind: "Pod", metadata: { name, creationTimestamp: created },
    spec: state === "pending" ? {} : { nodeName: "n" },
    status: state === "pending" ? { phase: "Pending" } : { phase: "Running", conditions: [{ type: "Ready", status: state === "ready" ? "True" : "False" }] },
  });

  it("puts pending pods first, then not-ready ones, then ready ones; newest first within each, then by name", () => {
    const pods = [
      pod("ready-old", "2024-01-01T00:00:00Z", "ready"),
      pod("ready-new", "2024-01-02T00:00:00Z", "ready"),
      pod("notready-old", "2024-01-01T00:00:00Z", "notReady"),
      pod("pending", "2023-01-01T00:00:00Z", "pending"),
      pod("notready-new-b", "2024-01-03T00:00:00Z", "notReady"),
      pod("notready-new-a", "2024-01-03T00:00:00Z", "notReady"),
    ];
    assert.deepEqual(pods.sort((a, b) => replicaDeletionOrder(a, b)).map((p) => p.metadata!.name),
      ["pending", "notready-new-a", "notready-new-b", "notready-old", "ready-new", "ready-old"]);
  });
});
