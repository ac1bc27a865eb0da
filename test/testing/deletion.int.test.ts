import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import type { V1ConfigMap, V1OwnerReference } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { waitFor, within } from "../support/wait.ts";

describe("LocalCluster deletion, finalizers and garbage collection", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "d" } } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  const exists = async (name: string, namespace = "d") =>
    core.readNamespacedConfigMap({ name, namespace }).then(() => true, (e) => {
      if (e instanceof ApiException && e.code === 404) return false;
      throw e;
    });
  const ownerRef = (o: V1ConfigMap, extra: Partial<V1OwnerReference> = {}): V1OwnerReference => ({
    apiVersion: "v1", kind: "ConfigMap", name: o.metadata!.name!, uid: o.metadata!.uid!, ...extra,
  });

  it("keeps an object with finalizers until the last one is removed", async () => {
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "fin", finalizers: ["example.com/a", "example.com/b"] } } });
    const marked = await core.deleteNamespacedConfigMap({ name: "fin", namespace: "d" });
    assert.ok(marked);
    const live = await core.readNamespacedConfigMap({ name: "fin", namespace: "d" });
    assert.ok(live.metadata!.deletionTimestamp, "deletionTimestamp set");
    const add = await core.patchNamespacedConfigMap({ name: "fin", namespace: "d",
      body: [{ op: "add", path: "/metadata/finalizers/-", value: "example.com/c" }] }).catch((e) => e);
    assert.equal((add as ApiException<string>).code, 422);
    assert.match(String((add as ApiException<string>).body), /no new finalizers can be added if the object is being deleted/);
    await core.patchNamespacedConfigMap({ name: "fin", namespace: "d", body: [{ op: "remove", path: "/metadata/finalizers/0" }] });
    assert.equal(await exists("fin"), true);
    await core.patchNamespacedConfigMap({ name: "fin", namespace: "d", body: [{ op: "remove", path: "/metadata/finalizers/0" }] });
    assert.equal(await exists("fin"), false, "removing the last finalizer deletes the object");
  });

  it("collects dependents in the background once the owner is gone", async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "bg-owner" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "bg-child", ownerReferences: [ownerRef(owner, { controller: true })] } } });
    const other = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "bg-other" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "bg-shared", ownerReferences: [ownerRef(owner), ownerRef(other)] } } });
    await core.deleteNamespacedConfigMap({ name: "bg-owner", namespace: "d" });
    await waitFor(async () => !(await exists("bg-child")), "bg-child collected");
    const shared = await waitFor(async () => {
      const s = await core.readNamespacedConfigMap({ name: "bg-shared", namespace: "d" });
      return s.metadata!.ownerReferences!.length === 1 ? s : undefined;
    }, "dead reference stripped");
    assert.equal(shared.metadata!.ownerReferences![0]!.name, "bg-other");
  });

  it("holds a Foreground owner until blocking dependents are gone", async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "fg-owner" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: {
      name: "fg-child", finalizers: ["example.com/hold"], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] } } });
    await core.deleteNamespacedConfigMap({ name: "fg-owner", namespace: "d", propagationPolicy: "Foreground" });
    const held = await core.readNamespacedConfigMap({ name: "fg-owner", namespace: "d" });
    assert.deepEqual(held.metadata!.finalizers, ["foregroundDeletion"]);
    await waitFor(async () => (await core.readNamespacedConfigMap({ name: "fg-child", namespace: "d" })).metadata!.deletionTimestamp, "child deleting");
    assert.equal(await exists("fg-owner"), true, "owner waits for its blocking child");
    await core.patchNamespacedConfigMap({ name: "fg-child", namespace: "d", body: [{ op: "remove", path: "/metadata/finalizers" }] });
    await waitFor(async () => !(await exists("fg-owner")), "owner deleted after the child");
  });

  it("orphans dependents with the Orphan policy", async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "or-owner" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "or-child", ownerReferences: [ownerRef(owner)] } } });
    await core.deleteNamespacedConfigMap({ name: "or-owner", namespace: "d", propagationPolicy: "Orphan" });
    await waitFor(async () => !(await exists("or-owner")), "owner deleted");
    const child = await core.readNamespacedConfigMap({ name: "or-child", namespace: "d" });
    assert.equal(child.metadata!.ownerReferences, undefined);
  });

  it("a Foreground owner's dependent that has another live owner loses only that reference, and the owner goes", async () => {
    const a = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "fg-a" } } });
    const b = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "fg-b" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "fg-shared", ownerReferences: [ownerRef(a, { blockOwnerDeletion: true }), ownerRef(b)] } } });
    await core.deleteNamespacedConfigMap({ name: "fg-a", namespace: "d", propagationPolicy: "Foreground" });
    await waitFor(async () => !(await exists("fg-a")), "the Foreground owner to go");
    const shared = await core.readNamespacedConfigMap({ name: "fg-shared", namespace: "d" });
    assert.deepEqual(shared.metadata!.ownerReferences!.map((r) => r.name), ["fg-b"], "kept, owned by the live owner only");
  });

  it("an Orphan owner goes even while a dependent is terminating, whose reference is stripped", async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "orph-owner" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "orph-dep", finalizers: ["example.com/hold"], ownerReferences: [ownerRef(owner)] } } });
    await core.deleteNamespacedConfigMap({ name: "orph-dep", namespace: "d" });
    await core.deleteNamespacedConfigMap({ name: "orph-owner", namespace: "d", propagationPolicy: "Orphan" });
    await waitFor(async () => !(await exists("orph-owner")), "the Orphan owner to go");
    const dep = await core.readNamespacedConfigMap({ name: "orph-dep", namespace: "d" });
    assert.equal(dep.metadata!.ownerReferences, undefined);
    await core.patchNamespacedConfigMap({ name: "orph-dep", namespace: "d", body: [{ op: "remove", path: "/metadata/finalizers" }] });
  });

  it("resolves an owner by UID, name and kind: a reference with the right UID but another name is dangling", async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "named-owner" } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "misnamed", ownerReferences: [ownerRef(owner, { name: "someone-else" })] } } });
    await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "miskinded", ownerReferences: [ownerRef(owner, { kind: "Secret" })] } } });
    await waitFor(async () => !(await exists("misnamed")) && !(await exists("miskinded")), "dependents of an absent owner to be collected");
    assert.equal(await exists("named-owner"), true);
  });

  it("keeps a cluster-scoped dependent whose owner reference names a namespaced object (it can never resolve)", async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "ns-owner" } } });
    await core.createNamespace({ body: { metadata: { name: "owned-by-namespaced", ownerReferences: [ownerRef(owner)] } } });
    const other = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "gc-probe", ownerReferences: [ownerRef(owner, { name: "gone", uid: "00000000-0000-0000-0000-000000000000" })] } } });
    assert.ok(other);
    await waitFor(async () => !(await exists("gc-probe")), "the collector to have run (a dangling dependent collected)");
    const ns = await core.readNamespace({ name: "owned-by-namespaced" });
    assert.equal(ns.metadata!.deletionTimestamp, undefined, "the Namespace is kept");
    await core.deleteNamespace({ name: "owned-by-namespaced" });
  });

  it("checks delete preconditions", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "d", body: { metadata: { name: "pre" } } });
    const err = await core.deleteNamespacedConfigMap({ name: "pre", namespace: "d", body: { preconditions: { uid: "not-the-uid" } } }).catch((e) => e);
    assert.equal((err as ApiException<string>).code, 409);
    await core.deleteNamespacedConfigMap({ name: "pre", namespace: "d", body: { preconditions: { uid: cm.metadata!.uid!, resourceVersion: cm.metadata!.resourceVersion! } } });
    assert.equal(await exists("pre"), false);
  });

  it("deleting a namespace removes its contents, then the namespace", async () => {
    await core.createNamespace({ body: { metadata: { name: "doomed" } } });
    await core.createNamespacedConfigMap({ namespace: "doomed", body: { metadata: { name: "a" } } });
    await core.createNamespacedSecret({ namespace: "doomed", body: { metadata: { name: "b" } } });
    await core.deleteNamespace({ name: "doomed" });
    await waitFor(async () => core.readNamespace({ name: "doomed" }).then(() => false, (e) => e.code === 404), "namespace gone");
    assert.equal(await exists("a", "doomed"), false);
    const create = await core.createNamespacedConfigMap({ namespace: "doomed", body: { metadata: { name: "late" } } }).catch((e) => e);
    assert.equal((create as ApiException<string>).code, 404);
  });

  it("refuses new content in a terminating namespace (403)", async () => {
    await core.createNamespace({ body: { metadata: { name: "terminating" } } });
    await core.createNamespacedConfigMap({ namespace: "terminating", body: { metadata: { name: "stuck", finalizers: ["example.com/x"] } } });
    await core.deleteNamespace({ name: "terminating" });
    const ns = await core.readNamespace({ name: "terminating" });
    assert.equal(ns.status!.phase, "Terminating");
    const err = await core.createNamespacedConfigMap({ namespace: "terminating", body: { metadata: { name: "new" } } }).catch((e) => e);
    assert.equal((err as ApiException<string>).code, 403);
    assert.match(String((err as ApiException<string>).body), /because it is being terminated/);
    await core.patchNamespacedConfigMap({ name: "stuck", namespace: "terminating", body: [{ op: "remove", path: "/metadata/finalizers" }] });
    await waitFor(async () => core.readNamespace({ name: "terminating" }).then(() => false, (e) => e.code === 404), "namespace gone");
  });
});
