import { test } from "node:test";
import assert from "node:assert/strict";
import { recordUpdate, serverSideApply, type RecordUpdateInput } from "../../../src/testing/apply/server-side-apply.ts";
import { StatusError } from "../../../src/testing/status.ts";
import type { KubeObject, ListTypeLookup, ManagedFieldsEntry } from "../../../src/testing/resource-type.ts";

const lists: ListTypeLookup = (path) =>
  path[path.length - 1] === "containers" ? { type: "map", keys: ["name"] } : { type: "atomic" };

const T1 = "2026-01-01T00:00:00Z";
const T2 = "2026-01-01T00:01:00Z";
const T3 = "2026-01-01T00:02:00Z";

function configMap(data: Record<string, string>, managedFields?: ManagedFieldsEntry[]): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm", ...(managedFields ? { managedFields } : {}) }, data };
}

/** Runs a non-apply write and stores the managedFields on the result, as the server does. */
function write(old: KubeObject | undefined, updated: KubeObject, manager: string, extra: Partial<RecordUpdateInput> = {}): KubeObject {
  const managedFields = recordUpdate({ old, updated, manager, apiVersion: "v1", listType: lists, now: T1, ...extra });
  return { ...updated, metadata: { ...updated.metadata, managedFields } };
}

function fieldsOfManager(obj: KubeObject, manager: string): Record<string, unknown> | undefined {
  return obj.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;
}

test("a create gives the whole field set to the creator's Update entry", () => {
  const created = write(undefined, configMap({ a: "1", b: "2" }), "kubectl-create");
  assert.deepEqual(created.metadata?.managedFields, [
    {
      manager: "kubectl-create",
      operation: "Update",
      apiVersion: "v1",
      time: T1,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:data": { ".": {}, "f:a": {}, "f:b": {} } },
    },
  ]);
});

test("an update moves the changed and added fields to the writer and never conflicts", () => {
  const created = write(undefined, configMap({ a: "1", b: "2" }), "creator");
  const edited = write(created, configMap({ a: "changed", b: "2", c: "3" }, created.metadata?.managedFields), "editor", { now: T2 });
  assert.deepEqual(fieldsOfManager(edited, "creator"), { "f:data": { ".": {}, "f:b": {} } });
  assert.deepEqual(fieldsOfManager(edited, "editor"), { "f:data": { "f:a": {}, "f:c": {} } });
  assert.equal(edited.metadata?.managedFields?.find((e) => e.manager === "editor")?.time, T2);
});

test("an update moves fields away from an applier too", () => {
  const applied = serverSideApply({ live: undefined, applied: configMap({ a: "1" }), manager: "op", force: false, apiVersion: "v1", listType: lists, now: T1 }).object;
  const edited = write(applied, configMap({ a: "2" }), "kubectl-edit");
  assert.equal(fieldsOfManager(edited, "op"), undefined);
  assert.deepEqual(fieldsOfManager(edited, "kubectl-edit"), { "f:data": { "f:a": {} } });
});

test("fields removed from the object leave every entry", () => {
  const created = write(undefined, configMap({ a: "1", b: "2" }), "creator");
  const edited = write(created, configMap({ a: "1" }), "editor");
  assert.deepEqual(fieldsOfManager(edited, "creator"), { "f:data": { ".": {}, "f:a": {} } });
  assert.equal(fieldsOfManager(edited, "editor"), undefined);
});

test("a write that changes no tracked field keeps managedFields and their timestamps", () => {
  const created = write(undefined, configMap({ a: "1" }), "creator");
  const same = recordUpdate({ old: created, updated: configMap({ a: "1" }), manager: "other", apiVersion: "v1", listType: lists, now: T3 });
  assert.deepEqual(same, created.metadata?.managedFields);
});

test("then an apply of a field owned by an Update manager conflicts, naming it with its version and time", () => {
  const created = write(undefined, configMap({ a: "1" }), "kubectl-create", { now: T2 });
  let error: unknown;
  try {
    serverSideApply({ live: created, applied: configMap({ a: "2" }), manager: "op", force: false, apiVersion: "v1", listType: lists, now: T3 });
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof StatusError);
  assert.equal(error.code, 409);
  assert.equal(error.message, `Apply failed with 1 conflict: conflict with "kubectl-create" using v1 at ${T2}: .data.a`);
  assert.deepEqual(error.details?.causes, [
    { reason: "FieldManagerConflict", message: `conflict with "kubectl-create" using v1 at ${T2}`, field: ".data.a" },
  ]);
});

test("a /status update is recorded under its own subresource and ignores the rest of the object", () => {
  const old: KubeObject = { ...configMap({ a: "1" }), status: { phase: "A" } };
  old.metadata = { ...old.metadata, managedFields: recordUpdate({ old: undefined, updated: old, manager: "creator", apiVersion: "v1", listType: lists, now: T1 }) };
  const updated: KubeObject = { ...old, data: { a: "changed" }, status: { phase: "B" } };
  const managedFields = recordUpdate({ old, updated, manager: "ctrl", apiVersion: "v1", listType: lists, now: T2, subresource: "status" });
  const ctrl = managedFields.find((e) => e.manager === "ctrl");
  assert.equal(ctrl?.subresource, "status");
  assert.deepEqual(ctrl?.fieldsV1, { "f:status": { "f:phase": {} } });
  assert.deepEqual(managedFields.find((e) => e.manager === "creator")?.fieldsV1, { "f:data": { ".": {}, "f:a": {} }, "f:status": {} });
});

test("an existing object without managedFields stays untracked until its first apply", () => {
  const legacy = configMap({ a: "1" });
  assert.deepEqual(recordUpdate({ old: legacy, updated: configMap({ a: "2" }), manager: "x", apiVersion: "v1", listType: lists, now: T1 }), []);
});

test("managedFields sent in an update body replace the stored ones", () => {
  const created = write(undefined, configMap({ a: "1" }), "creator");
  const cleared = recordUpdate({
    old: created,
    updated: configMap({ a: "1" }, [{ manager: "", operation: "Update", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: {} }]),
    manager: "editor",
    apiVersion: "v1",
    listType: lists,
    now: T2,
  });
  assert.deepEqual(cleared, []);
});

test("the inputs of recordUpdate are not mutated", () => {
  const created = write(undefined, configMap({ a: "1" }), "creator");
  const snapshot = structuredClone(created);
  const updated = configMap({ a: "2" }, created.metadata?.managedFields);
  const updatedSnapshot = structuredClone(updated);
  recordUpdate({ old: created, updated, manager: "editor", apiVersion: "v1", listType: lists, now: T2 });
  assert.deepEqual(created, snapshot);
  assert.deepEqual(updated, updatedSnapshot);
});
