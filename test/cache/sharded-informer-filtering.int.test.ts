/**
 * Where a sharded informer's KEP-5866 shard selector is applied, as a sharded Manager's
 * ShardRouter sees it (the informers, the warning and `operator_runtime_shard_client_filtering`):
 * custom resources filtered without a `shardInfo` echo (kube-apiserver v1.36.2) raise nothing;
 * a server that ignores the selector warns once per kind and sets the metric; a built-in kind
 * with an echo is filtered by the server. Every case holds exactly the served buckets' objects.
 */
import { after, before, describe, it } from "node:test";
import type { TestContext } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import type { LocalClusterOptions } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import type { Kind } from "../../src/client/types.ts";
import { Cache } from "../../src/cache/index.ts";
import type { ShardedInformer } from "../../src/cache/index.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { ShardRouter } from "../../src/manager/shard-router.ts";
import { bucketOfUid } from "../../src/cache/shard-buckets.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { waitFor, within } from "../support/wait.ts";
import { CONFIGMAP, FAST, PERSON, cm, installPerson, namespace, person } from "./fixtures.ts";

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const names = (items: KubeObject[]) => items.map((o) => `${o.metadata!.namespace}/${o.metadata!.name}`).sort();

/** A sharded Manager's informer side, without controllers: a cache, a router, its metrics and its log. */
interface Replica {
  router: ShardRouter;
  metrics: Metrics;
  records: LogRecord[];
  /** The router's sharded informer of `kind`'s primaries in `ns`. */
  primaries(kind: Kind, ns: string): ShardedInformer;
  /** Starts `buckets` together (one rebuild). */
  serve(buckets: number[]): Promise<void>;
  /** `operator_runtime_shard_client_filtering{resource}`, or undefined when never set. */
  clientFiltering(resource: string): Promise<number | undefined>;
  /** The "ignored shard selector" warnings logged so far. */
  warnings(): LogRecord[];
}

async function replica(t: TestContext, cluster: LocalCluster): Promise<Replica> {
  const records: LogRecord[] = [];
  const logger = createLogger({ level: "debug", sink: (r) => records.push(r) });
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST, logger });
  await cache.start(AbortSignal.timeout(5_000));
  const metrics = new Metrics();
  const router = new ShardRouter({ cache, logger, metrics, controllers: () => [] });
  t.after(async () => {
    await within(router.close(), "the router to close");
    await within(cache.stop(), "the cache to stop");
  });
  return {
    router, metrics, records,
    primaries: (kind, ns) => router.informer(kind, { namespace: ns, role: "for" }) as unknown as ShardedInformer,
    serve: async (buckets) => void (await Promise.all(buckets.map((b) => router.start(b)))),
    clientFiltering: async (resource) => {
      const gauge = metrics.registry.getSingleMetric("operator_runtime_shard_client_filtering")!;
      return (await gauge.get()).values.find((v) => v.labels.resource === resource)?.value;
    },
    warnings: () => records.filter((r) => r.level === "warn" && /shard selector/.test(String(r.msg))),
  };
}

/** The objects of `made` whose UID hashes into a bucket of `served`. */
const share = (made: KubeObject[], served: Iterable<number>) => {
  const set = new Set(served);
  return names(made.filter((o) => set.has(bucketOfUid(o.metadata!.uid!))));
};

const PEOPLE = "Person.example.com/v1";

/** A cluster with the Person CRD and `count` people in `ns`. */
async function clusterWithPeople(options: LocalClusterOptions, ns: string, count: number) {
  const cluster = await LocalCluster.start(options);
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  await installPerson(client);
  await namespace(client, ns);
  const made: KubeObject[] = [];
  for (let i = 0; i < count; i++) made.push(await client.create(person(ns, `p-${i}`, "Ada", `L${i}`)));
  return { cluster, client, made };
}

describe("a sharded informer of a custom resource on kube-apiserver v1.36.2 (filtered, no shardInfo echo)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let made: KubeObject[];

  before(async () => {
    ({ cluster, client, made } = await clusterWithPeople({ shardInfoEcho: "built-in" }, "crs", 40));
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("holds exactly its share, logs no warning and leaves the client-filtering metric at 0, through changes and rebuilds", async (t) => {
    const r = await replica(t, cluster);
    const people = r.primaries(PERSON, "crs");
    await r.serve(range(0, 32));
    assert.equal(people.current?.shardFiltering, "unconfirmed");
    assert.deepEqual(names(people.list()), share(made, range(0, 32)));
    assert.equal(await r.clientFiltering(PEOPLE), 0);

    // Live objects of every bucket: the server's watch sends only the served ones.
    const live: KubeObject[] = [];
    for (let i = 0; i < 20; i++) live.push(await client.create(person("crs", `live-${i}`, "Bo", `M${i}`)));
    const all = [...made, ...live];
    await waitFor(() => JSON.stringify(names(people.list())) === JSON.stringify(share(all, range(0, 32))), "the served live people in the informer");

    // Two more rebuilds, each a new informer that lists without echo.
    await r.serve(range(32, 48));
    assert.deepEqual(names(people.list()), share(all, range(0, 48)));
    await r.serve([60]);
    assert.deepEqual(names(people.list()), share(all, [...range(0, 48), 60]));
    assert.equal(people.current?.shardFiltering, "unconfirmed");
    assert.equal(await r.clientFiltering(PEOPLE), 0);
    assert.deepEqual(r.warnings().map((w) => w.msg), []);
  });

  it("notices a server that stops honouring the selector between two rebuilds, and one that honours it again", async (t) => {
    const r = await replica(t, cluster);
    const people = r.primaries(PERSON, "crs");
    await r.serve(range(0, 16));
    assert.equal(people.current?.shardFiltering, "unconfirmed");
    assert.equal(await r.clientFiltering(PEOPLE), 0);

    cluster.setSharding({ shardedListWatch: false });
    t.after(() => cluster.setSharding({ shardedListWatch: true }));
    await r.serve([16]);
    assert.equal(people.current?.shardFiltering, "client");
    assert.equal(await r.clientFiltering(PEOPLE), 1);
    assert.equal(r.warnings().length, 1);
    assert.match(String(r.warnings()[0]!.msg), /ignored shard selector .*: its list sent crs\/\S+, which is outside it/);
    const everyone = (await client.listAll(PERSON, { namespace: "crs" })).items;
    assert.deepEqual(names(people.list()), share(everyone, range(0, 17)), "filtered client-side");

    cluster.setSharding({ shardedListWatch: true });
    await r.serve([17]);
    assert.equal(people.current?.shardFiltering, "unconfirmed");
    assert.equal(await r.clientFiltering(PEOPLE), 0);
    assert.deepEqual(names(people.list()), share(everyone, range(0, 18)));
    assert.equal(r.warnings().length, 1);
  });
});

describe("a sharded informer on an API server that ignores shardSelector (shardedListWatch: false)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let made: KubeObject[];

  before(async () => {
    ({ cluster, client, made } = await clusterWithPeople({ shardedListWatch: false }, "old", 40));
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("warns once for the kind, not at every rebuild, sets the metric to 1, and still holds only its share", async (t) => {
    const r = await replica(t, cluster);
    const people = r.primaries(PERSON, "old");
    await r.serve(range(0, 32));
    assert.equal(people.current?.shardFiltering, "client");
    assert.equal(await r.clientFiltering(PEOPLE), 1);
    assert.deepEqual(names(people.list()), share(made, range(0, 32)));

    for (const b of [32, 33, 34]) {
      await r.serve([b]);
      assert.equal(people.current?.shardFiltering, "client");
      assert.deepEqual(names(people.list()), share(made, range(0, b + 1)));
    }
    assert.equal(await r.clientFiltering(PEOPLE), 1);
    const warnings = r.warnings();
    assert.equal(warnings.length, 1, warnings.map((w) => w.msg).join("\n"));
    assert.match(String(warnings[0]!.msg), /ignored shard selector "shardRange\(object\.metadata\.uid, .*\)": its list sent old\/p-\d+, which is outside it/);
    assert.match(String(warnings[0]!.msg), /does not support KEP-5866 sharded list and watch .* filters client-side and receives every object/);
    assert.equal(r.records.filter((x) => /warning held back/.test(String(x.msg))).length, 3, "each later rebuild's detection is logged at debug level");
  });

  it("an empty collection stays unconfirmed (no warning, metric 0) until a watch event of another shard arrives", async (t) => {
    await namespace(client, "fresh");
    const r = await replica(t, cluster);
    const people = r.primaries(PERSON, "fresh");
    await r.serve(range(0, 32));
    assert.equal(people.current?.shardFiltering, "unconfirmed");
    assert.equal(await r.clientFiltering(PEOPLE), 0);

    const live: KubeObject[] = [];
    while (!live.some((o) => bucketOfUid(o.metadata!.uid!) >= 32)) live.push(await client.create(person("fresh", `n-${live.length}`, "Cy", "N")));
    await waitFor(async () => (await r.clientFiltering(PEOPLE)) === 1, "the metric to say the server ignores the selector");
    assert.equal(people.current?.shardFiltering, "client");
    assert.equal(r.warnings().length, 1);
    assert.equal(r.warnings()[0]!.from, "watch");
    await waitFor(() => JSON.stringify(names(people.list())) === JSON.stringify(share(live, range(0, 32))), "the served new people in the informer");
  });
});

describe("a sharded informer of a built-in kind, whose lists echo the selector", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start({ shardInfoEcho: "built-in" });
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("is filtered by the server: no warning, metric 0, exactly its share", async (t) => {
    await namespace(client, "cms");
    const made: KubeObject[] = [];
    for (let i = 0; i < 40; i++) made.push(await client.create(cm("cms", `c-${i}`)));
    const r = await replica(t, cluster);
    const cms = r.primaries(CONFIGMAP, "cms");
    await r.serve(range(0, 32));
    assert.equal(cms.current?.shardFiltering, "server");
    assert.deepEqual(names(cms.list()), share(made, range(0, 32)));
    await r.serve([40]);
    assert.equal(cms.current?.shardFiltering, "server");
    assert.deepEqual(names(cms.list()), share(made, [...range(0, 32), 40]));
    assert.equal(await r.clientFiltering("ConfigMap.v1"), 0);
    assert.deepEqual(r.warnings().map((w) => w.msg), []);
  });
});
