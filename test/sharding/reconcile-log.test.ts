/** The reconcile-log checks the sharded-process tests and the shards benchmark rely on. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handoffs, keysByReplica, overlaps, readLog, spans } from "./procs/reconcile-log.ts";
import type { LogLine } from "./procs/protocol.ts";

const begin = (replica: string, key: string, start: number): LogLine => ({ t: "begin", replica, key, start });
const end = (replica: string, key: string, start: number, e: number, gen = 1): LogLine => ({ t: "end", replica, key, start, end: e, ok: true, gen });

describe("reconcile log", () => {
  it("pairs begin and end lines per replica and key, in order", () => {
    const s = spans([begin("a", "k", 1), begin("b", "j", 2), end("a", "k", 1, 5), begin("a", "k", 5), end("a", "k", 5, 9, 2), end("b", "j", 2, 3)]);
    assert.deepEqual(s.map((x) => [x.replica, x.key, x.start, x.end, x.open, x.gen]), [
      ["a", "k", 1, 5, false, 1], ["b", "j", 2, 3, false, 1], ["a", "k", 5, 9, false, 2],
    ]);
    assert.deepEqual([...keysByReplica(s)].map(([r, k]) => [r, [...k]]), [["a", ["k"]], ["b", ["j"]]]);
  });

  it("finds two replicas in one key at once, and only that", () => {
    const lines = [
      begin("a", "k", 10), end("a", "k", 10, 20),
      begin("b", "k", 20), end("b", "k", 20, 30), // touches a's end: not an overlap
      begin("b", "k", 30), end("b", "k", 30, 40),  // same replica back to back
      begin("c", "k", 39), end("c", "k", 39, 50),  // starts before b's end: overlap
      begin("a", "other", 39), end("a", "other", 39, 50),
    ];
    const found = overlaps(spans(lines));
    assert.equal(found.length, 1);
    assert.deepEqual(found.map(([x, y]) => [x.replica, x.start, y.replica, y.start]), [["b", 30, "c", 39]]);
    assert.deepEqual(handoffs(spans(lines)), [
      { key: "k", from: "a", to: "b", gapMs: 0 },
      { key: "k", from: "b", to: "c", gapMs: -1 },
    ]);
  });

  it("ends a dead replica's unfinished reconcile at its death, and a live one's never", () => {
    const lines = [begin("a", "k", 10), begin("b", "k", 100), end("b", "k", 100, 110)];
    assert.equal(overlaps(spans(lines, new Map([["a", 50]]))).length, 0, "a died at 50, before b started");
    assert.equal(overlaps(spans(lines, new Map([["a", 105]]))).length, 1, "a died at 105, while b ran");
    assert.equal(overlaps(spans(lines)).length, 1, "a still runs its reconcile");
  });

  it("reads a log whose last line is torn", () => {
    const dir = mkdtempSync(join(tmpdir(), "reconcile-log-"));
    try {
      const path = join(dir, "log");
      writeFileSync(path, `${JSON.stringify(begin("a", "k", 1))}\n${JSON.stringify(end("a", "k", 1, 2))}\n{"t":"beg`);
      assert.equal(readLog(path).length, 2);
      assert.deepEqual(readLog(path, JSON.stringify(begin("a", "k", 1)).length + 1), [end("a", "k", 1, 2)], "from a byte offset");
      writeFileSync(path, `{"t":"beg\n${JSON.stringify(begin("a", "k", 1))}\n`);
      assert.throws(() => readLog(path), /unreadable line/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
