import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { CoreV1Api, Watch } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { fnv1a64, formatShardSelector, splitHashSpace } from "../../src/util/shard-range.ts";
import type { HashRange } from "../../src/util/shard-range.ts";
import { installPerson, person } from "../cache/fixtures.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

const HALF = 2n ** 63n;
const byUid = (...ranges: HashRange[]) => formatShardSelector("object.metadata.uid", ranges);
const byNamespace = (...ranges: HashRange[]) => formatShardSelector("object.metadata.namespace", ranges);
const [LOWER_RANGE, UPPER_RANGE] = splitHashSpace(2) as [HashRange, HashRange];
const LOWER = byUid(LOWER_RANGE);
const UPPER = byUid(UPPER_RANGE);
const inRanges = (h: bigint, ranges: HashRange[]) => ranges.some((r) => h >= r.start && h < r.end);
const q = (selector: string) => `shardSelector=${encodeURIComponent(selector)}`;
const names = (items: { metadata?: { name?: string } }[]) => items.map((o) => o.metadata!.name!).sort();

describe("LocalCluster shardSelector (KEP-5866 sharded list and watch)", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  /** uid of each ConfigMap in namespace "shard", by name. */
  const uids = new Map<string, string>();

  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: "shard" } } });
    for (let i = 0; i < 40; i++) {
      const cm = await core.createNamespacedConfigMap({
        namespace: "shard", body: { metadata: { name: `cm-${String(i).padStart(2, "0")}`, labels: { parity: i % 2 ? "odd" : "even" } } },
      });
      uids.set(cm.metadata!.name!, cm.metadata!.uid!);
    }
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** Names of the "shard" ConfigMaps whose uid hash is in `ranges` (and pass `also`). */
  const expected = (ranges: HashRange[], also: (name: string) => boolean = () => true) =>
    [...uids].filter(([name, uid]) => also(name) && inRanges(fnv1a64(uid), ranges)).map(([name]) => name).sort();

  it("lists only objects whose uid hash is in range, and echoes the selector in metadata.shardInfo", async () => {
    const lower = await core.listNamespacedConfigMap({ namespace: "shard", shardSelector: LOWER });
    const upper = await core.listNamespacedConfigMap({ namespace: "shard", shardSelector: UPPER });
    assert.deepEqual(names(lower.items), expected([LOWER_RANGE]));
    assert.deepEqual(names(upper.items), expected([UPPER_RANGE]));
    assert.ok(lower.items.length > 5 && upper.items.length > 5, `both halves hold objects: ${lower.items.length}/${upper.items.length}`);
    assert.deepEqual([...names(lower.items), ...names(upper.items)].sort(), [...uids.keys()].sort(), "the halves partition the collection");
    assert.equal(lower.metadata?.shardInfo?.selector, LOWER);
    assert.equal(upper.metadata?.shardInfo?.selector, UPPER);
    const plain = await core.listNamespacedConfigMap({ namespace: "shard" });
    assert.equal(plain.metadata?.shardInfo, undefined, "no shardInfo without a shard selector");
    assert.equal(plain.items.length, 40);
  });

  it("echoes the selector in canonical form, whatever spacing and quotes the request used", async () => {
    const written = `( shardRange(object.metadata.uid,"0x0000000000000000","0x8000000000000000") )`;
    const res = await raw(cluster.url, "GET", `/api/v1/namespaces/shard/configmaps?${q(written)}`);
    assert.equal(res.code, 200);
    assert.equal(res.body.metadata.shardInfo.selector, LOWER);
    assert.deepEqual(names(res.body.items), expected([LOWER_RANGE]));
  });

  it("a || union selects the objects of either range", async () => {
    const quarters = splitHashSpace(4);
    const ranges = [quarters[0]!, quarters[2]!];
    const selector = byUid(...ranges);
    const list = await core.listNamespacedConfigMap({ namespace: "shard", shardSelector: selector });
    assert.deepEqual(names(list.items), expected(ranges));
    const first = await core.listNamespacedConfigMap({ namespace: "shard", shardSelector: byUid(quarters[0]!) });
    const third = await core.listNamespacedConfigMap({ namespace: "shard", shardSelector: byUid(quarters[2]!) });
    assert.deepEqual(names(list.items), [...names(first.items), ...names(third.items)].sort());
    assert.equal(list.metadata?.shardInfo?.selector, selector);
  });

  it("shards by namespace: whole namespaces land in one shard", async () => {
    const namespaces = ["ns-a", "ns-b", "ns-c", "ns-d", "ns-e", "ns-f"];
    for (const ns of namespaces) {
      await core.createNamespace({ body: { metadata: { name: ns } } });
      for (let i = 0; i < 3; i++) await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: `c${i}`, labels: { group: "by-ns" } } } });
    }
    const seen: string[] = [];
    for (const range of [LOWER_RANGE, UPPER_RANGE]) {
      const list = await core.listConfigMapForAllNamespaces({ labelSelector: "group=by-ns", shardSelector: byNamespace(range) });
      const inShard = namespaces.filter((ns) => inRanges(fnv1a64(ns), [range]));
      assert.deepEqual([...new Set(list.items.map((o) => o.metadata!.namespace!))].sort(), inShard);
      assert.equal(list.items.length, inShard.length * 3, "every object of a namespace in range, none other");
      seen.push(...list.items.map((o) => `${o.metadata!.namespace}/${o.metadata!.name}`));
    }
    assert.equal(new Set(seen).size, namespaces.length * 3);
  });

  it("combines with label selectors: the objects both select", async () => {
    const list = await core.listNamespacedConfigMap({ namespace: "shard", labelSelector: "parity=odd", shardSelector: UPPER });
    const odd = (name: string) => Number(name.slice(3)) % 2 === 1;
    assert.deepEqual(names(list.items), expected([UPPER_RANGE], odd));
    assert.ok(list.items.length > 0);
    const byField = await core.listNamespacedConfigMap({ namespace: "shard", fieldSelector: "metadata.name=cm-07", shardSelector: LOWER });
    assert.deepEqual(names(byField.items), expected([LOWER_RANGE], (n) => n === "cm-07"));
  });

  it("pages with limit/continue apply the selector to every page; no remainingItemCount", async () => {
    const pages: any[] = [];
    let token: string | undefined;
    do {
      const res = await raw(cluster.url, "GET", `/api/v1/namespaces/shard/configmaps?limit=3&${q(UPPER)}${token ? `&continue=${token}` : ""}`);
      assert.equal(res.code, 200);
      pages.push(res.body);
      token = res.body.metadata.continue;
    } while (token);
    assert.ok(pages.length > 2, `several pages: ${pages.length}`);
    for (const page of pages) {
      assert.ok(page.items.length <= 3);
      assert.equal(page.metadata.shardInfo.selector, UPPER, "every page echoes the selector");
      assert.equal(page.metadata.remainingItemCount, undefined, "the count is unknown to a filtered list, as with label selectors");
    }
    assert.deepEqual(names(pages.flatMap((p) => p.items)), expected([UPPER_RANGE]));
  });

  it("ResourceClient.list/listAll send shardSelector and expose the echo", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    const kind = { apiVersion: "v1", kind: "ConfigMap" };
    const page = await client.list(kind, { namespace: "shard", shardSelector: LOWER, limit: 4 });
    assert.deepEqual(page.shardInfo, { selector: LOWER });
    assert.ok(page.continue);
    const all = await client.listAll(kind, { namespace: "shard", shardSelector: LOWER, limit: 4 });
    assert.deepEqual(names(all.items), expected([LOWER_RANGE]));
    assert.deepEqual(all.shardInfo, { selector: LOWER });
    const plain = await client.listAll(kind, { namespace: "shard" });
    assert.equal(plain.shardInfo, undefined);
  });

  it("serves custom resources and cluster-scoped kinds alike", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await installPerson(client);
    const created: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      const p = await client.create(person("shard", `p${i}`, "Ada", "Lovelace"));
      created[p.metadata!.name!] = p.metadata!.uid!;
    }
    // client-node's CustomObjectsApi has no shardSelector parameter: raw HTTP.
    const list = (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/shard/people?${q(LOWER)}`)).body;
    assert.deepEqual(names(list.items), Object.keys(created).filter((n) => inRanges(fnv1a64(created[n]!), [LOWER_RANGE])).sort());
    assert.equal(list.metadata.shardInfo, undefined, "custom-resource lists carry no shardInfo, as on kube-apiserver v1.36.2");

    const all = await core.listNamespace();
    const nsLower = await core.listNamespace({ shardSelector: LOWER });
    assert.deepEqual(names(nsLower.items), names(all.items.filter((ns) => fnv1a64(ns.metadata!.uid!) < HALF)));
    // A cluster-scoped object has no namespace: it hashes as "" (fnv1a64("") is in the upper half).
    assert.equal((await core.listNamespace({ shardSelector: byNamespace(UPPER_RANGE) })).items.length, all.items.length);
    assert.equal((await core.listNamespace({ shardSelector: byNamespace(LOWER_RANGE) })).items.length, 0);
  });

  it("answers a malformed selector with kube-apiserver's 500 InternalError naming the problem, on list, watch and deletecollection", async () => {
    const bad = "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')";
    for (const path of [
      `/api/v1/namespaces/shard/configmaps?${q(bad)}`,
      `/api/v1/namespaces/shard/configmaps?watch=true&${q(bad)}`,
      `/api/v1/configmaps?${q(bad)}`,
    ]) {
      const res = await raw(cluster.url, "GET", path);
      assert.equal(res.code, 500, path);
      assert.equal(res.body.reason, "InternalError");
      assert.equal(res.body.message, `Internal error occurred: invalid shard selector: hexStart must be a 0x-prefixed 16-digit hex value, got "0x0" (did you mean "0x0000000000000000"?)`);
    }
    const del = await raw(cluster.url, "DELETE", `/api/v1/namespaces/shard/configmaps?${q("shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')")}`);
    assert.equal(del.code, 500);
    assert.match(del.body.message, /^Internal error occurred: invalid shard selector: unsupported field path "object\.metadata\.name"/);
    assert.equal((await core.listNamespacedConfigMap({ namespace: "shard" })).items.length, 40, "nothing deleted");
    const mixed = await raw(cluster.url, "GET", `/api/v1/configmaps?${q(`${LOWER} || ${byNamespace(UPPER_RANGE)}`)}`);
    assert.match(mixed.body.message, /all shard ranges must use the same field/);
    const blank = await raw(cluster.url, "GET", `/api/v1/configmaps?shardSelector=%20`);
    assert.equal(blank.code, 500);
    assert.match(blank.body.message, /empty shard selector is not allowed/);
    // An empty parameter is no parameter.
    const empty = await raw(cluster.url, "GET", "/api/v1/namespaces/shard/configmaps?shardSelector=");
    assert.equal(empty.code, 200);
    assert.equal(empty.body.items.length, 40);
    assert.equal(empty.body.metadata.shardInfo, undefined);
    // A bad label selector is reported first, as kube-apiserver decodes it before the shard selector.
    const both = await raw(cluster.url, "GET", `/api/v1/configmaps?labelSelector=a%3D%3D%3D&${q(bad)}`);
    assert.equal(both.code, 400);
    assert.doesNotMatch(both.body.message, /shard/);
  });

  it("watches send only events of objects in range: initial, live and deleted", async () => {
    const lower = await openWatch(cluster.url, `/api/v1/namespaces/shard/configmaps?watch=true&${q(LOWER)}`);
    const upper = await openWatch(cluster.url, `/api/v1/namespaces/shard/configmaps?watch=true&${q(UPPER)}`);
    await waitFor(() => lower.events.length + upper.events.length === 40, "the initial ADDED events");
    assert.deepEqual(names(lower.events.map((e) => e.object)), expected([LOWER_RANGE]));
    assert.deepEqual(names(upper.events.map((e) => e.object)), expected([UPPER_RANGE]));

    const live: { name: string; uid: string }[] = [];
    for (let i = 0; i < 16; i++) {
      const cm = await core.createNamespacedConfigMap({ namespace: "shard", body: { metadata: { name: `live-${i}` } } });
      live.push({ name: cm.metadata!.name!, uid: cm.metadata!.uid! });
      await core.patchNamespacedConfigMap({ name: cm.metadata!.name!, namespace: "shard", body: [{ op: "add", path: "/data", value: { v: "1" } }] });
      await core.deleteNamespacedConfigMap({ name: cm.metadata!.name!, namespace: "shard" });
    }
    await waitFor(() => lower.events.length + upper.events.length === 40 + 16 * 3, "three events per live object, once");
    for (const [w, range] of [[lower, LOWER_RANGE], [upper, UPPER_RANGE]] as const) {
      const got = w.events.slice().filter((e) => e.object.metadata.name.startsWith("live-")).map((e) => `${e.type} ${e.object.metadata.name}`);
      const want = live.filter((o) => inRanges(fnv1a64(o.uid), [range])).flatMap((o) => [`ADDED ${o.name}`, `MODIFIED ${o.name}`, `DELETED ${o.name}`]);
      assert.deepEqual(got, want);
    }
    lower.stop();
    upper.stop();
  });

  it("watches resumed from a resourceVersion replay only the range's changes; sendInitialEvents ends with its bookmark", async () => {
    const start = (await core.listNamespacedConfigMap({ namespace: "shard" })).metadata!.resourceVersion!;
    const made = await core.createNamespacedConfigMap({ namespace: "shard", body: { metadata: { name: "replayed" } } });
    const inLower = fnv1a64(made.metadata!.uid!) < HALF;
    const mine = await openWatch(cluster.url, `/api/v1/namespaces/shard/configmaps?watch=true&resourceVersion=${start}&${q(inLower ? LOWER : UPPER)}`);
    const other = await openWatch(cluster.url, `/api/v1/namespaces/shard/configmaps?watch=true&resourceVersion=${start}&${q(inLower ? UPPER : LOWER)}`);
    await waitFor(() => mine.events.length === 1, "the replayed ADDED");
    assert.equal(mine.events[0].object.metadata.name, "replayed");
    const list = await openWatch(cluster.url,
      `/api/v1/namespaces/shard/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&${q(UPPER)}`);
    await waitFor(() => list.events.at(-1)?.type === "BOOKMARK", "the initial-events-end bookmark");
    assert.deepEqual(names(list.events.filter((e) => e.type === "ADDED").map((e) => e.object)),
      [...expected([UPPER_RANGE]), ...(inLower ? [] : ["replayed"])].sort());
    assert.equal(list.events.at(-1).object.metadata.annotations["k8s.io/initial-events-end"], "true");
    await core.deleteNamespacedConfigMap({ name: "replayed", namespace: "shard" });
    await waitFor(() => mine.events.length === 2, "the DELETED");
    assert.equal(other.events.length, 0, "the other shard heard nothing of it");
    for (const w of [mine, other, list]) w.stop();
  });

  it("client-node's Watch passes shardSelector through", async () => {
    const seen: string[] = [];
    const req = await new Watch(cluster.kubeConfig).watch("/api/v1/namespaces/shard/configmaps", { shardSelector: LOWER },
      (_type, obj) => seen.push(obj.metadata.name), () => undefined);
    await waitFor(() => seen.length === expected([LOWER_RANGE]).length, "the initial events");
    assert.deepEqual(seen.sort(), expected([LOWER_RANGE]));
    req.abort();
  });

  it("deletecollection deletes only the objects in range", async () => {
    await core.createNamespace({ body: { metadata: { name: "shard-delete" } } });
    const made: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      const cm = await core.createNamespacedConfigMap({ namespace: "shard-delete", body: { metadata: { name: `d${i}` } } });
      made[cm.metadata!.name!] = cm.metadata!.uid!;
    }
    await core.deleteCollectionNamespacedConfigMap({ namespace: "shard-delete", shardSelector: LOWER });
    const left = await core.listNamespacedConfigMap({ namespace: "shard-delete" });
    assert.deepEqual(names(left.items), Object.keys(made).filter((n) => fnv1a64(made[n]!) >= HALF).sort());
  });
});

describe("LocalCluster with shardedListWatch: false (an API server without KEP-5866)", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await LocalCluster.start({ shardedListWatch: false });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    for (let i = 0; i < 10; i++) await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: `cm-${i}` } } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("ignores shardSelector on lists: every object, no shardInfo", async () => {
    const list = await core.listNamespacedConfigMap({ namespace: "default", shardSelector: LOWER });
    assert.equal(list.items.length, 10);
    assert.equal(list.metadata?.shardInfo, undefined);
    const paged = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?limit=4&${q(LOWER)}`);
    assert.equal(paged.body.metadata.remainingItemCount, 6, "an unfiltered list's count");
  });

  it("ignores even a malformed selector (no 400), as an unknown query parameter", async () => {
    const res = await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps?shardSelector=${encodeURIComponent("nonsense((")}`);
    assert.equal(res.code, 200);
    assert.equal(res.body.items.length, 10);
  });

  it("ignores shardSelector on watches and collection deletes", async () => {
    const w = await openWatch(cluster.url, `/api/v1/namespaces/default/configmaps?watch=true&${q(LOWER)}`);
    await waitFor(() => w.events.length === 10, "an ADDED event per object");
    w.stop();
    await core.deleteCollectionNamespacedConfigMap({ namespace: "default", shardSelector: LOWER });
    assert.equal((await core.listNamespacedConfigMap({ namespace: "default" })).items.length, 0);
  });

  it("refuses a shardedListWatch that is not a boolean", async () => {
    await assert.rejects(LocalCluster.start({ shardedListWatch: "no" as never }), /shardedListWatch must be true or false, got "no"/);
  });
});
