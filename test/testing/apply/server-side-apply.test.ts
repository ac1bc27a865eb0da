import { test } from "node:test";
import assert from "node:assert/strict";
import { serverSideApply, ignoredFieldsFor, type ServerSideApplyInput } from "../../../src/testing/apply/server-side-apply.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { KubeObject, ListTypeLookup, ManagedFieldsEntry } from "../../../src/testing/resource-type.ts";

const deploymentLists: ListTypeLookup = (path) => {
  const last = path[path.length - 1];
  if (last === "containers" || last === "env") return { type: "map", keys: ["name"] };
  if (last === "finalizers") return { type: "set" };
  return { type: "atomic" };
};
const atomicLists: ListTypeLookup = () => ({ type: "atomic" });

const T1 = "2026-01-01T00:00:00Z";
const T2 = "2026-01-01T00:01:00Z";
const T3 = "2026-01-01T00:02:00Z";

function deployment(spec: Record<string, unknown>, labels?: Record<string, string>): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "default", ...(labels ? { labels } : {}) },
    spec,
  };
}

function apply(live: KubeObject | undefined, applied: KubeObject, manager: string, extra: Partial<ServerSideApplyInput> = {}): KubeObject {
  return serverSideApply({ live, applied, manager, force: false, apiVersion: "apps/v1", listType: deploymentLists, now: T1, ...extra }).object;
}

function entry(obj: KubeObject, manager: string): ManagedFieldsEntry | undefined {
  return obj.metadata?.managedFields?.find((e) => e.manager === manager);
}

function spec(obj: KubeObject): Record<string, unknown> {
  return obj["spec"] as Record<string, unknown>;
}

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err;
  }
  assert.fail("expected a conflict");
}

test("apply creates the object and records exactly the applied fields", () => {
  const applied = deployment({ replicas: 2 }, { app: "web" });
  const result = serverSideApply({ live: undefined, applied, manager: "op", force: false, apiVersion: "apps/v1", listType: deploymentLists, now: T1 });
  assert.equal(result.changed, true);
  assert.equal(result.object.metadata?.name, "web");
  assert.equal(spec(result.object)["replicas"], 2);
  assert.deepEqual(result.object.metadata?.managedFields, [
    {
      manager: "op",
      operation: "Apply",
      apiVersion: "apps/v1",
      time: T1,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:replicas": {} } },
    },
  ]);
  assert.equal(applied.metadata?.managedFields, undefined, "the input is not mutated");
});

test("a second identical apply is a no-op: same object, same fields, same timestamps", () => {
  const applied = deployment({ replicas: 2 });
  const first = apply(undefined, applied, "op");
  const second = serverSideApply({ live: first, applied, manager: "op", force: false, apiVersion: "apps/v1", listType: deploymentLists, now: T2 });
  assert.equal(second.changed, false);
  assert.deepEqual(second.object, first);
});

test("changing a field owned by another applier is a 409 naming the manager and the field", () => {
  const live = apply(undefined, deployment({ replicas: 2 }), "alice");
  const err = conflictOf(() => apply(live, deployment({ replicas: 5 }), "bob"));
  assert.equal(err.code, 409);
  assert.equal(err.reason, "Conflict");
  assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
  assert.deepEqual(err.details?.causes, [{ reason: "FieldManagerConflict", message: 'conflict with "alice"', field: ".spec.replicas" }]);
});

test("several conflicts are listed per manager, one line per field", () => {
  const live = apply(undefined, deployment({ replicas: 2, paused: false }), "alice");
  const err = conflictOf(() => apply(live, deployment({ replicas: 5, paused: true }), "bob"));
  assert.equal(err.message, 'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.paused\n- .spec.replicas');
  assert.deepEqual(err.details?.causes?.map((c) => c.field), [".spec.paused", ".spec.replicas"]);
});

test("applying the same value as another manager shares ownership without a conflict", () => {
  const live = apply(undefined, deployment({ replicas: 2 }), "alice");
  const next = apply(live, deployment({ replicas: 2 }), "bob");
  assert.deepEqual(entry(next, "alice")?.fieldsV1, { "f:spec": { "f:replicas": {} } });
  assert.deepEqual(entry(next, "bob")?.fieldsV1, { "f:spec": { "f:replicas": {} } });
});

test("force takes the conflicting fields over and leaves the rest with their owner", () => {
  const live = apply(undefined, deployment({ replicas: 2, paused: false }), "alice");
  const next = apply(live, deployment({ replicas: 5 }), "bob", { force: true });
  assert.equal(spec(next)["replicas"], 5);
  assert.deepEqual(entry(next, "alice")?.fieldsV1, { "f:spec": { "f:paused": {} } });
  assert.deepEqual(entry(next, "bob")?.fieldsV1, { "f:spec": { "f:replicas": {} } });
});

test("an owner that loses every field by force disappears from managedFields", () => {
  const live = apply(undefined, deployment({ replicas: 2 }), "alice");
  const next = apply(live, deployment({ replicas: 5 }), "bob", { force: true });
  assert.equal(entry(next, "alice"), undefined);
});

test("a field dropped from the next apply is removed when nobody else owns it", () => {
  const live = apply(undefined, deployment({ replicas: 2, paused: false }, { app: "web", tier: "front" }), "op");
  const next = apply(live, deployment({ replicas: 2 }, { app: "web" }), "op", { now: T2 });
  assert.deepEqual(spec(next), { replicas: 2 });
  assert.deepEqual(next.metadata?.labels, { app: "web" });
  assert.deepEqual(entry(next, "op")?.fieldsV1, { "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:replicas": {} } });
  assert.equal(entry(next, "op")?.time, T2);
});

test("a field dropped from the next apply is kept when another manager owns it", () => {
  const first = apply(undefined, deployment({ replicas: 2, paused: false }), "op");
  const shared = apply(first, deployment({ paused: false }), "other");
  const next = apply(shared, deployment({ replicas: 2 }), "op");
  assert.deepEqual(spec(next), { replicas: 2, paused: false });
  assert.deepEqual(entry(next, "other")?.fieldsV1, { "f:spec": { "f:paused": {} } });
  assert.deepEqual(entry(next, "op")?.fieldsV1, { "f:spec": { "f:replicas": {} } });
});

test("metadata.managedFields in an apply body is a 400", () => {
  const applied = deployment({ replicas: 1 });
  applied.metadata = { ...applied.metadata, managedFields: [] };
  const err = conflictOf(() => apply(undefined, applied, "op"));
  assert.equal(err.code, 400);
  assert.equal(err.reason, "BadRequest");
  assert.equal(err.message, "metadata.managedFields must be nil");
});

test("containers merge by name: a second manager adding an env var keeps the first's containers", () => {
  const base = deployment({
    template: {
      spec: {
        containers: [
          { name: "app", image: "app:v1" },
          { name: "sidecar", image: "proxy:v1" },
        ],
      },
    },
  });
  const live = apply(undefined, base, "op");
  const next = apply(live, deployment({ template: { spec: { containers: [{ name: "app", env: [{ name: "DEBUG", value: "1" }] }] } } }), "debugger");
  assert.deepEqual(spec(next)["template"], {
    spec: {
      containers: [
        { name: "app", image: "app:v1", env: [{ name: "DEBUG", value: "1" }] },
        { name: "sidecar", image: "proxy:v1" },
      ],
    },
  });
  const app = 'k:{"name":"app"}';
  assert.deepEqual(entry(next, "debugger")?.fieldsV1, {
    "f:spec": {
      "f:template": {
        "f:spec": {
          "f:containers": {
            [app]: { ".": {}, "f:env": { 'k:{"name":"DEBUG"}': { ".": {}, "f:name": {}, "f:value": {} } }, "f:name": {} },
          },
        },
      },
    },
  });
});

test("a container the manager stops applying is removed unless another manager still owns part of it", () => {
  const two = { template: { spec: { containers: [{ name: "app", image: "a" }, { name: "side", image: "s" }] } } };
  const live = apply(undefined, deployment(two), "op");
  const dropped = apply(live, deployment({ template: { spec: { containers: [{ name: "app", image: "a" }] } } }), "op");
  assert.deepEqual(spec(dropped)["template"], { spec: { containers: [{ name: "app", image: "a" }] } });

  const shared = apply(live, deployment({ template: { spec: { containers: [{ name: "side", env: [{ name: "X", value: "1" }] }] } } }), "other");
  const kept = apply(shared, deployment({ template: { spec: { containers: [{ name: "app", image: "a" }] } } }), "op");
  assert.deepEqual(spec(kept)["template"], {
    spec: { containers: [{ name: "app", image: "a" }, { name: "side", env: [{ name: "X", value: "1" }] }] },
  });
});

test("lists of a custom resource are atomic by default: the applier owns and replaces the whole list", () => {
  const widget = (items: string[]): KubeObject => ({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { items } });
  const live = serverSideApply({ live: undefined, applied: widget(["a", "b"]), manager: "alice", force: false, apiVersion: "example.com/v1", listType: atomicLists, now: T1 }).object;
  assert.deepEqual(entry(live, "alice")?.fieldsV1, { "f:spec": { "f:items": {} } });
  const input = { live, applied: widget(["c"]), manager: "bob", apiVersion: "example.com/v1", listType: atomicLists, now: T2 };
  const err = conflictOf(() => serverSideApply({ ...input, force: false }));
  assert.deepEqual(err.details?.causes?.map((c) => c.field), [".spec.items"]);
  const forced = serverSideApply({ ...input, force: true }).object;
  assert.deepEqual(spec(forced)["items"], ["c"]);
});

test("set lists are unioned and each value is owned separately", () => {
  const withFinalizers = (f: string[]): KubeObject => ({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", finalizers: f } });
  const live = apply(undefined, withFinalizers(["a"]), "alice");
  const next = apply(live, withFinalizers(["b"]), "bob");
  assert.deepEqual(next.metadata?.finalizers, ["a", "b"]);
  assert.deepEqual(entry(next, "bob")?.fieldsV1, { "f:metadata": { "f:finalizers": { 'v:"b"': {} } } });
});

test("status is neither applied nor tracked on the main resource of a kind with a status subresource", () => {
  const live: KubeObject = { ...deployment({ replicas: 1 }), status: { readyReplicas: 1 } };
  const applied: KubeObject = { ...deployment({ replicas: 1 }), status: { readyReplicas: 9 } };
  const next = apply(live, applied, "op", { ignoredFields: ignoredFieldsFor({ statusSubresource: true }) });
  assert.deepEqual(next["status"], { readyReplicas: 1 });
  assert.deepEqual(entry(next, "op")?.fieldsV1, { "f:spec": { "f:replicas": {} } });
});

test("a /status apply changes only the status and records the subresource", () => {
  const live = apply(undefined, deployment({ replicas: 1 }), "op");
  const applied: KubeObject = { ...deployment({ replicas: 7 }, { sneaky: "x" }), status: { readyReplicas: 1 } };
  const next = apply(live, applied, "ctrl", { subresource: "status" });
  assert.equal(spec(next)["replicas"], 1);
  assert.equal(next.metadata?.labels, undefined);
  assert.deepEqual(next["status"], { readyReplicas: 1 });
  assert.deepEqual(entry(next, "ctrl"), {
    manager: "ctrl",
    operation: "Apply",
    apiVersion: "apps/v1",
    time: T1,
    fieldsType: "FieldsV1",
    fieldsV1: { "f:status": { "f:readyReplicas": {} } },
    subresource: "status",
  });
});

test("an object without managedFields credits its fields to before-first-apply on the first apply", () => {
  const live = { ...deployment({ replicas: 1, paused: false }), metadata: { name: "web", uid: "u1", resourceVersion: "3" } };
  const err = conflictOf(() => apply(live, deployment({ replicas: 3 }), "op", { now: T3 }));
  assert.equal(err.message, `Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1 at ${T3}: .spec.replicas`);
  const ok = apply(live, deployment({ replicas: 1 }), "op", { now: T3 });
  assert.deepEqual(entry(ok, "before-first-apply")?.fieldsV1, { "f:spec": { "f:paused": {}, "f:replicas": {} } });
  assert.equal(ok.metadata?.uid, "u1");
});

test("managedFields are sorted as the API server sorts them: Apply first, then by time", () => {
  const a = apply(undefined, deployment({ replicas: 1 }), "zed", { now: T2 });
  const b = apply(a, deployment({ paused: false }), "amy", { now: T3 });
  assert.deepEqual(b.metadata?.managedFields?.map((e) => e.manager), ["zed", "amy"]);
});
