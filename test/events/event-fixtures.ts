/**
 * Shared pieces of the EventRecorder tests: a fake clock, objects to record on, Event reads.
 */
import assert from "node:assert/strict";
import type { KubeObject } from "../../src/client/types.ts";
import type { RecordedEvent } from "../../src/events/index.ts";
import type { LocalCluster } from "../../src/testing/index.ts";
import { raw } from "../support/wait.ts";

/** A clock that moves only when told. */
export class FakeClock {
  #ms: number;
  constructor(start = "2026-03-01T10:00:00.000Z") {
    this.#ms = Date.parse(start);
  }
  readonly now = (): Date => new Date(this.#ms);
  advance(ms: number): void {
    this.#ms += ms;
  }
}

/** Creates a namespace (if missing) and returns its name. */
export async function namespace(cluster: LocalCluster, name: string): Promise<string> {
  const r = await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name } });
  assert.ok(r.code === 201 || r.code === 409, `create namespace ${name}: ${r.code} ${r.text}`);
  return name;
}

/** Creates an object through the core API and returns it as stored (with uid and resourceVersion). */
export async function createCore(cluster: LocalCluster, plural: string, object: KubeObject): Promise<KubeObject> {
  const ns = object.metadata!.namespace!;
  const r = await raw(cluster.url, "POST", `/api/v1/namespaces/${ns}/${plural}`, object);
  assert.equal(r.code, 201, r.text);
  return r.body as KubeObject;
}

/** A stored ConfigMap to record events on. */
export function configMap(cluster: LocalCluster, namespace: string, name: string): Promise<KubeObject> {
  return createCore(cluster, "configmaps", { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace } });
}

/** events.k8s.io/v1 Events about the object with this uid. */
export async function eventsAbout(cluster: LocalCluster, namespace: string, uid: string): Promise<KubeObject[]> {
  const r = await raw(cluster.url, "GET", `/apis/events.k8s.io/v1/namespaces/${namespace}/events`);
  assert.equal(r.code, 200, r.text);
  return (r.body.items as KubeObject[]).filter((e) => (e.regarding as { uid?: string }).uid === uid);
}

/** Every RecordedEvent the recorder emits, in order. */
export function collect(recorder: { emitter: { on(e: "event", fn: (r: RecordedEvent) => void): unknown } }): RecordedEvent[] {
  const seen: RecordedEvent[] = [];
  recorder.emitter.on("event", (r) => seen.push(r));
  return seen;
}
