import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import { HealthServer } from "../../src/manager/health-server.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { within } from "../support/wait.ts";

/** An IPv4 address of this machine that is not loopback: a peer there is "another machine" to the server. */
const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

/** Starts a health server on all interfaces, runs `fn` with its port, stops it. */
async function withServer(options: { metricsAccess?: "loopback" | "any" }, fn: (port: number) => Promise<void>): Promise<void> {
  const server = new HealthServer({ host: "0.0.0.0", metrics: new Metrics(), checks: { healthz: () => true, readyz: () => true }, ...options });
  await server.start(new AbortController().signal);
  try {
    await fn(server.port);
  } finally {
    await within(server.stop(), "the health server to stop");
  }
}

describe("who may read /metrics", { skip: external ? false : "this machine has no non-loopback IPv4 address to connect from" }, () => {
  it("serves /metrics to loopback only by default, while probes answer every peer", async () => {
    await withServer({}, async (port) => {
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 200);
      const remote = await fetch(`http://${external}:${port}/metrics`);
      assert.equal(remote.status, 403);
      assert.match(await remote.text(), /metricsAccess: "any"/);
      assert.equal((await fetch(`http://${external}:${port}/healthz`)).status, 200);
      assert.equal((await fetch(`http://${external}:${port}/readyz`)).status, 200);
    });
  });

  it("serves /metrics to every peer with metricsAccess: \"any\"", async () => {
    await withServer({ metricsAccess: "any" }, async (port) => {
      assert.equal((await fetch(`http://${external}:${port}/metrics`)).status, 200);
    });
  });
});
