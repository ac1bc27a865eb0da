/**
 * Trigger attribution over real HTTP: a LocalCluster, the real client-node watch, a shared
 * Cache, controllers observed through `controller.observe()`.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { Controller, LOOP_RUNS, describeTrigger } from "../../src/entries/controller.ts";
import type { ControllerObserver, ObservedWrite, ReconcileEnd, ReconcileRun } from "../../src/entries/controller.ts";
import { Action, Manager, ResourceClient, createLogger } from "../../src/index.ts";
import type { KubeObject, Reconciler } from "../../src/index.ts";
import type { LogRecord } from "../../src/entries/client.ts";
import { silentLogger } from "../../src/entries/client.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { ConfigMap, Secret } from "../../src/kinds/index.ts";
import { Greeting, installKinds } from "../kinds/fixtures.ts";
import { raw, waitFor, within } from "../support/wait.ts";

/** A run as observed: its record, its writes, how it ended. */
interface Observed {
  run: ReconcileRun;
  writes: ObservedWrite[];
  end?: ReconcileEnd;
}

/** Records every run of `controller`. */
function observeRuns(controller: Controller): Observed[] {
  const runs: Observed[] = [];
  const find = (run: ReconcileRun) => runs.find((r) => r.run.reconcileID === run.reconcileID);
  const observer: ControllerObserver = {
    started: (run) => void runs.push({ run, writes: [] }),
    wrote: (run, write) => void find(run)?.writes.push(write),
    ended: (run, end) => {
      const r = find(run);
      if (r) r.end = end;
    },
  };
  controller.observe(observer);
  return runs;
}

const ended = (runs: Observed[]) => runs.filter((r) => r.end);

/** Nothing queued, running or delayed. */
const quiet = (controller: Controller) => {
  const q = controller.queue.inspect();
  return q.depth === 0 && q.processing === 0 && q.delayed === 0;
};

describe("trigger attribution of a controller's runs (LocalCluster, real HTTP)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let cache: Cache;
  let nsCount = 0;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "triggers-test" });
    await installKinds(client);
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig, logger: silentLogger });
    await within(cache.start(new AbortController().signal), "the cache to sync");
  });
  after(async () => {
    await within(cache.stop(), "cache.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  /** A fresh namespace (each test watches its own). */
  async function namespace(): Promise<string> {
    const ns = `trig-${++nsCount}`;
    const r = await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: ns } });
    assert.equal(r.code, 201, r.text);
    return ns;
  }

  /** Starts a controller of ConfigMaps in `ns` (owning Secrets); stopped when the test ends. */
  async function controllerOf(t: { after: (fn: () => Promise<void>) => void }, ns: string, reconcile: Reconciler, extra: Partial<ConstructorParameters<typeof Controller>[0]> = {}): Promise<{ controller: Controller; runs: Observed[] }> {
    const controller = new Controller({
      name: `c-${ns}`, source: cache, reconcile,
      for: { kind: ConfigMap, namespace: ns },
      owns: [{ kind: Secret, namespace: ns }],
      ...extra,
    });
    const runs = observeRuns(controller);
    await within(controller.start(new AbortController().signal), "the controller to start");
    t.after(() => within(controller.stop(), "controller.stop()"));
    return { controller, runs };
  }

  const createCm = async (ns: string, name: string, data: Record<string, string> = { a: "1" }) => {
    const r = await raw(cluster.url, "POST", `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data });
    assert.equal(r.code, 201, r.text);
    return r.body as KubeObject;
  };
  const mergePatch = async (path: string, patch: unknown) => {
    const r = await raw(cluster.url, "PATCH", path, patch, "application/merge-patch+json");
    assert.equal(r.code, 200, r.text);
    return r.body as KubeObject;
  };

  it("attributes a run to the ADDED primary, and the runs of the informer's first list to it (initial)", async (t) => {
    const ns = await namespace();
    await createCm(ns, "before-start");
    const { runs } = await controllerOf(t, ns, () => Action.done());
    const first = await waitFor(() => ended(runs).find((r) => r.run.key === `${ns}/before-start`), "the run of the listed ConfigMap");
    assert.deepEqual(first.run.trigger, { reason: "event", event: "ADDED", role: "for", apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "before-start", initial: true });
    await createCm(ns, "added");
    const added = await waitFor(() => ended(runs).find((r) => r.run.key === `${ns}/added`), "the run of the added ConfigMap");
    assert.deepEqual(added.run.trigger, { reason: "event", event: "ADDED", role: "for", apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "added" });
    assert.equal(added.run.triggers, 1);
    assert.equal(added.run.plan, false);
    assert.equal(added.run.controller, `c-${ns}`);
    assert.match(added.run.reconcileID, /^[0-9a-f-]{36}$/);
    assert.ok(added.run.queuedAt <= added.run.startedAt, "queued before it started");
    assert.equal(added.end!.outcome, "done");
    assert.equal(added.end!.selfTriggered, false);
    assert.equal(added.end!.loop, false);
    assert.equal(added.end!.writes, 0);
  });

  it("attributes a run to a child's DELETED event: its kind, name, event and role owns", async (t) => {
    const ns = await namespace();
    const { runs } = await controllerOf(t, ns, () => Action.done());
    const owner = await createCm(ns, "owner");
    const secret = await raw(cluster.url, "POST", `/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "owner-child", ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata!.uid, controller: true }] },
      stringData: { k: "v" },
    });
    assert.equal(secret.code, 201, secret.text);
    await waitFor(() => ended(runs).some((r) => r.run.trigger.kind === "Secret" && r.run.trigger.event === "ADDED"), "the run for the child's ADDED");
    assert.equal((await raw(cluster.url, "DELETE", `/api/v1/namespaces/${ns}/secrets/owner-child`)).code, 200);
    const deleted = await waitFor(() => ended(runs).find((r) => r.run.trigger.event === "DELETED"), "the run for the child's DELETED");
    assert.equal(deleted.run.key, `${ns}/owner`);
    assert.deepEqual(deleted.run.trigger, { reason: "event", event: "DELETED", role: "owns", apiVersion: "v1", kind: "Secret", namespace: ns, name: "owner-child" });
  });

  it("names what a MODIFIED event changed: spec, status or metadata; one event is one cause", async (t) => {
    const ns = await namespace();
    const controller = new Controller({ name: `greet-${ns}`, source: cache, for: { kind: Greeting, namespace: ns }, reconcile: () => Action.done() });
    const live = observeRuns(controller);
    await within(controller.start(new AbortController().signal), "the controller to start");
    t.after(() => within(controller.stop(), "controller.stop()"));
    const created = await raw(cluster.url, "POST", `/apis/example.com/v1/namespaces/${ns}/greetings`, { apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "g" }, spec: { name: "world" } });
    assert.equal(created.code, 201, created.text);
    await waitFor(() => ended(live).length === 1, "the ADDED run");
    const path = `/apis/example.com/v1/namespaces/${ns}/greetings/g`;
    const changes: [string, () => Promise<unknown>][] = [
      ["spec", () => mergePatch(path, { spec: { excitement: 3 } })],
      ["status", () => mergePatch(`${path}/status`, { status: { message: "hello" } })],
      ["metadata", () => mergePatch(path, { metadata: { labels: { tier: "gold" } } })],
    ];
    for (const [part, change] of changes) {
      const n = ended(live).length;
      await change();
      const run = await waitFor(() => ended(live)[n], `the run after the ${part} change`);
      assert.equal(run.run.trigger.event, "MODIFIED");
      assert.equal(run.run.trigger.role, "for");
      assert.deepEqual(run.run.trigger.changed, [part], `a ${part} change`);
      assert.equal(run.run.triggers, 1, `one ${part} change is one cause, not ${run.run.triggers}`);
    }
  });

  it("attributes a requeueAfter's run to requeue-after and a failure's to retry, with their delay", async (t) => {
    const ns = await namespace();
    const calls = new Map<string, number>();
    const { runs } = await controllerOf(t, ns, (req) => {
      const n = (calls.get(req.name) ?? 0) + 1;
      calls.set(req.name, n);
      if (req.name === "later" && n === 1) return Action.requeueAfter(40);
      if (req.name === "flaky" && n === 1) throw new Error("not yet");
      return Action.done();
    });
    await createCm(ns, "later");
    await createCm(ns, "flaky");
    const later = await waitFor(() => ended(runs).filter((r) => r.run.key === `${ns}/later`)[1], "the requeued run");
    assert.equal(ended(runs).find((r) => r.run.key === `${ns}/later`)!.end!.outcome, "requeue-after");
    assert.equal(ended(runs).find((r) => r.run.key === `${ns}/later`)!.end!.requeueAfterMs, 40);
    assert.deepEqual(later.run.trigger, { reason: "requeue-after", delayMs: 40 });
    const firstLater = ended(runs).find((r) => r.run.key === `${ns}/later`)!;
    assert.ok(later.run.queuedAt >= firstLater.end!.endedAt + 30, "queued when the delay was over, not when it was asked for");
    const flaky = await waitFor(() => ended(runs).filter((r) => r.run.key === `${ns}/flaky`)[1], "the retried run");
    const failed = ended(runs).find((r) => r.run.key === `${ns}/flaky`)!;
    assert.equal(failed.end!.outcome, "error");
    assert.equal(failed.end!.retries, 1);
    assert.equal((failed.end!.error as Error).message, "not yet");
    assert.equal(flaky.run.trigger.reason, "retry");
    assert.equal(typeof flaky.run.trigger.delayMs, "number");
    assert.ok(flaky.run.trigger.delayMs! >= 0);
    assert.equal(flaky.end!.outcome, "done");
  });

  it("flags a run triggered by the echo of its own write as self; a non-self event coalesced with it wins", async (t) => {
    const ns = await namespace();
    const calls = new Map<string, number>();
    const { runs } = await controllerOf(t, ns, async (req) => {
      const n = (calls.get(req.name) ?? 0) + 1;
      calls.set(req.name, n);
      if (n !== 1) return Action.done();
      const written = await client.patch({ ...ConfigMap, namespace: req.namespace, name: req.name }, { metadata: { annotations: { touched: "yes" } } }, "merge");
      if (req.name === "mixed") {
        // Someone else changes it too (a raw request: not this run's write), before the run ends.
        const other = await mergePatch(`/api/v1/namespaces/${ns}/configmaps/mixed`, { metadata: { labels: { by: "someone-else" } } });
        await waitFor(() => cache.informer(ConfigMap, { namespace: ns }).get("mixed", ns)?.metadata?.resourceVersion === other.metadata?.resourceVersion, "the cache to hold the other write");
      } else {
        await waitFor(() => cache.informer(ConfigMap, { namespace: ns }).get(req.name, ns)?.metadata?.resourceVersion === written.metadata?.resourceVersion, "the cache to hold the own write");
      }
      return Action.done();
    });
    await createCm(ns, "own");
    const echo = await waitFor(() => ended(runs).filter((r) => r.run.key === `${ns}/own`)[1], "the run after the own write");
    const first = ended(runs).find((r) => r.run.key === `${ns}/own`)!;
    assert.equal(first.end!.writes, 1);
    assert.deepEqual(first.writes.map((w) => `${w.verb} ${w.kind}/${w.name} dryRun=${w.dryRun}`), [`patch ConfigMap/own dryRun=false`]);
    assert.equal(first.writes[0]!.before?.metadata?.name, "own", "the cached object before the write");
    assert.equal(first.writes[0]!.answer?.metadata?.annotations?.touched, "yes");
    assert.equal(echo.run.trigger.self, true);
    assert.deepEqual(echo.run.trigger.changed, ["metadata"]);
    assert.equal(echo.end!.selfTriggered, true);
    assert.equal(echo.end!.loop, false, "one own write is no loop");

    await createCm(ns, "mixed");
    const mixed = await waitFor(() => ended(runs).filter((r) => r.run.key === `${ns}/mixed`)[1], "the run after both writes");
    assert.equal(mixed.run.trigger.self, undefined, "the other write is what asked for it");
    assert.deepEqual(mixed.run.trigger.changed, ["metadata"]);
    assert.equal(mixed.end!.selfTriggered, false);
    assert.equal(mixed.run.triggers, 2, "the echo and the other write, coalesced (one cause each)");
  });

  it("flags a reconciler that writes a changing status every run as a loop (warned once per chain); one that writes once is not", async (t) => {
    const ns = await namespace();
    const records: LogRecord[] = [];
    const calls = new Map<string, number>();
    const LOOPS = LOOP_RUNS + 3;
    const PHASES = LOOP_RUNS - 1;
    const { controller, runs } = await controllerOf(t, ns, async (req) => {
      const n = (calls.get(req.name) ?? 0) + 1;
      calls.set(req.name, n);
      const writes = req.name === "looping" ? n <= LOOPS : req.name === "phases" ? n <= PHASES : n === 1;
      // A status-like counter that changes on every run (the classic loop), written to the primary.
      if (writes) await client.patch({ ...ConfigMap, namespace: req.namespace, name: req.name }, { data: { observed: String(n) } }, "merge");
      return Action.done();
    }, { logger: createLogger({ level: "debug", sink: (r) => records.push(r) }) });
    await createCm(ns, "looping");
    const chain = await waitFor(() => {
      const mine = ended(runs).filter((r) => r.run.key === `${ns}/looping`);
      return (calls.get("looping") ?? 0) > LOOPS && quiet(controller) && mine.length === calls.get("looping") ? mine : undefined;
    }, "the looping reconciler to stop writing", 10_000);
    assert.deepEqual(chain.map((r) => describeTrigger(r.run.trigger)), [
      `ConfigMap ${ns}/looping ADDED`,
      ...Array.from({ length: LOOPS }, () => `ConfigMap ${ns}/looping MODIFIED (data) [own write]`),
    ], "each run after the first is the echo of the previous one's write, and nothing else runs it");
    assert.deepEqual(chain.map((r) => r.end!.selfTriggered), [false, ...Array.from({ length: LOOPS }, () => true)]);
    // Run k (k ≥ 2) is the (k − 1)th self-triggered run that writes; the last one writes nothing.
    assert.deepEqual(chain.map((r) => r.end!.loop), chain.map((_, i) => i >= LOOP_RUNS && i <= LOOPS - 1));
    assert.deepEqual(chain[1]!.run.trigger.changed, ["data"]);
    const warned = records.filter((r) => r.level === "warn" && /reconcile loop/.test(r.msg));
    assert.equal(warned.length, 1, "one warning per chain");
    assert.equal(warned[0]!.key, `${ns}/looping`);
    assert.equal((warned[0]!.trigger as { self?: boolean }).self, true);

    await createCm(ns, "once");
    const once = await waitFor(() => {
      const mine = ended(runs).filter((r) => r.run.key === `${ns}/once`);
      return mine.length >= 2 && quiet(controller) && mine.length === calls.get("once") ? mine : undefined;
    }, "the write-once reconciler's runs");
    assert.equal(once.length, 2, `two runs: ${once.map((r) => describeTrigger(r.run.trigger)).join("; ")}`);
    assert.deepEqual(once.map((r) => r.end!.loop), [false, false]);

    // A phase machine (Pending → Creating → Ready → Done: one write per run, then none) settles: no loop.
    await createCm(ns, "phases");
    const phases = await waitFor(() => {
      const mine = ended(runs).filter((r) => r.run.key === `${ns}/phases`);
      return mine.length >= PHASES + 1 && quiet(controller) && mine.at(-1)!.end!.writes === 0 ? mine : undefined;
    }, "the phase machine's runs");
    assert.ok(phases.every((r) => !r.end!.loop), `no loop: ${phases.map((r) => `${r.end!.writes}${r.end!.loop ? "L" : ""}`).join(" ")}`);
    assert.equal(records.filter((r) => r.level === "warn" && r.key === `${ns}/phases`).length, 0);
    assert.equal(once[1]!.end!.selfTriggered, true);
    assert.equal(once[1]!.end!.writes, 0);
    assert.equal(records.filter((r) => r.level === "warn" && r.key === `${ns}/once`).length, 0);
  });

  it("one watch event runs an idle controller once, never adding a run without a cause (\"manual\")", async (t) => {
    const ns = await namespace();
    const { controller, runs } = await controllerOf(t, ns, () => Action.done());
    await createCm(ns, "single");
    await waitFor(() => ended(runs).length === 1 && quiet(controller), "the ADDED run");
    for (let i = 0; i < 3; i++) {
      await mergePatch(`/api/v1/namespaces/${ns}/configmaps/single`, { data: { i: String(i) } });
      await waitFor(() => ended(runs).length >= 2 + i && quiet(controller), `the run of change ${i}`);
    }
    assert.deepEqual(ended(runs).map((r) => describeTrigger(r.run.trigger)), [
      `ConfigMap ${ns}/single ADDED`, `ConfigMap ${ns}/single MODIFIED (data)`, `ConfigMap ${ns}/single MODIFIED (data)`, `ConfigMap ${ns}/single MODIFIED (data)`,
    ]);
  });

  it("attributes every requeueAfter run to requeue-after, however early the timer fires (short delays)", async (t) => {
    const ns = await namespace();
    const ROUNDS = 25;
    let n = 0;
    const { controller, runs } = await controllerOf(t, ns, () => (++n <= ROUNDS ? Action.requeueAfter(1 + (n % 3)) : Action.done()));
    await createCm(ns, "soon");
    await waitFor(() => n > ROUNDS && quiet(controller) && ended(runs).length === n, "the requeued runs");
    const reasons = ended(runs).slice(1).map((r) => r.run.trigger.reason);
    assert.deepEqual(reasons.filter((r) => r !== "requeue-after"), [], `every run after the first came from requeueAfter: ${reasons.join(", ")}`);
  });

  it("tells the echo of an own write even when the watch event arrives before the write's answer (a burst of objects)", async (t) => {
    // Under load the informer often hears the event of a write before the client has the write's answer.
    const ns = await namespace();
    const N = 80;
    const { controller, runs } = await controllerOf(t, ns, async (req) => {
      const cm = cache.informer(ConfigMap, { namespace: ns }).get(req.name, ns);
      if (!cm?.data?.written) await client.patch({ ...ConfigMap, namespace: req.namespace, name: req.name }, { data: { written: "yes" } }, "merge");
      return Action.done();
    }, { maxConcurrentReconciles: 4 });
    await Promise.all(Array.from({ length: N }, (_, i) => createCm(ns, `echo-${i}`, {})));
    await waitFor(() => ended(runs).filter((r) => r.run.trigger.event === "MODIFIED").length >= N && quiet(controller), "every echo's run", 15_000);
    const missed = ended(runs).filter((r) => r.run.trigger.event === "MODIFIED" && !r.run.trigger.self).map((r) => r.run.key);
    assert.deepEqual(missed, [], "every run after the own write is attributed to it");
  });

  it("an observer that throws breaks no reconcile; a stopped observer hears nothing", async (t) => {
    const ns = await namespace();
    const { controller, runs } = await controllerOf(t, ns, () => Action.done());
    const heard: string[] = [];
    controller.observe({ started: () => { throw new Error("observer bug"); }, ended: () => { throw new Error("observer bug"); } });
    const stop = controller.observe({ ended: (run) => void heard.push(run.key) });
    await createCm(ns, "a");
    await waitFor(() => ended(runs).length === 1 && heard.length === 1, "the run, heard");
    stop();
    await createCm(ns, "b");
    await waitFor(() => ended(runs).length === 2, "the second run");
    assert.deepEqual(heard, [`${ns}/a`]);
    assert.equal(ended(runs)[1]!.end!.outcome, "done");
    assert.throws(() => controller.observe(undefined as never), /observer/);
  });
});

describe("the triggers metric and log lines (a Manager)", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: "metric" } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("counts operator_runtime_reconcile_triggers_total by kind and reason; the debug reconciled line and the failure line carry trigger", async () => {
    const records: LogRecord[] = [];
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: createLogger({ level: "debug", sink: (r) => records.push(r) }) });
    const calls = new Map<string, number>();
    const controller = mgr.controller("counted").for(ConfigMap, { namespace: "metric" }).owns(Secret, { namespace: "metric" }).reconcile((req) => {
      const n = (calls.get(req.name) ?? 0) + 1;
      calls.set(req.name, n);
      if (req.name === "failing" && n === 1) throw new Error("boom");
      if (req.name === "later" && n === 1) return Action.requeueAfter(20);
      return Action.done();
    });
    const runs = observeRuns(controller);
    await raw(cluster.url, "POST", "/api/v1/namespaces/metric/configmaps", { metadata: { name: "listed" } });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      for (const name of ["added", "failing", "later"]) await raw(cluster.url, "POST", "/api/v1/namespaces/metric/configmaps", { metadata: { name } });
      await raw(cluster.url, "PATCH", "/api/v1/namespaces/metric/configmaps/added", { data: { x: "1" } }, "application/merge-patch+json");
      await waitFor(() => runs.filter((r) => r.end).length >= 6, "six runs", 10_000);
      controller.enqueue({ namespace: "metric", name: "added" });
      await waitFor(() => runs.filter((r) => r.end && r.run.trigger.reason === "manual").length === 1, "the manual run");
      const text = await mgr.metrics.text();
      const count = (kind: string, reason: string) => {
        const m = text.match(new RegExp(`^operator_runtime_reconcile_triggers_total\\{controller="counted",kind="${kind}",reason="${reason}"\\} (\\d+)$`, "m"));
        return m ? Number(m[1]) : 0;
      };
      assert.equal(count("ConfigMap", "initial-list"), 1, text);
      assert.equal(count("ConfigMap", "added"), 3);
      assert.equal(count("ConfigMap", "modified"), 1);
      assert.equal(count("", "retry"), 1);
      assert.equal(count("", "requeue-after"), 1);
      assert.equal(count("", "manual"), 1);
      assert.match(text, /# HELP operator_runtime_reconcile_triggers_total /);

      const reconciled = records.filter((r) => r.msg === "reconciled");
      assert.ok(reconciled.length >= 6);
      for (const r of reconciled) {
        assert.equal(r.level, "debug");
        const trigger = r.trigger as { reason?: string; summary?: string };
        assert.ok(trigger && typeof trigger.reason === "string", `trigger on ${JSON.stringify(r)}`);
        assert.equal(typeof trigger.summary, "string");
      }
      const modified = reconciled.find((r) => (r.trigger as { event?: string }).event === "MODIFIED" && r.key === "metric/added");
      assert.equal((modified?.trigger as { summary?: string }).summary, "ConfigMap metric/added MODIFIED (data)");
      assert.deepEqual((modified?.trigger as { changed?: string[] }).changed, ["data"]);
      const failed = records.find((r) => r.level === "error" && r.key === "metric/failing");
      assert.match(String(failed?.msg), /reconcile failed/);
      assert.equal((failed?.trigger as { event?: string }).event, "ADDED");
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("a Metrics provider written before reconcileTrigger existed still works (the hook is optional)", async () => {
    const metrics = new Metrics();
    const legacy = {
      workQueue: (name: string) => metrics.workQueue(name),
      controller: (name: string) => {
        const { reconcileTrigger: _dropped, ...rest } = metrics.controller(name);
        return rest;
      },
    };
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, logger: silentLogger });
    await within(cache.start(new AbortController().signal), "the cache to sync");
    let runs = 0;
    const controller = new Controller({ name: "legacy", source: cache, metrics: legacy, for: { kind: ConfigMap, namespace: "metric" }, reconcile: () => void runs++ });
    await within(controller.start(new AbortController().signal), "the controller to start");
    try {
      await waitFor(() => runs >= 1, "a run");
    } finally {
      await within(controller.stop(), "controller.stop()");
      await within(cache.stop(), "cache.stop()");
    }
  });
});
