/**
 * `npm run bench -- memory`: heap per cached object, and what LocalCluster's bounded history
 * and request log hold.
 *
 * Cache: CACHE_OBJECTS (default 2,000) ConfigMaps of 1 KiB data, written by server-side apply
 * (so each has managedFields), cached by a {@link Cache} with `transform: "none"` (the objects
 * as sent) and with the default transform (managedFields dropped), each in a fresh process.
 *
 * History: 200 updates of one 512 KiB ConfigMap, with the byte bound off (`historyBytes:
 * Infinity`, the count-only behaviour) and at its default (64 MiB). Request log: heap per kept
 * record, from 20,000 GETs with an unbounded log, and what the default 10,000 records cost.
 * Run with `--expose-gc` (the npm script does) so heap figures are after a full collection.
 */
import { LocalCluster } from "../src/testing/index.ts";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ConfigMap, ResourceClient } from "../src/index.ts";

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

const CACHE_OBJECTS = Number(process.env.CACHE_OBJECTS ?? 2000);
export const CACHE_NAMESPACE = "cache";
const KB = 1024;

/** Heap bytes per object held in a fresh process (`bench/cache-heap.ts`) for one mode. */
async function cacheHeap(kubeConfigText: string, mode: "none" | "default"): Promise<number> {
  const child = spawn(process.execPath, ["--expose-gc", fileURLToPath(new URL("./cache-heap.ts", import.meta.url)), mode], { stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.end(kubeConfigText);
  let out = "";
  for await (const chunk of child.stdout) out += String(chunk);
  const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", resolve)));
  if (code !== 0) throw new Error(`bench/cache-heap.ts ${mode} exited with ${code}`);
  const { bytes, objects } = JSON.parse(out) as { bytes: number; objects: number };
  return bytes / objects;
}

export async function cacheSection(): Promise<void> {
  const cluster = await LocalCluster.start();
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "bench-memory" });
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "cache" } });
  const blob = (i: number) => `${i}:`.padEnd(KB, "x");
  for (let i = 0; i < CACHE_OBJECTS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, CACHE_OBJECTS - i) }, (_, j) => client.apply(
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `cm-${i + j}`, namespace: "cache", labels: { app: "bench" } }, data: { blob: blob(i + j) } },
    )));
  }
  const sample = await client.get({ ...ConfigMap, namespace: "cache", name: "cm-0" });
  const json = JSON.stringify(sample).length;
  const mf = JSON.stringify(sample.metadata?.managedFields ?? []).length;
  const kubeConfigText = cluster.kubeConfig.exportConfig();
  const none = await cacheHeap(kubeConfigText, "none");
  const lean = await cacheHeap(kubeConfigText, "default");
  await cluster.stop();
  console.log(`cache of ${CACHE_OBJECTS} ConfigMaps with 1 KiB data, written by apply (${json} bytes of JSON each, ${mf} of them managedFields):`);
  console.log(`  transform: "none" (as sent):            ${(none / KB).toFixed(2)} KiB heap per object`);
  console.log(`  default (managedFields dropped):         ${(lean / KB).toFixed(2)} KiB heap per object`);
}

export async function run(): Promise<void> {
  if (!gc) console.log("(run with --expose-gc for heap figures after a full collection)");
  await cacheSection();
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
