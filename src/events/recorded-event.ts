/**
 * What the recorder tells in-process observers about each record() call.
 */
import type { EventsV1Event } from "./event-object.ts";

/**
 * Why an Event was not written: dropped by the per-object rate limit, or the API write failed.
 *
 * @example
 * ```ts
 * let rateLimited = 0;
 * recorder.emitter.on("event", (e) => { if (e.dropReason === "RateLimited") rateLimited++; });
 * ```
 */
export type DropReason = "RateLimited" | "WriteFailed";

/**
 * One call of {@link EventRecorder.record}, as told to `emitter` listeners — also when nothing
 * was written.
 *
 * @example
 * ```ts
 * recorder.emitter.on("event", (e: RecordedEvent) => {
 *   if (!e.written) console.warn(`event ${e.event.reason} not written: ${e.dropReason}`, e.error);
 * });
 * ```
 */
export interface RecordedEvent {
  /** The Event as the recorder wrote it (or would have): note redacted and truncated, `series` when aggregated. Server-set fields (uid, resourceVersion) are not included. */
  event: EventsV1Event;
  /** Whether the API accepted the create or series patch. */
  written: boolean;
  /** Whether this occurrence joined an existing Event's series (a patch) rather than creating one. */
  aggregated: boolean;
  /** Set when `written` is false. */
  dropReason?: DropReason;
  /** The write's error, when `dropReason` is `WriteFailed`. */
  error?: unknown;
}

/**
 * The events of {@link EventRecorder.emitter}: `"event"` with one {@link RecordedEvent} per `record` call.
 *
 * @example
 * ```ts
 * import type { EventEmitter } from "eventemitter3";
 *
 * const emitter: EventEmitter<EventRecorderEvents> = recorder.emitter;
 * emitter.on("event", (recorded) => console.log(recorded.written));
 * ```
 */
export interface EventRecorderEvents {
  event: [recorded: RecordedEvent];
}
