/**
 * `npm run bench -- scale [--owners 100,1000,10000]`: how the cost of an operator grows with
 * the number of owners. For each size, three processes: LocalCluster (`scale-server.ts`), a
 * Manager-based DataApp operator (`scale-operator.ts`: ConfigMap, Secret, Deployment and
 * Service per owner through the Builder with the cache reader, status with
 * observedGeneration) and this one, which creates the owners as a user would and reads the
 * others' counters over IPC.
 *
 * Measured per size: converge wall time (first owner created → every owner's children applied
 * and status written, queue drained), operator CPU per reconcile, LocalCluster CPU per request,
 * requests, one-change latency while idle (patch an owner's spec → its ConfigMap written),
 * heap per cached object, operator RSS and its baseline before anything is cached, and
 * requests during an idle window beyond watch renewals, and the watch requests in it (LocalCluster
 * bookmarks quiet watches once a minute, as kube-apiserver does, so an idle watch that is torn
 * down early shows as watch requests beyond the `timeoutSeconds` renewals). Prints the table with the growth
 * ratio largest ÷ smallest and the targets of issue 11. Measures; never asserts.
 *
 * Options: `--owners 100,1000,10000` (sizes, default all three), `--workers 4`
 * (maxConcurrentReconciles), `--samples 50` (one-change samples), `--idle 75` (idle window,
 * seconds: longer than a bookmark interval and two of client-node's 30 s inactivity limits),
 * `--bookmark-interval 60` (seconds between LocalCluster's bookmarks on a quiet watch), `--timeout S` (converge bound per size; default 60 s + 60 ms per owner).
 * `--v8-defaults` runs the operator with V8's own heap sizing (without `gen manifests`' NODE_OPTIONS
 * and with `heapGrowingPercent: false`) instead of as deployed.
 * `SCALE_CHILD_NODE_OPTIONS="--cpu-prof"` passes Node options to both children,
 * `SCALE_OPERATOR_NODE_OPTIONS` to the operator only (e.g. `--max-semi-space-size=4`).
 */
import { parseArgs } from "node:util";
import { OPERATOR_NODE_OPTIONS } from "../src/cli/memory-sizing.ts";
import { DEFAULT_HEAP_GROWING_PERCENT } from "../src/manager/manager.ts";
import { DataApp } from "../examples/dataapp/dataapp.ts";
import { Child, epochMs } from "./scale-ipc.ts";
import { dataAppClusterReady } from "./dataapp-cluster.ts";
import type { ChildEvent } from "./scale-ipc.ts";

const NS = "scale";
const WARMUP_NS = "scale-warmup";
const PREFIX = "app-";
const CREATE_CONCURRENCY = 32;
const QUIET_MS = 300;
const KIB = 1024;
const MIB = 1024 * 1024;

interface Options { owners: number[]; workers: number; samples: number; idleS: number; bookmarkS: number; timeoutS: number | undefined; v8Defaults: boolean }

/** One size's measures (undefined where the run failed before measuring it). */
interface Measures {
  owners: number;
  convergeS: number; reconciles: number; opCpuPerReconcileMs: number; serverCpuS: number;
  serverRequests: number; serverCpuPerRequestMs: number; operatorRequests: number; operatorRequestsByVerb: Record<string, number>;
  changeP50Ms: number; changeP99Ms: number; statusP50Ms: number; statusP99Ms: number;
  cachedObjects: number; objectJsonKiB: number; heapPerObjectKiB: number;
  heapMiB: number; rssMiB: number; peakHeapMiB: number; maxRssMiB: number; externalMiB: number; heapTotalMiB: number; baselineRssMiB: number; heapBaselineMiB: number; rssBeforeImportMiB: number; rssAfterImportMiB: number;
  idleRequestsPerMin: number; idleWatchRenewals: number; idleOpenWatches: number; idleWindowS: number; idleOperatorCpuMsPerS: number;
  missingChildren: number; staleStatus: number;
}

interface Snapshot { cpuMs: number; total: number; byKey: Record<string, number>; rssBytes: number; objects: number; openWatches: number }

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv, allowPositionals: false, strict: true,
    options: {
      owners: { type: "string", default: "100,1000,10000" },
      workers: { type: "string", default: "4" },
      samples: { type: "string", default: "50" },
      idle: { type: "string", default: "75" },
      "bookmark-interval": { type: "string", default: "60" },
      timeout: { type: "string" },
      "v8-defaults": { type: "boolean", default: false },
    },
  });
  const num = (name: string, v: string, min: number) => {
    const n = Number(v.replaceAll("_", ""));
    if (!Number.isFinite(n) || n < min) throw new Error(`scale: --${name} ${v}: expected a number ≥ ${min}`);
    return n;
  };
  return {
    owners: values.owners.split(",").map((s) => Math.round(num("owners", s.trim(), 1))),
    workers: num("workers", values.workers, 1),
    samples: num("samples", values.samples, 1),
    idleS: num("idle", values.idle, 1),
    bookmarkS: num("bookmark-interval", values["bookmark-interval"], 0.01),
    timeoutS: values.timeout === undefined ? undefined : num("timeout", values.timeout, 1),
    v8Defaults: values["v8-defaults"],
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const diff = (a: Record<string, number>, b: Record<string, number>) => {
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(b)) if (n - (a[k] ?? 0)) out[k] = n - (a[k] ?? 0);
  return out;
};

function ownerSpec(name: string, rev: number) {
  // About 1 KiB per DataApp and per ConfigMap, so heap per cached object compares with the target's 1 KiB object.
  return { image: "example/app:1", replicas: 1, config: { "app.properties": `name=${name}\nrev=${rev}\n${"# padding\n".repeat(50)}` } };
}

async function waitIdle(operator: Child, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const p = await operator.call<{ idleForMs: number; queued: number; inFlight: number }>("progress");
    if (p.idleForMs >= quietMs) return;
    if (performance.now() > deadline) throw new Error(`operator: not idle within ${timeoutMs} ms (queued ${p.queued}, in flight ${p.inFlight})`);
    await delay(Math.min(quietMs, 10));
  }
}

async function measureSize(owners: number, opts: Options, log: (s: string) => void): Promise<Measures> {
  const children: Child[] = [];
  try {
    const server = Child.fork("LocalCluster", "./scale-server.ts", [String(Math.round(opts.bookmarkS * 1000))]);
    children.push(server);
    const { kubeconfigPath, client } = await dataAppClusterReady(server, "LocalCluster", NS, "scale-bench-user");

    // The operator runs as `gen manifests` deploys it (OPERATOR_NODE_OPTIONS; the Manager's default heapGrowingPercent), unless --v8-defaults.
    const operator = Child.fork("operator", "./scale-operator.ts", [kubeconfigPath, String(opts.workers), ...(opts.v8Defaults ? ["v8-defaults"] : [])],
      opts.v8Defaults ? [] : OPERATOR_NODE_OPTIONS.split(" "));
    children.push(operator);
    await operator.next("ready", 60_000);
    // One warm-up owner in its own namespace, so code compiled on first use is in the heap baseline.
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: WARMUP_NS } });
    await server.call("arm", { keys: [`dataapps/status ${PREFIX}warmup`] });
    await client.create({ ...DataApp, metadata: { name: `${PREFIX}warmup`, namespace: WARMUP_NS }, spec: ownerSpec("warmup", 0) });
    await server.next("write", 30_000, undefined, () => "the operator did not reconcile the warm-up owner");
    await waitIdle(operator, QUIET_MS, 30_000);
    await operator.call("warmed");
    log(`  ${owners} owners: LocalCluster and operator ready; creating owners`);

    // Converge.
    await operator.call("expect", { owners, quietMs: QUIET_MS });
    const s0 = await server.call<Snapshot>("snapshot");
    const t0 = epochMs();
    let next = 0;
    await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, async () => {
      while (next < owners) {
        const name = `${PREFIX}${next++}`;
        await client.create({ ...DataApp, metadata: { name, namespace: NS }, spec: ownerSpec(name, 0) });
      }
    }));
    const createdS = (epochMs() - t0) / 1000;
    const timeoutMs = (opts.timeoutS ?? 60 + 0.06 * owners) * 1000;
    const converged = await operator.next("converged", timeoutMs, undefined, async () => {
      const p = await operator.call<Record<string, unknown>>("progress", {}, 5000);
      return `${p.done}/${owners} owners done, ${p.reconciles} reconciles, ${p.failures} failed${p.lastError ? ` (last: ${p.lastError})` : ""}, ` +
        `${p.queued} queued, ${p.inFlight} in flight; raise --timeout or pick smaller --owners`;
    });
    const s1 = await server.call<Snapshot>("snapshot");
    const convergeS = (Number(converged.lastEndAt) - t0) / 1000;
    log(`  ${owners} owners: converged in ${convergeS.toFixed(2)} s (owners created in ${createdS.toFixed(2)} s); measuring memory`);
    const requests = diff(s0.byKey, s1.byKey);
    const userRequests = requests["create dataapps"] ?? 0;
    const operatorByVerb: Record<string, number> = {};
    for (const [k, n] of Object.entries(requests)) {
      if (k === "create dataapps") continue;
      const verb = k.split(" ")[0]!;
      operatorByVerb[verb] = (operatorByVerb[verb] ?? 0) + n;
    }
    const serverRequests = s1.total - s0.total;
    const mem = await operator.call<{
      rssBytes: number; heapBytes: number; heapTotalBytes: number; externalBytes: number; arrayBuffersBytes: number; peakHeapBytes: number; maxRssBytes: number;
      objects: number; jsonBytes: number; warmHeapBytes: number; warmObjects: number;
      baseline: { rssBytes: number; heapBytes: number }; beforeImport: { rssBytes: number }; afterImport: { rssBytes: number };
    }>("memory", {}, 120_000);

    // One change at a time, while idle: patch an owner's spec → its ConfigMap written (and its status).
    await waitIdle(operator, QUIET_MS, 60_000);
    const change: number[] = [];
    const status: number[] = [];
    for (let s = 0; s < opts.samples; s++) {
      const name = `${PREFIX}${Math.floor((s * owners) / opts.samples)}`;
      const keys = [`configmaps ${name}-config`, `dataapps/status ${name}`];
      await server.call("arm", { keys });
      const t = epochMs();
      await client.patch({ ...DataApp, name, namespace: NS }, { spec: ownerSpec(name, s + 1) }, "merge");
      const byKey = (k: string) => (e: ChildEvent) => e.key === k;
      const cm = await server.next("write", 10_000, byKey(keys[0]!), () => `the operator did not write ConfigMap ${name}-config within 10 s of the owner's change`);
      const st = await server.next("write", 10_000, byKey(keys[1]!), () => `the operator did not write the status of ${name} within 10 s of its change`);
      change.push(Number(cm.at) - t);
      status.push(Number(st.at) - t);
      await waitIdle(operator, 20, 10_000);
    }

    // Idle window: nothing changes; count what is still requested.
    await waitIdle(operator, QUIET_MS, 60_000);
    const i0 = await server.call<Snapshot>("snapshot");
    const o0 = await operator.call<{ cpuMs: number }>("mark");
    await delay(opts.idleS * 1000);
    const i1 = await server.call<Snapshot>("snapshot");
    const o1 = await operator.call<{ cpuMs: number }>("mark");
    const idle = diff(i0.byKey, i1.byKey);
    const idleWatchRenewals = Object.entries(idle).filter(([k]) => k.startsWith("watch ")).reduce((n, [, c]) => n + c, 0);
    const idleOther = i1.total - i0.total - idleWatchRenewals;

    const verify = await server.call<{ missingChildren: number; staleStatus: number }>("verify", { namespace: NS, owners, prefix: PREFIX }, 120_000);
    const reconciles = Number(converged.reconciles);
    return {
      owners,
      convergeS, reconciles,
      opCpuPerReconcileMs: Number(converged.cpuMs) / reconciles,
      serverCpuS: (s1.cpuMs - s0.cpuMs) / 1000,
      serverRequests,
      serverCpuPerRequestMs: (s1.cpuMs - s0.cpuMs) / serverRequests,
      operatorRequests: serverRequests - userRequests,
      operatorRequestsByVerb: operatorByVerb,
      changeP50Ms: pct(change, 50), changeP99Ms: pct(change, 99), statusP50Ms: pct(status, 50), statusP99Ms: pct(status, 99),
      cachedObjects: mem.objects - mem.warmObjects,
      objectJsonKiB: mem.jsonBytes / mem.objects / KIB,
      heapPerObjectKiB: (mem.heapBytes - mem.warmHeapBytes) / (mem.objects - mem.warmObjects) / KIB,
      heapMiB: mem.heapBytes / MIB,
      rssMiB: mem.rssBytes / MIB,
      peakHeapMiB: mem.peakHeapBytes / MIB,
      maxRssMiB: mem.maxRssBytes / MIB,
      externalMiB: mem.externalBytes / MIB,
      heapTotalMiB: mem.heapTotalBytes / MIB,
      baselineRssMiB: mem.baseline.rssBytes / MIB,
      heapBaselineMiB: mem.baseline.heapBytes / MIB,
      rssBeforeImportMiB: mem.beforeImport.rssBytes / MIB,
      rssAfterImportMiB: mem.afterImport.rssBytes / MIB,
      idleRequestsPerMin: idleOther / (opts.idleS / 60),
      idleWatchRenewals,
      idleOpenWatches: i0.openWatches,
      idleWindowS: opts.idleS,
      idleOperatorCpuMsPerS: (o1.cpuMs - o0.cpuMs) / opts.idleS,
      missingChildren: verify.missingChildren, staleStatus: verify.staleStatus,
    };
  } finally {
    await Promise.all(children.map((c) => c.stop().catch(() => c.kill())));
  }
}

/** A row of the table; `met` judges the target (on the growth ratio when `ratio`, which needs two sizes). */
interface Row {
  measure: string; value: (m: Measures) => number; fmt: (n: number, m: Measures) => string;
  target?: string; ratio?: boolean; met?: (all: Measures[], ratio: number) => boolean;
}

const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const mib = (n: number) => `${n.toFixed(0)} MiB`;

const ROWS: Row[] = [
  { measure: "converge wall time", value: (m) => m.convergeS, fmt: (n) => `${n.toFixed(2)} s` },
  { measure: "reconciles to converge", value: (m) => m.reconciles, fmt: int },
  { measure: "operator CPU per reconcile", value: (m) => m.opCpuPerReconcileMs, fmt: ms,
    target: "≤ 1.5× from 100 to 10,000", ratio: true, met: (_, r) => r <= 1.5 },
  { measure: "LocalCluster CPU per request", value: (m) => m.serverCpuPerRequestMs, fmt: ms,
    target: "flat within 1.5×", ratio: true, met: (_, r) => r <= 1.5 },
  { measure: "LocalCluster CPU to converge", value: (m) => m.serverCpuS, fmt: (n) => `${n.toFixed(2)} s` },
  { measure: "operator requests to converge", value: (m) => m.operatorRequests, fmt: int },
  { measure: "operator requests per owner", value: (m) => m.operatorRequests / m.owners, fmt: (n) => n.toFixed(2) },
  { measure: "one change → child written, p50", value: (m) => m.changeP50Ms, fmt: ms },
  { measure: "one change → child written, p99", value: (m) => m.changeP99Ms, fmt: ms,
    target: "< 100 ms at 10,000", met: (all) => all.at(-1)!.changeP99Ms < 100 }, // judged at the largest size run
  { measure: "one change → status written, p99", value: (m) => m.statusP99Ms, fmt: ms },
  { measure: "cached objects", value: (m) => m.cachedObjects, fmt: int },
  { measure: "cached object size (JSON)", value: (m) => m.objectJsonKiB, fmt: (n) => `${n.toFixed(2)} KiB` },
  { measure: "heap per cached object", value: (m) => m.heapPerObjectKiB, fmt: (n) => `${n.toFixed(2)} KiB`,
    target: "≤ 2 KiB for a 1 KiB object", // judged at the largest size run: fixed costs (one-off heap growth after warm-up) weigh on small ones
    met: (all) => all.at(-1)!.heapPerObjectKiB <= 2 * Math.max(1, all.at(-1)!.objectJsonKiB) },
  { measure: "operator heap after converge (after GC)", value: (m) => m.heapMiB, fmt: mib },
  { measure: "operator peak heap while converging (sampled: a lower bound)", value: (m) => m.peakHeapMiB, fmt: (n, m) => `${mib(n)} (${(n / m.heapMiB).toFixed(1)}×)`,
    target: "≤ 2 × heap after GC", met: (all) => all.every((m) => m.peakHeapMiB <= 2 * m.heapMiB) },
  { measure: "operator V8 heap reserved (heapTotal)", value: (m) => m.heapTotalMiB, fmt: mib },
  { measure: "operator external (buffers, strings outside the heap)", value: (m) => m.externalMiB, fmt: mib },
  { measure: "operator RSS after converge", value: (m) => m.rssMiB, fmt: (n, m) => `${mib(n)} (floor + ${((n - m.baselineRssMiB) / m.heapMiB).toFixed(1)} × heap)`,
    target: "≤ 330 MiB at 10,000; ≤ floor + 2 × heap", met: (all) => all.every((m) => m.rssMiB <= m.baselineRssMiB + 2 * m.heapMiB) && (all.at(-1)!.owners !== 10_000 || all.at(-1)!.rssMiB <= 330) },
  { measure: "operator peak RSS (kernel max)", value: (m) => m.maxRssMiB, fmt: mib },
  { measure: "operator baseline RSS (nothing cached)", value: (m) => m.baselineRssMiB, fmt: mib },
  { measure: "idle requests/min beyond watch renewals", value: (m) => m.idleRequestsPerMin, fmt: (n) => n.toFixed(1),
    target: "0", met: (all) => all.every((m) => m.idleRequestsPerMin === 0) },
  { measure: "idle watch requests (renewals)", value: (m) => m.idleWatchRenewals, fmt: (n, m) => `${int(n)} of ${int(m.idleOpenWatches)} watches`,
    // Each watch is renewed when its timeoutSeconds (300–600 s) ends: at most once per 300 s each.
    target: "≤ watches × ⌈idle ÷ 300 s⌉", met: (all) => all.every((m) => m.idleWatchRenewals <= m.idleOpenWatches * Math.ceil(m.idleWindowS / 300)) },
  { measure: "operator idle CPU", value: (m) => m.idleOperatorCpuMsPerS, fmt: (n) => `${n.toFixed(2)} ms/s` },
];

function printTable(results: (Measures | Error)[], opts: Options): void {
  const ok = results.filter((r): r is Measures => !(r instanceof Error));
  const first = ok[0];
  const last = ok.at(-1);
  const ratioHead = first && last && first !== last ? `${int(last.owners)} ÷ ${int(first.owners)}` : "growth";
  const head = ["measure", ...opts.owners.map((n) => `${int(n)} owners`), ratioHead, "target", "met"];
  const body = ROWS.map((row) => {
    const ratio = first && last && first !== last ? row.value(last) / row.value(first) : NaN;
    const cells = results.map((r) => (r instanceof Error ? "failed" : row.fmt(row.value(r), r)));
    const ratioCell = Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "";
    let met = !row.met || !last || (row.ratio && !Number.isFinite(ratio)) ? "" : row.met(ok, ratio) ? "yes" : "no";
    if (met && !row.ratio && last!.owners !== 10_000) met += ` (at ${int(last!.owners)})`;
    return [row.measure, ...cells, ratioCell, row.target ?? "", met];
  });
  const widths = head.map((_, c) => Math.max(head[c]!.length, ...body.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\nScale: DataApp owners × 4 children, operator and LocalCluster in separate processes (Node ${process.version}, ${opts.workers} workers; ` +
    `operator ${opts.v8Defaults ? "with V8's default heap sizing" : `as deployed: ${OPERATOR_NODE_OPTIONS}, heapGrowingPercent ${DEFAULT_HEAP_GROWING_PERCENT}`})\n`);
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of body) console.log(line(r));
  for (const r of results) {
    if (r instanceof Error) console.log(`\nfailed: ${r.message}`);
    else {
      const verbs = Object.entries(r.operatorRequestsByVerb).sort().map(([v, n]) => `${v} ${n}`).join(", ");
      console.log(`\n${int(r.owners)} owners: operator requests {${verbs}}; LocalCluster ${int(r.serverRequests)} requests in all; ` +
        `operator RSS ${mib(r.rssBeforeImportMiB)} before imports, ${mib(r.rssAfterImportMiB)} after, heap ${mib(r.heapBaselineMiB)} at baseline; ` +
        `idle window ${opts.idleS} s (bookmarks every ${opts.bookmarkS} s): ${r.idleWatchRenewals} watch requests for ${r.idleOpenWatches} open watches; change → status p50 ${ms(r.statusP50Ms)}`);
      if (r.missingChildren || r.staleStatus) {
        console.log(`  WARNING: after the run ${r.missingChildren} owners lack a child and ${r.staleStatus} have a stale status: the measures above are not of a converged system`);
      }
    }
  }
  for (let i = 1; i < ok.length; i++) {
    const [a, b] = [ok[i - 1]!, ok[i]!];
    const marginal = ((b.heapMiB - a.heapMiB) * MIB) / (b.cachedObjects - a.cachedObjects) / KIB;
    console.log(`marginal heap per cached object from ${int(a.owners)} to ${int(b.owners)} owners: ${marginal.toFixed(2)} KiB (fixed costs cancel out)`);
  }
  console.log(`\n${JSON.stringify({ bench: "scale", workers: opts.workers, samples: opts.samples, idleSeconds: opts.idleS, bookmarkIntervalSeconds: opts.bookmarkS,
    results: results.map((r) => (r instanceof Error ? { error: r.message } : r)) })}`);
}

/** Runs the benchmark for each size and prints the table (and a JSON line). */
export async function run(argv: string[] = []): Promise<void> {
  const opts = parseOptions(argv);
  const results: (Measures | Error)[] = [];
  for (const owners of opts.owners) {
    const t = performance.now();
    try {
      results.push(await measureSize(owners, opts, (s) => console.log(s)));
    } catch (err) {
      console.log(`  ${owners} owners failed: ${(err as Error).message}`);
      results.push(err as Error);
    }
    console.log(`  ${owners} owners: done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  printTable(results, opts);
}
