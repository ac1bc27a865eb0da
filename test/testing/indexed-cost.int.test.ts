import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CoreV1Api, Watch } from "@kubernetes/client-node";
import type { V1ConfigMap } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { costProbe } from "../../src/testing/cost-probe.ts";
import { waitFor, within } from "../support/wait.ts";

/** The objects each step walked (lists) or looked at (garbage collector). */
type Costs = Record<string, number>;

/**
 * Runs the same requests in a cluster that also holds `unrelated` ConfigMaps in another
 * namespace (all but one of them dependents of that one), and returns what each step cost.
 */
async function costsWith(unrelated: number): Promise<Costs> {
  const cluster = await LocalCluster.start();
  try {
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    const probe = costProbe(cluster);
    const idle = () => waitFor(() => probe.gcIdle, "the garbage collector to be idle");
    for (const name of ["other", "work"]) await core.createNamespace({ body: { metadata: { name } } });
    const otherOwner = await core.createNamespacedConfigMap({ namespace: "other", body: { metadata: { name: "owner" } } });
    for (let i = 1; i < unrelated; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, unrelated - i) }, (_, j) => core.createNamespacedConfigMap({
        namespace: "other", body: { metadata: { name: `u-${i + j}`, ownerReferences: [refTo(otherOwner)] } } })));
    }
    await idle();

    const costs: Costs = {};
    const step = async (name: string, fn: () => Promise<unknown>) => {
      const listed = probe.listed;
      const collected = probe.collected;
      await fn();
      await idle();
      costs[`${name}: listed`] = probe.listed - listed;
      costs[`${name}: collected`] = probe.collected - collected;
    };
    const gone = (name: string) => waitFor(async () => !(await exists(core, name)), `${name} collected`);

    let owner!: V1ConfigMap;
    await step("create an owner", async () => {
      owner = await core.createNamespacedConfigMap({ namespace: "work", body: { metadata: { name: "owner" } } });
    });
    await step("create 3 dependents", async () => {
      for (const name of ["a", "b", "c"]) {
        await core.createNamespacedConfigMap({ namespace: "work", body: { metadata: { name, ownerReferences: [refTo(owner, true)] } } });
      }
    });
    await step("create a dependent of a missing owner", async () => {
      await core.createNamespacedConfigMap({ namespace: "work", body: { metadata: { name: "stray",
        ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "gone", uid: "00000000-0000-0000-0000-000000000000" }] } } });
      await gone("stray");
    });
    await step("list the namespace", () => core.listNamespacedConfigMap({ namespace: "work" }));
    await step("list the namespace in pages of 2", async () => {
      let token: string | undefined;
      do {
        const page = await core.listNamespacedConfigMap({ namespace: "work", limit: 2, ...(token ? { _continue: token } : {}) });
        token = page.metadata?._continue;
      } while (token);
    });
    await step("watch the namespace from its initial state", async () => {
      const seen: string[] = [];
      const req = await within(new Watch(cluster.kubeConfig).watch("/api/v1/namespaces/work/configmaps", {},
        (type, obj: V1ConfigMap) => seen.push(`${type} ${obj.metadata!.name}`), () => undefined), "the watch to connect");
      await waitFor(() => seen.length >= 4, "the initial ADDED events");
      req.abort();
      assert.deepEqual(seen, ["ADDED a", "ADDED b", "ADDED c", "ADDED owner"]);
    });
    await step("delete the owner in the foreground", async () => {
      await core.deleteNamespacedConfigMap({ name: "owner", namespace: "work", propagationPolicy: "Foreground" });
      for (const name of ["owner", "a", "b", "c"]) await gone(name);
    });
    await step("delete the namespace", async () => {
      await core.createNamespacedConfigMap({ namespace: "work", body: { metadata: { name: "last" } } });
      await core.deleteNamespace({ name: "work" });
      await waitFor(() => core.readNamespace({ name: "work" }).then(() => false, () => true), "namespace work removed");
    });
    assert.equal(cluster.objectCount() >= unrelated, true, "the unrelated objects are still there");
    return costs;
  } finally {
    await within(cluster.stop(), "cluster.stop()");
  }
}

function refTo(o: V1ConfigMap, blockOwnerDeletion = false) {
  return { apiVersion: "v1", kind: "ConfigMap", name: o.metadata!.name!, uid: o.metadata!.uid!, ...(blockOwnerDeletion ? { blockOwnerDeletion } : {}) };
}

async function exists(core: CoreV1Api, name: string): Promise<boolean> {
  return core.readNamespacedConfigMap({ name, namespace: "work" }).then(() => true, (e) => {
    if (e instanceof ApiException && e.code === 404) return false;
    throw e;
  });
}

describe("LocalCluster's cost per request does not grow with unrelated objects", () => {
  it("garbage collection, lists, pages and watches walk the same objects next to 1 or 5,000 unrelated ones", async () => {
    const small = await costsWith(1);
    const large = await costsWith(5000);
    assert.deepEqual(large, small);
    // And what they walk is only what the request concerns.
    assert.equal(small["list the namespace: listed"], 4, "owner, a, b, c");
    assert.equal(small["watch the namespace from its initial state: listed"], 4, "owner, a, b, c");
    assert.equal(small["create an owner: collected"], 0, "an object without owners or deletion wakes no collection");
    assert.ok(small["delete the namespace: collected"]! <= 10, `namespace deletion looked at ${small["delete the namespace: collected"]} objects`);
  });
});

describe("LocalCluster lists by label equality walk only the objects carrying that label value", () => {
  /** Lists and watches `owner=mine` (3 objects) in a namespace that also holds `unrelated` objects labelled for other owners. */
  async function labelledCosts(unrelated: number): Promise<Costs> {
    const cluster = await LocalCluster.start();
    try {
      const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
      const probe = costProbe(cluster);
      await core.createNamespace({ body: { metadata: { name: "shared" } } });
      for (let i = 0; i < unrelated; i += 100) {
        await Promise.all(Array.from({ length: Math.min(100, unrelated - i) }, (_, j) => core.createNamespacedConfigMap({
          namespace: "shared", body: { metadata: { name: `u-${i + j}`, labels: { owner: `u-${i + j}`, app: "x" } } } })));
      }
      for (const name of ["m-1", "m-2", "m-3"]) {
        await core.createNamespacedConfigMap({ namespace: "shared", body: { metadata: { name, labels: { owner: "mine", app: "x" } } } });
      }
      const costs: Costs = {};
      const step = async (name: string, fn: () => Promise<string[]>) => {
        const listed = probe.listed;
        const names = await fn();
        costs[`${name}: listed`] = probe.listed - listed;
        assert.deepEqual(names, ["m-1", "m-2", "m-3"], name);
      };
      const names = (items: V1ConfigMap[]) => items.map((i) => i.metadata!.name!);
      for (const labelSelector of ["owner=mine", "owner==mine", "owner in (mine)", "app=x,owner=mine", "owner=mine,app!=y"]) {
        await step(`list ${labelSelector}`, async () => names((await core.listNamespacedConfigMap({ namespace: "shared", labelSelector })).items));
      }
      await step("list owner=mine for all namespaces, in pages of 2", async () => {
        const out: string[] = [];
        let token: string | undefined;
        do {
          const page = await core.listConfigMapForAllNamespaces({ labelSelector: "owner=mine", limit: 2, ...(token ? { _continue: token } : {}) });
          out.push(...names(page.items));
          token = page.metadata?._continue;
        } while (token);
        return out;
      });
      await step("watch owner=mine from its initial state", async () => {
        const seen: string[] = [];
        const req = await within(new Watch(cluster.kubeConfig).watch("/api/v1/namespaces/shared/configmaps", { labelSelector: "owner=mine" },
          (_type, obj: V1ConfigMap) => seen.push(obj.metadata!.name!), () => undefined), "the watch to connect");
        await waitFor(() => seen.length >= 3, "the initial ADDED events");
        req.abort();
        return seen;
      });
      // The index follows writes: a relabelled object leaves the old value and joins the new one.
      await core.patchNamespacedConfigMap({ name: "m-3", namespace: "shared", body: [{ op: "replace", path: "/metadata/labels/owner", value: "theirs" }] });
      if (unrelated) await core.patchNamespacedConfigMap({ name: "u-0", namespace: "shared", body: [{ op: "replace", path: "/metadata/labels/owner", value: "mine" }] });
      const now = names((await core.listNamespacedConfigMap({ namespace: "shared", labelSelector: "owner=mine" })).items);
      assert.deepEqual(now, unrelated ? ["m-1", "m-2", "u-0"] : ["m-1", "m-2"]);
      return costs;
    } finally {
      await within(cluster.stop(), "cluster.stop()");
    }
  }

  it("next to 0 or 5,000 objects labelled for other owners", async () => {
    const small = await labelledCosts(0);
    const large = await labelledCosts(5000);
    assert.deepEqual(large, small);
    assert.equal(small["list owner=mine: listed"], 3);
  });
});
