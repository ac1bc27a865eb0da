/**
 * LocalCluster's cost per request next to unrelated objects: a create with ownerReferences
 * (which wakes the garbage collector), a list of one namespace's 100 ConfigMaps and a list
 * across namespaces by a label only those carry (`app=work`), in a cluster holding 100 and then
 * `BENCH_UNRELATED` (default 5,000) ConfigMaps labelled `app=other` in another namespace. The
 * cost should not grow with objects the request does not concern.
 *
 * Part of `npm run bench -- cluster`; alone: `node_modules/.bin/node --expose-gc bench/cluster-unrelated.ts`.
 * Full size: `BENCH_UNRELATED=50000`.
 */
import { LocalCluster } from "../src/testing/index.ts";
import { load } from "./load.ts";

/** One measured size: microseconds of wall time and of process CPU per request. */
export interface UnrelatedRow {
  unrelated: number;
  createUs: number;
  createCpuUs: number;
  listUs: number;
  listCpuUs: number;
  labelUs: number;
  labelCpuUs: number;
}

const BLOB = "x".repeat(200);

async function post(url: string, path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}

/** Runs `fn` and returns wall and CPU microseconds per request. */
async function measure(fn: () => Promise<{ requests: number }>): Promise<{ us: number; cpuUs: number }> {
  // Start from a collected heap, so one run does not pay for the garbage of the one before.
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const { requests } = await fn();
  const wall = (performance.now() - start) * 1000;
  const used = process.cpuUsage(cpu);
  return { us: wall / requests, cpuUs: (used.user + used.system) / requests };
}

async function one(unrelated: number, durationMs: number): Promise<UnrelatedRow> {
  const cluster = await LocalCluster.start();
  try {
    const { url } = cluster;
    for (const ns of ["other", "work"]) await post(url, "/api/v1/namespaces", { metadata: { name: ns } });
    const filled = await load({ url, method: "POST", path: () => "/api/v1/namespaces/other/configmaps",
      body: (i) => JSON.stringify({ metadata: { name: `u-${i}`, labels: { app: "other" } }, data: { blob: BLOB } }),
      concurrency: 8, durationMs: 600_000, maxRequests: unrelated, expect: 201 });
    if (filled.errors) throw new Error(`${filled.errors} failed creates`);
    for (let i = 0; i < 100; i++) {
      await post(url, "/api/v1/namespaces/work/configmaps", { metadata: { name: `w-${i}`, labels: { app: "work" } }, data: { blob: BLOB } });
    }
    const owner = await post(url, "/api/v1/namespaces/work/configmaps", { metadata: { name: "owner" } });
    const ref = { apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid };
    const create = await measure(() => load({ url, method: "POST", path: () => "/api/v1/namespaces/work/configmaps",
      body: (i) => JSON.stringify({ metadata: { name: `child-${i}`, ownerReferences: [ref] }, data: { blob: BLOB } }),
      concurrency: 4, durationMs, expect: 201 }));
    // The children go away again (through the collector) so the list sees the 100 ConfigMaps.
    const del = await fetch(`${url}/api/v1/namespaces/work/configmaps/owner`, { method: "DELETE" });
    await del.arrayBuffer();
    while ((await (await fetch(`${url}/api/v1/namespaces/work/configmaps?limit=1`)).json() as any).metadata.remainingItemCount > 99) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const list = await measure(() => load({ url, path: () => "/api/v1/namespaces/work/configmaps", concurrency: 4, durationMs, expect: 200 }));
    const label = await measure(() => load({ url, path: () => "/api/v1/configmaps?labelSelector=app%3Dwork", concurrency: 4, durationMs, expect: 200 }));
    return { unrelated, createUs: create.us, createCpuUs: create.cpuUs, listUs: list.us, listCpuUs: list.cpuUs, labelUs: label.us, labelCpuUs: label.cpuUs };
  } finally {
    await cluster.stop();
  }
}

/** Measures both sizes and prints the table (and a JSON line). */
export async function runUnrelated(): Promise<UnrelatedRow[]> {
  const big = Number(process.env.BENCH_UNRELATED ?? 5000);
  const durationMs = Number(process.env.BENCH_MS ?? 1500);
  const rows = [await one(100, durationMs), await one(big, durationMs)];
  const [a, b] = rows as [UnrelatedRow, UnrelatedRow];
  const f = (n: number) => `${Math.round(n).toLocaleString("en-US")} µs`;
  const r = (x: number, y: number) => `${(y / x).toFixed(2)}×`;
  const lines = [
    ["request (per request, 4 clients)", `${a.unrelated.toLocaleString("en-US")} unrelated`, `${b.unrelated.toLocaleString("en-US")} unrelated`, "ratio"],
    ["create with ownerReferences: wall", f(a.createUs), f(b.createUs), r(a.createUs, b.createUs)],
    ["create with ownerReferences: CPU", f(a.createCpuUs), f(b.createCpuUs), r(a.createCpuUs, b.createCpuUs)],
    ["list of one namespace (100 objects): wall", f(a.listUs), f(b.listUs), r(a.listUs, b.listUs)],
    ["list of one namespace (100 objects): CPU", f(a.listCpuUs), f(b.listCpuUs), r(a.listCpuUs, b.listCpuUs)],
    ["list app=work, all namespaces (100): wall", f(a.labelUs), f(b.labelUs), r(a.labelUs, b.labelUs)],
    ["list app=work, all namespaces (100): CPU", f(a.labelCpuUs), f(b.labelCpuUs), r(a.labelCpuUs, b.labelCpuUs)],
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...lines.map((l) => l[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\nLocalCluster cost per request next to unrelated objects (ConfigMaps in another namespace; ${durationMs} ms per run; CPU is the whole process's, load generator included)\n`);
  console.log(line(lines[0]!));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const l of lines.slice(1)) console.log(line(l));
  console.log(`\n${JSON.stringify({ bench: "cluster-unrelated", rows })}`);
  return rows;
}

if (import.meta.main) await runUnrelated();
