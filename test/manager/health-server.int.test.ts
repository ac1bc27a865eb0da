import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import type { Socket } from "node:net";
import { HealthServer } from "../../src/manager/health-server.ts";
import { Metrics } from "../../src/manager/metrics.ts";
import { within } from "../support/wait.ts";

describe("HealthServer over real HTTP", () => {
  let server: HealthServer;
  let base: string;
  const metrics = new Metrics();
  let ready: boolean | Error = false;

  before(async () => {
    metrics.controller("dataapp").reconcileResult("success");
    server = new HealthServer({
      metrics,
      checks: {
        healthz: () => true,
        readyz: async () => {
          if (ready instanceof Error) throw ready;
          return ready;
        },
      },
    });
    await server.start(new AbortController().signal);
    base = `http://127.0.0.1:${server.port}`;
  });
  after(() => within(server.stop(), "the health server to stop"));

  it("serves /metrics as Prometheus text with the registry's content type", async () => {
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    assert.match(await res.text(), /controller_runtime_reconcile_total\{controller="dataapp",result="success"\} 1/);
  });

  it("answers /healthz 200 ok", async () => {
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "ok");
  });

  it("answers /readyz 500 with a reason while not ready, the error's message when the check throws, 200 when ready", async () => {
    ready = false;
    let res = await fetch(`${base}/readyz`);
    assert.equal(res.status, 500);
    assert.match(await res.text(), /readyz check failed: not ready/);
    ready = new Error("cache for example.com/v1 DataApp not synced");
    res = await fetch(`${base}/readyz?verbose`);
    assert.equal(res.status, 500);
    assert.match(await res.text(), /cache for example.com\/v1 DataApp not synced/);
    ready = true;
    res = await fetch(`${base}/readyz`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "ok");
  });

  it("answers 404 for other paths and 405 for other methods", async () => {
    assert.equal((await fetch(`${base}/`)).status, 404);
    assert.equal((await fetch(`${base}/metricsx`)).status, 404);
    const post = await fetch(`${base}/healthz`, { method: "POST", body: "x" });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
  });

  it("answers /metrics 404 when no metrics were given", async () => {
    const bare = new HealthServer({ checks: { healthz: () => true, readyz: () => true } });
    await bare.start(new AbortController().signal);
    try {
      assert.equal((await fetch(`http://127.0.0.1:${bare.port}/metrics`)).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${bare.port}/readyz`)).status, 200);
    } finally {
      await within(bare.stop(), "the bare health server to stop");
    }
  });

  it("rejects start on a taken port with a clear error", async () => {
    const clash = new HealthServer({ port: server.port, checks: { healthz: () => true, readyz: () => true } });
    await assert.rejects(clash.start(new AbortController().signal), /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE.*Fix: choose a free port/);
  });

  it("stop closes the listener and open keep-alive connections", async () => {
    const s = new HealthServer({ checks: { healthz: () => true, readyz: () => true } });
    await s.start(new AbortController().signal);
    const port = s.port;
    // Hold a keep-alive connection open, as Prometheus does between scrapes.
    const socket = await within(new Promise<Socket>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/healthz", headers: { Connection: "keep-alive" } }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.socket!));
      });
      req.on("error", reject);
      req.end();
    }), "a kept-alive answer from /healthz");
    assert.equal(socket.destroyed, false, "the connection is kept alive");
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await within(s.stop(), "the health server to stop");
    await within(closed, "stop() to close the kept-alive connection");
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), /fetch failed/);
    await within(s.stop(), "the health server to stop"); // idempotent
    assert.throws(() => s.port, /not listening/);
  });
});
