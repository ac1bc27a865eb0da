import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { fnv1a64, formatShardSelector, splitHashSpace } from "../../src/util/shard-range.ts";
import type { HashRange } from "../../src/util/shard-range.ts";
import { installPerson, person } from "../cache/fixtures.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { openWatch } from "../support/watch-stream.ts";

const [LOWER_RANGE] = splitHashSpace(2) as [HashRange, HashRange];
const LOWER = formatShardSelector("object.metadata.uid", [LOWER_RANGE]);
const q = `shardSelector=${encodeURIComponent(LOWER)}`;
const inLower = (uid: string) => fnv1a64(uid) < LOWER_RANGE.end;

describe("LocalCluster shardInfoEcho and setSharding", () => {
  let cluster: LocalCluster;
  /** uid by name of the people in "echo", and of the ConfigMaps there. */
  const people = new Map<string, string>();
  const configMaps = new Map<string, string>();
  const lowerNames = (m: Map<string, string>) => [...m].filter(([, uid]) => inLower(uid)).map(([n]) => n).sort();
  const names = (body: { items: { metadata: { name: string } }[] }) => body.items.map((o) => o.metadata.name).sort();

  before(async () => {
    cluster = await LocalCluster.start({ shardInfoEcho: "built-in" });
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    await installPerson(client);
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "echo" } });
    for (let i = 0; i < 30; i++) {
      const p = await client.create(person("echo", `p-${i}`, "A", "B"));
      people.set(p.metadata!.name!, p.metadata!.uid!);
      const c = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `c-${i}`, namespace: "echo" } });
      configMaps.set(c.metadata!.name!, c.metadata!.uid!);
    }
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it('"built-in": a custom resource list is filtered but carries no shardInfo; a built-in kind\'s echoes the selector', async () => {
    const crs = await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/echo/people?${q}`);
    assert.equal(crs.code, 200);
    assert.deepEqual(names(crs.body), lowerNames(people));
    assert.ok(crs.body.items.length > 5 && crs.body.items.length < 25, `a share of the people: ${crs.body.items.length}`);
    assert.equal(crs.body.metadata.shardInfo, undefined);
    const paged = await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/echo/people?limit=3&${q}`);
    assert.equal(paged.body.metadata.shardInfo, undefined, "no page carries it");
    const cms = await raw(cluster.url, "GET", `/api/v1/namespaces/echo/configmaps?${q}`);
    assert.deepEqual(names(cms.body), lowerNames(configMaps));
    assert.equal(cms.body.metadata.shardInfo.selector, LOWER);
  });

  it('"built-in": a custom resource watch is filtered', async () => {
    const w = await openWatch(cluster.url, `/apis/example.com/v1/namespaces/echo/people?watch=true&${q}`);
    try {
      await waitFor(() => w.events.length === lowerNames(people).length, "an ADDED event per person of the lower half");
      assert.deepEqual(w.events.map((e) => (e.object as { metadata: { name: string } }).metadata.name).sort(), lowerNames(people));
    } finally {
      w.stop();
    }
  });

  it("setSharding switches the next lists between ignoring the selector, echoing it for every kind, and the start's settings", async () => {
    const path = `/apis/example.com/v1/namespaces/echo/people?${q}`;
    cluster.setSharding({ shardedListWatch: false });
    const ignored = await raw(cluster.url, "GET", path);
    assert.equal(ignored.body.items.length, people.size);
    assert.equal(ignored.body.metadata.shardInfo, undefined);
    cluster.setSharding({ shardedListWatch: true, shardInfoEcho: "all" });
    const echoed = await raw(cluster.url, "GET", path);
    assert.deepEqual(names(echoed.body), lowerNames(people));
    assert.equal(echoed.body.metadata.shardInfo.selector, LOWER);
    cluster.setSharding({ shardInfoEcho: "built-in" });
    const silent = await raw(cluster.url, "GET", path);
    assert.deepEqual(names(silent.body), lowerNames(people));
    assert.equal(silent.body.metadata.shardInfo, undefined);
  });

  it("refuses a shardInfoEcho it does not know, naming the field and the values, at start and in setSharding", async () => {
    await assert.rejects(LocalCluster.start({ shardInfoEcho: "builtin" as never }),
      /LocalCluster\.start: shardInfoEcho must be "all" \(.*\) or "built-in" \(.*\), got "builtin"/);
    assert.throws(() => cluster.setSharding({ shardInfoEcho: "none" as never }), /LocalCluster\.setSharding: shardInfoEcho must be "all" .* got "none"/);
    assert.throws(() => cluster.setSharding({ shardedListWatch: "yes" as never }), /LocalCluster\.setSharding: shardedListWatch must be true or false, got "yes"/);
  });

  it('defaults to "built-in", as kube-apiserver v1.36.2: a custom resource list is filtered without echo; "all" echoes it', async (t) => {
    const other = await LocalCluster.start();
    t.after(() => within(other.stop(), "other.stop()"));
    const client = new ResourceClient({ kubeConfig: other.kubeConfig });
    await installPerson(client);
    await client.create(person("default", "one", "A", "B"));
    const res = await raw(other.url, "GET", `/apis/example.com/v1/namespaces/default/people?${q}`);
    assert.equal(res.body.metadata.shardInfo, undefined);
    other.setSharding({ shardInfoEcho: "all" });
    const echoed = await raw(other.url, "GET", `/apis/example.com/v1/namespaces/default/people?${q}`);
    assert.equal(echoed.body.metadata.shardInfo.selector, LOWER);
  });
});
