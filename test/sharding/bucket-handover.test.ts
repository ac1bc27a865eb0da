import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../src/util/clock.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { BucketHandover } from "../../src/sharding/bucket-handover.ts";
import type { HandoverInput } from "../../src/sharding/bucket-handover.ts";

/** Lets every settled promise's callbacks run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A handler whose start and stop calls are recorded and settled by the test. */
function recordingHandler() {
  const calls: string[] = [];
  const pending = new Map<string, { resolve: () => void; reject: (err: Error) => void }>();
  const signals = new Map<number, AbortSignal>();
  const call = (what: string) =>
    new Promise<void>((resolve, reject) => {
      calls.push(what);
      pending.set(what, { resolve, reject });
    });
  return {
    calls, signals,
    handler: {
      start: (b: number) => call(`start ${b}`),
      stop: (b: number, signal: AbortSignal) => {
        signals.set(b, signal);
        return call(`stop ${b}`);
      },
    },
    settle(what: string, err?: Error) {
      const p = pending.get(what);
      assert.ok(p, `${what} is pending`);
      pending.delete(what);
      if (err) p.reject(err);
      else p.resolve();
    },
  };
}

function setup(buckets = 3) {
  const h = recordingHandler();
  const clock = new ManualClock();
  let changes = 0;
  const handover = new BucketHandover("me", h.handler, silentLogger, clock, 100, () => changes++);
  const input = (over: Partial<HandoverInput> = {}): HandoverInput => ({
    owners: new Array(buckets).fill("me"), takenByOthers: () => false, ready: true, leaving: false, claimVisible: () => true, ...over,
  });
  let seq = 0;
  /** decide, then a successful write of what it publishes. */
  const step = (over: Partial<HandoverInput> = {}) => {
    handover.decide(input(over));
    const { serving, claiming } = handover.toPublish();
    handover.written(++seq, serving, claiming);
    return { serving, claiming };
  };
  /** Takes every bucket assigned to "me" and settles the starts. */
  const serveAll = async () => {
    step();
    step();
    for (let b = 0; b < buckets; b++) h.settle(`start ${b}`);
    await flush();
  };
  return { h, clock, handover, input, step, serveAll, changes: () => changes };
}

describe("BucketHandover", () => {
  it("claims first, and starts a bucket only after its claim was seen in the watch and a write published it as served", () => {
    const { h, handover, input } = setup();
    handover.decide(input({ claimVisible: () => false }));
    assert.deepEqual(handover.toPublish(), { serving: [], claiming: [0, 1, 2] });
    handover.written(1, [], [0, 1, 2]);
    let visible = false;
    handover.decide(input({ claimVisible: (seq) => visible && seq <= 1 }));
    assert.deepEqual(handover.toPublish(), { serving: [], claiming: [0, 1, 2] }, "not seen in the watch yet: still a claim");
    visible = true;
    handover.decide(input({ claimVisible: (seq) => visible && seq <= 1 }));
    assert.deepEqual(handover.toPublish(), { serving: [0, 1, 2], claiming: [] });
    assert.deepEqual(h.calls, [], "not started before the write publishing it as served");
    handover.written(2, [0, 1, 2], []);
    assert.deepEqual(h.calls, ["start 0", "start 1", "start 2"]);
    assert.deepEqual([...handover.served()], [0, 1, 2]);
  });

  it("withdraws a claim when, once it is visible, another member is seen serving or claiming the bucket", () => {
    const { h, handover, step, input } = setup();
    step({ claimVisible: () => false });
    handover.decide(input({ takenByOthers: (b) => b === 1 }));
    assert.deepEqual(handover.toPublish(), { serving: [0, 2], claiming: [] }, "bucket 1 withdrawn");
    handover.written(2, [0, 2], []);
    assert.deepEqual(h.calls, ["start 0", "start 2"]);
  });

  it("claims nothing that another member publishes, nor while not ready", () => {
    const { handover, input } = setup();
    handover.decide(input({ takenByOthers: (b) => b === 0 }));
    assert.deepEqual(handover.toPublish().claiming, [1, 2]);
    handover.decide(input({ ready: false }));
    assert.deepEqual(handover.toPublish(), { serving: [], claiming: [] }, "claims are withdrawn when not ready");
  });

  it("drains a bucket assigned elsewhere, and keeps publishing it until stop resolved", async () => {
    const { h, handover, input, serveAll, changes } = setup();
    await serveAll();
    handover.decide(input({ owners: ["me", "other", "me"] }));
    await flush();
    assert.deepEqual(h.calls.slice(3), ["stop 1"]);
    assert.equal(h.signals.get(1)!.aborted, false, "a planned drain is not hurried");
    assert.deepEqual(handover.toPublish().serving, [0, 1, 2], "still published while draining");
    assert.deepEqual([...handover.served()], [0, 2], "no new work for a draining bucket");
    assert.equal(handover.running(1), true, "its reconciles may still finish");
    const before = changes();
    h.settle("stop 1");
    await flush();
    assert.deepEqual(handover.toPublish().serving, [0, 2]);
    assert.equal(handover.running(1), false);
    assert.ok(changes() > before, "the member is told to take a step");
  });

  it("calls stop only after start settled", async () => {
    const { h, handover, step, input } = setup(1);
    step();
    step();
    assert.deepEqual(h.calls, ["start 0"]);
    handover.decide(input({ owners: ["other"] }));
    handover.lose(new Error("lost"));
    await flush();
    assert.deepEqual(h.calls, ["start 0"], "start still running: no stop yet");
    h.settle("start 0");
    await flush();
    assert.deepEqual(h.calls, ["start 0", "stop 0"]);
    assert.equal(h.signals.get(0)!.aborted, true, "after a loss the drain is hurried");
  });

  it("stops a bucket whose start failed", async () => {
    const { h, step } = setup(1);
    step();
    step();
    h.settle("start 0", new Error("informer failed"));
    await flush();
    assert.deepEqual(h.calls, ["start 0", "stop 0"]);
  });

  it("calls a failed stop again after a retry period; the bucket stays published meanwhile", async () => {
    const { h, clock, handover, input, serveAll } = setup(1);
    await serveAll();
    handover.decide(input({ owners: ["other"] }));
    await flush();
    h.settle("stop 0", new Error("drain failed"));
    await flush();
    assert.deepEqual(handover.toPublish().serving, [0]);
    assert.equal(h.calls.filter((c) => c === "stop 0").length, 1);
    clock.advance(99);
    await flush();
    assert.equal(h.calls.filter((c) => c === "stop 0").length, 1, "not before the retry period");
    clock.advance(1);
    await flush();
    assert.equal(h.calls.filter((c) => c === "stop 0").length, 2);
    h.settle("stop 0");
    await flush();
    assert.deepEqual(handover.toPublish().serving, []);
  });

  it("on a loss drops claims, stops served buckets with an aborted signal and aborts drains already running", async () => {
    const { h, handover, input, serveAll } = setup(3);
    await serveAll();
    handover.decide(input({ owners: ["other", "me", "me"] }));
    await flush();
    assert.equal(h.signals.get(0)!.aborted, false);
    handover.lose(new Error("lost"));
    await flush();
    assert.equal(h.signals.get(0)!.aborted, true, "the running drain is told to hurry");
    assert.deepEqual(h.calls.slice(3).sort(), ["stop 0", "stop 1", "stop 2"]);
    for (const b of [1, 2]) assert.equal(h.signals.get(b)!.aborted, true);
    assert.deepEqual([...handover.served()], []);
    const fresh = setup(2);
    fresh.step({ claimVisible: () => false });
    fresh.handover.lose(new Error("lost"));
    assert.deepEqual(fresh.handover.toPublish(), { serving: [], claiming: [] });
  });

  it("while leaving claims nothing and drains everything", async () => {
    const { h, handover, input, serveAll } = setup(2);
    await serveAll();
    handover.decide(input({ leaving: true }));
    await flush();
    assert.deepEqual(h.calls.slice(2), ["stop 0", "stop 1"]);
    h.settle("stop 0");
    h.settle("stop 1");
    await flush();
    assert.equal(handover.isEmpty(), true);
    handover.decide(input({ leaving: true }));
    assert.equal(handover.isEmpty(), true, "no claims while leaving");
  });
});
