import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { Controller } from "../../src/entries/controller.ts";
import { ResourceClient, Action, createLogger, terminal } from "../../src/index.ts";
import { jsonLineSink } from "../../src/entries/client.ts";
import type { LogRecord } from "../../src/entries/client.ts";
import { hostileValues } from "../support/hostile-values.ts";
import { raw, waitFor, within } from "../support/wait.ts";

describe("Controller logging and error handling", () => {
  let cluster: LocalCluster;
  let cache: Cache;
  before(async () => {
    cluster = await LocalCluster.start();
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    await within(cache.start(new AbortController().signal), "the cache to sync");
  });
  after(async () => {
    await within(cache.stop(), "cache.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  it("puts controller, key and a per-run reconcile ID on every line; retries throws; stops on terminal errors", async () => {
    const records: LogRecord[] = [];
    const runs = new Map<string, number>();
    const controller = new Controller({
      name: "logged",
      source: cache,
      logger: createLogger({ level: "debug", sink: (r) => records.push(r) }),
      for: { kind: { apiVersion: "v1", kind: "ConfigMap" }, namespace: "default" },
      reconcile: (req, { log }) => {
        const n = (runs.get(req.name) ?? 0) + 1;
        runs.set(req.name, n);
        log.info("working", { attempt: n });
        if (req.name === "flaky" && n < 3) throw new Error(`attempt ${n} failed`); // a synchronous throw
        if (req.name === "broken") throw terminal(new Error("cannot ever work"));
        return Action.done();
      },
    });
    await within(controller.start(new AbortController().signal), "the controller to start");
    try {
      await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "flaky" } });
      await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "broken" } });
      await waitFor(() => runs.get("flaky") === 3 && runs.get("broken") === 1, "flaky retried to success, broken run once");
      const working = records.filter((r) => r.msg === "working");
      for (const r of working) {
        assert.equal(r.controller, "logged");
        assert.match(String(r.key), /^default\/(flaky|broken)$/);
        assert.match(String(r.reconcileID), /^[0-9a-f-]{36}$/);
        assert.equal(r.level, "info");
      }
      assert.equal(new Set(working.map((r) => r.reconcileID)).size, working.length, "one reconcile ID per run");
      const failures = records.filter((r) => r.level === "error");
      assert.equal(failures.filter((r) => r.key === "default/flaky").length, 2);
      assert.match(String(failures.find((r) => r.key === "default/broken")?.msg), /not retrying/);
      assert.ok(failures.every((r) => r.reconcileID), "error lines carry the reconcile ID");
      assert.equal(controller.queue.numRequeues("default/flaky"), 0, "backoff reset after success");
    } finally {
      await within(controller.stop(), "controller.stop()");
    }
    assert.equal(runs.get("broken"), 1, "a terminal error is not retried");
  });
  it("logs any thrown value (cyclic, BigInt, Symbol, throwing getters, proxies, huge) as one JSON line, retries it and keeps running", async () => {
    const values = hostileValues();
    const names = Object.keys(values).map((n) => `throws-${n.toLowerCase()}`);
    const thrown = new Map(Object.entries(values).map(([n, v], i) => [names[i]!, v]));
    const lines: string[] = [];
    const runs = new Map<string, number>();
    const controller = new Controller({
      name: "hostile",
      source: cache,
      logger: createLogger({ sink: jsonLineSink((line) => lines.push(line)) }),
      for: { kind: { apiVersion: "v1", kind: "ConfigMap" }, namespace: "default", predicates: [(e) => e.obj.metadata?.name?.startsWith("throws-") ?? false] },
      reconcile: async (req) => {
        const n = (runs.get(req.name) ?? 0) + 1;
        runs.set(req.name, n);
        if (thrown.has(req.name) && n < 3) throw thrown.get(req.name);
        return Action.done();
      },
    });
    await within(controller.start(new AbortController().signal), "the controller to start");
    try {
      for (const name of names) await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name } });
      await waitFor(() => names.every((n) => runs.get(n) === 3), "every hostile throw retried until the third run succeeds", 15_000);
      const created = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "throws-nothing" } });
      assert.equal(created.code, 201, created.text);
      await waitFor(() => runs.get("throws-nothing") === 1, "the controller still reconciles afterwards");
      const failures = lines.map((l) => JSON.parse(l)).filter((r) => r.level === "error");
      for (const name of names) {
        assert.equal(failures.filter((r) => r.key === `default/${name}`).length, 2, `two failures logged for ${name}`);
      }
      assert.ok(lines.every((l) => l.length < 1_000_000), "every line bounded");
      assert.equal(failures.find((r) => r.key === "default/throws-bigint")?.error, "12345678901234567890n");
    } finally {
      await within(controller.stop(), "controller.stop()");
    }
  });
});
