import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ConfigMap, OperatorRuntimeError, ResourceClient } from "../../src/index.ts";
import { SHARD_BUCKET_LABEL, bucketLabelSelector, bucketOfUid, shardBucketLabels } from "../../src/entries/sharding.ts";
import type { KubeObject } from "../../src/index.ts";
import { controllerReference, prepareDesired, stampDesiredHash } from "../../src/builder/desired.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "shard-label";
const MANAGER = "shard-label-test";

const settings = (labels?: Record<string, string>): KubeObject => ({
  apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings", ...(labels ? { labels } : {}) }, data: { k: "v" },
});
const web = (): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } },
  },
});
const frontService = (): KubeObject => ({
  apiVersion: "v1", kind: "Service", metadata: { name: "front" }, spec: { selector: { app: "web" }, ports: [{ port: 80 }] },
});
const data = (name = "data"): KubeObject => ({
  apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
});

describe("shardBucketLabels", () => {
  it("is the owner's bucket under SHARD_BUCKET_LABEL", () => {
    const uid = "0b7c2a6e-3f1d-4c8e-9a55-2d1f0e9b7a10";
    assert.deepEqual(shardBucketLabels({ metadata: { uid } }), { [SHARD_BUCKET_LABEL]: String(bucketOfUid(uid)) });
  });

  it("refuses an owner without metadata.uid, naming the field and the fix", () => {
    for (const owner of [{ kind: "DataApp", metadata: { name: "demo", namespace: "apps" } }, {}, { metadata: { uid: "" } }]) {
      assert.throws(() => shardBucketLabels(owner), (err: unknown) =>
        err instanceof OperatorRuntimeError && /metadata\.uid/.test(err.message) && /Fix: pass the owner as read from the API server/.test(err.message));
    }
    assert.throws(() => shardBucketLabels({ kind: "DataApp", metadata: { name: "demo", namespace: "apps" } }), /DataApp apps\/demo/);
  });
});

describe("the Builder labels every child with its owner's shard bucket (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  let bucket: string;
  const get = (path: string) => raw(cluster.url, "GET", path).then((r) => r.body);
  const paths = {
    settings: `/api/v1/namespaces/${NS}/configmaps/settings`,
    web: `/apis/apps/v1/namespaces/${NS}/deployments/web`,
    front: `/api/v1/namespaces/${NS}/services/front`,
    data: `/api/v1/namespaces/${NS}/persistentvolumeclaims/data`,
  };
  const labelOf = async (path: string) => (await get(path)).metadata.labels?.[SHARD_BUCKET_LABEL] as string | undefined;
  const pass = () => new Builder({ client, owner }).configMap(settings()).deployment(web()).service(frontService()).storage(data()).reconcile();
  const actions = (r: Awaited<ReturnType<typeof pass>>) => Object.fromEntries(r.objects.map((o) => [o.name, o.action]));

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: MANAGER });
    owner = await createDataApp(cluster.url, NS, "demo");
    bucket = String(bucketOfUid(owner.metadata.uid));
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => cluster.requests.clear());

  it("a created child carries the owner's bucket, a retained claim (no owner reference) too; the bucket's label selector finds them all", async () => {
    const first = await pass();
    assert.equal(first.ok, true, first.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(actions(first), { settings: "created", web: "created", front: "created", data: "created" });
    for (const path of Object.values(paths)) assert.equal(await labelOf(path), bucket, path);
    assert.equal((await get(paths.data)).metadata.ownerReferences, undefined, "the claim is retained: the label is all that ties it to the bucket");
    const selected = await client.list(ConfigMap, { namespace: NS, labelSelector: bucketLabelSelector([Number(bucket)]) });
    assert.deepEqual(selected.items.map((c) => c.metadata?.name), ["settings"]);
    const others = [...Array(64).keys()].filter((b) => String(b) !== bucket);
    assert.deepEqual((await client.list(ConfigMap, { namespace: NS, labelSelector: bucketLabelSelector(others) })).items, []);
  });

  it("a second pass with no change writes nothing", async () => {
    const again = await pass();
    assert.deepEqual(actions(again), { settings: "unchanged", web: "unchanged", front: "unchanged", data: "unchanged" });
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("a label removed by hand is back after the next pass, with one apply; the pass after that writes nothing", async () => {
    const removed = await raw(cluster.url, "PATCH", `${paths.settings}?fieldManager=kubectl-edit`, { metadata: { labels: { [SHARD_BUCKET_LABEL]: null } } }, "application/merge-patch+json");
    assert.equal(removed.code, 200);
    assert.equal(await labelOf(paths.settings), undefined);
    cluster.requests.clear();

    const repaired = await pass();
    assert.deepEqual(actions(repaired), { settings: "updated", web: "unchanged", front: "unchanged", data: "unchanged" });
    assert.match(repaired.objects.find((o) => o.name === "settings")!.reason ?? "", /drifted/);
    assert.equal(await labelOf(paths.settings), bucket);
    // The apply, and before it (once in the object's life) the move of its create-time field
    // ownership into the apply's (see src/builder/field-ownership.ts).
    assert.equal(cluster.requests.writes(), 2, JSON.stringify(cluster.requests.summary()));
    assert.equal(cluster.requests.writes({ resource: "configmaps", name: "settings" }), 2);

    cluster.requests.clear();
    const steady = await pass();
    assert.ok(steady.objects.every((o) => o.action === "unchanged"));
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("a wrong bucket set by hand, by the object or by the common labels is overwritten: the owner's bucket wins", async () => {
    const edited = await raw(cluster.url, "PATCH", `${paths.settings}?fieldManager=kubectl-edit`, { metadata: { labels: { [SHARD_BUCKET_LABEL]: "999" } } }, "application/merge-patch+json");
    assert.equal(edited.code, 200);
    const repaired = await new Builder({ client, owner, labels: { [SHARD_BUCKET_LABEL]: "998" } })
      .configMap(settings({ [SHARD_BUCKET_LABEL]: "997", tier: "config" })).deployment(web()).service(frontService()).storage(data()).reconcile();
    assert.equal(repaired.ok, true, repaired.errors.map((e) => e.message).join("\n"));
    const live = await get(paths.settings);
    assert.equal(live.metadata.labels[SHARD_BUCKET_LABEL], bucket);
    assert.equal(live.metadata.labels.tier, "config", "the object's other labels are kept");
    assert.equal(await labelOf(paths.web), bucket);
    assert.equal((await pass()).ok, true, "back to the plain children");
  });

  it("a child written before the label existed gets it with one apply on the next pass, then no writes", async () => {
    // What the previous release wrote: the same object and desired hash, minus the shard-bucket label.
    const ref = controllerReference(owner);
    assert.ok(!(ref instanceof Error));
    const old = prepareDesired(settings(), { ownerRef: ref, labels: {}, managedBy: MANAGER, namespace: NS, namespaced: true, retainPersistentVolumeClaims: true, component: undefined });
    delete old.metadata!.labels![SHARD_BUCKET_LABEL];
    stampDesiredHash(old);
    await client.apply(old, { force: true });
    assert.equal(await labelOf(paths.settings), undefined);
    cluster.requests.clear();

    const upgraded = await pass();
    assert.deepEqual(actions(upgraded), { settings: "updated", web: "unchanged", front: "unchanged", data: "unchanged" });
    assert.equal(upgraded.objects.find((o) => o.name === "settings")!.reason, "the desired state changed");
    assert.equal(await labelOf(paths.settings), bucket);
    assert.equal(cluster.requests.writes(), 1, JSON.stringify(cluster.requests.summary()));
    assert.equal(cluster.requests.count({ verb: "patch", resource: "configmaps", name: "settings" }), 1, "one server-side apply");

    cluster.requests.clear();
    assert.ok((await pass()).objects.every((o) => o.action === "unchanged"));
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("an adopted child, a claim kept from another owner included, takes its new owner's bucket", async () => {
    // Another owner in a different bucket (UIDs are random: one in 64 shares ours).
    let other: any;
    for (let i = 0; i < 20 && (!other || String(bucketOfUid(other.metadata.uid)) === bucket); i++) other = await createDataApp(cluster.url, NS, `other-${i}`);
    const otherBucket = String(bucketOfUid(other.metadata.uid));
    assert.notEqual(otherBucket, bucket);

    const kept = await new Builder({ client, owner: other }).storage(data("kept")).reconcile();
    assert.equal(kept.ok, true, kept.errors.map((e) => e.message).join("\n"));
    assert.equal(await labelOf(`/api/v1/namespaces/${NS}/persistentvolumeclaims/kept`), otherBucket);
    const orphan = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`,
      { metadata: { name: "orphan", labels: { [SHARD_BUCKET_LABEL]: otherBucket } }, data: { k: "v" } });
    assert.equal(orphan.code, 201);

    const adopted = await new Builder({ client, owner, adopt: true, prune: false })
      .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "orphan" }, data: { k: "v" } }).storage(data("kept")).reconcile();
    assert.deepEqual(adopted.objects.map((o) => `${o.name}:${o.action}`), ["orphan:updated", "kept:updated"]);
    assert.equal(await labelOf(`/api/v1/namespaces/${NS}/configmaps/orphan`), bucket);
    assert.equal(await labelOf(`/api/v1/namespaces/${NS}/persistentvolumeclaims/kept`), bucket);
  });
});
