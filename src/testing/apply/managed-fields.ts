/**
 * `metadata.managedFields` entries: decoding to field sets, encoding back in the API server's
 * order, manager identity, and the apply conflict error.
 */
import type { ManagedFieldsEntry } from "../resource-type.ts";
import { StatusError, type StatusCause } from "../status.ts";
import { FieldSet, printPath, type FieldPath } from "./field-set.ts";
import { isJsonObject } from "../json-value.ts";

/** Who owns a set of fields: what tells two managedFields entries apart. */
export interface ManagerIdentity {
  manager: string;
  operation: "Apply" | "Update";
  /** Part of the identity for `Update` entries only: an applier keeps one entry across versions. */
  apiVersion: string;
  /** `undefined` for the main resource. */
  subresource: string | undefined;
}

/** One decoded managedFields entry. */
export interface ManagerEntry extends ManagerIdentity {
  time: string | undefined;
  fields: FieldSet;
}

/** One field an applier wants that another manager owns with a different value. */
export interface ApplyConflict {
  owner: ManagerEntry;
  path: FieldPath;
}

/**
 * True when two entries belong to the same manager: same name, operation and subresource, and
 * for `Update` also the same apiVersion (as the API server's manager identifier).
 */
export function sameManager(a: ManagerIdentity, b: ManagerIdentity): boolean {
  return (
    a.manager === b.manager &&
    a.operation === b.operation &&
    (a.subresource ?? "") === (b.subresource ?? "") &&
    (a.operation === "Apply" || a.apiVersion === b.apiVersion)
  );
}

/**
 * Decodes stored entries. Malformed entries are skipped; two entries of the same manager are
 * merged (their fields unioned, the later time kept).
 */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): ManagerEntry[] {
  const out: ManagerEntry[] = [];
  for (const raw of entries ?? []) {
    if (!isJsonObject(raw)) continue;
    const entry: ManagerEntry = {
      manager: typeof raw.manager === "string" ? raw.manager : "",
      operation: raw.operation === "Apply" ? "Apply" : "Update",
      apiVersion: typeof raw.apiVersion === "string" ? raw.apiVersion : "",
      subresource: typeof raw.subresource === "string" && raw.subresource !== "" ? raw.subresource : undefined,
      time: typeof raw.time === "string" ? raw.time : undefined,
      fields: FieldSet.fromFieldsV1(raw.fieldsV1),
    };
    const index = out.findIndex((e) => sameManager(e, entry));
    const same = out[index];
    if (same === undefined) out.push(entry);
    else out[index] = { ...entry, fields: same.fields.union(entry.fields), time: entry.time ?? same.time };
  }
  return out;
}

/**
 * Encodes entries for `metadata.managedFields`: empty entries dropped, sorted as the API
 * server sorts them (Apply before Update, then by time, manager, apiVersion, subresource).
 */
export function encodeManagedFields(entries: readonly ManagerEntry[]): ManagedFieldsEntry[] {
  return entries
    .filter((e) => !e.fields.isEmpty())
    .sort(compareEntries)
    .map((e): ManagedFieldsEntry => ({
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      ...(e.time !== undefined ? { time: e.time } : {}),
      fieldsType: "FieldsV1",
      fieldsV1: e.fields.toFieldsV1(),
      ...(e.subresource !== undefined ? { subresource: e.subresource } : {}),
    }));
}

function compareEntries(a: ManagerEntry, b: ManagerEntry): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  const seconds = epochSeconds(a.time) - epochSeconds(b.time);
  if (seconds !== 0) return seconds;
  return compareStrings(a.manager, b.manager) || compareStrings(a.apiVersion, b.apiVersion) || compareStrings(a.subresource ?? "", b.subresource ?? "");
}

function epochSeconds(time: string | undefined): number {
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A manager as conflict messages name it: `"mgr"` for an applier, `"mgr" using apps/v1 at
 * 2026-01-02T03:04:05Z` for an updater, with ` with subresource "status"` after the name.
 */
export function describeManager(entry: ManagerEntry): string {
  let text = JSON.stringify(entry.manager);
  if (entry.subresource !== undefined) text += ` with subresource ${JSON.stringify(entry.subresource)}`;
  if (entry.operation === "Apply") return text;
  text += ` using ${entry.apiVersion}`;
  return entry.time === undefined ? text : `${text} at ${rfc3339(entry.time)}`;
}

function rfc3339(time: string): string {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * The 409 Conflict a failed apply answers with: message `Apply failed with 1 conflict:
 * conflict with "mgr": .spec.replicas` (several: one `conflicts with <manager>:` block per
 * manager, one `- <path>` line per field), and one `FieldManagerConflict` cause per field.
 */
export function applyConflictError(conflicts: readonly ApplyConflict[]): StatusError {
  const sorted = [...conflicts].sort(
    (a, b) => compareStrings(identifier(a.owner), identifier(b.owner)) || compareStrings(printPath(a.path), printPath(b.path)),
  );
  const causes: StatusCause[] = sorted.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${describeManager(c.owner)}`,
    field: printPath(c.path),
  }));
  let message: string;
  const [only] = sorted;
  if (sorted.length === 1 && only !== undefined) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(only.owner)}: ${printPath(only.path)}`;
  } else {
    const lines: string[] = [];
    let current: string | undefined;
    for (const c of sorted) {
      if (identifier(c.owner) !== current) {
        current = identifier(c.owner);
        lines.push(`conflicts with ${describeManager(c.owner)}:`);
      }
      lines.push(`- ${printPath(c.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join("\n")}`;
  }
  return new StatusError(409, "Conflict", message, { causes });
}

function identifier(entry: ManagerIdentity): string {
  return JSON.stringify({
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.operation === "Update" ? entry.apiVersion : undefined,
    subresource: entry.subresource,
  });
}
