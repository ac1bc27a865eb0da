import { test } from "node:test";
import assert from "node:assert/strict";
import { EventNotes } from "../../src/controller/event-notes.ts";
import { OperatorRuntimeError } from "../../src/index.ts";
import { WriteRefusedError } from "../../src/entries/client.ts";
import type { KubeObject } from "../../src/index.ts";

const owner: KubeObject = { apiVersion: "example.com/v1", kind: "DataApp", metadata: { name: "web", namespace: "default", uid: "u" } };
const child: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cfg", namespace: "default" } };

test("a write the controller's gate refused (never sent, run again) records no Warning event; other failures do", async () => {
  const events: string[] = [];
  const notes = new EventNotes({ record: async (_o, e) => void events.push(`${e.type} ${e.reason}`) }, owner);
  await notes.failed(child, "Update", new WriteRefusedError("a cache this controller reads is stale"), false);
  assert.deepEqual(events, []);
  await notes.failed(child, "Update", new OperatorRuntimeError("boom"), false);
  assert.deepEqual(events, ["Warning UpdateFailed"]);
});
