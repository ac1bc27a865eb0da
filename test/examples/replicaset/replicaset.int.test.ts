import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Manager, Pod, ResourceClient } from "../../../src/index.ts";
import { REPLICA_SET_LABEL, replicaDeletionOrder } from "../../../src/entries/controller.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import type { KubeObject } from "../../../src/index.ts";
import { LocalCluster } from "../../../src/testing/index.ts";
import { installCrds } from "../../../examples/example.ts";
import { operator, PodSet, POD_SET_NAME } from "../../../examples/replicaset/operator.ts";
import type { PodSetSpec } from "../../../examples/replicaset/operator.ts";
import { raw, waitFor, within } from "../../support/wait.ts";

const template: PodSetSpec["template"] = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "nginx", image: "nginx:1.27" }] } };

describe("the replicaset example operator", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let mgr: Manager;

  before(async () => {
    cluster = await LocalCluster.start({ simulate: { readyDelayMs: 10 } });
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "replicaset-test" });
    await installCrds(client, operator.crds);
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "replicaset-operator", healthPort: false, logger: silentLogger });
    operator.register(mgr);
    await within(mgr.start(), "the manager to start");
  });
  after(async () => {
    await within(mgr.stop(), "mgr.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  const createSet = async (ns: string, name: string, replicas: number): Promise<PodSet> => {
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    return client.create({ ...PodSet, metadata: { name, namespace: ns }, spec: { replicas, template } });
  };
  const scale = (ns: string, name: string, replicas: number) => client.patch({ ...PodSet, namespace: ns, name }, { spec: { replicas } }, "merge");
  const pods = async (ns: string) => (await client.list(Pod, { namespace: ns })).items.filter((p) => !p.metadata?.deletionTimestamp);
  const creates = (ns: string) => cluster.requests.count({ verb: "create", resource: "pods", namespace: ns, code: 201 });
  const deletes = (ns: string) => cluster.requests.count({ verb: "delete", resource: "pods", namespace: ns, code: 200 });
  const ready = (p: Pod) => (p.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");

  /** Waits until the set has exactly `n` Pods, all ready, and its status says so for its latest generation. */
  const converged = (ns: string, name: string, n: number) => waitFor(async () => {
    const set = await client.get({ ...PodSet, namespace: ns, name });
    const live = await pods(ns);
    const s = set.status ?? {};
    return live.length === n && live.every(ready) && s.replicas === n && s.readyReplicas === n
      && s.message === `${n}/${n} ready` && s.observedGeneration === set.metadata?.generation ? set : undefined;
  }, `PodSet ${ns}/${name} to have ${n}/${n} ready Pods`);

  it("scales 0 → 3 → 5 → 2 → 0 with exactly the creates and deletes each step needs", async () => {
    const ns = "scaling";
    await createSet(ns, "web", 0);
    await converged(ns, "web", 0);
    await scale(ns, "web", 3);
    await converged(ns, "web", 3);
    assert.equal(creates(ns), 3);
    for (const p of await pods(ns)) {
      assert.match(p.metadata!.name!, /^web-[a-z0-9]{5}$/);
      assert.equal(p.metadata!.labels![REPLICA_SET_LABEL], POD_SET_NAME);
      assert.equal(p.metadata!.labels!.app, "web");
      assert.equal(p.metadata!.ownerReferences?.[0]?.kind, "PodSet");
    }
    // kubectl scale works too: the CRD has a scale subresource.
    await client.patch({ ...PodSet, namespace: ns, name: "web" }, { spec: { replicas: 5 } }, "merge", { subresource: "scale" });
    await converged(ns, "web", 5);
    assert.equal(creates(ns), 5);
    await scale(ns, "web", 2);
    await converged(ns, "web", 2);
    assert.equal(deletes(ns), 3);
    await scale(ns, "web", 0);
    await converged(ns, "web", 0);
    assert.equal(deletes(ns), 5);
    assert.equal(creates(ns), 5, "never over-created");
  });

  it("deletes not-ready Pods first on scale-in", async () => {
    const ns = "not-ready";
    await createSet(ns, "web", 3);
    await converged(ns, "web", 3);
    // Make sick the Pod that would go last if readiness did not count (oldest, then last by name).
    const sick = (await pods(ns)).sort((a, b) => replicaDeletionOrder(a, b)).at(-1);
    await client.patchStatus({ ...Pod, namespace: ns, name: sick!.metadata!.name! },
      { status: { conditions: [{ type: "Ready", status: "False", reason: "ProbeFailed" }] } }, "merge");
    await waitFor(async () => (await client.get({ ...PodSet, namespace: ns, name: "web" })).status?.message === "2/3 ready", "the status to show the not-ready Pod");
    await scale(ns, "web", 2);
    await converged(ns, "web", 2);
    const left = (await pods(ns)).map((p) => p.metadata!.name);
    assert.equal(left.includes(sick!.metadata!.name!), false, `the not-ready Pod ${sick!.metadata!.name} was deleted, not a ready one: ${left.join(", ")}`);
    assert.equal(deletes(ns), 1);
    const notes = await eventNotes(ns);
    assert.ok(notes.includes(`Deleted Pod/${ns}/${sick!.metadata!.name}: scaled in (not ready)`), notes.join("\n"));
  });

  it("recreates a Pod deleted by hand exactly once", async () => {
    const ns = "by-hand";
    await createSet(ns, "web", 2);
    await converged(ns, "web", 2);
    const before = await pods(ns);
    const victim = before[0]!.metadata!.name!;
    cluster.requests.clear();
    await client.delete({ ...Pod, namespace: ns, name: victim });
    await waitFor(async () => {
      const now = await pods(ns);
      return now.length === 2 && !now.some((p) => p.metadata!.name === victim);
    }, "a replacement Pod");
    await converged(ns, "web", 2);
    assert.equal(creates(ns), 1);
    assert.equal(deletes(ns), 1, "only the hand delete");
  });

  it("reports status and printer columns, and records Created events on the PodSet", async () => {
    const ns = "status";
    await createSet(ns, "web", 3);
    const set = await converged(ns, "web", 3);
    assert.deepEqual(set.status, { replicas: 3, readyReplicas: 3, message: "3/3 ready", observedGeneration: 1 });
    const table = await raw(cluster.url, "GET", `/apis/replicaset.example.com/v1/namespaces/${ns}/podsets`, undefined, undefined,
      { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
    assert.equal(table.code, 200, table.text);
    assert.deepEqual(table.body.columnDefinitions.map((c: { name: string }) => c.name), ["Name", "Desired", "Current", "Ready", "Status", "Age"]);
    assert.deepEqual(table.body.rows[0].cells.slice(0, 5), ["web", 3, 3, 3, "3/3 ready"]);
    const notes = await eventNotes(ns);
    assert.equal(notes.filter((n) => /^Created Pod\/status\/web-[a-z0-9]{5}$/.test(n)).length, 3, notes.join("\n"));
  });

  it("deleting the PodSet deletes its Pods (garbage collection through the controller reference)", async () => {
    const ns = "gone";
    await createSet(ns, "web", 2);
    await converged(ns, "web", 2);
    await client.delete({ ...PodSet, namespace: ns, name: "web" });
    await waitFor(async () => (await pods(ns)).length === 0, "the Pods to be garbage-collected");
  });

  /** Notes of the events recorded on PodSets in `ns`. */
  async function eventNotes(ns: string): Promise<string[]> {
    const list = await client.list<KubeObject>({ apiVersion: "events.k8s.io/v1", kind: "Event" }, { namespace: ns });
    return list.items.filter((e) => (e.regarding as { kind?: string } | undefined)?.kind === "PodSet").map((e) => String(e.note));
  }
});
