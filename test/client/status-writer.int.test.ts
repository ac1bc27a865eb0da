import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient, findCondition, writeStatus } from "../../src/client/index.ts";
import type { Condition, KubeObject } from "../../src/client/index.ts";
import { NotFoundError, OperatorRuntimeError } from "../../src/errors.ts";
import { widgetCrd } from "./fixtures.ts";
import { within } from "../support/wait.ts";

type Widget = KubeObject & { spec: { size: number }; status?: { phase?: string; observedGeneration?: number; conditions?: Condition[]; [k: string]: unknown } };
const widgetRef = (name: string) => ({ apiVersion: "example.com/v1", kind: "Widget", namespace: "default", name });

describe("writeStatus", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const create = (name: string) => client.create<Widget>({
    apiVersion: "example.com/v1", kind: "Widget", metadata: { name, namespace: "default" }, spec: { size: 1 },
  });
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "widget-operator" });
    await client.create(widgetCrd());
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("writes the status with observedGeneration once, then skips an identical write", async () => {
    const owner = await create("once");
    const ready = [{ type: "Ready", status: "True" as const, reason: "Reconciled", message: "1/1 ready" }];
    const first = await writeStatus(client, owner, { phase: "Running" }, { conditions: ready });
    assert.equal(first.written, true);
    assert.equal(first.object.status?.phase, "Running");
    assert.equal(first.object.status?.observedGeneration, 1);
    assert.equal(findCondition(first.object.status?.conditions, "Ready")?.observedGeneration, 1);
    assert.equal(client.requests.filter({ verb: "patch", resource: "widgets/status", name: "once" }).length, 1);

    client.requests.clear();
    cluster.requests.clear();
    const live = await client.get<Widget>(widgetRef("once"));
    const second = await writeStatus(client, live, { phase: "Running" }, { conditions: ready, now: new Date(Date.now() + 60_000) });
    assert.equal(second.written, false);
    assert.equal(second.object, live);
    assert.equal(client.requests.writes(), 0, "no write by the client");
    assert.equal(cluster.requests.writes(), 0, "no write seen by the server");
  });

  it("compares canonically: key order and fields kept by the merge do not cause a write", async () => {
    const owner = await create("canonical");
    const { object } = await writeStatus(client, owner, { phase: "Running", replicas: { ready: 1, desired: 2 } });
    client.requests.clear();
    const reordered = await writeStatus(client, object, { replicas: { desired: 2, ready: 1 } });
    assert.equal(reordered.written, false, "phase stays (merge patch) and key order does not matter");
    assert.equal(client.requests.writes(), 0);
  });

  it("writes again when the status or a condition changes, moving lastTransitionTime only on a status change", async () => {
    const owner = await create("changes");
    const t0 = new Date("2026-01-01T00:00:00Z");
    const a = await writeStatus(client, owner, {}, { conditions: [{ type: "Ready", status: "False", reason: "Progressing" }], now: t0 });
    const b = await writeStatus(client, a.object, {}, { conditions: [{ type: "Ready", status: "False", reason: "Waiting" }], now: new Date("2026-01-01T00:01:00Z") });
    assert.equal(b.written, true);
    assert.equal(findCondition(b.object.status?.conditions, "Ready")?.lastTransitionTime, "2026-01-01T00:00:00Z");
    const c = await writeStatus(client, b.object, {}, { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }], now: new Date("2026-01-01T00:02:00Z") });
    assert.equal(findCondition(c.object.status?.conditions, "Ready")?.lastTransitionTime, "2026-01-01T00:02:00Z");
    const removed = await writeStatus(client, c.object, { phase: null });
    assert.equal(removed.written, false, "null for an absent field changes nothing");
  });

  it("follows the owner's generation after a spec change", async () => {
    const owner = await create("generations");
    await writeStatus(client, owner, { phase: "Running" });
    const bumped = await client.patch<Widget>(widgetRef("generations"), { spec: { size: 2 } }, "merge");
    assert.equal(bumped.metadata?.generation, 2);
    const result = await writeStatus(client, bumped, { phase: "Running" });
    assert.equal(result.written, true);
    assert.equal(result.object.status?.observedGeneration, 2);
  });

  it("refuses an owner without identity and surfaces NotFoundError for a deleted owner", async () => {
    await assert.rejects(writeStatus(client, { metadata: { name: "x" } }, {}), OperatorRuntimeError);
    const gone = await create("gone");
    await client.delete(widgetRef("gone"));
    await assert.rejects(writeStatus(client, gone, { phase: "Running" }), NotFoundError);
  });
});
