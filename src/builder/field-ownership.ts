/**
 * Field ownership of objects the Builder created with a POST: the API server records a create
 * as the field manager's `Update`, and server-side apply never removes a field that entry still
 * owns, so a field later dropped from the desired object would stay. The Builder moves that
 * entry into its `Apply` entry once, with the first apply that updates the object.
 *
 * Expected flow (see {@link applyOwned}): a live copy with managedFields holding the field
 * manager's `Update` entry is migrated first (one JSON patch: a `test` of the resourceVersion,
 * then the managedFields with the Update entry's fields merged into the Apply entry), then
 * applied. A lean cached copy (no managedFields) is applied first; when the answer still has
 * the Update entry, it is migrated from the answer, and applied again when the Update entry
 * held fields the apply no longer sets (they are removed only by an apply after the move).
 *
 * The API server honours managedFields a patch sets, and a patch changing nothing else records
 * no entry for its own manager.
 *
 * Only the entry the create recorded is moved: the field manager's `Update` entry whose time is
 * the object's creation time (within {@link CREATE_SKEW_MS}). An entry a later update or patch
 * of the same field manager touched (code of the operator's own that patches the object, say)
 * is left alone, so fields such code set are never removed by the Builder; the create's fields
 * in such an entry then stay owned by it (give such code a field manager of its own).
 *
 * With `force: false` and a lean cached copy, the first apply conflicts with the create's entry
 * (the same manager, another operation): the object is read, migrated, and applied again.
 */
import type { ResourceClient } from "../client/resource-client.ts";
import type { KubeObject, ObjectRef } from "../client/types.ts";
import { ConflictError, InvalidError, OperatorRuntimeError } from "../errors.ts";

/** How far a create's managedFields time may lie from the object's creationTimestamp (both are whole seconds: one boundary between them at most). */
const CREATE_SKEW_MS = 1000;

/** A managedFields entry as the API server sends it (the fields the migration reads). */
interface Entry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

type Fields = { [key: string]: Fields };

function entriesOf(obj: KubeObject): Entry[] {
  return (obj.metadata?.managedFields ?? []) as Entry[];
}

/**
 * The field manager's `Update` entry of the main resource that its create recorded (its time is
 * the creation time), if no later non-apply write of the same manager touched it.
 */
function updates(obj: KubeObject, fieldManager: string): Entry[] {
  const created = Date.parse(String(obj.metadata?.creationTimestamp ?? ""));
  return entriesOf(obj).filter((e) => e.manager === fieldManager && e.operation === "Update" && !e.subresource
    && Number.isFinite(created) && Math.abs(Date.parse(e.time ?? "") - created) <= CREATE_SKEW_MS);
}

/** Whether `obj` has a managedFields entry of `fieldManager`'s non-apply writes to move. */
export function hasUpdateEntry(obj: KubeObject, fieldManager: string): boolean {
  return updates(obj, fieldManager).length > 0;
}

function isFields(v: unknown): v is Fields {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The union of two FieldsV1 tries. */
function union(a: unknown, b: unknown): Fields {
  const out: Fields = isFields(a) ? { ...a } : {};
  if (!isFields(b)) return out;
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? union(out[k], v) : (isFields(v) ? v : {});
  return out;
}

/** Whether every field of trie `a` is in trie `b` (`.`, a map's or list item's own presence, aside). */
function within(a: unknown, b: unknown): boolean {
  if (!isFields(a)) return true;
  return Object.entries(a).every(([k, v]) => k === "." || (isFields(b) && k in b && within(v, b[k])));
}

/** The managedFields of `obj` with `fieldManager`'s Update entries merged into its Apply entry. */
function migrated(obj: KubeObject, fieldManager: string): { entries: Entry[]; moved: Fields } {
  const all = entriesOf(obj);
  const moving = updates(obj, fieldManager);
  const moved = moving.reduce<Fields>((acc, e) => union(acc, e.fieldsV1), {});
  const apply = all.find((e) => e.manager === fieldManager && e.operation === "Apply" && !e.subresource);
  const merged: Entry = apply
    ? { ...apply, fieldsV1: union(apply.fieldsV1, moved) }
    : { ...moving[0]!, operation: "Apply", fieldsType: "FieldsV1", fieldsV1: moved };
  const entries: Entry[] = [];
  for (const e of all) {
    if (e === apply) entries.push(merged);
    else if (!moving.includes(e)) entries.push(e);
  }
  if (!apply) entries.unshift(merged);
  return { entries, moved };
}

/**
 * Moves `fieldManager`'s Update entry of `obj` into its Apply entry with one JSON patch that
 * holds only while `obj`'s resourceVersion is current. Answers the patched object, and whether
 * the moved fields were all applied already. Rejects as the patch does (a stale copy: 422/409).
 */
async function migrate(client: ResourceClient, ref: ObjectRef, obj: KubeObject, fieldManager: string): Promise<{ object: KubeObject; applied: boolean }> {
  const apply = entriesOf(obj).find((e) => e.manager === fieldManager && e.operation === "Apply" && !e.subresource);
  const { entries, moved } = migrated(obj, fieldManager);
  const object = await client.patch(ref, [
    { op: "test", path: "/metadata/resourceVersion", value: obj.metadata?.resourceVersion },
    { op: "replace", path: "/metadata/managedFields", value: entries },
  ], "json", { fieldManager });
  return { object, applied: within(moved, apply?.fieldsV1) };
}

/**
 * A migration that kept meeting a newer object (another writer, such as a controller updating the
 * status): a plain error, retried with backoff. Never the 422 of the failed `test` itself, which
 * would read as an invalid object and end the reconcile as terminal.
 */
function raced(err: unknown): Error {
  if (!stale(err)) return err as Error;
  return new OperatorRuntimeError("moving the field ownership of the create into the Builder's apply raced with another writer; the next pass retries", { cause: err });
}

/** Whether `err` says the copy a migration started from is stale. */
function stale(err: unknown): boolean {
  return err instanceof InvalidError || err instanceof ConflictError;
}

/**
 * Server-side applies `desired` over the existing object `live` (see the module doc): answers
 * the applied object, with the field manager's create-time `Update` entry moved into its
 * `Apply` entry so that fields the desired object dropped are removed.
 */
export async function applyOwned(
  client: ResourceClient, ref: ObjectRef, desired: KubeObject, live: KubeObject,
  options: { fieldManager: string; force: boolean },
): Promise<KubeObject> {
  const { fieldManager, force } = options;
  if (live.metadata?.managedFields !== undefined && hasUpdateEntry(live, fieldManager)) {
    try {
      await migrate(client, ref, live, fieldManager);
    } catch (err) {
      if (!stale(err)) throw err;
      // A stale copy: the answer of the apply tells what is left to move.
    }
  }
  let applied: KubeObject;
  try {
    applied = await client.apply(desired, { force, fieldManager });
  } catch (err) {
    // Without force, the apply conflicts with the create's entry (same manager, another
    // operation) when a lean copy hid it: read the object, move the entry, apply again.
    if (force || !(err instanceof ConflictError) || live.metadata?.managedFields !== undefined) throw err;
    const full = await client.get(ref);
    if (!hasUpdateEntry(full, fieldManager)) throw err;
    await migrate(client, ref, full, fieldManager).catch((e: unknown) => {
      throw raced(e);
    });
    applied = await client.apply(desired, { force, fieldManager });
  }
  for (let attempt = 0; hasUpdateEntry(applied, fieldManager); attempt++) {
    let moved: { object: KubeObject; applied: boolean };
    try {
      moved = await migrate(client, ref, applied, fieldManager);
    } catch (err) {
      if (!stale(err)) throw err;
      if (attempt > 0) throw raced(err);
      applied = await client.get(ref);
      continue;
    }
    // Fields only the Update entry held, and the apply did not set, go with one more apply.
    applied = moved.applied ? moved.object : await client.apply(desired, { force, fieldManager });
    break;
  }
  return applied;
}
