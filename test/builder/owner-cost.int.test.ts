import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ConfigMap, ResourceClient } from "../../src/index.ts";
import { Cache, OWNER_UID_INDEX } from "../../src/entries/cache.ts";
import { MANAGED_BY_LABEL, OWNER_UID_LABEL } from "../../src/entries/builder.ts";
import type { Kind, KubeObject } from "../../src/index.ts";
import type { KindRef, ListOptions, ObjectReader, ObjectRef, OwnerIndexedReader } from "../../src/entries/client.ts";
import { within } from "../support/wait.ts";

const NS = "crowd";
const MANAGER = "crowd-operator";
const KINDS: KindRef[] = [
  { apiVersion: "v1", kind: "ConfigMap" }, { apiVersion: "v1", kind: "Secret" }, { apiVersion: "v1", kind: "Service" },
  { apiVersion: "v1", kind: "PersistentVolumeClaim" }, { apiVersion: "apps/v1", kind: "StatefulSet" }, { apiVersion: "apps/v1", kind: "Deployment" },
];

/** A Builder of `owner`'s {@link children}, reading through `reader` (default: the API). */
function builderOf(client: ResourceClient, owner: KubeObject, reader?: ObjectReader): Builder {
  let b = new Builder({ client, owner, ...(reader ? { reader } : {}) });
  for (const o of children(owner.metadata!.name!)) {
    if (o.kind === "ConfigMap") b = b.configMap(o);
    else if (o.kind === "StatefulSet") b = b.statefulSet(o);
    else if (o.kind === "Service") b = b.service(o);
    else b = b.storage(o);
  }
  return b;
}

/** 16 children: per node type a ConfigMap, a PVC, a StatefulSet mounting the ConfigMap, and a Service. */
function children(owner: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const node of ["controller", "broker", "server", "minion"]) {
    const name = `${owner}-${node}`;
    const labels = { app: "crowd", node, instance: owner };
    out.push({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-config` }, data: { "node.conf": `port=9000\nnode=${node}\n` } });
    out.push({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: `${name}-data` }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } });
    out.push({ apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name }, spec: {
      replicas: 1, serviceName: `${name}-svc`, selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: node, image: "example/node:1" }], volumes: [{ name: "config", configMap: { name: `${name}-config` } }] } },
    } });
    out.push({ apiVersion: "v1", kind: "Service", metadata: { name: `${name}-svc` }, spec: { selector: labels, ports: [{ name: "http", port: 9000 }] } });
  }
  return out;
}

/** What a reader handed the Builder: objects and their size (resourceVersions left out: they only grow). */
interface Seen { gets: number; lists: number; byOwner: number; objects: number; bytes: number }

const sizeOf = (o: unknown) => JSON.stringify(o, (k, v) => (k === "resourceVersion" ? undefined : v)).length;

/** Wraps a reader, counting what it returns; keeps `listByOwner` only when the inner reader has it. */
function counting(inner: ObjectReader, seen: Seen): ObjectReader {
  const note = (objs: readonly KubeObject[]) => {
    seen.objects += objs.length;
    for (const o of objs) seen.bytes += sizeOf(o);
  };
  const reader: ObjectReader = {
    get: async <T extends KubeObject>(ref: ObjectRef<T>) => {
      seen.gets++;
      const o = await inner.get(ref);
      if (o) note([o]);
      return o;
    },
    list: async <T extends KubeObject>(kind: Kind<T>, options?: ListOptions) => {
      seen.lists++;
      const items = await inner.list(kind, options);
      note(items);
      return items;
    },
  };
  const indexed = inner as Partial<OwnerIndexedReader>;
  if (!indexed.listByOwner) return reader;
  return {
    ...reader,
    listByOwner: async <T extends KubeObject>(kind: Kind<T>, uid: string, options?: { namespace?: string }) => {
      seen.byOwner++;
      const items = await indexed.listByOwner!(kind, uid, options);
      note(items);
      return items;
    },
  } as OwnerIndexedReader;
}

describe("one owner's reconcile costs the same however many other owners share its namespace", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  let first: ConfigMap;

  const newOwner = (name: string) => client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data: { role: "owner" } });
  const build = (owner: KubeObject, reader?: ObjectReader) => builderOf(client, owner, reader);
  /** A no-op of `owner`: its requests at the server and what the reader handed over. */
  const noOp = async (owner: KubeObject, reader: ObjectReader) => {
    const seen: Seen = { gets: 0, lists: 0, byOwner: 0, objects: 0, bytes: 0 };
    cluster.requests.clear();
    const result = await build(owner, counting(reader, seen)).reconcile();
    assert.ok(result.objects.every((o) => o.action === "unchanged"), JSON.stringify(result.objects.filter((o) => o.action !== "unchanged")));
    // Watch records are the cache's own streams (renewals), not requests of this reconcile.
    const requests = cluster.requests.all().filter((r) => r.verb !== "watch");
    return { requests: requests.length, byVerb: requests.map((r) => `${r.verb} ${r.resource}`).sort(), seen };
  };

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: MANAGER });
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    first = await newOwner("owner-0");
    assert.equal((await build(first).reconcile()).ok, true);
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    for (const k of KINDS) cache.informer(k, { namespace: NS });
    await cache.start(AbortSignal.timeout(30_000));
  });
  after(async () => {
    await cache.stop();
    await within(cluster.stop(), "cluster.stop()");
  });

  it("labels every child with its owner's UID, and the cache files each child under it", async () => {
    const sts = await client.get({ apiVersion: "apps/v1", kind: "StatefulSet", namespace: NS, name: "owner-0-broker" });
    assert.equal(sts.metadata?.labels?.[OWNER_UID_LABEL], first.metadata!.uid);
    const filed = cache.informer(ConfigMap, { namespace: NS }).byIndex(OWNER_UID_INDEX, first.metadata!.uid!);
    assert.deepEqual(filed.map((c) => c.metadata?.name).sort(), ["owner-0-broker-config", "owner-0-controller-config", "owner-0-minion-config", "owner-0-server-config"]);
  });

  it("a no-op from the API costs one list per kind, filtered by the API server: fewer requests than objects", async () => {
    const { requests, byVerb, seen } = await noOp(first, client.reader());
    // The four kinds it adds, nothing of a kind it was not told about. No GET per object (the
    // lists hold every child), no write: 4 requests where GET+PUT per object needs 32 and the
    // managed-by design needed 21 (16 GETs and 5 lists of every owner's objects).
    assert.equal(requests, 4, JSON.stringify(byVerb));
    assert.deepEqual(byVerb, ["list configmaps", "list persistentvolumeclaims", "list services", "list statefulsets"]);
    assert.equal(seen.gets, 0);
    assert.equal(seen.objects, 16, "exactly this owner's children came back");
  });

  it("a no-op from the cache costs no request and looks only at this owner's children, through the owner index", async () => {
    const { requests, seen } = await noOp(first, cache);
    assert.equal(requests, 0);
    assert.equal(seen.lists, 0, "no list of a namespace's objects");
    assert.equal(seen.byOwner, 3, "one index lookup per pruned kind (PVCs are not pruned)");
    // 16 reads by name, and this owner's children of the pruned kinds (PVCs are not pruned): 12.
    assert.equal(seen.objects, 16 + 12);
  });

  it("with 50 owners in the namespace, the same no-op costs the same requests, objects and bytes", async () => {
    const alone = { api: await noOp(first, client.reader()), cache: await noOp(first, cache) };
    for (let i = 1; i < 50; i++) {
      const owner = await newOwner(`owner-${i}`);
      assert.equal((await build(owner).reconcile()).ok, true);
    }
    const crowded = { api: await noOp(first, client.reader()), cache: await noOp(first, cache) };
    assert.deepEqual(crowded.api.seen, alone.api.seen);
    assert.equal(crowded.api.requests, alone.api.requests);
    assert.deepEqual(crowded.api.byVerb, alone.api.byVerb);
    assert.deepEqual(crowded.cache.seen, alone.cache.seen);
    assert.equal(crowded.cache.requests, 0);
    // Sanity: the namespace does hold the other owners' children, under the same managed-by label.
    const all = await client.reader().list(ConfigMap, { namespace: NS, labelSelector: `${MANAGED_BY_LABEL}=${MANAGER}` });
    assert.equal(all.length, 50 * 4);
  });
});

describe("the first reconcile of a new owner creates without reading each object (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: MANAGER });
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  const build = (owner: KubeObject) => builderOf(client, owner);
  /** The requests of one pass at the server (events aside), as `verb resource` sorted. */
  const counted = async (pass: () => Promise<unknown>) => {
    cluster.requests.clear();
    await pass();
    return cluster.requests.all().filter((r) => r.resource !== "events").map((r) => `${r.verb} ${r.resource}`).sort();
  };

  it("16 children cost one list per kind and one create each (20 requests); a second pass only the lists", async () => {
    const owner = await client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fresh", namespace: NS } });
    const first = await counted(async () => assert.equal((await build(owner).reconcile()).ok, true));
    assert.ok(first.length <= 22, `${first.length} requests: ${JSON.stringify(first)}`);
    assert.deepEqual(first.filter((r) => r.startsWith("list ")), ["list configmaps", "list persistentvolumeclaims", "list services", "list statefulsets"]);
    assert.equal(first.filter((r) => r.startsWith("create ")).length, 16);
    assert.equal(first.length, 20, JSON.stringify(first));
    const second = await counted(async () => assert.ok((await build(owner).reconcile()).objects.every((o) => o.action === "unchanged")));
    assert.deepEqual(second, ["list configmaps", "list persistentvolumeclaims", "list services", "list statefulsets"]);
  });

  it("a foreign object holding a child's name: the create is refused, the object read and left as it is (NotOwned)", async () => {
    const owner = await client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "squatted", namespace: NS } });
    const foreign = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "squatted-a", namespace: NS }, data: { mine: "no" } }, { fieldManager: "someone-else" });
    cluster.requests.clear();
    const result = await new Builder({ client, owner }).configMap({ metadata: { name: "squatted-a" }, data: { v: "1" } }).reconcile();
    assert.deepEqual(result.objects.map((o) => `${o.action} ${o.name}`), ["failed squatted-a"]);
    assert.equal(result.errors[0]!.name, "NotOwnedError");
    const onIt = cluster.requests.all().filter((r) => r.resource === "configmaps" && r.name === "squatted-a").map((r) => `${r.verb} ${r.code}`);
    assert.deepEqual(onIt, ["create 409", "get 200"], "refused, then read; nothing written");
    const after = await client.get({ ...ConfigMap, namespace: NS, name: "squatted-a" });
    assert.equal(after.metadata?.resourceVersion, foreign.metadata?.resourceVersion);
  });

  it("a child of ours whose owner-UID label was removed by hand: refused create, read, and labelled again by an apply", async () => {
    const owner = await client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "relabel", namespace: NS } });
    const pass = () => new Builder({ client, owner }).configMap({ metadata: { name: "relabel-a" }, data: { v: "1" } }).reconcile();
    assert.equal((await pass()).ok, true);
    await client.patch({ ...ConfigMap, namespace: NS, name: "relabel-a" }, { metadata: { labels: { [OWNER_UID_LABEL]: null } } }, "merge", { fieldManager: "kubectl-edit" });
    const again = await pass();
    assert.deepEqual(again.objects.map((o) => o.action), ["updated"], JSON.stringify(again.errors.map((e) => e.message)));
    const live = await client.get({ ...ConfigMap, namespace: NS, name: "relabel-a" });
    assert.equal(live.metadata?.labels?.[OWNER_UID_LABEL], owner.metadata!.uid);
  });
});
