/**
 * What a Manager logs when it starts: where its health server listens (a `healthPort: 0` port is
 * otherwise unknowable from outside), and "leading" only when it holds a leader Lease.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager } from "../../src/manager/manager.ts";
import type { ManagerOptions } from "../../src/manager/manager.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { waitFor, within } from "../support/wait.ts";

describe("Manager start log", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()", 30_000));

  /** Starts a Manager with `extra` options and healthPort 0 until its controllers start; returns its log records and port. */
  async function started(extra: Partial<ManagerOptions>): Promise<{ records: LogRecord[]; port: number }> {
    const records: LogRecord[] = [];
    const mgr = new Manager({
      kubeConfig: cluster.kubeConfig, fieldManager: "start-log", healthPort: 0, healthHost: "127.0.0.1", recorder: false,
      logger: createLogger({ sink: (r) => records.push(r) }), ...extra,
    });
    await mgr.start();
    try {
      // A leader election candidate starts its controllers once it holds the Lease, after start().
      await waitFor(() => records.some((r) => /starting controllers/.test(r.msg)), "the controllers to start", 10_000);
      return { records, port: mgr.health!.port };
    } finally {
      await mgr.stop();
    }
  }

  it("logs the chosen health port, and says leading only with leader election", async () => {
    const cases: { name: string; extra: Partial<ManagerOptions>; start: RegExp }[] = [
      { name: "plain", extra: {}, start: /^starting controllers$/ },
      { name: "leader election", extra: { leaderElection: { namespace: "default", name: "start-log", retryPeriodMs: 100 } }, start: /^leading: starting controllers$/ },
      { name: "sharded", extra: { sharding: { ring: "start-log", namespace: "default", retryPeriodMs: 100 } }, start: /^starting controllers: they reconcile the buckets the ring assigns$/ },
    ];
    for (const c of cases) {
      const { records, port } = await started(c.extra);
      const serving = records.find((r) => r.msg === "serving /metrics, /healthz and /readyz");
      assert.ok(serving, `${c.name}: a log line says where the health server listens`);
      assert.equal(serving.port, port, `${c.name}: it names the port chosen for healthPort 0`);
      assert.notEqual(port, 0);
      assert.equal(serving.host, "127.0.0.1", `${c.name}: and the address`);
      const starting = records.filter((r) => /starting controllers/.test(r.msg));
      assert.equal(starting.length, 1, `${c.name}: one line when controllers start`);
      assert.match(starting[0]!.msg, c.start, c.name);
    }
  });
});
