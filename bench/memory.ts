/**
 * `npm run bench -- memory`: what LocalCluster's bounded history and request log hold.
 *
 * History: 200 updates of one 512 KiB ConfigMap, with the byte bound off (`historyBytes:
 * Infinity`, the count-only behaviour) and at its default (64 MiB). Request log: heap per kept
 * record, from 20,000 GETs with an unbounded log, and what the default 10,000 records cost.
 * Run with `--expose-gc` (the npm script does) so heap figures are after a full collection.
 */
import { LocalCluster } from "../src/testing/index.ts";

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / MB;
}

async function send(url: string, method: string, path: string, body?: string): Promise<void> {
  const res = await fetch(url + path, { method, ...(body ? { body, headers: { "Content-Type": "application/json" } } : {}) });
  await res.arrayBuffer();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
}

async function historyHeap(historyBytes: number): Promise<number> {
  const cluster = await LocalCluster.start({ historyBytes });
  const base = heapMb();
  const path = "/api/v1/namespaces/default/configmaps";
  const blob = (i: number) => String(i % 10).repeat(512 * 1024);
  await send(cluster.url, "POST", path, JSON.stringify({ metadata: { name: "big" }, data: { blob: blob(0) } }));
  for (let i = 1; i <= 200; i++) {
    await send(cluster.url, "PUT", `${path}/big`, JSON.stringify({ metadata: { name: "big" }, data: { blob: blob(i) } }));
  }
  const heap = heapMb() - base;
  await cluster.stop();
  return heap;
}

async function requestLogHeap(requests: number, requestLogSize: number): Promise<number> {
  const cluster = await LocalCluster.start({ requestLogSize });
  await send(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", JSON.stringify({ metadata: { name: "one" } }));
  cluster.requests.clear();
  const base = heapMb();
  for (let i = 0; i < requests; i++) await send(cluster.url, "GET", "/api/v1/namespaces/default/configmaps/one");
  const heap = heapMb() - base;
  await cluster.stop();
  return heap;
}

export async function run(): Promise<void> {
  if (!gc) console.log("(run with --expose-gc for heap figures after a full collection)");
  const unbounded = await historyHeap(Infinity);
  const bounded = await historyHeap(64 * MB);
  console.log("history after 200 updates of a 512 KiB ConfigMap:");
  console.log(`  count bound only (historyBytes: Infinity): heap +${unbounded.toFixed(1)} MB`);
  console.log(`  default historyBytes (64 MiB):             heap +${bounded.toFixed(1)} MB`);
  const n = 20_000;
  const all = await requestLogHeap(n, Infinity);
  const ring = await requestLogHeap(n, 10_000);
  console.log(`request log after ${n} GETs:`);
  console.log(`  unbounded: heap +${all.toFixed(1)} MB (${((all * MB) / n).toFixed(0)} bytes a record)`);
  console.log(`  default requestLogSize (10,000): heap +${ring.toFixed(1)} MB`);
}
