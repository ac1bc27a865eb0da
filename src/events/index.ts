/**
 * Events about the objects an operator manages: {@link EventRecorder} writes `events.k8s.io/v1`
 * Events (aggregated, rate-limited, Secret-safe) through an {@link EventSink}, such as
 * {@link httpEventSink}, and tells in-process observers through its `emitter`.
 *
 * @example
 * ```ts
 * import { EventRecorder } from "operator-runtime";
 * import { httpEventSink } from "operator-runtime/client";
 *
 * const recorder = new EventRecorder({ sink: httpEventSink(kubeConfig), controller: "example.com/pinot-operator" });
 * await recorder.record(owner, { type: "Normal", reason: "Reconciled", action: "Reconcile", note: "all children up to date" });
 * ```
 * @module
 */
export { EventRecorder, SERIES_WINDOW_MS } from "./event-recorder.ts";
export type { EventRecorderOptions } from "./event-recorder.ts";
export type { EventInput } from "./event-input.ts";
export type { DropReason, EventRecorderEvents, RecordedEvent } from "./recorded-event.ts";
export { httpEventSink } from "./event-sink.ts";
export type { EventSink, HttpEventSink, HttpEventSinkOptions } from "./event-sink.ts";
export { REDACTED } from "./secret-redaction.ts";
export type { EventReference, EventSeries, EventsV1Event, EventType } from "./event-object.ts";
export { clientEventSink } from "./client-sink.ts";
