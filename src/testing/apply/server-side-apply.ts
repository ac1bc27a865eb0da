/**
 * Server-side apply and managedFields bookkeeping for LocalCluster, as a pure module.
 *
 * {@link serverSideApply} handles `application/apply-patch+yaml` patches;
 * {@link recordUpdate} keeps managedFields right after every other write (create, PUT,
 * merge/JSON/strategic patches). Both work on plain objects and never touch storage.
 *
 * Known differences from kube-apiserver: no per-version conversion of field sets, no cap on
 * the number of Update managers (no `ancient-changes` entry), no last-applied-configuration
 * annotation handling, and no defaulting of key fields before apply (a map-list item missing
 * a key field, e.g. a port's `protocol`, is named by the keys it has).
 */
import type { KubeObject, ListTypeLookup, ManagedFieldsEntry } from "../resource-type.ts";
import { badRequest } from "../status.ts";
import { FieldSet, fieldsOf, systemFields, type FieldFilter } from "./field-set.ts";
import { jsonEqual } from "../json-value.ts";
import {
  applyConflictError,
  decodeManagedFields,
  encodeManagedFields,
  sameManager,
  type ApplyConflict,
  type ManagerEntry,
  type ManagerIdentity,
} from "./managed-fields.ts";
import { mergeApplied } from "./merge-applied.ts";
import { compareObjects, removeAt, withoutFields } from "./object-fields.ts";

/** Which fields a write neither tracks nor, for `reset`, changes. */
export interface IgnoredFields {
  /** Never recorded in managedFields, but written as usual (`apiVersion`, `metadata.name`…). */
  untracked: FieldFilter;
  /**
   * Not recorded and not written: the result keeps the live value (absent on create). E.g.
   * `status` on a main-resource write when a status subresource exists.
   */
  reset: FieldFilter;
}

/**
 * The ignored fields of a write: always the {@link systemFields}; with `subresource: "status"`
 * every top-level field but `apiVersion`, `kind` and `status` is reset; on the main resource of
 * a kind with a status subresource (`statusSubresource: true`), `status` is reset.
 *
 * @example
 * ignoredFieldsFor({ statusSubresource: true }).reset(["status"]); // true
 */
export function ignoredFieldsFor(options: { statusSubresource?: boolean; subresource?: string } = {}): IgnoredFields {
  if (options.subresource === "status") {
    return { untracked: systemFields, reset: (names) => names.length === 1 && !STATUS_WRITE_FIELDS.has(names[0] ?? "") };
  }
  if (options.statusSubresource === true && (options.subresource ?? "") === "") {
    return { untracked: systemFields, reset: (names) => names.length === 1 && names[0] === "status" };
  }
  return { untracked: systemFields, reset: () => false };
}

const STATUS_WRITE_FIELDS = new Set(["apiVersion", "kind", "status"]);

/** The manager kube-apiserver credits with the fields of an object that had no managedFields. */
export const BEFORE_FIRST_APPLY = "before-first-apply";

/** Input of {@link serverSideApply}. */
export interface ServerSideApplyInput {
  /** The stored object, or `undefined` when the apply creates it. */
  live: KubeObject | undefined;
  /** The apply patch body, already parsed (YAML or JSON). */
  applied: KubeObject;
  /** The `fieldManager` query parameter. */
  manager: string;
  /** The `force` query parameter: take over conflicting fields instead of failing. */
  force: boolean;
  /** The `group/version` the request was made at (recorded in the entry). */
  apiVersion: string;
  listType: ListTypeLookup;
  /** RFC 3339 time recorded in the manager's entry. */
  now: string;
  /** `"status"` for `/status` applies; omit for the main resource. */
  subresource?: string;
  /** Defaults to {@link ignoredFieldsFor}`({ subresource })`. */
  ignoredFields?: IgnoredFields;
}

/** Result of {@link serverSideApply}. */
export interface ServerSideApplyResult {
  /** The object to store, with updated `metadata.managedFields`. */
  object: KubeObject;
  /** False when the object equals `live` exactly (a no-op apply: store nothing). */
  changed: boolean;
}

/**
 * Applies a configuration the way kube-apiserver's server-side apply does.
 *
 * Expected flow: (1) the applied field set is computed (ignored fields and `null`s left out);
 * (2) the configuration is merged into the live object ({@link mergeApplied}); (3) fields the
 * manager applied last time (same subresource) but not now, and nobody else owns, are removed;
 * (4) every field this changes that another manager owns (Apply or Update entry, any other
 * manager, including the same name with another operation) is a conflict; (5) the manager's
 * Apply entry becomes exactly the applied set, other entries lose what was taken or removed,
 * empty entries are dropped.
 *
 * Guarantees: inputs are never mutated. Applying the same configuration twice returns an
 * object equal to `live` (timestamps kept) with `changed: false`. Fields applied with the same
 * value as the live one are shared, never conflicts. A live object without managedFields first
 * credits all its fields to `before-first-apply` (Update), as kube-apiserver does.
 *
 * Caveats: `null` in the configuration means "not set" (the field is neither applied nor
 * written). The manager's previous Update entries are separate owners.
 *
 * Errors: 400 `metadata.managedFields must be nil` when the body carries managedFields; 409
 * Conflict with `FieldManagerConflict` causes when fields conflict and `force` is false.
 *
 * @example
 * const { object } = serverSideApply({
 *   live: undefined, applied: deployment, manager: "my-operator", force: false,
 *   apiVersion: "apps/v1", listType, now: "2026-01-01T00:00:00Z",
 * });
 */
export function serverSideApply(input: ServerSideApplyInput): ServerSideApplyResult {
  const { live, applied, manager, apiVersion, listType, now } = input;
  const subresource = input.subresource || undefined;
  const ignored = input.ignoredFields ?? ignoredFieldsFor({ subresource });
  const skip = combined(ignored);
  const bodyManagedFields = applied.metadata?.managedFields;
  if (bodyManagedFields !== undefined && bodyManagedFields !== null) {
    throw badRequest("metadata.managedFields must be nil");
  }

  const config = withoutFields(applied, ignored.reset);
  const appliedSet = fieldsOf(config, listType, skip);
  const liveBody: KubeObject = live === undefined ? {} : withoutManagedFields(live);
  const stored = decodeManagedFields(live?.metadata?.managedFields);
  let entries = stored;
  if (live !== undefined && entries.length === 0) {
    const owned = fieldsOf(liveBody, listType, skip);
    entries = [{ manager: BEFORE_FIRST_APPLY, operation: "Update", apiVersion, subresource: undefined, time: now, fields: owned }];
  }
  const me: ManagerIdentity = { manager, operation: "Apply", apiVersion, subresource };
  const previous = entries.find((e) => sameManager(e, me));
  const others = entries.filter((e) => e !== previous);

  const merged = mergeApplied(liveBody, config, listType) as KubeObject;
  const dropped = (previous?.fields ?? FieldSet.empty()).difference(appliedSet);
  if (!dropped.isEmpty()) {
    const ownedByOthers = others.reduce((set, e) => set.union(e.fields), FieldSet.empty());
    for (const path of dropped.paths()) if (!ownedByOthers.hasWithin(path)) removeAt(merged, path);
  }

  const change = compareObjects(live === undefined ? undefined : liveBody, merged, listType, skip);
  const touched = change.added.union(change.modified);
  const conflicts: ApplyConflict[] = [];
  for (const owner of others) {
    for (const path of owner.fields.intersection(touched).paths()) conflicts.push({ owner, path });
  }
  if (conflicts.length > 0 && !input.force) throw applyConflictError(conflicts);

  const nextEntries: ManagerEntry[] = [
    ...others.map((e) => ({ ...e, fields: e.fields.difference(touched).difference(change.removed) })),
    { ...me, time: now, fields: appliedSet },
  ];
  const unchanged = live !== undefined && jsonEqual(merged, liveBody) && sameIgnoringTime(stored, nextEntries);
  setManagedFields(merged, unchanged ? structuredClone(live.metadata?.managedFields) : encodeManagedFields(nextEntries));
  return { object: merged, changed: live === undefined || !jsonEqual(merged, live) };
}

/** Input of {@link recordUpdate}. */
export interface RecordUpdateInput {
  /** The stored object before the write, or `undefined` for a create. */
  old: KubeObject | undefined;
  /** The object about to be stored. */
  updated: KubeObject;
  /** The `fieldManager` query parameter (or the User-Agent-derived default). */
  manager: string;
  /** The `group/version` the request was made at. */
  apiVersion: string;
  listType: ListTypeLookup;
  /** RFC 3339 time recorded in the manager's entry. */
  now: string;
  /** `"status"` for `/status` writes; omit for the main resource. */
  subresource?: string;
  /** Defaults to {@link ignoredFieldsFor}`({ subresource })`. */
  ignoredFields?: IgnoredFields;
}

/**
 * The managedFields to store after a non-apply write (create, PUT, merge/JSON/strategic patch).
 *
 * Expected flow: fields added or changed (old vs updated, field by field) move to the
 * manager's `Update` entry (same name, apiVersion and subresource), leaving every other entry;
 * fields no longer in the object leave every entry; empty entries are dropped. On create the
 * whole field set goes to the manager.
 *
 * Guarantees: never conflicts, never throws, never mutates its inputs. A write that changes no
 * tracked field returns the old list unchanged (timestamps kept).
 *
 * Caveats: as in kube-apiserver, managedFields sent in the body of a main-resource write
 * replace the stored ones when non-empty (an empty list keeps them), and an existing object
 * without managedFields stays untracked (returns `[]`) until its first apply.
 *
 * @example
 * updated.metadata.managedFields = recordUpdate({
 *   old, updated, manager: "kubectl-edit", apiVersion: "v1", listType, now,
 * });
 */
export function recordUpdate(input: RecordUpdateInput): ManagedFieldsEntry[] {
  const { old, updated, manager, apiVersion, listType, now } = input;
  const subresource = input.subresource || undefined;
  const skip = combined(input.ignoredFields ?? ignoredFieldsFor({ subresource }));
  const supplied = updated.metadata?.managedFields;
  const useSupplied = subresource === undefined && Array.isArray(supplied) && supplied.length > 0;
  const stored = old?.metadata?.managedFields;
  const baseline = decodeManagedFields(useSupplied ? supplied : stored);
  if (old !== undefined && baseline.length === 0) return [];

  const change = compareObjects(old && withoutManagedFields(old), withoutManagedFields(updated), listType, skip);
  const touched = change.added.union(change.modified);
  if (!useSupplied && touched.isEmpty() && change.removed.isEmpty()) return structuredClone(stored ?? []);

  const me: ManagerIdentity = { manager, operation: "Update", apiVersion, subresource };
  const previous = baseline.find((e) => sameManager(e, me));
  const others = baseline.filter((e) => e !== previous);
  const mine = (previous?.fields ?? FieldSet.empty()).difference(change.removed).union(touched);
  return encodeManagedFields([
    ...others.map((e) => ({ ...e, fields: e.fields.difference(touched).difference(change.removed) })),
    { ...me, time: touched.isEmpty() && previous !== undefined ? previous.time : now, fields: mine },
  ]);
}

function combined(ignored: IgnoredFields): FieldFilter {
  return (names) => ignored.untracked(names) || ignored.reset(names);
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  if (copy.metadata !== undefined) delete copy.metadata.managedFields;
  return copy;
}

function setManagedFields(obj: KubeObject, entries: ManagedFieldsEntry[] | undefined): void {
  obj.metadata ??= {};
  if (entries === undefined || entries.length === 0) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries;
}

function sameIgnoringTime(a: readonly ManagerEntry[], b: readonly ManagerEntry[]): boolean {
  const strip = (entries: readonly ManagerEntry[]) => encodeManagedFields(entries.map((e) => ({ ...e, time: undefined })));
  return jsonEqual(strip(a), strip(b));
}
