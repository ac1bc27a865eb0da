/**
 * writeStatus with an owner older than the live object: the conditions it sets go into the
 * list as the server holds it, never replacing conditions it has not seen.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient, findCondition, writeStatus } from "../../src/client/index.ts";
import type { Condition, KubeObject } from "../../src/client/index.ts";
import { ConflictError } from "../../src/errors.ts";
import { widgetCrd } from "./fixtures.ts";
import { within } from "../support/wait.ts";

type Widget = KubeObject & { spec: { size: number }; status?: { phase?: string; observedGeneration?: number; conditions?: Condition[] } };
const widgetRef = (name: string) => ({ apiVersion: "example.com/v1", kind: "Widget", namespace: "default", name });
const T0 = "2020-01-01T00:00:00Z";

describe("writeStatus with an owner older than the live object", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let other: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "widget-operator" });
    other = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "another-controller" });
    await client.create(widgetCrd());
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** A Widget as first read (`stale`), after which another writer set condition `External`. */
  async function staleWidget(name: string): Promise<Widget> {
    const stale = await client.create<Widget>({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name, namespace: "default" }, spec: { size: 1 } });
    await other.patchStatus(widgetRef(name), { status: { conditions: [{ type: "External", status: "True", reason: "Synced", lastTransitionTime: T0 }] } }, "merge");
    return stale;
  }

  it("sets its conditions in the live list, keeping the others untouched, after one conflict and one read", async () => {
    const stale = await staleWidget("merged");
    client.requests.clear();
    const result = await writeStatus(client, stale, { phase: "Running" }, { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] });
    assert.equal(result.written, true);
    assert.equal(client.requests.count({ verb: "patch", resource: "widgets/status", name: "merged" }), 2, "the conditional write, then the one on the fresh object");
    assert.equal(client.requests.count({ verb: "get", resource: "widgets", name: "merged" }), 1);
    const live = await client.get<Widget>(widgetRef("merged"));
    assert.deepEqual(live.status?.conditions?.map((c) => c.type), ["External", "Ready"]);
    assert.deepEqual(findCondition(live.status?.conditions, "External"), { type: "External", status: "True", reason: "Synced", lastTransitionTime: T0 });
    assert.equal(live.status?.phase, "Running");
  });

  it("writes nothing when the live object, read after a conflict, already has the status", async () => {
    const stale = await staleWidget("already");
    await other.patchStatus(widgetRef("already"), { status: { observedGeneration: 1, conditions: [
      { type: "External", status: "True", reason: "Synced", lastTransitionTime: T0 },
      { type: "Ready", status: "True", observedGeneration: 1, reason: "Reconciled", lastTransitionTime: T0 },
    ] } }, "merge");
    const result = await writeStatus(client, stale, {}, { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] });
    assert.equal(result.written, false);
    assert.equal(result.object.metadata?.resourceVersion, (await client.get(widgetRef("already"))).metadata?.resourceVersion, "answers the object it read");
    assert.equal(findCondition((result.object as Widget).status?.conditions, "Ready")?.lastTransitionTime, T0);
  });

  it("keeps the owner's generation as observedGeneration when the live object moved on", async () => {
    const stale = await staleWidget("generation");
    await other.patch(widgetRef("generation"), { spec: { size: 2 } }, "merge");
    await writeStatus(client, stale, {}, { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] });
    const live = await client.get<Widget>(widgetRef("generation"));
    assert.equal(live.metadata?.generation, 2);
    assert.equal(live.status?.observedGeneration, 1, "the status was computed from generation 1");
    assert.equal(findCondition(live.status?.conditions, "Ready")?.observedGeneration, 1);
    assert.ok(findCondition(live.status?.conditions, "External"));
  });

  it("with a client that cannot read, throws the ConflictError instead of replacing the list", async () => {
    const stale = await staleWidget("write-only");
    const writeOnly = { patchStatus: client.patchStatus.bind(client) };
    await assert.rejects(writeStatus(writeOnly, stale, {}, { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] }), ConflictError);
    const live = await client.get<Widget>(widgetRef("write-only"));
    assert.deepEqual(live.status?.conditions?.map((c) => c.type), ["External"]);
  });

  it("still writes a status without conditions unconditionally (a merge patch keeps what it does not name)", async () => {
    const stale = await staleWidget("plain");
    const result = await writeStatus(client, stale, { phase: "Running" });
    assert.equal(result.written, true);
    const live = await client.get<Widget>(widgetRef("plain"));
    assert.equal(live.status?.phase, "Running");
    assert.deepEqual(live.status?.conditions?.map((c) => c.type), ["External"]);
  });
});
