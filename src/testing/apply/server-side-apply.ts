/**
 * Server-side apply and managedFields bookkeeping for LocalCluster, as a pure module.
 *
 * {@link serverSideApply} handles `application/apply-patch+yaml` patches;
 * {@link recordUpdate} keeps managedFields right after every other write (create, PUT,
 * merge/JSON/strategic patches). Both work on plain objects and never touch storage.
 *
 * Objects are walked with their type (see field-types.ts): the built-in kind's OpenAPI schema,
 * a CRD's schema, or else the list lookup alone. A map-list item missing a key field that has
 * a schema default (a port's `protocol`) is named with the default, and the applier does not
 * own the field it left out.
 *
 * Known differences from kube-apiserver: no per-version conversion of field sets, no cap on
 * the number of Update managers (no `ancient-changes` entry), no last-applied-configuration
 * annotation handling.
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
import { compareObjects, removeAt, withoutFields, type FieldComparison } from "./object-fields.ts";
import { fieldTypeOf, goValue, type FieldType } from "./field-types.ts";

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
 * ```ts
 * ignoredFieldsFor({ statusSubresource: true }).reset(["status"]); // → true
 * ```
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
  /**
   * How lists merge, used only when the object's type is otherwise unknown: built-in kinds are
   * walked with kube-apiserver's OpenAPI schema (found from `apiVersion` and the object's kind).
   */
  listType: ListTypeLookup;
  /** A custom resource's `openAPIV3Schema`: list and map types and key defaults as it declares them. */
  schema?: Record<string, unknown> | undefined;
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
 * manager applied last time (same subresource) but not now are removed unless another manager
 * owns them or anything beneath them (or, for a map or list item, this apply still sets
 * something beneath it);
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
 * ```ts
 * import type { KubeObject, ListTypeLookup } from "../resource-type.ts";
 *
 * declare const deployment: KubeObject;
 * declare const listType: ListTypeLookup; // the ResourceType's
 * const { object } = serverSideApply({
 *   live: undefined, applied: deployment, manager: "my-operator", force: false,
 *   apiVersion: "apps/v1", listType, now: "2026-01-01T00:00:00Z",
 * });
 * ```
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

  const typed = fieldTypeOf({ apiVersion, kind: applied.kind ?? live?.kind, listType, schema: input.schema });
  const config = withoutFields(applied, ignored.reset);
  const appliedSet = fieldsOf(config, typed.type, skip);
  const liveBody: KubeObject = live === undefined ? {} : structuredClone(withoutManagedFields(live));
  const stored = decodeManagedFields(live?.metadata?.managedFields);
  let entries = stored;
  if (live !== undefined && entries.length === 0) {
    const owned = fieldsOf(liveBody, typed.type, skip);
    entries = [{ manager: BEFORE_FIRST_APPLY, operation: "Update", apiVersion, subresource: undefined, time: now, fields: owned }];
  }
  const me: ManagerIdentity = { manager, operation: "Apply", apiVersion, subresource };
  const previous = entries.find((e) => sameManager(e, me));
  const others = entries.filter((e) => e !== previous);

  const merged = mergeApplied(liveBody, config, typed.type) as KubeObject;
  const dropped = (previous?.fields ?? FieldSet.empty()).difference(appliedSet);
  if (!dropped.isEmpty()) {
    // A dropped map or list item (its `.`) stays while anything beneath it is still owned, by
    // another manager or by this apply.
    const stillOwned = others.reduce((set, e) => set.union(e.fields), appliedSet);
    for (const path of dropped.paths()) if (!stillOwned.hasWithin(path)) removeAt(merged, path);
  }

  const change = changesOf(live === undefined ? undefined : liveBody, merged, typed, skip);
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
  /**
   * How lists merge, used only when the object's type is otherwise unknown: built-in kinds are
   * walked with kube-apiserver's OpenAPI schema (found from `apiVersion` and the object's kind).
   */
  listType: ListTypeLookup;
  /** A custom resource's `openAPIV3Schema`: list and map types and key defaults as it declares them. */
  schema?: Record<string, unknown> | undefined;
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
 * Expected flow: fields added or changed (old vs updated, compared as kube-apiserver compares
 * typed objects) move to the manager's `Update` entry (same name, apiVersion and subresource),
 * leaving every other entry; fields no longer in the object leave every entry; empty entries
 * are dropped. A create compares against the type's zero value (nothing, for a custom
 * resource). A map, list or list item the write created is owned itself too (`".": {}` in
 * FieldsV1: `f:data`, `f:metadata.f:labels`, a new container), a value struct that the zero
 * value already holds (`spec`, `spec.template`) is not; an atomic map (a LabelSelector, a
 * Service's selector) is one leaf. Fields defaulting set are the writer's like any other.
 *
 * Guarantees: never conflicts, never throws, never mutates its inputs. A write that changes no
 * tracked field returns the old list unchanged (timestamps kept).
 *
 * Caveats: as in kube-apiserver, managedFields sent in the body of a main-resource write
 * replace the stored ones when non-empty (an empty list keeps them), and an existing object
 * without managedFields stays untracked (returns `[]`) until its first apply.
 *
 * @example
 * ```ts
 * import type { KubeObject, ListTypeLookup } from "../resource-type.ts";
 *
 * declare const old: KubeObject, updated: KubeObject & { metadata: object };
 * declare const listType: ListTypeLookup; // the ResourceType's
 * const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
 * updated.metadata.managedFields = recordUpdate({
 *   old, updated, manager: "kubectl-edit", apiVersion: "v1", listType, now,
 * });
 * ```
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

  const typed = fieldTypeOf({ apiVersion, kind: updated.kind ?? old?.kind, listType, schema: input.schema });
  const change = changesOf(old && withoutManagedFields(old), withoutManagedFields(updated), typed, skip);
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

/** `metadata` itself is never owned (kube-apiserver strips it), only fields inside it. */
const METADATA = FieldSet.of([["f:metadata"]]);

/**
 * What a write changes, compared as kube-apiserver compares the typed objects: a built-in
 * kind's objects as their Go values ({@link goValue}: the "before" of a create is the type's
 * zero value, so value structs such as `spec` and `spec.template` exist in it while maps, lists
 * and pointers do not); a custom resource's as they are (a create starts from nothing).
 */
function changesOf(old: KubeObject | undefined, next: KubeObject, typed: { type: FieldType; goTyped: boolean }, skip: FieldFilter): FieldComparison {
  const view = (obj: KubeObject): KubeObject => (typed.goTyped ? (goValue(obj, typed.type) as KubeObject) : obj);
  const change = compareObjects(view(old ?? {}), view(next), typed.type, skip);
  return {
    added: change.added.difference(METADATA),
    modified: change.modified.difference(METADATA),
    removed: change.removed.difference(METADATA),
  };
}

function combined(ignored: IgnoredFields): FieldFilter {
  return (names) => ignored.untracked(names) || ignored.reset(names);
}

/** `obj` without its managedFields: a shallow copy sharing everything else (copy it before changing it). */
function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata === undefined) return obj;
  const { managedFields: _managedFields, ...metadata } = obj.metadata;
  return { ...obj, metadata };
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
