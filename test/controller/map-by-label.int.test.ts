/**
 * `mapByLabel`: the Pods of an owner's Deployment (owned by a ReplicaSet, so `.owns(Pod)` cannot
 * see them) reach the owner through a label of the pod template.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, Manager, Pod, Deployment, ResourceClient, Action, defineKind, generationChanged, mapByLabel, writeStatus } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import type { KubeObject } from "../../src/index.ts";
import { waitFor, within } from "../support/wait.ts";

const Memcached = defineKind<{ size: number }, { nodes?: string[] }>({ apiVersion: "cache.example.com/v1", kind: "Memcached" });
const LABEL = "cache.example.com/memcached";

const memcachedCrd: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "memcacheds.cache.example.com" },
  spec: {
    group: "cache.example.com", scope: "Namespaced", names: { plural: "memcacheds", singular: "memcached", kind: "Memcached" },
    versions: [{ name: "v1", served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: "object", properties: {
      spec: { type: "object", properties: { size: { type: "integer" } } },
      status: { type: "object", properties: { nodes: { type: "array", items: { type: "string" } } } },
    } } } }],
  },
};

describe("mapByLabel", () => {
  it("maps an object to the primary its label names, in its namespace; nothing without the label", () => {
    const map = mapByLabel(LABEL);
    assert.deepEqual(map({ metadata: { namespace: "prod", name: "web-1", labels: { [LABEL]: "web" } } }), [{ namespace: "prod", name: "web" }]);
    assert.deepEqual(map({ metadata: { namespace: "prod", name: "other" } }), []);
    assert.deepEqual(map({ metadata: { namespace: "prod", name: "empty", labels: { [LABEL]: "" } } }), []);
    assert.deepEqual(mapByLabel(LABEL, { clusterScoped: true })({ metadata: { namespace: "prod", name: "p", labels: { [LABEL]: "c" } } }), [{ namespace: "", name: "c" }]);
  });

  it("refuses a label that is not a non-empty string at once, naming the parameter", () => {
    assert.throws(() => mapByLabel(""), (err: unknown) => err instanceof TypeError && /mapByLabel\(label\)/.test(err.message));
    assert.throws(() => mapByLabel(undefined as unknown as string), TypeError);
  });
});

describe("a Deployment's pods reach their owner with .watches(Pod, mapByLabel(label))", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    // Pods report Running 500 ms after they are bound: well after the reconciles their Deployment
    // caused, so only their own events can bring them into the status.
    cluster = await LocalCluster.start({ simulate: { readyDelayMs: 500 } });
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test" });
    await client.create(memcachedCrd);
    await waitFor(async () => (await client.list(Memcached)) !== undefined, "Memcached served");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("status.nodes follows the pods as they start and as the owner scales", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "memcached-operator", healthPort: false, logger: silentLogger });
    mgr.controller("memcached")
      .for(Memcached, { status: ["patch"] })
      // The Deployment's status changes (its pods becoming ready) enqueue nothing: only the pods'
      // own events, mapped through the label, bring their names into the owner's status.
      .owns(Deployment, { predicates: [generationChanged] })
      .watches(Pod, mapByLabel(LABEL))
      .reconcile(async (req, { signal }) => {
        const m = mgr.cache.informer(Memcached).get(req.name, req.namespace);
        if (!m) return Action.done();
        const labels = { [LABEL]: req.name };
        const result = await new Builder({ client: mgr.client, owner: m, reader: mgr.cache, signal })
          .deployment({ metadata: { name: req.name }, spec: {
            replicas: m.spec.size, selector: { matchLabels: labels },
            template: { metadata: { labels }, spec: { containers: [{ name: "memcached", image: "memcached:1.6" }] } },
          } })
          .reconcile();
        if (!result.ok) throw new AggregateError(result.errors, "children failed");
        const pods = await mgr.cache.list(Pod, { namespace: req.namespace, labelSelector: `${LABEL}=${req.name}` });
        const nodes = pods.filter((p) => p.status?.phase === "Running").map((p) => p.metadata!.name!).sort();
        await writeStatus(mgr.client, m, { nodes });
        return Action.done();
      });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      await client.create({ ...Memcached, metadata: { name: "cache", namespace: "default" }, spec: { size: 2 } });
      const nodesOf = async (n: number) => waitFor(async () => {
        const m = await client.get({ ...Memcached, name: "cache", namespace: "default" });
        const running = (await client.list(Pod, { namespace: "default", labelSelector: `${LABEL}=cache` })).items
          .filter((p) => p.status?.phase === "Running").map((p) => p.metadata!.name!).sort();
        return running.length === n && JSON.stringify(m.status?.nodes) === JSON.stringify(running) ? running : undefined;
      }, `status.nodes to list the ${n} running pods`, 20_000);
      assert.equal((await nodesOf(2)).length, 2);
      await client.patch({ ...Memcached, name: "cache", namespace: "default" }, { spec: { size: 3 } }, "merge");
      assert.equal((await nodesOf(3)).length, 3);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });
});
