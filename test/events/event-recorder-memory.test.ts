import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { EventRecorder } from "../../src/events/index.ts";
import type { EventSink, RecordedEvent } from "../../src/events/index.ts";
import type { KubeObject } from "../../src/client/types.ts";
import { FakeClock, collect } from "./event-fixtures.ts";

/** An in-memory sink that remembers which writes it was asked for. */
function memorySink(): EventSink & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    async create(event) {
      writes.push(`create ${event.metadata!.name}`);
      return event;
    },
    async patch(namespace, name, mergePatch) {
      writes.push(`patch ${name}`);
      return { metadata: { namespace, name }, ...(mergePatch as object) };
    },
  };
}

const object = (name: string): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default", uid: `uid-${name}` } });
const started = { type: "Normal", reason: "Started", action: "Start", note: "started" } as const;
const kinds = (seen: RecordedEvent[]) => seen.map((r) => (r.written ? (r.aggregated ? "patched" : "created") : r.dropReason));

describe("EventRecorder memory bound (cacheSize)", () => {
  it("keeps the series of the most recently used keys and forgets the least recently used", async () => {
    const sink = memorySink();
    const recorder = new EventRecorder({ sink, controller: "example.com/op", now: new FakeClock().now, cacheSize: 2 });
    const seen = collect(recorder);
    await recorder.record(object("a"), started);
    await recorder.record(object("b"), started);
    await recorder.record(object("a"), started); // a is now the most recently used
    await recorder.record(object("c"), started); // evicts b's series
    await recorder.record(object("a"), started);
    await recorder.record(object("b"), started);
    assert.deepEqual(kinds(seen), ["created", "created", "patched", "created", "patched", "created"]);
  });

  it("starts a forgotten object's rate limit over with a full bucket", async () => {
    const sink = memorySink();
    const recorder = new EventRecorder({ sink, controller: "example.com/op", now: new FakeClock().now, cacheSize: 1, burst: 1 });
    const seen = collect(recorder);
    await recorder.record(object("a"), started);
    await recorder.record(object("a"), { ...started, note: "again" });
    await recorder.record(object("b"), started); // evicts a's bucket
    await recorder.record(object("a"), { ...started, note: "once more" });
    assert.deepEqual(kinds(seen), ["created", "RateLimited", "created", "created"]);
  });
});
