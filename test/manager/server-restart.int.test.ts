import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager, Action } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import type { KubeObject } from "../../src/index.ts";
import { DataApp, reconcileDataApp } from "../../examples/dataapp/dataapp.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const CHILDREN = [
  { apiVersion: "v1", kind: "ConfigMap", path: "/api/v1/configmaps", resource: "configmaps" },
  { apiVersion: "apps/v1", kind: "StatefulSet", path: "/apis/apps/v1/statefulsets", resource: "statefulsets" },
  { apiVersion: "v1", kind: "Service", path: "/api/v1/services", resource: "services" },
] as const;

const SPEC = { image: "nginx:1.27", replicas: 1, config: { greeting: "hello" } };

/** A Manager running the DataApp example's controller (reads its owner from the cache). */
async function startOperator(cluster: LocalCluster): Promise<Manager> {
  const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, recorder: false });
  let controller = mgr.controller("dataapp").for(DataApp);
  for (const c of CHILDREN) controller = controller.owns({ apiVersion: c.apiVersion, kind: c.kind });
  controller.reconcile(async (req) => {
    const app = mgr.cache.informer(DataApp).get(req.name, req.namespace);
    if (!app) return Action.done();
    const result = await reconcileDataApp(mgr.client, app);
    if (!result.ok) throw new AggregateError(result.errors, "children failed");
    return Action.done();
  });
  await within(mgr.start(), "mgr.start()", 15_000);
  return mgr;
}

/** `namespace/name` of every object the server lists at `path`. */
async function serverNames(cluster: LocalCluster, path: string): Promise<string[]> {
  const r = await raw(cluster.url, "GET", path);
  assert.equal(r.code, 200, `${path}: ${r.text}`);
  return r.body.items.map((o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`).sort();
}

/** `namespace/name` of every object the Manager's cache holds of a kind. */
function cachedNames(mgr: Manager, kind: { apiVersion: string; kind: string }): string[] {
  return mgr.cache.informer(kind).list().map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`).sort();
}

/** Whether the Manager's cache mirrors the server: the same DataApps and children, none stale. */
async function mirrors(mgr: Manager, cluster: LocalCluster): Promise<boolean> {
  const kinds = [{ apiVersion: "example.com/v1", kind: "DataApp", path: "/apis/example.com/v1/dataapps" }, ...CHILDREN];
  for (const k of kinds) {
    const informer = mgr.cache.informer(k);
    if (informer.isStale()) return false;
    if (JSON.stringify(cachedNames(mgr, k)) !== JSON.stringify(await serverNames(cluster, k.path))) return false;
  }
  return true;
}

/** Every child ever added on `cluster` (its whole history, from the first resourceVersion on), with its owners' UIDs. */
async function childrenEverCreated(cluster: LocalCluster): Promise<{ name: string; owners: string[] }[]> {
  const out: { name: string; owners: string[] }[] = [];
  for (const c of CHILDREN) {
    const r = await raw(cluster.url, "GET", `${c.path}?watch=true&resourceVersion=1&timeoutSeconds=1`);
    for (const line of r.text.split("\n").filter(Boolean)) {
      const ev = JSON.parse(line);
      if (ev.type !== "ADDED") continue;
      out.push({ name: `${c.kind} ${ev.object.metadata.namespace}/${ev.object.metadata.name}`,
        owners: (ev.object.metadata.ownerReferences ?? []).map((o: { uid: string }) => o.uid) });
    }
  }
  return out;
}

/** Starts a cluster with two DataApps and an operator that has reconciled them. */
async function runningOperator() {
  const old = await LocalCluster.start();
  await installDataApp(old.url);
  const mgr = await startOperator(old);
  const apps = [await createDataApp(old.url, "default", "alpha", SPEC), await createDataApp(old.url, "default", "beta", SPEC)];
  for (const app of apps) {
    await waitFor(() => old.peek({ group: "apps", plural: "statefulsets" }, "default", app.metadata.name), `the StatefulSet of ${app.metadata.name}`, 15_000);
  }
  await waitFor(() => mirrors(mgr, old), "the cache to mirror the first server", 15_000);
  return { old, mgr, port: Number(new URL(old.url).port), oldUids: new Set<string>(apps.map((a) => a.metadata.uid)) };
}

describe("a Manager whose API server restarts with other contents", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await within(fn(), "cleanup", 15_000);
  });

  it("re-mirrors an emptied server restarted at once, and creates nothing for the owners it lost", async () => {
    const { old, mgr, port } = await runningOperator();
    cleanup.push(() => mgr.stop());
    await within(old.stop(), "the first server to stop");
    const fresh = await LocalCluster.start({ port });
    cleanup.push(() => fresh.stop());
    assert.ok(fresh.resourceVersion < Number(mgr.cache.informer(DataApp).lastSyncResourceVersion()),
      "the new server is behind the cache: resuming from the old resourceVersion is too large");
    // The children's kinds exist on the new server from its start (the DataApp CRD is installed
    // next, so its informer may see a 404 first): their informers must converge on their first
    // attempt against it, with no failed list and so no backoff round.
    const childInformers = CHILDREN.map((c) => mgr.cache.informer({ apiVersion: c.apiVersion, kind: c.kind }));
    const before = childInformers.map((i) => ({ ...i.stats }));
    await installDataApp(fresh.url);

    await waitFor(() => mirrors(mgr, fresh), "the cache to mirror the new, empty server", 20_000);
    assert.deepEqual(cachedNames(mgr, DataApp), [], "the lost owners are gone from the cache");
    childInformers.forEach((informer, i) => {
      assert.equal(informer.stats.listFailures, before[i]!.listFailures, `${CHILDREN[i]!.kind}: no failed list against the new server`);
      assert.ok(informer.stats.relists <= before[i]!.relists + 1, `${CHILDREN[i]!.kind}: one relist re-mirrored it`);
    });
    assert.equal(fresh.requests.count({ verb: ["create", "update", "patch"], resource: CHILDREN.map((c) => c.resource) }), 0,
      "no child of a lost owner was written to the new server");

    // Still reconciling: a new owner gets its children, owned by its own UID.
    const gamma = await createDataApp(fresh.url, "default", "gamma", SPEC);
    await waitFor(() => fresh.peek({ group: "apps", plural: "statefulsets" }, "default", "gamma"), "gamma's StatefulSet", 15_000);
    const created = await childrenEverCreated(fresh);
    assert.ok(created.length >= 3);
    for (const c of created) assert.deepEqual(c.owners, [gamma.metadata.uid], `${c.name} is owned by gamma only`);
  });

  it("relists after its connection was refused, even when the new server's resourceVersion is ahead of the cache's", async () => {
    const { old, mgr, port, oldUids } = await runningOperator();
    cleanup.push(() => mgr.stop());
    const apps = mgr.cache.informer(DataApp);
    const cachedRv = Number(apps.lastSyncResourceVersion());
    const failures = apps.stats.watchFailures;
    await within(old.stop(), "the first server to stop");
    await waitFor(() => apps.stats.watchFailures > failures, "the operator to find the server gone (connection refused)", 10_000);
    assert.equal(apps.isStale(), true, "stale from the moment its watch failed");

    const fresh = await LocalCluster.start({ port });
    cleanup.push(() => fresh.stop());
    await installDataApp(fresh.url);
    const other = await createDataApp(fresh.url, "default", "other", SPEC);
    await createDataApp(fresh.url, "default", "alpha", { ...SPEC, config: { greeting: "a different alpha" } });
    for (let i = 0; fresh.resourceVersion <= cachedRv + 5; i++) {
      await raw(fresh.url, "POST", "/api/v1/namespaces/default/secrets", { metadata: { name: `filler-${i}` } });
    }

    await waitFor(async () => (await mirrors(mgr, fresh)) && cachedNames(mgr, DataApp).length === 2
      && fresh.peek({ group: "apps", plural: "statefulsets" }, "default", "other") !== undefined, "the cache to mirror the new server", 20_000);
    assert.deepEqual(cachedNames(mgr, DataApp), ["default/alpha", "default/other"]);
    assert.equal(apps.get("alpha", "default")?.spec.config.greeting, "a different alpha", "the new alpha, not the cached one");
    const newUids = new Set(apps.list().map((a) => a.metadata!.uid!));
    assert.ok(newUids.has(other.metadata.uid));
    await waitFor(() => fresh.peek({ group: "apps", plural: "statefulsets" }, "default", "alpha"), "the new alpha's StatefulSet", 15_000);
    for (const c of await childrenEverCreated(fresh)) {
      assert.equal(c.owners.some((u) => oldUids.has(u)), false, `${c.name} is not owned by a lost owner`);
      assert.ok(c.owners.every((u) => newUids.has(u)), `${c.name} is owned by owners of the new server`);
    }
  });
});
