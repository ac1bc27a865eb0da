/**
 * A child the Builder created with a POST (the API server records it as the field manager's
 * `Update`) still loses a field dropped from the desired object: the first apply that updates
 * it moves that entry into the field manager's `Apply` entry.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, Deployment, ResourceClient } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import type { KubeObject } from "../../src/index.ts";
import type { ObjectReader } from "../../src/entries/client.ts";
import { waitFor, within } from "../support/wait.ts";

const NS = "fields";
const MANAGER = "fields-operator";

/** A Deployment; `full` adds a label, an env var and a port that a later desired state drops. */
const web = (name: string, full: boolean): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name, labels: { app: name, ...(full ? { tier: "front" } : {}) } },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{
        name: "web", image: "example/web:1",
        env: [{ name: "KEEP", value: "1" }, ...(full ? [{ name: "DROP", value: "1" }] : [])],
        ports: [{ containerPort: 8080 }, ...(full ? [{ containerPort: 9090 }] : [])],
      }] },
    },
  },
});

const entries = (o: KubeObject) => (o.metadata?.managedFields ?? []).map((e) => `${e.manager} ${e.operation}${e.subresource ? ` ${e.subresource}` : ""}`).sort();

describe("fields dropped from a child the Builder created (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: MANAGER });
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    cache.informer(Deployment, { namespace: NS });
    await cache.start(AbortSignal.timeout(10_000));
  });
  after(async () => {
    await cache.stop();
    await within(cluster.stop(), "cluster.stop()");
  });

  for (const [how, reader] of [["from the API", () => client.reader()], ["from a lean cache (no managedFields)", () => cache]] as const) {
    it(`are removed from the live object, read ${how}`, async () => {
      const name = `web-${how.startsWith("from the API") ? "api" : "cache"}`;
      const owner = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-owner`, namespace: NS } });
      const pass = (full: boolean, r?: ObjectReader) => new Builder({ client, owner, ...(r ? { reader: r } : {}) }).deployment(web(name, full)).reconcile();
      const created = await pass(true);
      assert.deepEqual(created.objects.map((o) => o.action), ["created"]);
      const first = await client.get({ ...Deployment, namespace: NS, name });
      assert.deepEqual(entries(first), [`${MANAGER} Update`], "a create is recorded as the field manager's Update");
      if (how.startsWith("from a lean")) await waitCached(cache, name);

      const updated = await pass(false, reader());
      assert.deepEqual(updated.objects.map((o) => o.action), ["updated"], JSON.stringify(updated.errors.map((e) => e.message)));
      const live = await client.get({ ...Deployment, namespace: NS, name });
      const container = (live as any).spec.template.spec.containers[0];
      assert.equal(live.metadata?.labels?.tier, undefined, "the dropped label is gone");
      assert.deepEqual(container.env.map((e: { name: string }) => e.name), ["KEEP"], "the dropped env var is gone");
      assert.deepEqual(container.ports.map((p: { containerPort: number }) => p.containerPort), [8080], "the dropped port is gone");
      assert.deepEqual(entries(live), [`${MANAGER} Apply`], "the Update entry moved into the Apply entry");

      // Settled: the next pass writes nothing.
      if (how.startsWith("from a lean")) await waitCached(cache, name, live.metadata!.resourceVersion!);
      cluster.requests.clear();
      assert.deepEqual((await pass(false, reader())).objects.map((o) => o.action), ["unchanged"]);
      assert.equal(cluster.requests.writes() - cluster.requests.writes({ resource: "events" }), 0);
    });
  }

  it("without force, from a lean cache: the apply that meets the create's entry reads, moves it and applies again", async () => {
    const name = "web-noforce";
    const owner = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-owner`, namespace: NS } });
    const pass = (full: boolean, image: string) => {
      const d = web(name, full) as any;
      d.spec.template.spec.containers[0].image = image;
      return new Builder({ client, owner, reader: cache, force: false }).deployment(d).reconcile();
    };
    assert.deepEqual((await pass(true, "example/web:1")).objects.map((o) => o.action), ["created"]);
    await waitCached(cache, name);
    const updated = await pass(false, "example/web:2");
    assert.deepEqual(updated.objects.map((o) => o.action), ["updated"], JSON.stringify(updated.errors.map((e) => e.message)));
    const live = await client.get({ ...Deployment, namespace: NS, name }) as any;
    assert.equal(live.spec.template.spec.containers[0].image, "example/web:2");
    assert.equal(live.metadata.labels.tier, undefined, "the dropped label is gone");
    assert.deepEqual(entries(live), [`${MANAGER} Apply`]);
  });

  it("leaves alone what the operator's own code patched later with the same field manager", async () => {
    const name = "web-patched";
    const owner = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-owner`, namespace: NS } });
    const pass = (full: boolean) => new Builder({ client, owner }).deployment(web(name, full)).reconcile();
    assert.deepEqual((await pass(true)).objects.map((o) => o.action), ["created"]);
    // More than the create's second later, the operator's own code scales it with a merge patch
    // under the same field manager (the Manager's client, say).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await client.patch({ ...Deployment, namespace: NS, name }, { spec: { replicas: 5 }, metadata: { annotations: { "team/note": "keep" } } }, "merge");
    const updated = await pass(false);
    assert.deepEqual(updated.objects.map((o) => o.action), ["updated"], JSON.stringify(updated.errors.map((e) => e.message)));
    const live = await client.get({ ...Deployment, namespace: NS, name }) as any;
    assert.equal(live.spec.replicas, 5, "the replicas the operator's own patch set are kept");
    assert.equal(live.metadata.annotations["team/note"], "keep", "the annotation it set is kept");
  });
});

/** Waits until the cache holds Deployment `name` (at `resourceVersion`, when given). */
function waitCached(cache: Cache, name: string, resourceVersion?: string): Promise<unknown> {
  const informer = cache.informer(Deployment, { namespace: NS });
  return waitFor(() => {
    const hit = informer.get(name, NS);
    return hit !== undefined && (resourceVersion === undefined || hit.metadata?.resourceVersion === resourceVersion);
  }, `the cache to hold Deployment ${name}${resourceVersion ? ` at ${resourceVersion}` : ""}`);
}
