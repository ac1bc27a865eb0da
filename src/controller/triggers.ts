/**
 * Why a key was queued: the cause of each reconcile, kept from the moment the key is added to
 * the work queue until a worker takes it (the answer to "why did my controller reconcile?").
 */
import type { KubeObject } from "../client/types.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * What queued a key:
 * - `event`: a watch event (`ADDED`, `MODIFIED`, `DELETED`) of the primary (`role: "for"`), of a
 *   child (`owns`) or of a mapped kind (`watches`); `initial` for the adds of an informer's
 *   first list when the controller starts, and `leadership` too when it started because this
 *   process won leader election;
 * - `requeue-after`: the reconciler returned `Action.requeueAfter(ms)`;
 * - `requeue`: it returned `Action.requeue()` (rate-limited);
 * - `retry`: it failed, and the key came back after its backoff;
 * - `timeout-returned`: a run that timed out has returned, and the key runs again;
 * - `caches-caught-up`: it was held while a cache was stale;
 * - `bucket`: a sharded replica began serving the key's bucket;
 * - `gate-recheck`: a sharded key whose write gate was closed, looked at again;
 * - `manual`: `controller.enqueue()`.
 *
 * @example
 * ```ts
 * const t: Trigger = { reason: "event", event: "DELETED", role: "owns", apiVersion: "apps/v1", kind: "StatefulSet", namespace: "default", name: "pinot-broker" };
 * ```
 */
export interface Trigger {
  reason: TriggerReason;
  event?: "ADDED" | "MODIFIED" | "DELETED";
  /** With `event`: the watch that saw it. */
  role?: "for" | "owns" | "watches";
  /** With `event`: the object of the event. */
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  /** With `MODIFIED`: the top-level parts that changed (`spec`, `status`, `metadata`, or other fields such as `data`). */
  changed?: string[];
  /** With `ADDED`: it came with the informer's initial list. */
  initial?: boolean;
  /** With `initial`: the controller started because this process won leader election. */
  leadership?: boolean;
  /** The event is the echo of a write this controller made for the same key. */
  self?: boolean;
  /** With `requeue-after` and `retry`: the delay (ms). */
  delayMs?: number;
}

/**
 * The reasons of {@link Trigger}.
 *
 * @example
 * ```ts
 * const reason: TriggerReason = "requeue-after";
 * ```
 */
export type TriggerReason =
  | "event" | "requeue-after" | "requeue" | "retry" | "timeout-returned" | "caches-caught-up" | "bucket" | "gate-recheck" | "manual";

/**
 * Every {@link TriggerReason}.
 *
 * @example
 * ```ts
 * TRIGGER_REASONS.includes("retry"); // true
 * ```
 */
export const TRIGGER_REASONS: readonly TriggerReason[] = [
  "event", "requeue-after", "requeue", "retry", "timeout-returned", "caches-caught-up", "bucket", "gate-recheck", "manual",
];

/** Fields whose change is bookkeeping, never a reason on its own. */
const VOLATILE_METADATA = new Set(["resourceVersion", "managedFields", "generation"]);

/**
 * The top-level parts of an object that differ between `oldObj` and `obj`: `metadata` (other
 * than resourceVersion and managedFields), `spec`, `status`, or any other top-level field
 * (`data`, `rules`, …), in that order, then alphabetically. An update whose only change is
 * the resourceVersion (a resync, an empty patch) answers `[]`.
 *
 * @example
 * ```ts
 * changedParts({ metadata: { resourceVersion: "1" }, spec: { a: 1 } }, { metadata: { resourceVersion: "2" }, spec: { a: 2 } }); // ["spec"]
 * ```
 */
export function changedParts(oldObj: KubeObject, obj: KubeObject): string[] {
  checkObject("changedParts(oldObj, obj)", "oldObj", oldObj, "a Kubernetes object (the old state)");
  checkObject("changedParts(oldObj, obj)", "obj", obj, "a Kubernetes object (the new state)");
  const parts: string[] = [];
  if (!metadataEqual(oldObj.metadata ?? {}, obj.metadata ?? {})) parts.push("metadata");
  const keys = new Set([...Object.keys(oldObj), ...Object.keys(obj)]);
  keys.delete("metadata");
  keys.delete("apiVersion");
  keys.delete("kind");
  const ordered = [...keys].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (const k of ordered) {
    if (!deepEqual((oldObj as Record<string, unknown>)[k], (obj as Record<string, unknown>)[k])) parts.push(k);
  }
  return parts;
}

function rank(key: string): number {
  return key === "spec" ? 0 : key === "status" ? 1 : 2;
}

function metadataEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (VOLATILE_METADATA.has(k)) continue;
    if (!deepEqual(a[k], b[k])) return false;
  }
  return true;
}

/** Structural equality of JSON values. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

/**
 * A one-line summary of a trigger for logs: `StatefulSet default/pinot-broker DELETED`,
 * `ConfigMap default/app MODIFIED (data)`, `requeue-after 30000 ms`, `retry`.
 *
 * @example
 * ```ts
 * describeTrigger({ reason: "event", event: "DELETED", kind: "StatefulSet", namespace: "default", name: "web" }); // "StatefulSet default/web DELETED"
 * ```
 */
export function describeTrigger(t: Trigger): string {
  checkObject("describeTrigger(trigger)", "trigger", t, "a trigger ({ reason, … })");
  if (t.reason !== "event") return t.delayMs !== undefined ? `${t.reason} ${t.delayMs} ms` : t.reason;
  const name = t.namespace ? `${t.namespace}/${t.name}` : t.name;
  const changed = t.changed?.length ? ` (${t.changed.join(", ")})` : "";
  const initial = t.initial ? (t.leadership ? " (initial list: leadership won)" : " (initial list)") : "";
  const self = t.self ? " [own write]" : "";
  return `${t.kind} ${name} ${t.event}${changed}${initial}${self}`;
}

/**
 * The `reason` label of `operator_runtime_reconcile_triggers_total` for a trigger: the watch
 * event in lower case (`added`, `modified`, `deleted`; `initial-list` for an informer's first
 * list, `leadership` for one after winning leader election), else the trigger's reason.
 *
 * @example
 * ```ts
 * triggerMetricReason({ reason: "event", event: "DELETED" }); // "deleted"
 * triggerMetricReason({ reason: "retry" }); // "retry"
 * ```
 */
export function triggerMetricReason(t: Trigger): string {
  checkObject("triggerMetricReason(trigger)", "trigger", t, "a trigger ({ reason, … })");
  if (t.reason !== "event") return t.reason;
  if (t.initial) return t.leadership ? "leadership" : "initial-list";
  return (t.event ?? "event").toLowerCase();
}
