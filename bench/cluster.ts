/**
 * `npm run bench -- cluster`: LocalCluster throughput and memory.
 *
 * Compares, in one process and one run: GET by name, create, list of 1,000 objects and watch
 * fan-out (events delivered per second to 10 watchers) against a bare node:http server that
 * answers a fixed 1 KiB JSON (the ceiling for any server on this machine and Node), and
 * measures heap per stored 1 KiB ConfigMap. Target: GET ≥ 50 % of the ceiling; ≤ 4 KiB heap
 * per 1 KiB ConfigMap. Then the cost of a request next to unrelated objects
 * (`./cluster-unrelated.ts`; `BENCH_UNRELATED=50000` for the full size), and of one large
 * custom resource (`./cluster-large.ts`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { LocalCluster } from "../src/testing/index.ts";
import { load } from "./load.ts";
import { runUnrelated } from "./cluster-unrelated.ts";
import { runLarge } from "./cluster-large.ts";

const KIB = "x".repeat(1024 - 120);
const fixedJson = JSON.stringify({ kind: "ConfigMap", apiVersion: "v1", metadata: { name: "fixed", namespace: "default" }, data: { blob: KIB } });

async function bareServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer({ keepAlive: true }, (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(fixedJson) });
    res.end(fixedJson);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

function cmBody(name: string): string {
  return JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default", labels: { bench: "1" } }, data: { blob: KIB } });
}

async function watchFanOut(cluster: LocalCluster, watchers: number, events: number): Promise<number> {
  let delivered = 0;
  const target = watchers * events;
  const rv = cluster.resourceVersion;
  const streams: http.ClientRequest[] = [];
  let resolveAll!: () => void;
  const all = new Promise<void>((r) => (resolveAll = r));
  const base = new URL(cluster.url);
  for (let w = 0; w < watchers; w++) {
    const req = http.get({ host: base.hostname, port: base.port, path: `/api/v1/namespaces/fan/configmaps?watch=true&resourceVersion=${rv}` }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        for (let i = chunk.indexOf("\n"); i >= 0; i = chunk.indexOf("\n", i + 1)) delivered++;
        if (delivered >= target) resolveAll();
      });
    });
    streams.push(req);
  }
  while (cluster.watchCount() < watchers) await new Promise((r) => setTimeout(r, 5));
  const start = performance.now();
  await load({
    url: cluster.url, method: "POST", path: () => "/api/v1/namespaces/fan/configmaps",
    body: (i) => JSON.stringify({ metadata: { name: `f${i}` }, data: { v: String(i) } }),
    concurrency: 8, durationMs: 60_000, maxRequests: events, expect: 201,
  });
  await all;
  const seconds = (performance.now() - start) / 1000;
  for (const s of streams) s.destroy();
  return delivered / seconds;
}

async function heapPerObject(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return NaN;
  const cluster = await LocalCluster.start();
  const n = 10_000;
  gc();
  const before = process.memoryUsage().heapUsed;
  await load({ url: cluster.url, method: "POST", path: () => "/api/v1/namespaces/default/configmaps",
    body: (i) => cmBody(`mem-${i}`), concurrency: 8, durationMs: 120_000, maxRequests: n, expect: 201 });
  gc();
  const after = process.memoryUsage().heapUsed;
  if (cluster.objectCount() < n) throw new Error("not all objects stored");
  await cluster.stop();
  return (after - before) / n;
}

const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");

/** Runs the benchmark and prints the table (and a JSON line). */
export async function run(): Promise<void> {
  const durationMs = Number(process.env.BENCH_MS ?? 3000);
  const bare = await bareServer();
  await load({ url: bare.url, path: () => "/", durationMs: 500, expect: 200 }); // warm-up
  const ceilingBefore = await load({ url: bare.url, path: () => "/", durationMs, expect: 200 });

  const cluster = await LocalCluster.start();
  await load({ url: cluster.url, method: "POST", path: () => "/api/v1/namespaces/default/configmaps", body: () => cmBody("fixed"), maxRequests: 1 });
  await load({ url: cluster.url, path: () => "/api/v1/namespaces/default/configmaps/fixed", durationMs: 500, expect: 200 }); // warm-up
  const get = await load({ url: cluster.url, path: () => "/api/v1/namespaces/default/configmaps/fixed", durationMs, expect: 200 });
  const create = await load({ url: cluster.url, method: "POST", path: () => "/api/v1/namespaces/default/configmaps",
    body: (i) => cmBody(`c-${i}`), durationMs, expect: 201 });
  await cluster.stop();
  // The ceiling is measured before and after LocalCluster's runs; the better one counts.
  const ceilingAfter = await load({ url: bare.url, path: () => "/", durationMs, expect: 200 });
  await bare.close();
  const ceiling = ceilingAfter.perSecond > ceilingBefore.perSecond ? ceilingAfter : ceilingBefore;

  const listCluster = await LocalCluster.start();
  await load({ url: listCluster.url, method: "POST", path: () => "/api/v1/namespaces/default/configmaps",
    body: (i) => cmBody(`l-${i}`), maxRequests: 1000, durationMs: 60_000, expect: 201 });
  const list = await load({ url: listCluster.url, path: () => "/api/v1/namespaces/default/configmaps", durationMs, concurrency: 4, expect: 200 });
  await listCluster.stop();

  const fanCluster = await LocalCluster.start();
  await load({ url: fanCluster.url, method: "POST", path: () => "/api/v1/namespaces", body: () => JSON.stringify({ metadata: { name: "fan" } }), maxRequests: 1 });
  const fan = await watchFanOut(fanCluster, 10, 2000);
  await fanCluster.stop();

  const heap = await heapPerObject();
  const rows: [string, string, string, string][] = [
    ["GET by name (1 KiB ConfigMap)", `${fmt(get.perSecond)} req/s`, `${fmt(ceiling.perSecond)} req/s`, `${((get.perSecond / ceiling.perSecond) * 100).toFixed(0)} % of ceiling (target ≥ 50 %)`],
    ["create (1 KiB ConfigMap)", `${fmt(create.perSecond)} req/s`, `${fmt(ceiling.perSecond)} req/s`, `${((create.perSecond / ceiling.perSecond) * 100).toFixed(0)} % of ceiling`],
    ["list of 1,000 ConfigMaps", `${fmt(list.perSecond)} lists/s`, "", `${fmt(list.perSecond * 1000)} objects/s`],
    ["watch fan-out (10 watchers)", `${fmt(fan)} events/s`, "", "events delivered to all watchers"],
    ["heap per stored 1 KiB ConfigMap", Number.isFinite(heap) ? `${(heap / 1024).toFixed(2)} KiB` : "run with --expose-gc", "", "target ≤ 4 KiB"],
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length), ["measure", "LocalCluster", "bare node:http", "note"][c]!.length));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\nLocalCluster vs a bare node:http server (Node ${process.version}, ${durationMs} ms per run, 16 keep-alive clients)\n`);
  console.log(line(["measure", "LocalCluster", "bare node:http", "note"]));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log(`\n${JSON.stringify({ bench: "cluster", getPerSecond: get.perSecond, ceilingPerSecond: ceiling.perSecond, createPerSecond: create.perSecond, listsPerSecond: list.perSecond, fanOutEventsPerSecond: fan, heapBytesPerConfigMap: heap })}`);
  await runUnrelated();
  await runLarge();
}
