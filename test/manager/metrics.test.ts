import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { register as globalRegister } from "prom-client";
import { Metrics } from "../../src/manager/metrics.ts";

/** The value of one sample line, e.g. `name{labels} 3`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("Metrics", () => {
  it("controller hooks update controller-runtime's series with controller and result labels", async () => {
    const m = new Metrics();
    const hooks = m.controller("dataapp");
    hooks.reconcileResult("success");
    hooks.reconcileResult("success");
    hooks.reconcileResult("requeue_after");
    hooks.reconcileResult("error");
    hooks.reconcileError(false);
    hooks.reconcileResult("error");
    hooks.reconcileError(true);
    hooks.reconcileTime(0.03);
    hooks.reconcileTime(2);
    hooks.maxConcurrentReconciles(4);
    hooks.activeWorkers(2);
    const text = await m.text();
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="dataapp",result="success"}'), 2);
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="dataapp",result="requeue_after"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="dataapp",result="error"}'), 2);
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="dataapp",result="requeue"}'), 0, "every result series exists from the start");
    assert.equal(sample(text, 'controller_runtime_reconcile_errors_total{controller="dataapp"}'), 2, "terminal errors count as errors too");
    assert.equal(sample(text, 'controller_runtime_terminal_reconcile_errors_total{controller="dataapp"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_time_seconds_count{controller="dataapp"}'), 2);
    assert.equal(sample(text, 'controller_runtime_reconcile_time_seconds_sum{controller="dataapp"}'), 2.03);
    assert.equal(sample(text, 'controller_runtime_reconcile_time_seconds_bucket{le="0.05",controller="dataapp"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_time_seconds_bucket{le="60",controller="dataapp"}'), 2);
    assert.equal(sample(text, 'controller_runtime_max_concurrent_reconciles{controller="dataapp"}'), 4);
    assert.equal(sample(text, 'controller_runtime_active_workers{controller="dataapp"}'), 2);
    assert.match(text, /# TYPE controller_runtime_reconcile_time_seconds histogram/);
  });

  it("work-queue hooks update the workqueue_* series labelled name and controller", async () => {
    const m = new Metrics();
    const q = m.workQueue("dataapp");
    q.add();
    q.add();
    q.add();
    q.depth(2);
    q.queueLatency(0.0005);
    q.workDuration(0.2);
    q.retry();
    q.unfinishedWork(3.5, 2.25);
    const text = await m.text();
    const labels = '{name="dataapp",controller="dataapp"}';
    assert.equal(sample(text, `workqueue_adds_total${labels}`), 3);
    assert.equal(sample(text, `workqueue_depth${labels}`), 2);
    assert.equal(sample(text, `workqueue_retries_total${labels}`), 1);
    assert.equal(sample(text, `workqueue_unfinished_work_seconds${labels}`), 3.5);
    assert.equal(sample(text, `workqueue_longest_running_processor_seconds${labels}`), 2.25);
    assert.equal(sample(text, `workqueue_queue_duration_seconds_count${labels}`), 1);
    assert.equal(sample(text, 'workqueue_queue_duration_seconds_bucket{le="0.001",name="dataapp",controller="dataapp"}'), 1);
    assert.equal(sample(text, 'workqueue_queue_duration_seconds_bucket{le="0.0001",name="dataapp",controller="dataapp"}'), 0);
    assert.equal(sample(text, `workqueue_work_duration_seconds_sum${labels}`), 0.2);
  });

  it("returns the same hooks for the same name and keeps controllers apart", async () => {
    const m = new Metrics();
    assert.equal(m.controller("a"), m.controller("a"));
    assert.equal(m.workQueue("a"), m.workQueue("a"));
    m.controller("a").reconcileResult("success");
    m.controller("b");
    const text = await m.text();
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="a",result="success"}'), 1);
    assert.equal(sample(text, 'controller_runtime_reconcile_total{controller="b",result="success"}'), 0);
  });

  it("reports leader_election_master_status per lease name", async () => {
    const m = new Metrics();
    m.leaderStatus("my-operator", true);
    assert.equal(sample(await m.text(), 'leader_election_master_status{name="my-operator"}'), 1);
    m.leaderStatus("my-operator", false);
    assert.equal(sample(await m.text(), 'leader_election_master_status{name="my-operator"}'), 0);
  });

  it("uses a registry of its own, so two instances never collide and the global one stays empty", async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.controller("x").reconcileResult("success");
    assert.equal(sample(await b.text(), 'controller_runtime_reconcile_total{controller="x",result="success"}'), undefined);
    assert.equal(globalRegister.getSingleMetric("controller_runtime_reconcile_total"), undefined);
    assert.equal(a.contentType, "text/plain; version=0.0.4; charset=utf-8");
  });

  it("collects process metrics only when asked", async () => {
    assert.doesNotMatch(await new Metrics().text(), /process_cpu_user_seconds_total/);
    assert.match(await new Metrics({ defaultMetrics: true }).text(), /process_cpu_user_seconds_total/);
  });
});
