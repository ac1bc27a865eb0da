/**
 * Records events.k8s.io/v1 Events on objects: aggregated into series, rate-limited per object.
 */
import { currentWriteGate } from "../client/write-gate.ts";
import { hostname } from "node:os";
import { EventEmitter } from "eventemitter3";
import { LRUCache } from "lru-cache";
import { OperatorRuntimeError } from "../errors.ts";
import type { KubeObject } from "../client/types.ts";
import type { EventSink } from "./event-sink.ts";
import { EventNamer, eventReference, microTime, referenceKey, truncateNote } from "./event-object.ts";
import type { EventsV1Event } from "./event-object.ts";
import { MAX_FIELD_LENGTH, validateEventInput } from "./event-input.ts";
import type { EventInput } from "./event-input.ts";
import type { EventRecorderEvents, RecordedEvent } from "./recorded-event.ts";
import { redact, secretValues } from "./secret-redaction.ts";
import { KeyedTokenBuckets } from "../util/token-bucket.ts";
import { argumentError, checkKubeObject, checkObject } from "../util/check-args.ts";

/**
 * How long after its last occurrence a repeat still joins an Event's series (client-go: 6 min).
 *
 * @example
 * ```ts
 * import { clientEventSink } from "operator-runtime";
 * import type { EventInput } from "operator-runtime/client";
 *
 * let now = new Date("2026-01-01T00:00:00Z");
 * const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/my-operator", now: () => now });
 * const restarted: EventInput = { type: "Warning", reason: "BackOff", action: "Restart", note: "container web restarted" };
 * await recorder.record(owner, restarted); // creates an Event
 * await recorder.record(owner, restarted); // joins its series (count 2)
 * now = new Date(now.getTime() + SERIES_WINDOW_MS + 1);
 * await recorder.record(owner, restarted); // too late for the series: creates a new Event
 * ```
 */
export const SERIES_WINDOW_MS = 6 * 60_000;

/**
 * Options of {@link EventRecorder}.
 *
 * @example
 * ```ts
 * import { httpEventSink } from "operator-runtime/client";
 *
 * const options: EventRecorderOptions = { sink: httpEventSink(kubeConfig), controller: "example.com/pinot-operator", burst: 10 };
 * const recorder = new EventRecorder(options);
 * ```
 */
export interface EventRecorderOptions {
  /** Where Events are written, e.g. {@link httpEventSink}. */
  sink: EventSink;
  /** `reportingController`, e.g. `example.com/pinot-operator` (≤ 128 characters). */
  controller: string;
  /** `reportingInstance` (≤ 128 characters); default `${controller}-${hostname}`, shortened to 128. */
  instance?: string;
  /** The clock (default `() => new Date()`); tests pass a fake one. */
  now?: () => Date;
  /** Events one object may get at once before rate limiting (default 25). */
  burst?: number;
  /** Milliseconds for an object to earn back one event (default 300 000 = 5 minutes). */
  refillIntervalMs?: number;
  /** Series and rate-limit state kept for at most this many keys each, least recently used forgotten (default 4096). */
  cacheSize?: number;
  /** Called when an Event could not be written (or an `"event"` listener threw). Its own errors are ignored. */
  onError?: (error: unknown, recorded: RecordedEvent) => void;
}

interface SeriesEntry {
  event: EventsV1Event;
  count: number;
  lastObservedMs: number;
}

/** Listeners of every recorder's events (see {@link tapRecordedEvents}). */
const taps = new Set<(recorded: RecordedEvent, recorder: EventRecorder) => void>();

/**
 * Tells `listener` of every event any {@link EventRecorder} of this process records (written
 * or dropped), in the context of the `record` call (so a reconcile's scope is known): the
 * dashboard's Events view. Answers the function that stops it.
 *
 * @example
 * ```ts
 * const stop = tapRecordedEvents((recorded) => console.log(recorded.event.reason));
 * stop();
 * ```
 */
export function tapRecordedEvents(listener: (recorded: RecordedEvent, recorder: EventRecorder) => void): () => void {
  taps.add(listener);
  return () => void taps.delete(listener);
}

/**
 * Writes `events.k8s.io/v1` Events about the objects an operator manages — what
 * `kubectl describe` and `kubectl events` show — like client-go's event recorder.
 *
 * Expected flow: one recorder per operator process; call `record(object, { type, reason,
 * action, note })` when something happens to `object`. `reason` lands in `reason` and `note` in
 * `note` (core/v1 `message`) — not swapped, unlike the Go operator-runtime.
 *
 * Guarantees:
 * - `record` never rejects: write failures, timeouts and rate limiting are reported on
 *   `emitter` (`"event"`, with `written: false`) and to `onError`; a reconcile never fails
 *   because an event could not be written. Every call emits exactly one `"event"`.
 * - Secret data never reaches a note (nor the emitted {@link RecordedEvent}): when `regarding`
 *   or `related` is a Secret, each of its `stringData` values and `data` values (base64 and
 *   decoded) is replaced by `[redacted]` before the note is truncated or written.
 * - A repeat (same object, type, reason, action, note and related object) within 6 minutes of
 *   the previous occurrence merge-patches the same Event's `series` (count 2, 3, …) instead of
 *   creating a new one; later, a new Event starts. Repeats of one key are written in call order.
 * - At most `burst` writes (creates and series patches) per object, then one per
 *   `refillIntervalMs`; the rest are dropped (`dropReason: "RateLimited"`).
 * - Notes are cut to 1024 bytes; names are `<object name>.<hex unix nanoseconds>`, unique per
 *   recorder; `eventTime` is a MicroTime (six fractional digits, UTC).
 *
 * Errors: only programming errors throw, synchronously and before any request — an invalid
 * `reason` or `action` (not CamelCase, over 128 characters), an unknown `type`, a non-string
 * note, or an object without `kind` or `metadata.name` — as `OperatorRuntimeError`.
 *
 * Caveats:
 * - Series and rate-limit state is in memory, per process and bounded (LRU): after a restart,
 *   or in another replica, a repeat creates a new Event.
 * - Each repeat costs one PATCH (client-go batches series updates); the rate limit bounds it.
 * - Failed writes are not retried. A series patch that finds its Event deleted (404) creates a
 *   new one.
 * - Redaction can only remove values it sees: pass the Secret with its `data`, and don't put
 *   values derived from secrets (hashes, parts) in notes.
 *
 * RBAC: `events.k8s.io` `events`: `create`, `patch` in the namespaces of the objects (cluster-scoped
 * objects get their Events in `default`).
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 * import { httpEventSink } from "operator-runtime/client";
 *
 * const recorder = new EventRecorder({ sink: httpEventSink(kubeConfig), controller: "example.com/pinot-operator" });
 * recorder.emitter.on("event", (e) => log.debug("event", { reason: e.event.reason, written: e.written }));
 * const configMap = await client.get({ ...ConfigMap, namespace: "pinot", name: "pinot-config" });
 * await recorder.record(configMap, { type: "Normal", reason: "Created", action: "Create", note: "created ConfigMap pinot-config" });
 * ```
 */
export class EventRecorder {
  /** Tells observers (logs, metrics, tests) about every `record` call. */
  readonly emitter: EventEmitter<EventRecorderEvents> = new EventEmitter<EventRecorderEvents>();
  /** `reportingController` of every Event. */
  readonly controller: string;
  /** `reportingInstance` of every Event. */
  readonly instance: string;
  readonly #sink: EventSink;
  readonly #now: () => Date;
  readonly #onError: ((error: unknown, recorded: RecordedEvent) => void) | undefined;
  readonly #buckets: KeyedTokenBuckets;
  readonly #series: LRUCache<string, SeriesEntry>;
  readonly #inflight = new Map<string, Promise<void>>();
  readonly #namer = new EventNamer();

  constructor(options: EventRecorderOptions) {
    checkObject("new EventRecorder(options)", "options", options, "an options object ({ sink, controller, … })");
    if (typeof options.sink?.create !== "function") throw argumentError("new EventRecorder(options)", "options.sink", "an EventSink (clientEventSink(client) or httpEventSink(kubeConfig))", options.sink);
    const { controller } = options;
    if (typeof controller !== "string" || controller === "" || controller.length > MAX_FIELD_LENGTH) {
      throw new OperatorRuntimeError(`EventRecorder: controller must be 1 to ${MAX_FIELD_LENGTH} characters, e.g. "example.com/my-operator"`);
    }
    if (options.instance !== undefined && (options.instance === "" || options.instance.length > MAX_FIELD_LENGTH)) {
      throw new OperatorRuntimeError(`EventRecorder: instance must be 1 to ${MAX_FIELD_LENGTH} characters`);
    }
    const burst = options.burst ?? 25;
    const refillIntervalMs = options.refillIntervalMs ?? 300_000;
    const cacheSize = options.cacheSize ?? 4096;
    if (!Number.isInteger(burst) || burst < 1) throw new OperatorRuntimeError(`EventRecorder: burst must be a positive integer, got ${burst}`);
    if (!(refillIntervalMs > 0)) throw new OperatorRuntimeError(`EventRecorder: refillIntervalMs must be positive, got ${refillIntervalMs}`);
    if (!Number.isInteger(cacheSize) || cacheSize < 1) throw new OperatorRuntimeError(`EventRecorder: cacheSize must be a positive integer, got ${cacheSize}`);
    this.controller = controller;
    this.instance = options.instance ?? `${controller}-${hostname()}`.slice(0, MAX_FIELD_LENGTH);
    this.#sink = options.sink;
    this.#now = options.now ?? (() => new Date());
    this.#onError = options.onError;
    this.#buckets = new KeyedTokenBuckets({ burst, refillIntervalMs, maxKeys: cacheSize });
    this.#series = new LRUCache({ max: cacheSize });
  }

  /**
   * Records that `event` happened to `regarding`: creates an Event, or extends the series of
   * an identical recent one, unless `regarding` is over its rate limit. Resolves when the write
   * is done (or dropped); never rejects. Throws synchronously for invalid input: a `TypeError`
   * when `regarding` or `event` is not an object, else `OperatorRuntimeError` (see the class doc).
   *
   * @example
   * ```ts
   * import { StatefulSet } from "operator-runtime";
   *
   * const statefulSet = await client.get({ ...StatefulSet, namespace: "pinot", name: "pinot-server" });
   * try {
   *   await client.apply({ ...statefulSet, spec: { ...statefulSet.spec!, replicas: 3 } });
   * } catch (err) {
   *   await recorder.record(statefulSet, { type: "Warning", reason: "UpdateFailed", action: "Update", note: String(err) });
   * }
   * ```
   */
  record(regarding: KubeObject, event: EventInput): Promise<void> {
    checkKubeObject("EventRecorder.record(regarding, event)", "regarding", regarding);
    checkObject("EventRecorder.record(regarding, event)", "event", event, "an event ({ type, reason, action, note })");
    validateEventInput(regarding, event);
    // A reconcile the dashboard plans writes nothing, Events included.
    if (currentWriteGate()?.dryRun) return Promise.resolve();
    const now = this.#now();
    const note = truncateNote(redact(event.note, secretValues([regarding, event.related])));
    const draft = this.#draft(regarding, event, note, now);
    const objectKey = referenceKey(draft.regarding);
    const seriesKey = JSON.stringify([objectKey, event.type, event.reason, event.action, note, referenceKey(draft.related)]);
    if (!this.#buckets.take(objectKey, now.getTime())) {
      this.#emit({ event: draft, written: false, aggregated: false, dropReason: "RateLimited" });
      return Promise.resolve();
    }
    // Writes of one series key run one after another, so a repeat never races its first create.
    const previous = this.#inflight.get(seriesKey) ?? Promise.resolve();
    const done = previous.then(() => this.#write(seriesKey, draft, now));
    this.#inflight.set(seriesKey, done);
    void done.then(() => {
      if (this.#inflight.get(seriesKey) === done) this.#inflight.delete(seriesKey);
    });
    return done;
  }

  /** Patches the series of a recent identical Event, or creates one. Never rejects. */
  async #write(seriesKey: string, draft: EventsV1Event, now: Date): Promise<void> {
    const entry = this.#series.get(seriesKey);
    if (entry && now.getTime() - entry.lastObservedMs <= SERIES_WINDOW_MS) {
      const series = { count: entry.count + 1, lastObservedTime: microTime(now) };
      entry.count = series.count;
      entry.lastObservedMs = Math.max(entry.lastObservedMs, now.getTime());
      const event: EventsV1Event = { ...entry.event, series };
      try {
        await this.#sink.patch(event.metadata.namespace, event.metadata.name, { series });
        this.#emit({ event, written: true, aggregated: true });
        return;
      } catch (error) {
        if (!isNotFound(error)) {
          this.#emit({ event, written: false, aggregated: true, dropReason: "WriteFailed", error });
          return;
        }
        // The Event was deleted meanwhile: start a new one below.
      }
    }
    this.#series.delete(seriesKey);
    try {
      await this.#sink.create(draft);
      this.#series.set(seriesKey, { event: draft, count: 1, lastObservedMs: now.getTime() });
      this.#emit({ event: draft, written: true, aggregated: false });
    } catch (error) {
      this.#emit({ event: draft, written: false, aggregated: false, dropReason: "WriteFailed", error });
    }
  }

  #draft(regarding: KubeObject, input: EventInput, note: string, now: Date): EventsV1Event {
    const ref = eventReference(regarding);
    const event: EventsV1Event = {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: this.#namer.name(ref.name, now), namespace: ref.namespace || "default" },
      eventTime: microTime(now),
      reportingController: this.controller,
      reportingInstance: this.instance,
      action: input.action,
      reason: input.reason,
      note,
      type: input.type,
      regarding: ref,
    };
    if (input.related) event.related = eventReference(input.related);
    return event;
  }

  #emit(recorded: RecordedEvent): void {
    if (recorded.error !== undefined) this.#report(recorded.error, recorded);
    for (const tap of taps) {
      try {
        tap(recorded, this);
      } catch {
        // A tap never breaks recording.
      }
    }
    try {
      this.emitter.emit("event", recorded);
    } catch (listenerError) {
      this.#report(listenerError, recorded);
    }
  }

  #report(error: unknown, recorded: RecordedEvent): void {
    try {
      this.#onError?.(error, recorded);
    } catch {
      // onError is the last resort; the recorder must not throw into a reconcile.
    }
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === 404;
}
