/**
 * Two views of one stored Event: core/v1 `Event` (what is stored and what `kubectl describe`
 * reads) and `events.k8s.io/v1` `Event` (what newer recorders write).
 *
 * Both views share one storage key; the HTTP layer converts on the way in and out with
 * {@link coreToEventsV1} / {@link eventsV1ToCore} and validates `events.k8s.io/v1` writes with
 * {@link validateEventsV1Create} / {@link validateEventsV1Update}, the way kube-apiserver does.
 *
 * Caveats: `metadata` is copied as is and is not validated here (the generic create/update path
 * owns name, namespace and immutability checks). Field paths in 422 causes use the *core* field
 * names (`firstTimestamp`, `count`, `source`, `message`, …) because kube-apiserver validates the
 * internal type; a request through `events.k8s.io/v1` gets the same messages a real server sends.
 */
import { isDeepStrictEqual } from "node:util";
import { invalid, invalidValue, requiredValue } from "../status.ts";
import type { StatusCause } from "../status.ts";
import type { KubeObject } from "../resource-type.ts";

/** The apiVersion of the new events API. */
const EVENTS_V1 = "events.k8s.io/v1";

/** Core field ↔ events.k8s.io/v1 field, for the fields that only change their name. */
const RENAMES: ReadonlyArray<readonly [core: string, v1: string]> = [
  ["involvedObject", "regarding"],
  ["message", "note"],
  ["reportingComponent", "reportingController"],
  ["reportingInstance", "reportingInstance"],
  ["source", "deprecatedSource"],
  ["firstTimestamp", "deprecatedFirstTimestamp"],
  ["lastTimestamp", "deprecatedLastTimestamp"],
  ["count", "deprecatedCount"],
  ["eventTime", "eventTime"],
  ["series", "series"],
  ["reason", "reason"],
  ["type", "type"],
  ["action", "action"],
  ["related", "related"],
];

/**
 * Formats a date as a Kubernetes MicroTime: RFC 3339 in UTC with exactly six fractional digits.
 *
 * @example
 * ```ts
 * microTime(new Date("2026-01-02T03:04:05.123Z")); // → "2026-01-02T03:04:05.123000Z"
 * ```
 */
export function microTime(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/**
 * Formats a date as a Kubernetes Time (`metav1.Time`): RFC 3339 in UTC, whole seconds.
 *
 * @example
 * ```ts
 * wholeSeconds(new Date("2026-01-02T03:04:05.123Z")); // → "2026-01-02T03:04:05Z"
 * ```
 */
export function wholeSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * Re-serialises a MicroTime string the way the server does after parsing it: UTC, exactly six
 * fractional digits (extra digits truncated, missing ones padded). Returns the input unchanged
 * when it is not an RFC 3339 timestamp.
 *
 * @example
 * ```ts
 * normalizeMicroTime("2026-01-02T03:04:05.1234567+01:00"); // → "2026-01-02T02:04:05.123456Z"
 * ```
 */
export function normalizeMicroTime(value: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i.exec(value);
  if (!m) return value;
  const base = new Date(`${m[1]}${m[3]!.toUpperCase()}`);
  if (Number.isNaN(base.getTime())) return value;
  const fraction = (m[2] ?? "").slice(0, 6).padEnd(6, "0");
  return `${wholeSeconds(base).slice(0, 19)}.${fraction}Z`;
}

/**
 * Converts a stored core/v1 Event into its `events.k8s.io/v1` view.
 *
 * @example
 * ```ts
 * const v1 = coreToEventsV1({ apiVersion: "v1", kind: "Event", metadata: { name: "a.1" }, message: "hi" });
 * v1.note; // → "hi"
 * ```
 */
export function coreToEventsV1(ev: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: EVENTS_V1, kind: "Event" };
  if (ev.metadata !== undefined) out.metadata = structuredClone(ev.metadata);
  for (const [core, v1] of RENAMES) copy(ev, core, out, v1);
  return out;
}

/**
 * Converts an `events.k8s.io/v1` Event into the core/v1 Event that is stored.
 *
 * @example
 * ```ts
 * const core = eventsV1ToCore({ apiVersion: "events.k8s.io/v1", kind: "Event", note: "hi" });
 * core.message; // → "hi"
 * ```
 */
export function eventsV1ToCore(ev: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: "v1", kind: "Event" };
  if (ev.metadata !== undefined) out.metadata = structuredClone(ev.metadata);
  for (const [core, v1] of RENAMES) copy(ev, v1, out, core);
  return out;
}

/**
 * Defaults applied by LocalCluster to core/v1 Event creates, so `kubectl get events` and
 * `describe` show an age for hand-written events. Returns a new object.
 *
 * Guarantees: when `eventTime` is absent, a missing `firstTimestamp` becomes `now` and a missing
 * `lastTimestamp` becomes `firstTimestamp`; `count` defaults to 1 when `firstTimestamp` is set.
 * Caveat: kube-apiserver itself does not default these (client-go's recorder sets them).
 *
 * @example
 * ```ts
 * coreEventDefaults({ kind: "Event", reason: "Started" }, new Date()).count; // → 1
 * ```
 */
export function coreEventDefaults(ev: KubeObject, now: Date): KubeObject {
  const out = structuredClone(ev);
  if (isUnset(out.eventTime)) {
    if (isUnset(out.firstTimestamp)) out.firstTimestamp = wholeSeconds(now);
    if (isUnset(out.lastTimestamp)) out.lastTimestamp = out.firstTimestamp;
  }
  if (!isUnset(out.firstTimestamp) && isUnset(out.count)) out.count = 1;
  return out;
}

/**
 * Validates a create through `events.k8s.io/v1`, like kube-apiserver's strict event validation.
 *
 * Errors: throws a 422 `Invalid` StatusError (kind `Event`, group `events.k8s.io`) listing every
 * cause: `eventTime` required; `reportingController`, `reportingInstance`, `action`, `reason`
 * required; `type` must be Normal or Warning; the deprecated fields (core `firstTimestamp`,
 * `lastTimestamp`, `count`, `source`) must be unset; a `series` needs count ≥ 2 and
 * `lastObservedTime`.
 *
 * @example
 * ```ts
 * validateEventsV1Create({ apiVersion: "events.k8s.io/v1", kind: "Event", metadata: { name: "x" } }); // → throws 422
 * ```
 */
export function validateEventsV1Create(ev: KubeObject): void {
  const v1 = asEventsV1(ev);
  const causes = [...legacyCauses(v1, "reportingController"), ...seriesCauses(v1)];
  if (isUnset(v1.eventTime)) causes.push(requiredValue("eventTime"));
  if (v1.type !== "Normal" && v1.type !== "Warning") {
    causes.push(invalidValue("type", "", `has invalid value: ${typeof v1.type === "string" ? v1.type : ""}`));
  }
  if (!isUnset(v1.deprecatedFirstTimestamp)) causes.push(invalidValue("firstTimestamp", "", "needs to be unset"));
  if (!isUnset(v1.deprecatedLastTimestamp)) causes.push(invalidValue("lastTimestamp", "", "needs to be unset"));
  if (!isUnset(v1.deprecatedCount) && v1.deprecatedCount !== 0) causes.push(invalidValue("count", "", "needs to be unset"));
  const source = v1.deprecatedSource as { component?: unknown; host?: unknown } | undefined;
  if (source && (!isUnset(source.component) || !isUnset(source.host))) {
    causes.push(invalidValue("source", "", "needs to be unset"));
  }
  throwIfAny(v1, causes);
}

/**
 * Validates an update through `events.k8s.io/v1`: only `series` (and metadata such as labels
 * and annotations, checked elsewhere) may change. Either argument may be in the core/v1 or the
 * `events.k8s.io/v1` shape; both are compared in the `events.k8s.io/v1` shape.
 *
 * Errors: throws a 422 `Invalid` StatusError with `<field>: Invalid value: …: field is
 * immutable` for each changed field (core field names, like the server), plus the create-time
 * checks for the reporting fields and a changed `series`.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const stored: KubeObject; // a core/v1 Event
 * validateEventsV1Update(stored, { ...coreToEventsV1(stored), note: "changed" }); // → throws 422
 * ```
 */
export function validateEventsV1Update(old: KubeObject, updated: KubeObject): void {
  const before = asEventsV1(old);
  const after = asEventsV1(updated);
  const causes = legacyCauses(after, "reportingController");
  if (!sameJson(before.series, after.series)) causes.push(...seriesCauses(after));
  for (const [core, v1] of RENAMES) {
    if (v1 === "series") continue;
    if (v1 === "eventTime" && sameMicroTime(before.eventTime, after.eventTime)) continue;
    if (!sameJson(before[v1], after[v1])) causes.push(invalidValue(core, after[v1], "field is immutable"));
  }
  throwIfAny(after, causes);
}

/**
 * Validates a create or update through core/v1, which kube-apiserver checks only loosely for
 * backwards compatibility: the namespaces must agree and, when `eventTime` is set,
 * `reportingComponent`, `reportingInstance`, `action` and `reason` are required.
 *
 * Errors: throws a 422 `Invalid` StatusError (kind `Event`, core group).
 *
 * @example
 * ```ts
 * validateCoreEvent({ apiVersion: "v1", kind: "Event", metadata: { name: "x", namespace: "a" }, involvedObject: { namespace: "b" } }); // → throws 422
 * ```
 */
export function validateCoreEvent(ev: KubeObject): void {
  const v1 = asEventsV1(ev);
  throwIfAny(v1, legacyCauses(v1, "reportingComponent"), "");
}

/**
 * The checks kube-apiserver applies to every Event write, whatever the API: the namespaces must
 * agree, and an event with an `eventTime` needs the reporting fields, `action` and `reason`.
 */
function legacyCauses(v1: KubeObject, controllerField: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const regardingNs = (v1.regarding as { namespace?: string } | undefined)?.namespace ?? "";
  const namespace = v1.metadata?.namespace ?? "";
  const mismatch = isUnset(v1.eventTime)
    ? regardingNs === "" ? namespace !== "" && namespace !== "default" : namespace !== regardingNs
    : regardingNs === "" && namespace !== "default" && namespace !== "kube-system";
  if (mismatch) causes.push(invalidValue("involvedObject.namespace", regardingNs, "does not match event.namespace"));
  if (isUnset(v1.eventTime)) return causes;
  const required: Array<[string, string]> = [
    ["reportingController", controllerField],
    ["reportingInstance", "reportingInstance"],
    ["action", "action"],
    ["reason", "reason"],
  ];
  for (const [field, path] of required) if (isUnset(v1[field])) causes.push(requiredValue(path));
  const limits: Array<[string, string, number]> = [
    ["reportingInstance", "reportingInstance", 128],
    ["action", "action", 128],
    ["reason", "reason", 128],
    ["note", "message", 1024],
  ];
  for (const [field, path, limit] of limits) {
    const value = v1[field];
    if (typeof value === "string" && value.length > limit) {
      causes.push(invalidValue(path, "", `can have at most ${limit} characters`));
    }
  }
  return causes;
}

/** `series` needs `count >= 2` and `lastObservedTime`. */
function seriesCauses(v1: KubeObject): StatusCause[] {
  const series = v1.series as { count?: unknown; lastObservedTime?: unknown } | undefined | null;
  if (series === undefined || series === null) return [];
  const causes: StatusCause[] = [];
  if (typeof series.count !== "number" || series.count < 2) causes.push(invalidValue("series.count", "", "should be at least 2"));
  if (isUnset(series.lastObservedTime)) causes.push(requiredValue("series.lastObservedTime"));
  return causes;
}

function throwIfAny(v1: KubeObject, causes: StatusCause[], group = "events.k8s.io"): void {
  if (causes.length > 0) throw invalid("Event", group, v1.metadata?.name ?? "", causes);
}

function asEventsV1(ev: KubeObject): KubeObject {
  return ev.apiVersion === EVENTS_V1 ? ev : coreToEventsV1(ev);
}

function copy(from: KubeObject, fromKey: string, to: KubeObject, toKey: string): void {
  if (from[fromKey] !== undefined) to[toKey] = structuredClone(from[fromKey]);
}

function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a ?? null, b ?? null);
}

/** eventTime may differ below microsecond precision (kubernetes/kubernetes#111928). */
function sameMicroTime(a: unknown, b: unknown): boolean {
  if (typeof a === "string" && typeof b === "string") return normalizeMicroTime(a) === normalizeMicroTime(b);
  return sameJson(a, b);
}
