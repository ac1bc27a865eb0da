/**
 * An EventSink over the ResourceClient, so events share its transport, auth and request
 * counter.
 */
import type { ResourceClient } from "../client/resource-client.ts";
import type { KubeObject } from "../client/types.ts";
import type { EventSink } from "./event-sink.ts";
import { argumentError } from "../util/check-args.ts";

/**
 * Writes events through a {@link ResourceClient} (counted in `client.requests`).
 *
 * @example
 * ```ts
 * import { EventRecorder } from "operator-runtime";
 *
 * const recorder = new EventRecorder({ sink: clientEventSink(client), controller: "example.com/my-operator" });
 * await recorder.record(owner, { type: "Normal", reason: "Reconciled", action: "Reconcile", note: "all children up to date" });
 * console.log(client.requests.count({ resource: "events" })); // the event's create is counted with the client's requests
 * ```
 */
export function clientEventSink(client: ResourceClient): EventSink {
  if (typeof client?.create !== "function" || typeof client.patch !== "function") throw argumentError("clientEventSink(client)", "client", "a ResourceClient", client);
  return {
    create: (event: KubeObject) => client.create(event),
    patch: (namespace: string, name: string, mergePatch: unknown) =>
      client.patch({ apiVersion: "events.k8s.io/v1", kind: "Event", namespace, name }, mergePatch, "merge"),
  };
}
