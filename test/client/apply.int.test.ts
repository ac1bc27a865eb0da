import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { ConflictError, NotFoundError, OperatorRuntimeError } from "../../src/errors.ts";
import { configMap, deployment, widgetCrd } from "./fixtures.ts";
import { within } from "../support/wait.ts";

type Widget = KubeObject & { spec: { size: number; color?: string }; status?: Record<string, unknown> };
const widget = (name: string, size = 1): Widget =>
  ({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name, namespace: "default" }, spec: { size } });
const widgetRef = (name: string) => ({ apiVersion: "example.com/v1", kind: "Widget", namespace: "default", name });

describe("ResourceClient server-side apply, deletion and status", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test-operator" });
    await client.create(widgetCrd());
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("creates with apply, and a second identical apply leaves resourceVersion unchanged", async () => {
    const first = await client.apply(configMap("applied", { a: "1" }));
    assert.equal(first.metadata?.name, "applied");
    const managers = (first.metadata?.managedFields as { manager: string; operation: string }[]).map((m) => `${m.manager}/${m.operation}`);
    assert.deepEqual(managers, ["test-operator/Apply"]);
    const second = await client.apply(configMap("applied", { a: "1" }));
    assert.equal(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
    assert.equal(client.requests.count({ verb: "apply", resource: "configmaps", name: "applied" }), 2);
    assert.equal(cluster.requests.count({ verb: "patch", resource: "configmaps", name: "applied" }), 2);
  });

  it("strips server-owned metadata from an applied object and leaves the caller's object alone", async () => {
    await client.create(deployment("stripped"));
    const live = await client.get({ apiVersion: "apps/v1", kind: "Deployment", namespace: "default", name: "stripped" });
    assert.ok(live.metadata?.managedFields && live.metadata.uid && live.metadata.resourceVersion);
    const again = await client.apply(live);
    assert.equal(again.metadata?.uid, live.metadata.uid);
    assert.ok(live.metadata.managedFields, "the input object was not modified");
  });

  it("reports an apply conflict as ConflictError and lets force take the field over", async () => {
    await client.apply(configMap("contested", { owner: "a" }), { fieldManager: "manager-a" });
    const err = await client.apply(configMap("contested", { owner: "b" }), { fieldManager: "manager-b" }).catch((e: unknown) => e);
    assert.ok(err instanceof ConflictError, `expected ConflictError, got ${String(err)}`);
    assert.match(err.message, /conflict with "manager-a"/);
    assert.deepEqual(err.status.details?.causes?.map((c) => `${c.reason} ${c.field}`), ["FieldManagerConflict .data.owner"]);
    const forced = await client.apply(configMap("contested", { owner: "b" }), { fieldManager: "manager-b", force: true });
    assert.deepEqual(forced.data, { owner: "b" });
    const applied = client.requests.filter({ verb: "apply", name: "contested" }).map((r) => r.code);
    assert.deepEqual(applied, [201, 409, 200]);
  });

  it("refuses to apply an object without a name before any request", async () => {
    client.requests.clear();
    await assert.rejects(client.apply({ apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "default" } }), OperatorRuntimeError);
    assert.equal(client.requests.count(), 0);
  });

  it("deletes with preconditions: a stale uid or resourceVersion is a ConflictError", async () => {
    const cm = await client.create(configMap("guarded"));
    const ref = { apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "guarded" };
    const wrongUid = await client.delete(ref, { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } }).catch((e: unknown) => e);
    assert.ok(wrongUid instanceof ConflictError);
    assert.match(wrongUid.message, /UID in (the )?precondition/i);
    const staleRv = await client.delete(ref, { preconditions: { resourceVersion: "1" } }).catch((e: unknown) => e);
    assert.ok(staleRv instanceof ConflictError);
    const dry = await client.delete(ref, { dryRun: true });
    assert.equal(dry, undefined);
    assert.ok(await client.get(ref), "dry-run delete kept the object");
    await client.delete(ref, { preconditions: { uid: cm.metadata!.uid!, resourceVersion: cm.metadata!.resourceVersion! }, propagationPolicy: "Background" });
    await assert.rejects(client.get(ref), NotFoundError);
  });

  it("returns the object from delete while finalizers hold it", async () => {
    const held = await client.create({ ...configMap("held"), metadata: { name: "held", namespace: "default", finalizers: ["example.com/keep"] } });
    const ref = { apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "held" };
    const answered = await client.delete(ref);
    assert.equal(answered?.metadata?.uid, held.metadata?.uid);
    assert.ok(answered?.metadata?.deletionTimestamp, "marked for deletion");
    await client.patch(ref, [{ op: "remove", path: "/metadata/finalizers" }], "json");
    await assert.rejects(client.get(ref), NotFoundError);
  });

  it("writes status through /status without touching spec or generation", async () => {
    const w = await client.create(widget("with-status", 2));
    const ref = widgetRef("with-status");
    const patched = await client.patchStatus<Widget>(ref, { status: { phase: "Pending" } }, "merge");
    assert.deepEqual(patched.status, { phase: "Pending" });
    assert.equal(patched.metadata?.generation, w.metadata?.generation);
    const replaced = await client.replaceStatus<Widget>({ ...patched, spec: { size: 99 }, status: { phase: "Running", size: 2 } });
    assert.deepEqual(replaced.status, { phase: "Running", size: 2 });
    assert.equal(replaced.spec.size, 2, "spec sent to /status is ignored");
    const applied = await client.applyStatus<Widget>({ ...widget("with-status"), status: { phase: "Ready" } }, { force: true });
    assert.equal(applied.status?.phase, "Ready");
    const read = await client.getStatus<Widget>(ref);
    assert.equal(read.status?.phase, "Ready");
    assert.equal(read.metadata?.generation, 1);
    assert.equal(client.requests.count({ resource: "widgets/status" }), 4);
    assert.equal(cluster.requests.count({ resource: "widgets/status" }), 4);
    const scaled = await client.patch<KubeObject & { spec: { replicas: number } }>(ref, { spec: { replicas: 5 } }, "merge", { subresource: "scale" });
    assert.equal(scaled.kind, "Scale");
    assert.equal((await client.get<Widget>(ref)).spec.size, 5);
  });

  it("sends the field manager on every write and overrides it per call", async () => {
    await client.create(configMap("managed"));
    await client.patch({ apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "managed" }, { data: { b: "2" } }, "merge", { fieldManager: "other" });
    const live = await client.get({ apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "managed" });
    const managers = (live.metadata?.managedFields as { manager: string }[]).map((m) => m.manager).sort();
    assert.deepEqual(managers, ["other", "test-operator"]);
  });
});
