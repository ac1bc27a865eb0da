import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { waitFor, within } from "../support/wait.ts";

const NS = "lean";
const DEPLOYMENT = { apiVersion: "apps/v1", kind: "Deployment" } as const;

const settings = (): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" }, data: { mode: "fast" } });
const web = (): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "web", image: "example/web:1", env: [{ name: "THEME", value: "dark" }, { name: "LEVEL", value: "info" }] }] },
    },
  },
});

describe("the Builder reading through a lean cache (no managedFields) (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let owner: any;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    owner = await createDataApp(cluster.url, NS, "demo");
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "lean-test" });
    assert.equal((await new Builder({ client, owner }).configMap(settings()).deployment(web()).reconcile()).ok, true);
    // Another manager puts an env var first in our container and a sidecar first in the pod:
    // compared by position (without managedFields) both lists would look changed.
    const d = await client.get({ ...DEPLOYMENT, namespace: NS, name: "web" });
    const spec = (d as any).spec.template.spec;
    spec.containers[0].env.unshift({ name: "INJECTED", value: "1" });
    spec.containers.unshift({ name: "sidecar", image: "example/proxy:1" });
    await client.replace(d, { fieldManager: "sidecar-injector" });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** A process that starts fresh: a new client (nothing learned) and a new cache, synced with the API. */
  const freshProcess = async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "lean-test" });
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    cache.informer(DEPLOYMENT, { namespace: NS });
    await cache.start(AbortSignal.timeout(5000));
    const live = await client.get({ ...DEPLOYMENT, namespace: NS, name: "web" });
    await waitFor(async () => (await cache.get({ ...DEPLOYMENT, namespace: NS, name: "web" }))?.metadata?.resourceVersion === live.metadata?.resourceVersion, "the cache to hold the injected Deployment");
    const cached = await cache.get({ ...DEPLOYMENT, namespace: NS, name: "web" });
    assert.equal(cached?.metadata?.managedFields, undefined, "the cached copy is lean");
    const pass = () => new Builder({ client, owner, reader: cache }).configMap(settings()).deployment(web()).reconcile();
    /** As a controller's reconcile writes it: a client bound to the reconcile's signal, new each pass. */
    const signalledPass = () => new Builder({ client: client.withSignal(new AbortController().signal), owner, reader: cache, signal: new AbortController().signal })
      .configMap(settings()).deployment(web()).reconcile();
    return { cache, pass, signalledPass };
  };
  const actions = (r: { objects: readonly { action: string; kind: string }[] }) => r.objects.map((o) => `${o.action} ${o.kind}`);

  it("a fresh process reads the Deployment once to learn its list kinds, then no-ops cost no request", async () => {
    const { cache, pass } = await freshProcess();
    try {
      cluster.requests.clear();
      assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "unchanged Deployment"]);
      assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
      assert.equal(cluster.requests.count({ verb: "get", resource: "deployments" }), 1, "one read for the lists the lean copy cannot tell apart");
      assert.equal(cluster.requests.count({ verb: "get", resource: "configmaps" }), 0, "an object whose comparison holds is never read");
      for (const n of [2, 3]) {
        cluster.requests.clear();
        assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "unchanged Deployment"], `pass ${n}`);
        assert.equal(cluster.requests.count(), 0, `pass ${n}: ${JSON.stringify(cluster.requests.summary())}`);
      }
    } finally {
      await cache.stop();
    }
  });

  it("what a pass learned serves the clients withSignal derives: signalled no-ops cost no request either", async () => {
    const { cache, signalledPass } = await freshProcess();
    try {
      assert.deepEqual(actions(await signalledPass()), ["unchanged ConfigMap", "unchanged Deployment"]);
      for (const n of [2, 3]) {
        cluster.requests.clear();
        assert.deepEqual(actions(await signalledPass()), ["unchanged ConfigMap", "unchanged Deployment"], `pass ${n}`);
        assert.equal(cluster.requests.count(), 0, `pass ${n}: ${JSON.stringify(cluster.requests.summary())}`);
      }
    } finally {
      await cache.stop();
    }
  });

  it("still corrects drift of its own item through a lean copy, and leaves the other manager's items", async () => {
    const { cache, pass } = await freshProcess();
    try {
      const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "kubectl-edit" });
      const d: any = await client.get({ ...DEPLOYMENT, namespace: NS, name: "web" });
      const mine = d.spec.template.spec.containers.find((c: { name: string }) => c.name === "web");
      mine.image = "example/web:hacked";
      const edited = await client.replace(d);
      await waitFor(async () => (await cache.get({ ...DEPLOYMENT, namespace: NS, name: "web" }))?.metadata?.resourceVersion === edited.metadata?.resourceVersion, "the edit to reach the cache");
      assert.deepEqual(actions(await pass()), ["unchanged ConfigMap", "updated Deployment"]);
      const after: any = await client.get({ ...DEPLOYMENT, namespace: NS, name: "web" });
      const containers = after.spec.template.spec.containers;
      assert.deepEqual(containers.map((c: { name: string }) => c.name).sort(), ["sidecar", "web"]);
      const own = containers.find((c: { name: string }) => c.name === "web");
      assert.equal(own.image, "example/web:1");
      assert.deepEqual(own.env.map((e: { name: string }) => e.name).sort(), ["INJECTED", "LEVEL", "THEME"]);
    } finally {
      await cache.stop();
    }
  });
});
