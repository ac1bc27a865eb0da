/**
 * `npm run bench -- dashboard [--owners 1000] [--rounds 3]`: what the live dev dashboard costs
 * the operator (issue 25).
 *
 * Four DataApp operators (a ConfigMap and a Deployment per owner through the Builder with the
 * cache reader, and a status; `dashboard-operator.ts`), each in its own process against its own
 * LocalCluster process (`scale-server.ts`), so the API server's CPU stays out of the operator's:
 * the dashboard off; on with no page open; on with 5 plain server-sent-event clients reading
 * `/api/stream` in this process (the stream's cost without a browser competing for the CPU); and,
 * when Chromium is installed, on with 5 headless Chromium pages (each in its own browser context:
 * its own connections) on the owners view (the page's default: it refetches the owners tree as
 * reconciles end), and on with 5 pages on the timeline view. This process creates and touches
 * the owners as a user would.
 *
 * 1. CPU: each operator converges its owners (created at once, no page open yet), then update
 *    rounds touch every owner (a spec change: a ConfigMap update and a status write each). The
 *    rounds alternate between the operators in a rotating order, so the load of this shared
 *    machine falls on all alike. Measured per round: the operator process's CPU
 *    (process.cpuUsage, from the first touch until its queue has been empty for 300 ms) per
 *    reconcile, and the overhead against the "off" operator of the same round (the median over
 *    rounds is the figure). A round with pages that has not converged within `--window` seconds
 *    counts as saturated: its window is measured as it stands, the pages are closed so the
 *    operator drains, and that row runs no more rounds.
 * 2. Memory: once the timeline ring is full (extra rounds until it holds its 5,000 records),
 *    heap after a full collection and RSS of each operator, against the "off" one.
 * 3. Streaming: bytes per second the pages received over `/api/stream` in their rounds, and
 *    what they fetched besides (the owners tree, refetched as reconciles end).
 *
 * Options: `--owners N` (default 1000), `--rounds N` (update rounds per operator, default 3),
 * `--workers N` (default 4), `--pages N` (followers per row, default 5), `--sse` (no Chromium rows
 * even when it is installed), `--window S` (bound of a round with pages, default 30), `--no-fill` (memory
 * measured without first filling the timeline: quicker at small `--owners`), `--timeout S` (bound
 * per converge, default 60 s + 60 ms per owner).
 * `CHROMIUM_PATH` picks the browser (default /usr/bin/chromium); `DASHBOARD_OPERATOR_NODE_OPTIONS`
 * passes Node options to the operators (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 * Measures; never asserts.
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";
import { ResourceClient } from "../src/index.ts";
import { DataApp } from "../examples/dataapp/dataapp.ts";
import { Child } from "./scale-ipc.ts";
import { dataAppClusterReady } from "./dataapp-cluster.ts";

const NS = "dash";
const PREFIX = "app-";
const CREATE_CONCURRENCY = 32;
const QUIET_MS = 300;
const MIB = 1024 * 1024;
/** The dashboard's default timeline ring (`DashboardOptions.timeline`), filled before memory is measured. */
const TIMELINE = 5000;
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

/** off; on with no page; on with plain SSE clients; on with pages on the owners view; on with pages on the timeline view. */
type Mode = "off" | "on" | "sse" | "owners" | "timeline";

interface Options { owners: number; rounds: number; workers: number; pages: number; sse: boolean; windowS: number; fill: boolean; timeoutS: number | undefined }

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv, allowPositionals: false, strict: true, allowNegative: true,
    options: {
      owners: { type: "string", default: "1000" },
      rounds: { type: "string", default: "3" },
      workers: { type: "string", default: "4" },
      pages: { type: "string", default: "5" },
      sse: { type: "boolean", default: false },
      window: { type: "string", default: "30" },
      fill: { type: "boolean", default: true },
      timeout: { type: "string" },
    },
  });
  const num = (name: string, v: string, min: number) => {
    const n = Number(v.replaceAll("_", ""));
    if (!Number.isFinite(n) || n < min) throw new Error(`dashboard: --${name} ${v}: expected a number ≥ ${min}`);
    return Math.round(n);
  };
  return {
    owners: num("owners", values.owners, 1), rounds: num("rounds", values.rounds, 1), workers: num("workers", values.workers, 1),
    pages: num("pages", values.pages, 1), sse: values.sse, windowS: num("window", values.window, 1), fill: values.fill,
    timeoutS: values.timeout === undefined ? undefined : num("timeout", values.timeout, 1),
  };
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** About 1 KiB per owner (and per ConfigMap); `rev` tells the operator which touch it has reconciled. */
function ownerSpec(name: string, rev: number) {
  return { image: "example/app:1", replicas: 1, config: { "app.properties": `name=${name}\nrev=${rev}\n${"# padding\n".repeat(50)}`, rev: String(rev) } };
}

/** One operator and its LocalCluster. */
interface Pair { mode: Mode; server: Child; operator: Child; client: ResourceClient; url: string }

/** A measured window of one operator; `saturated` when it ended before convergence. */
interface Window { cpuMs: number; reconciles: number; wallMs: number; saturated: boolean }

async function startPair(mode: Mode, workers: number): Promise<Pair> {
  const server = Child.fork(`LocalCluster (${mode})`, "./scale-server.ts", ["60000"]);
  const { kubeconfigPath, client } = await dataAppClusterReady(server, `LocalCluster (${mode})`, NS, "dashboard-bench-user");
  const operator = Child.fork(`operator (${mode})`, "./dashboard-operator.ts", [kubeconfigPath, mode === "off" ? "off" : "on", String(workers)],
    process.env.DASHBOARD_OPERATOR_NODE_OPTIONS?.split(" ").filter(Boolean) ?? []);
  const up = await operator.next("ready", 60_000);
  return { mode, server, operator, client, url: String(up.url) };
}

/**
 * Runs `touch` on every owner (32 at a time) and waits for the operator to converge on `rev`.
 * With `windowMs`, a round still running then is measured as it stands (`saturated`) and
 * `onSaturated` runs before waiting for the rest.
 */
async function measureRound(pair: Pair, owners: number, rev: number, timeoutMs: number, touch: (name: string) => Promise<unknown>,
  windowMs?: number, onSaturated?: () => Promise<void>): Promise<Window> {
  const m0 = await pair.operator.call<{ cpuMs: number; reconciles: number; at: number }>("mark");
  await pair.operator.call("expect", { owners, rev, quietMs: QUIET_MS });
  let next = 0;
  const touching = Promise.all(Array.from({ length: CREATE_CONCURRENCY }, async () => {
    while (next < owners) await touch(`${PREFIX}${next++}`);
  }));
  const why = async () => {
    const p = await pair.operator.call<Record<string, unknown>>("progress", {}, 5000);
    return `${p.done}/${owners} owners done, ${p.reconciles} reconciles, ${p.failures} failed${p.lastError ? ` (last: ${p.lastError})` : ""}, ${p.queued} queued, ${p.inFlight} in flight; raise --timeout or pick smaller --owners`;
  };
  if (windowMs !== undefined) {
    try {
      const done = await pair.operator.next("converged", windowMs);
      await touching;
      return { cpuMs: Number(done.cpuMs), reconciles: Number(done.reconciles), wallMs: Number(done.lastEndAt) - Number(done.startedAt), saturated: false };
    } catch {
      const m1 = await pair.operator.call<{ cpuMs: number; reconciles: number; at: number }>("mark");
      await onSaturated?.();
      await touching;
      await pair.operator.next("converged", timeoutMs, undefined, why);
      return { cpuMs: m1.cpuMs - m0.cpuMs, reconciles: m1.reconciles - m0.reconciles, wallMs: m1.at - m0.at, saturated: true };
    }
  }
  await touching;
  const done = await pair.operator.next("converged", timeoutMs, undefined, why);
  return { cpuMs: Number(done.cpuMs), reconciles: Number(done.reconciles), wallMs: Number(done.lastEndAt) - Number(done.startedAt), saturated: false };
}

/** What the followers of one dashboard received. */
interface Followers {
  kind: string;
  /** Whether it fetches anything besides the stream (a page does; a plain SSE client does not). */
  fetches: boolean;
  /** Bytes of server-sent events so far (all followers). */
  streamBytes(): number;
  /** Bytes fetched besides the stream so far (owners tree, state, assets). */
  fetchedBytes(): number;
  close(): Promise<void>;
}

function chromiumPath(): string | undefined {
  const p = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return existsSync(p) ? p : undefined;
}

/** `n` pages of `browser` on `url`, each in its own browser context (its own connections), counting what they receive. */
async function browserFollowers(browser: Browser, url: string, n: number, view: string): Promise<Followers> {
  let stream = 0;
  let fetched = 0;
  let hellos = 0;
  const errors: string[] = [];
  const contexts: Awaited<ReturnType<Browser["newContext"]>>[] = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    cdp.on("Network.eventSourceMessageReceived", (e) => {
      if (e.eventName === "hello") hellos++;
      stream += Buffer.byteLength(`event: ${e.eventName}\ndata: ${e.data}\n\n`);
    });
    const streams = new Set<string>();
    cdp.on("Network.requestWillBeSent", (e) => {
      if (e.request.url.includes("/api/stream")) streams.add(e.requestId);
    });
    cdp.on("Network.loadingFinished", (e) => {
      if (!streams.has(e.requestId)) fetched += e.encodedDataLength;
    });
    await page.goto(`${url}#${view}`, { waitUntil: "load" });
  }
  const deadline = performance.now() + 30_000;
  while (hellos < n) {
    if (performance.now() > deadline) throw new Error(`dashboard: ${hellos} of ${n} pages got the stream's hello within 30 s${errors.length ? ` (page errors: ${errors.slice(0, 3).join("; ")})` : ""}`);
    await delay(50);
  }
  let closed = false;
  return {
    kind: `${n} Chromium pages, ${view} view`, fetches: true, streamBytes: () => stream, fetchedBytes: () => fetched,
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    },
  };
}

/** `n` plain server-sent-event clients: `GET /api/stream`, body read and counted. */
async function sseFollowers(url: string, n: number): Promise<Followers> {
  const abort = new AbortController();
  let stream = 0;
  let hellos = 0;
  const readers: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}api/stream`, { signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`dashboard: GET /api/stream answered ${res.status}`);
    const body = res.body;
    readers.push((async () => {
      let first = true;
      try {
        for await (const chunk of body) {
          stream += (chunk as Uint8Array).byteLength;
          if (first && Buffer.from(chunk as Uint8Array).includes("event: hello")) {
            first = false;
            hellos++;
          }
        }
      } catch {
        // aborted at close
      }
    })());
  }
  while (hellos < n) await delay(20);
  return {
    kind: `${n} plain SSE clients (no browser)`, fetches: false, streamBytes: () => stream, fetchedBytes: () => 0,
    close: async () => {
      abort.abort();
      await Promise.all(readers);
    },
  };
}

const pct = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? "+" : ""}${(v * 100).toFixed(1)} %` : "");
const fmtMs = (v: number) => `${v.toFixed(2)} ms`;
const kib = (v: number) => `${(v / 1024).toFixed(1)} KiB`;
const signed = (v: number, digits: number) => `${v >= 0 ? "+" : ""}${v.toFixed(digits)}`;

function table(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\n${title}\n${line(header)}\n| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const r of rows) console.log(line(r));
}

/** Runs the benchmark and prints the tables (and a JSON line). */
export async function run(argv: string[] = []): Promise<void> {
  const opts = parseOptions(argv);
  const timeoutMs = (opts.timeoutS ?? 60 + 0.06 * opts.owners) * 1000;
  const log = (s: string) => console.log(`  ${s}`);
  const t0 = performance.now();
  const browserPath = opts.sse ? undefined : chromiumPath();
  // Without Chromium there are no pages: the plain SSE clients only.
  const modes: Mode[] = browserPath ? ["off", "on", "sse", "owners", "timeline"] : ["off", "on", "sse"];
  const pairs: Pair[] = [];
  const followers = new Map<Mode, Followers>();
  let browser: Browser | undefined;
  try {
    for (const mode of modes) pairs.push(await startPair(mode, opts.workers));
    const byMode = (m: Mode) => pairs.find((p) => p.mode === m)!;
    log(`${modes.length} LocalClusters and operators up`);

    // Converge: every operator's owners created at once (one operator at a time, no page open).
    const converge = new Map<Mode, Window>();
    for (const pair of pairs) {
      const w = await measureRound(pair, opts.owners, 0, timeoutMs, (name) => pair.client.create({ ...DataApp, metadata: { name, namespace: NS }, spec: ownerSpec(name, 0) }));
      converge.set(pair.mode, w);
      log(`${pair.mode}: ${opts.owners} owners converged in ${(w.wallMs / 1000).toFixed(2)} s (${w.reconciles} reconciles)`);
    }

    // The followers.
    followers.set("sse", await sseFollowers(byMode("sse").url, opts.pages));
    if (browserPath) {
      const { chromium } = await import("playwright-core");
      browser = await chromium.launch({ executablePath: browserPath, headless: true, args: CHROMIUM_ARGS });
      followers.set("owners", await browserFollowers(browser, byMode("owners").url, opts.pages, "owners"));
      followers.set("timeline", await browserFollowers(browser, byMode("timeline").url, opts.pages, "timeline"));
    }
    for (const [m, f] of followers) log(`${f.kind} follow the "${m}" operator's dashboard (${byMode(m).url})`);

    // Update rounds, alternating operators in a rotating order; a saturated row runs no more rounds.
    const rounds = new Map<Mode, Window[]>(modes.map((m) => [m, []]));
    const streamed = new Map<Mode, { ms: number; stream: number; fetched: number }>();
    const retired = new Set<Mode>();
    let rev = 0;
    for (let r = 0; r < opts.rounds; r++) {
      rev++;
      const order = modes.map((_, i) => modes[(i + r) % modes.length]!).filter((m) => !retired.has(m));
      for (const mode of order) {
        const pair = byMode(mode);
        const f = followers.get(mode);
        const s0 = f?.streamBytes() ?? 0;
        const f0 = f?.fetchedBytes() ?? 0;
        let atSaturation: { stream: number; fetched: number } | undefined;
        const w = await measureRound(pair, opts.owners, rev, timeoutMs, (name) => pair.client.patch({ ...DataApp, name, namespace: NS }, { spec: ownerSpec(name, rev) }, "merge"),
          f ? opts.windowS * 1000 : undefined,
          async () => {
            atSaturation = { stream: f!.streamBytes(), fetched: f!.fetchedBytes() };
            await f!.close();
            retired.add(mode);
          });
        rounds.get(mode)!.push(w);
        if (f) {
          const s = streamed.get(mode) ?? { ms: 0, stream: 0, fetched: 0 };
          s.ms += w.wallMs + (w.saturated ? 0 : QUIET_MS);
          s.stream += (atSaturation?.stream ?? f.streamBytes()) - s0;
          s.fetched += (atSaturation?.fetched ?? f.fetchedBytes()) - f0;
          streamed.set(mode, s);
        }
        if (w.saturated) log(`${mode}: not converged within ${opts.windowS} s (${w.reconciles} reconciles, ${(w.reconciles / (w.wallMs / 1000)).toFixed(1)}/s): measured as it stood; its pages are closed`);
      }
      log(`round ${r + 1}/${opts.rounds}: ${order.map((m) => `${m} ${fmtMs(rounds.get(m)!.at(-1)!.cpuMs / rounds.get(m)!.at(-1)!.reconciles)}/reconcile`).join(", ")}`);
    }

    // Memory: fill the timeline ring, then a full collection in each operator.
    type Mem = { rssBytes: number; heapBytes: number; timeline: { records: number; jsonBytes: number }; reconciles: number };
    let mem = new Map<Mode, Mem>();
    for (;;) {
      mem = new Map(await Promise.all(pairs.map(async (p) => [p.mode, await p.operator.call<Mem>("memory", {}, 120_000)] as const)));
      const on = mem.get("on")!;
      // Full: it holds its capacity, or fewer records than the operator made reconciles (it dropped the oldest).
      if (!opts.fill || on.timeline.records >= TIMELINE || on.timeline.records < on.reconciles) break;
      rev++;
      log(`timeline holds ${on.timeline.records} of ${TIMELINE} records: one more round on each operator to fill it`);
      for (const pair of pairs) await measureRound(pair, opts.owners, rev, timeoutMs, (name) => pair.client.patch({ ...DataApp, name, namespace: NS }, { spec: ownerSpec(name, rev) }, "merge"));
    }

    // Tables.
    const off = rounds.get("off")!;
    const perRec = (w: Window) => w.cpuMs / w.reconciles;
    const overheads = (m: Mode) => rounds.get(m)!.map((w, i) => perRec(w) / perRec(off[i]!) - 1);
    const pooled = (ws: Window[]) => ws.reduce((n, w) => n + w.cpuMs, 0) / ws.reduce((n, w) => n + w.reconciles, 0);
    const rate = (ws: Window[]) => ws.reduce((n, w) => n + w.reconciles, 0) / (ws.reduce((n, w) => n + w.wallMs, 0) / 1000);
    const label = (m: Mode) => m === "off" ? "dashboard off" : m === "on" ? "dashboard on, no page open" : `dashboard on, ${followers.get(m)!.kind}`;
    table(`Dashboard: reconcile CPU of the operator process, ${opts.owners.toLocaleString("en-US")} owners (ConfigMap + Deployment + status each), ` +
      `${opts.rounds} update rounds per operator alternating (Node ${process.version}, ${opts.workers} workers)`,
      ["", "CPU per reconcile (rounds, pooled)", "overhead vs off (median of rounds)", "per-round overheads", "reconciles/s", "CPU per reconcile (converge, no page)", "target"],
      modes.map((m) => {
        const ws = rounds.get(m)!;
        const c = converge.get(m)!;
        const ov = overheads(m);
        const sat = ws.some((w) => w.saturated) ? ` (saturated: not converged within ${opts.windowS} s)` : "";
        return [
          label(m), fmtMs(pooled(ws)), m === "off" ? "" : pct(median(ov)), m === "off" ? "" : ov.map((v) => pct(v).replace(" ", "")).join(", "),
          `${rate(ws).toFixed(0)}${sat}`, `${fmtMs(c.cpuMs / c.reconciles)} (${c.reconciles} reconciles)`, m === "off" ? "" : "≤ 5 %",
        ];
      }));

    const offMem = mem.get("off")!;
    table(`Dashboard: memory after a full collection, ${opts.fill ? "timeline ring full" : "timeline as it stands (--no-fill)"}, ${opts.owners.toLocaleString("en-US")} owners`,
      ["", "timeline records (as JSON)", "heap", "heap vs off", "RSS", "RSS vs off", "target"],
      modes.map((m) => {
        const x = mem.get(m)!;
        return [
          label(m), m === "off" ? "" : `${x.timeline.records} (${(x.timeline.jsonBytes / MIB).toFixed(1)} MiB)`,
          `${(x.heapBytes / MIB).toFixed(1)} MiB`, m === "off" ? "" : `${signed((x.heapBytes - offMem.heapBytes) / MIB, 1)} MiB`,
          `${(x.rssBytes / MIB).toFixed(0)} MiB`, m === "off" ? "" : `${signed((x.rssBytes - offMem.rssBytes) / MIB, 0)} MiB`,
          m === "off" ? "" : "heap ≤ 20 MiB",
        ];
      }));

    table("Dashboard: what the followers received during their operator's update rounds",
      ["followers", "seconds, reconciles", "stream (SSE) bytes/s, all", "per page", "fetched besides (owners tree…) bytes/s, all", "operator CPU overhead vs off"],
      [...streamed].map(([m, s]) => {
        const f = followers.get(m)!;
        const sec = s.ms / 1000;
        return [f.kind, `${sec.toFixed(1)} s, ${rounds.get(m)!.reduce((n, w) => n + w.reconciles, 0)}`, `${kib(s.stream / sec)}/s`, `${kib(s.stream / sec / opts.pages)}/s`,
          f.fetches ? `${kib(s.fetched / sec)}/s` : "n/a", pct(median(overheads(m)))];
      }));
    console.log(`\n  done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`\n${JSON.stringify({
      bench: "dashboard", owners: opts.owners, rounds: opts.rounds, workers: opts.workers, followers: Object.fromEntries([...followers].map(([m, f]) => [m, f.kind])),
      cpuPerReconcileMs: Object.fromEntries(modes.map((m) => [m, pooled(rounds.get(m)!)])),
      overheadMedian: Object.fromEntries(modes.filter((m) => m !== "off").map((m) => [m, median(overheads(m))])),
      perRound: Object.fromEntries(rounds), converge: Object.fromEntries(converge), memory: Object.fromEntries(mem), streamed: Object.fromEntries(streamed),
    })}`);
  } finally {
    for (const f of followers.values()) await f.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await Promise.all(pairs.flatMap((p) => [p.operator, p.server]).map((c) => c.stop().catch(() => c.kill())));
  }
}
