/**
 * Controller.plan: one reconcile run as server dry runs (LocalCluster, real HTTP): its writes
 * with the cached object before each and the server's answer, a Builder that only plans,
 * `ctx.dryRun`, no Events, nothing stored.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Action, Builder, Manager } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { Controller } from "../../src/entries/controller.ts";
import { silentLogger } from "../../src/entries/client.ts";
import { ConfigMap } from "../../src/kinds/index.ts";
import { defineKind } from "../../src/kinds/custom-resource.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const NS = "planning";
const DataApp = defineKind<Record<string, unknown>, { observed?: string }>({ apiVersion: "example.com/v1", kind: "DataApp" });

describe("Controller.plan (LocalCluster, real HTTP)", () => {
  let cluster: LocalCluster;
  let mgr: Manager;
  let controller: Controller;
  /** What the reconciler wants: the ConfigMap's value, and whether a second ConfigMap exists. */
  const desired = { version: "1", extra: false, deleteInPlan: "" };
  /** ctx.dryRun of each run. */
  const dryRuns: (boolean | undefined)[] = [];

  const get = (path: string) => raw(cluster.url, "GET", path);
  const eventsOnServer = async () => ((await get(`/apis/events.k8s.io/v1/namespaces/${NS}/events`)).body.items as { reason: string; note: string }[]);

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, fieldManager: "plan-test" });
    controller = mgr.controller("planned").for(DataApp, { status: ["patch"] }).owns(ConfigMap).reconcile(async (req, ctx) => {
      const app = await mgr.cache.get({ ...DataApp, namespace: req.namespace, name: req.name });
      if (!app) return Action.done();
      dryRuns.push(ctx.dryRun);
      const builder = new Builder({ client: mgr.client, owner: app, reader: mgr.cache, signal: ctx.signal })
        .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${req.name}-cfg` }, data: { v: desired.version } });
      if (desired.extra) builder.configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${req.name}-extra` }, data: { e: "1" } });
      await builder.reconcile();
      // A cleanup the reconciler makes itself (only in plans here, so real runs never delete it).
      if (desired.deleteInPlan && ctx.dryRun) await mgr.client.delete({ apiVersion: "v1", kind: "ConfigMap", namespace: req.namespace, name: desired.deleteInPlan });
      // A write of the reconciler's own, beside the Builder's.
      if (app.status?.observed !== desired.version) await mgr.client.patchStatus({ ...DataApp, namespace: req.namespace, name: req.name }, { status: { observed: desired.version } }, "merge");
      await mgr.recorder!.record(app, { type: "Normal", reason: ctx.dryRun ? "PlanRun" : "RealRun", action: "Reconcile", note: `version ${desired.version}` });
      return Action.done();
    });
    await within(mgr.start(), "mgr.start()", 15_000);
    await createDataApp(cluster.url, NS, "demo");
    await waitFor(async () => (await get(`/apis/example.com/v1/namespaces/${NS}/dataapps/demo`)).body?.status?.observed === "1", "the first real reconcile");
    await waitFor(async () => (await eventsOnServer()).some((e) => e.reason === "RealRun"), "the real run's Event");
  });
  after(async () => {
    await within(mgr.stop(), "mgr.stop()", 15_000);
    await within(cluster.stop(), "cluster.stop()");
  });

  it("sends every write as a server dry run, with the cached object before and the server's answer; nothing is stored", async () => {
    desired.version = "2";
    desired.extra = true;
    // Every real write to these fails: a plan that sent one would show its error.
    const fault = cluster.inject({ verb: ["create", "update", "patch", "delete"], resource: ["configmaps", "dataapps", "dataapps/status"], dryRun: false, code: 500, times: Infinity });
    let plan: Awaited<ReturnType<Controller["plan"]>>;
    try {
      plan = await within(controller.plan({ namespace: NS, name: "demo" }), "the plan");
    } finally {
      cluster.clearFaults();
    }
    assert.equal(fault.hits, 0, "no real write was sent");
    assert.equal(plan.run.plan, true);
    assert.equal(plan.run.key, `${NS}/demo`);
    assert.deepEqual(plan.run.trigger, { reason: "manual" });
    assert.equal(plan.end.outcome, "done", String(plan.end.error));
    assert.equal(dryRuns.at(-1), true, "ctx.dryRun is true in a plan");
    assert.ok(dryRuns.slice(0, -1).every((d) => d !== true), "and not in real runs");

    const line = (w: (typeof plan.writes)[number]) => `${w.verb} ${w.kind}/${w.name ?? w.answer?.metadata?.name}${w.subresource ? `/${w.subresource}` : ""} dryRun=${w.dryRun}`;
    assert.deepEqual(plan.writes.map(line).sort(), [
      "apply ConfigMap/demo-cfg dryRun=true",
      "create ConfigMap/demo-extra dryRun=true",
      "patch DataApp/demo/status dryRun=true",
    ]);
    for (const w of plan.writes) assert.equal(w.error, undefined, `${line(w)}: ${String(w.error)}`);
    const cfg = plan.writes.find((w) => w.name === "demo-cfg")!;
    assert.deepEqual((cfg.before as KubeObject & { data?: unknown }).data, { v: "1" }, "the cached object before");
    assert.deepEqual((cfg.answer as KubeObject & { data?: unknown }).data, { v: "2" }, "the server's answer: what it would store");
    const extra = plan.writes.find((w) => w.verb === "create")!;
    assert.equal(extra.before, undefined);
    assert.equal(extra.answer?.metadata?.name, "demo-extra");
    const status = plan.writes.find((w) => w.kind === "DataApp")!;
    assert.equal((status.before as { status?: { observed?: string } }).status?.observed, "1");
    assert.equal((status.answer as { status?: { observed?: string } }).status?.observed, "2");
    assert.ok(!plan.writes.some((w) => w.kind === "Event"), "no Event writes");

    // The Builder planned: its objects and actions.
    assert.equal(plan.builder.length, 1);
    assert.equal(plan.builder[0]!.owner.metadata?.name, "demo");
    assert.equal(plan.builder[0]!.result.dryRun, true);
    assert.deepEqual(plan.builder[0]!.result.objects.map((o) => `${o.action} ${o.kind}/${o.name}`).sort(), ["created ConfigMap/demo-extra", "updated ConfigMap/demo-cfg"]);
    assert.equal(plan.builder[0]!.result.objects.find((o) => o.name === "demo-cfg")!.reason, "the desired state changed");

    // Nothing stored.
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/demo-cfg`)).body.data, { v: "1" });
    assert.equal((await get(`/api/v1/namespaces/${NS}/configmaps/demo-extra`)).code, 404);
    assert.equal((await get(`/apis/example.com/v1/namespaces/${NS}/dataapps/demo`)).body.status.observed, "1");
    // A create names its object as the other writes do (GatedWrite.name is documented absent only for generateName).
    assert.equal(extra.name, "demo-extra");
  });

  it("records no Event in a plan, and runs no real reconcile; the next real run does what the plan said", async () => {
    desired.version = "3";
    desired.extra = false;
    const runsBefore = dryRuns.length;
    const plan = await within(controller.plan({ namespace: NS, name: "demo" }), "the plan");
    assert.equal(dryRuns.length, runsBefore + 1, "one run: the plan's");
    assert.deepEqual(plan.builder[0]!.result.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["updated ConfigMap/demo-cfg"]);
    // A real run now (its Event is recorded after the plan's would have been).
    controller.enqueue({ namespace: NS, name: "demo" });
    await waitFor(async () => (await eventsOnServer()).some((e) => e.reason === "RealRun" && e.note === "version 3"), "the real run's Event");
    const events = await eventsOnServer();
    assert.deepEqual(events.filter((e) => e.reason === "PlanRun"), [], "a plan records no Event");
    assert.ok(!events.some((e) => /demo-extra/.test(e.note)), "nor does its Builder");
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/demo-cfg`)).body.data, { v: "3" });
    assert.equal(dryRuns.at(-1), undefined);
  });

  it("a plan is not observed as a run and leaves the controller's own-write memory alone", async () => {
    const started: string[] = [];
    const stop = controller.observe({ started: (run) => void started.push(run.reconcileID) });
    try {
      const remembered = controller.inspect().rememberedWrites;
      desired.version = "4";
      const plan = await controller.plan({ namespace: NS, name: "demo" });
      assert.ok(plan.writes.length > 0);
      assert.deepEqual(started, [], "observers hear real runs only");
      assert.equal(controller.inspect().rememberedWrites, remembered);
    } finally {
      desired.version = "3";
      stop();
    }
  });

  it("answers the plan of a missing primary, and the reconciler's error as its outcome", async () => {
    const missing = await controller.plan({ namespace: NS, name: "nope" });
    assert.equal(missing.end.outcome, "done");
    assert.deepEqual(missing.writes, []);
    await assert.rejects(controller.plan(undefined as never), /Controller\.plan\(request\): request must be a request/);
  });

  it("ends a plan whose reconciler hangs at the reconcile timeout (it does not hang the caller)", async () => {
    let planned = 0;
    const hanging = new Controller({
      name: "hanging", source: mgr.cache, for: { kind: DataApp, namespace: NS }, reconcileTimeoutMs: 200,
      // Ignores its signal in a plan, as a reconciler waiting on another service may.
      reconcile: (_req, ctx) => (ctx.dryRun ? (planned++, new Promise<never>(() => undefined)) : Action.done()),
    });
    await within(hanging.start(new AbortController().signal), "the controller to start");
    try {
      const started = performance.now();
      const settled = await within(hanging.plan({ namespace: NS, name: "demo" }).then((p) => p, (err: unknown) => err), "the hanging plan to end", 2000);
      assert.equal(planned, 1);
      assert.ok(performance.now() - started >= 150, "not before the timeout");
      // Either way it ends: an error naming the timeout, or a plan whose outcome is an error.
      const message = settled instanceof Error ? settled.message : String((settled as { end: { error?: unknown } }).end.error);
      assert.match(message, /time|abort/i);
    } finally {
      await within(hanging.abort(), "hanging.abort()");
    }
  });

  it("sends a reconciler's DELETE as a dry run (in its DeleteOptions body, which the server reads first): the object stays", async () => {
    const created = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "doomed" }, data: { keep: "me" } });
    assert.equal(created.code, 201);
    desired.deleteInPlan = "doomed";
    try {
      const plan = await within(controller.plan({ namespace: NS, name: "demo" }), "the plan");
      assert.equal(plan.end.outcome, "done", String(plan.end.error));
      const del = plan.writes.find((w) => w.verb === "delete");
      assert.equal(del?.name, "doomed");
      assert.equal(del?.dryRun, true);
      assert.equal(del?.error, undefined);
    } finally {
      desired.deleteInPlan = "";
    }
    const still = await get(`/api/v1/namespaces/${NS}/configmaps/doomed`);
    assert.equal(still.code, 200, "the plan deleted nothing");
    assert.deepEqual(still.body.data, { keep: "me" });
  });

  it("refuses to plan on a controller that is not running, with a clear error", async () => {
    const idle = new Controller({ name: "idle", source: mgr.cache, for: { kind: ConfigMap }, reconcile: () => Action.done() });
    await assert.rejects(idle.plan({ namespace: NS, name: "demo" }), /controller idle: plan\(\) needs a running controller.*Fix: start the Manager first/);
    const other = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger });
    const c = other.controller("stopped").for(DataApp).reconcile(() => Action.done());
    await within(other.start(), "other.start()", 15_000);
    await within(other.stop(), "other.stop()", 15_000);
    await assert.rejects(c.plan({ namespace: NS, name: "demo" }), /controller stopped: plan\(\) needs a running controller/);
  });
});
