/**
 * The events.k8s.io/v1 Event shape and the pieces of one: references, MicroTime, unique names.
 */
import type { KubeObject } from "../client/types.ts";

/**
 * `Normal` for expected happenings, `Warning` for ones a human may need to look at.
 *
 * @example
 * ```ts
 * function eventType(failed: boolean): EventType {
 *   return failed ? "Warning" : "Normal";
 * }
 * ```
 */
export type EventType = "Normal" | "Warning";

/**
 * The object an Event is about (`regarding`) or that it also involves (`related`), as stored.
 *
 * @example
 * ```ts
 * const ref: EventReference = { apiVersion: "v1", kind: "ConfigMap", name: "app-config", namespace: "shop", uid: "6f1c2b3a-8d4e-4f5a-9b0c-1d2e3f4a5b6c" };
 * ```
 */
export interface EventReference {
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

/**
 * `series` of an aggregated Event: how often it was observed and when last (MicroTime).
 *
 * @example
 * ```ts
 * const series: EventSeries = { count: 3, lastObservedTime: "2026-01-01T00:02:00.000000Z" };
 * ```
 */
export interface EventSeries {
  count: number;
  lastObservedTime: string;
}

/**
 * An `events.k8s.io/v1` Event as the recorder writes it. Read through core/v1, `note` is
 * `message`, `regarding` is `involvedObject` and `reportingController` is `reportingComponent`.
 *
 * @example
 * ```ts
 * recorder.emitter.on("event", (e) => console.log(e.event.metadata.name, e.event.series?.count ?? 1));
 * ```
 */
export interface EventsV1Event extends KubeObject {
  apiVersion: "events.k8s.io/v1";
  kind: "Event";
  metadata: NonNullable<KubeObject["metadata"]> & { name: string; namespace: string };
  eventTime: string;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  note: string;
  type: EventType;
  regarding: EventReference;
  related?: EventReference;
  series?: EventSeries;
}

/**
 * A date as a Kubernetes MicroTime: RFC 3339 in UTC with exactly six fractional digits.
 *
 * @example
 * ```ts
 * microTime(new Date("2026-01-01T00:00:00.123Z")); // "2026-01-01T00:00:00.123000Z"
 * ```
 */
export function microTime(date: Date): string {
  const iso = date.toISOString(); // always UTC with three fractional digits
  return `${iso.slice(0, -1)}000Z`;
}

/**
 * The reference an Event stores for an object: apiVersion, kind, name, namespace, uid and
 * resourceVersion, leaving out those the object lacks.
 *
 * @example
 * ```ts
 * eventReference({ apiVersion: "v1", kind: "Secret", metadata: { name: "db", namespace: "shop", uid: "u1" } });
 * // { apiVersion: "v1", kind: "Secret", name: "db", namespace: "shop", uid: "u1" }
 * ```
 */
export function eventReference(object: KubeObject): EventReference {
  const m = object.metadata ?? {};
  const ref: EventReference = object.apiVersion
    ? { apiVersion: object.apiVersion, kind: object.kind ?? "", name: m.name ?? "" }
    : { kind: object.kind ?? "", name: m.name ?? "" };
  if (m.namespace) ref.namespace = m.namespace;
  if (m.uid) ref.uid = m.uid;
  if (m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  return ref;
}

/**
 * A stable identity for a referenced object: its uid, or `apiVersion/kind/namespace/name`
 * when it has none.
 *
 * @example
 * ```ts
 * referenceKey({ kind: "ConfigMap", name: "a", namespace: "x" }); // "/ConfigMap/x/a"
 * ```
 */
export function referenceKey(ref: EventReference | undefined): string {
  if (!ref) return "";
  return ref.uid ? `uid:${ref.uid}` : `${ref.apiVersion ?? ""}/${ref.kind}/${ref.namespace ?? ""}/${ref.name}`;
}

/** Longest Kubernetes object name (DNS subdomain). */
const MAX_NAME = 253;

/**
 * Makes Event names like client-go: `<object name>.<hex of unix nanoseconds>`. Names from one
 * namer never repeat, even for several events in one millisecond or under a frozen test clock
 * (the nanoseconds step forward by one instead). A long object name is shortened so the whole
 * stays within 253 characters.
 *
 * @example
 * ```ts
 * const namer = new EventNamer();
 * namer.name("web", new Date(1_700_000_000_000)); // "web.17979cfe362a0000"
 * ```
 */
export class EventNamer {
  #last = -1n;

  /** A new unique name for an Event about `objectName` at `date`. */
  name(objectName: string, date: Date): string {
    let nanos = BigInt(date.getTime()) * 1_000_000n;
    if (nanos <= this.#last) nanos = this.#last + 1n;
    this.#last = nanos;
    const suffix = `.${nanos.toString(16)}`;
    const prefix = objectName.slice(0, MAX_NAME - suffix.length).replace(/[.-]+$/, "");
    return prefix + suffix;
  }
}

/**
 * Longest note the API server accepts, in bytes of UTF-8.
 *
 * @example
 * ```ts
 * const longText = "é".repeat(2000); // 4000 bytes of UTF-8
 * Buffer.byteLength(truncateNote(longText)) <= NOTE_LIMIT_BYTES; // true
 * ```
 */
export const NOTE_LIMIT_BYTES = 1024;

/**
 * `note` cut to at most {@link NOTE_LIMIT_BYTES} bytes of UTF-8 (so also at most 1024
 * characters), never splitting a character.
 *
 * @example
 * ```ts
 * truncateNote("x".repeat(5000)).length; // 1024
 * ```
 */
export function truncateNote(note: string): string {
  if (note.length <= NOTE_LIMIT_BYTES / 4 || Buffer.byteLength(note, "utf8") <= NOTE_LIMIT_BYTES) return note;
  let bytes = 0;
  let end = 0;
  for (const char of note) {
    const size = Buffer.byteLength(char, "utf8");
    if (bytes + size > NOTE_LIMIT_BYTES) break;
    bytes += size;
    end += char.length;
  }
  return note.slice(0, end);
}
