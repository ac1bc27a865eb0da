import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ManualClock } from "../../src/util/clock.ts";
import type { WorkQueueMetrics } from "../../src/controller/metrics-hooks.ts";
import { exponentialFailureRateLimiter } from "../../src/controller/rate-limiter.ts";
import { WorkQueue } from "../../src/controller/work-queue.ts";
import type { WorkQueueOptions } from "../../src/controller/work-queue.ts";

/** Lets pending promise callbacks run (microtasks only; no timers). */
async function flush(rounds = 100): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/** Whether a promise has settled after the microtasks ran, and its value. */
async function peek<T>(p: Promise<T>): Promise<{ settled: boolean; value?: T }> {
  let state: { settled: boolean; value?: T } = { settled: false };
  void p.then((value) => (state = { settled: true, value }));
  await flush();
  return state;
}

function queueWith(options: Partial<WorkQueueOptions> = {}): { queue: WorkQueue; clock: ManualClock } {
  const clock = new ManualClock();
  const queue = new WorkQueue({ name: "test", clock, rateLimiter: exponentialFailureRateLimiter(), ...options });
  return { queue, clock };
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("WorkQueue", { timeout: 10_000 }, () => {
  it("holds a key that is added several times only once", async () => {
    const { queue } = queueWith();
    for (const key of ["ns/a", "ns/b", "ns/a", "ns/a", "ns/b"]) queue.add(key);
    assert.equal(queue.len(), 2);
    assert.equal(await queue.get(), "ns/a");
    assert.equal(await queue.get(), "ns/b");
    assert.equal(queue.len(), 0);
    assert.equal(queue.processing(), 2);
  });

  it("hands out ready keys first in, first out, and serves waiting gets in call order", async () => {
    const { queue } = queueWith();
    for (const key of ["c", "a", "b"]) queue.add(key);
    assert.deepEqual([await queue.get(), await queue.get(), await queue.get()], ["c", "a", "b"]);
    const first = queue.get();
    const second = queue.get();
    queue.add("x");
    queue.add("y");
    assert.deepEqual(await Promise.all([first, second]), ["x", "y"]);
  });

  it("runs a key exactly once more when it is added 100 times while processing", async () => {
    const { queue } = queueWith();
    queue.add("ns/a");
    assert.equal(await queue.get(), "ns/a");
    for (let i = 0; i < 100; i++) queue.add("ns/a");
    assert.equal(queue.len(), 0, "not handed out while processing");
    const next = queue.get();
    assert.equal((await peek(next)).settled, false);
    queue.done("ns/a");
    assert.deepEqual(await peek(next), { settled: true, value: "ns/a" });
    queue.done("ns/a");
    assert.equal(queue.len(), 0);
    assert.equal((await peek(queue.get())).settled, false, "no third run");
  });

  it("never lets two concurrent workers hold the same key, and runs every add", async () => {
    const { queue, clock } = queueWith();
    const rnd = random(42);
    const keys = Array.from({ length: 8 }, (_, i) => `ns/k${i}`);
    const held = new Set<string>();
    const added = new Map<string, number>(); // adds made while the key was not held
    const seen = new Map<string, number>();
    let runs = 0;
    const add = (key: string) => {
      if (!held.has(key)) added.set(key, (added.get(key) ?? 0) + 1);
      queue.add(key);
    };
    const worker = async () => {
      for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
        assert.ok(!held.has(key), `${key} handed to two workers`);
        held.add(key);
        seen.set(key, added.get(key) ?? 0);
        runs++;
        for (let i = Math.floor(rnd() * 6); i > 0; i--) await Promise.resolve();
        if (rnd() < 0.3) queue.add(key); // an event for the key while it is reconciled
        if (rnd() < 0.2) queue.addAfter(key, Math.floor(rnd() * 50));
        held.delete(key);
        queue.done(key);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    for (let i = 0; i < 3000; i++) {
      add(keys[Math.floor(rnd() * keys.length)]!);
      if (rnd() < 0.3) await Promise.resolve();
      if (rnd() < 0.05) clock.advance(10);
    }
    for (let i = 0; i < 20 && (queue.len() > 0 || queue.processing() > 0 || clock.pendingTimers() > 1); i++) {
      clock.advance(100);
      await flush();
    }
    assert.equal(queue.len(), 0);
    assert.equal(queue.processing(), 0);
    for (const [key, n] of added) assert.equal(seen.get(key), n, `${key}: its last add was run`);
    assert.ok(runs > keys.length && runs < 3000, `de-duplicated: ${runs} runs`);
    queue.shutDown();
    await Promise.all(workers);
  });

  it("keeps the earliest deadline of addAfter: longer delays never postpone, shorter ones bring forward", async () => {
    const { queue, clock } = queueWith();
    queue.addAfter("ns/a", 100);
    queue.addAfter("ns/a", 500);
    clock.advance(99);
    assert.equal(queue.len(), 0);
    clock.advance(1);
    assert.equal(queue.len(), 1);
    queue.done((await queue.get())!);
    clock.advance(1000);
    assert.equal(queue.len(), 0, "the longer addAfter was not kept");

    queue.addAfter("ns/b", 500);
    queue.addAfter("ns/b", 50);
    clock.advance(50);
    assert.equal(await queue.get(), "ns/b");
    queue.done("ns/b");
    clock.advance(1000);
    assert.equal(queue.len(), 0, "the replaced deadline does not fire");
  });

  it("treats addAfter with 0 or a negative delay as add", () => {
    const { queue } = queueWith();
    queue.addAfter("ns/a", 0);
    queue.addAfter("ns/b", -5);
    assert.equal(queue.len(), 2);
  });

  it("delays addRateLimited by the limiter's growing backoff and resets on forget", async () => {
    const { queue, clock } = queueWith();
    const readyAfter = async (ms: number) => {
      queue.addRateLimited("ns/a");
      clock.advance(ms - 1);
      assert.equal(queue.len(), 0, `not before ${ms} ms`);
      clock.advance(1);
      assert.equal(queue.len(), 1, `ready after ${ms} ms`);
      queue.done((await queue.get())!);
    };
    await readyAfter(5);
    await readyAfter(10);
    await readyAfter(20);
    await readyAfter(40);
    assert.equal(queue.numRequeues("ns/a"), 4);
    queue.forget("ns/a");
    assert.equal(queue.numRequeues("ns/a"), 0);
    await readyAfter(5);
  });

  it("resolves waiting gets with undefined on shutDown, ignores later adds and drops delayed ones", async () => {
    const { queue, clock } = queueWith();
    const waiting = [queue.get(), queue.get()];
    queue.addAfter("ns/late", 100);
    assert.equal(queue.isShuttingDown(), false);
    queue.shutDown();
    assert.equal(queue.isShuttingDown(), true);
    assert.deepEqual(await Promise.all(waiting), [undefined, undefined]);
    queue.add("ns/a");
    queue.addRateLimited("ns/b");
    clock.advance(1000);
    assert.equal(queue.len(), 0);
    assert.equal(queue.numRequeues("ns/b"), 0);
    assert.equal(await queue.get(), undefined);
    assert.equal(clock.pendingTimers(), 0, "no timer left behind");
  });

  it("stops handing out ready keys once shut down", async () => {
    const { queue } = queueWith();
    queue.add("ns/a");
    queue.shutDown();
    assert.equal(await queue.get(), undefined);
  });

  it("shutDownWithDrain waits for in-flight work, ignores new adds and hands out nothing new", async () => {
    const { queue, clock } = queueWith();
    queue.add("ns/a");
    queue.add("ns/b");
    queue.add("ns/c");
    const a = await queue.get();
    const b = await queue.get();
    queue.add("ns/a"); // dirty while processing: not run again after the drain began
    const drained = queue.shutDownWithDrain();
    assert.equal(queue.isShuttingDown(), true);
    assert.equal((await peek(drained)).settled, false);
    queue.add("ns/d");
    queue.addAfter("ns/e", 10);
    assert.equal(await queue.get(), undefined);
    queue.done(a!);
    assert.equal((await peek(drained)).settled, false, "ns/b still running");
    assert.equal(await queue.get(), undefined, "ns/a is not handed out again");
    queue.done(b!);
    assert.equal((await peek(drained)).settled, true);
    assert.equal(queue.processing(), 0);
    clock.advance(1000);
    assert.equal(clock.pendingTimers(), 0, "no timer left behind");
  });

  it("shutDownWithDrain resolves at once when nothing is processing", async () => {
    const { queue, clock } = queueWith();
    queue.add("ns/a");
    await queue.shutDownWithDrain();
    assert.equal(await queue.get(), undefined);
    assert.equal(clock.pendingTimers(), 0);
  });

  it("reports adds, depth, queue latency, work duration, retries and unfinished work", async () => {
    const calls: [string, ...number[]][] = [];
    const metrics: WorkQueueMetrics = {
      add: () => calls.push(["add"]),
      depth: (n) => calls.push(["depth", n]),
      queueLatency: (s) => calls.push(["queueLatency", s]),
      workDuration: (s) => calls.push(["workDuration", s]),
      retry: () => calls.push(["retry"]),
      unfinishedWork: (total, longest) => calls.push(["unfinishedWork", total, longest]),
    };
    const { queue, clock } = queueWith({ metrics });
    queue.add("ns/a");
    queue.add("ns/a"); // de-duplicated: not counted
    queue.add("ns/b");
    clock.advance(250);
    await queue.get(); // ns/a, waited 0.25 s
    clock.advance(750); // t = 1 s: report ns/a running for 0.75 s
    await queue.get(); // ns/b, waited 1 s
    clock.advance(1000); // t = 2 s: ns/a 1.75 s + ns/b 1 s
    queue.done("ns/a");
    queue.addRateLimited("ns/a"); // 5 ms backoff
    clock.advance(5);
    queue.done("ns/b");
    queue.shutDown();
    clock.advance(5000); // no more reports after shutdown
    assert.deepEqual(calls, [
      ["add"], ["depth", 1],
      ["add"], ["depth", 2],
      ["queueLatency", 0.25], ["depth", 1],
      ["unfinishedWork", 0.75, 0.75],
      ["queueLatency", 1], ["depth", 0],
      ["unfinishedWork", 2.75, 1.75],
      ["workDuration", 1.75],
      ["retry"],
      ["add"], ["depth", 1],
      ["workDuration", 1.005],
    ]);
  });

  it("ignores done for a key it did not hand out", () => {
    const { queue } = queueWith();
    queue.add("ns/a");
    queue.done("ns/a");
    assert.equal(queue.len(), 1);
    assert.equal(queue.processing(), 0);
  });

  it("waits at least the floor addRateLimited is given, however short the backoff (Retry-After)", () => {
    const { queue, clock } = queueWith();
    queue.addRateLimited("ns/a", 5000); // the backoff alone would be 5 ms
    clock.advance(4999);
    assert.equal(queue.len(), 0, "not before the Retry-After");
    clock.advance(1);
    assert.equal(queue.len(), 1);
    assert.equal(queue.numRequeues("ns/a"), 1);
  });
});
