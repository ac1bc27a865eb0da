/**
 * `npm run bench -- runtime`: 1,000 DataApp owners (4 children each: ConfigMap, Secret,
 * Deployment, Service) created at once against LocalCluster, reconciled by one Manager with the
 * Builder reading from the shared cache: time to converge, API requests by verb, reconciles per
 * second, p50/p99 latency from an owner's creation to its first reconcile start, heap per
 * cached object; then an idle resync of every owner, which must write nothing.
 *
 * Env: OWNERS (default 1000), WORKERS (default 4).
 */
import { LocalCluster } from "../src/testing/index.ts";
import { Builder, Manager, Action, createLogger } from "../src/index.ts";
import type { KubeObject } from "../src/index.ts";
import { dataAppCrd } from "../examples/dataapp/dataapp.ts";

const OWNERS = Number(process.env.OWNERS ?? 1000);
const WORKERS = Number(process.env.WORKERS ?? 4);
const NS = "bench";
const KIND = { apiVersion: "example.com/v1", kind: "DataApp" };

function children(name: string): KubeObject[] {
  const labels = { app: name };
  return [
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-config` }, data: { "app.properties": `name=${name}` } },
    { apiVersion: "v1", kind: "Secret", metadata: { name: `${name}-secret` }, stringData: { token: `t-${name}` } },
    { apiVersion: "apps/v1", kind: "Deployment", metadata: { name },
      spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: {
        containers: [{ name: "app", image: "example/app:1", envFrom: [{ configMapRef: { name: `${name}-config` } }, { secretRef: { name: `${name}-secret` } }] }] } } } },
    { apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: labels, ports: [{ name: "http", port: 80 }] } },
  ];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** Runs the benchmark and prints the table (and a JSON line). */
export async function run(): Promise<void> {
  const cluster = await LocalCluster.start();
  const gc = (globalThis as { gc?: () => void }).gc;
  const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator", healthPort: false, logger: createLogger({ level: "error" }) });
  await mgr.client.create(dataAppCrd);
  await mgr.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  const createdAt = new Map<string, number>();
  const latencies: number[] = [];
  let reconciles = 0;
  let lastWriteAt = 0;
  mgr.client.requests.onRequest((r) => {
    if (r.verb !== "get" && r.verb !== "list" && r.verb !== "discovery") lastWriteAt = performance.now();
  });
  mgr.controller("dataapp").for(KIND).owns({ apiVersion: "apps/v1", kind: "Deployment" }).maxConcurrentReconciles(WORKERS)
    .reconcile(async (req) => {
      reconciles++;
      const t = createdAt.get(req.name);
      if (t !== undefined) {
        latencies.push(performance.now() - t);
        createdAt.delete(req.name);
      }
      const app = mgr.cache.informer(KIND).get(req.name, req.namespace);
      if (!app) return Action.done();
      let b = new Builder({ client: mgr.client, owner: app, reader: mgr.cache });
      for (const c of children(req.name)) {
        b = c.kind === "ConfigMap" ? b.configMap(c) : c.kind === "Secret" ? b.secret(c) : c.kind === "Deployment" ? b.deployment(c) : b.service(c);
      }
      const result = await b.reconcile();
      if (!result.ok) throw new AggregateError(result.errors);
      return Action.done();
    });
  await mgr.start();
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;

  cluster.requests.clear();
  const t0 = performance.now();
  const creates: Promise<unknown>[] = [];
  for (let i = 0; i < OWNERS; i++) {
    const name = `app-${i}`;
    creates.push(mgr.client.create({ ...KIND, metadata: { name, namespace: NS }, spec: { image: "x", config: {} } }).then(() => createdAt.set(name, performance.now())));
    if (creates.length >= 64) await Promise.all(creates.splice(0));
  }
  await Promise.all(creates);
  // Converged: every child exists in the cache and nothing has been written for a while.
  const deployments = mgr.cache.informer({ apiVersion: "apps/v1", kind: "Deployment" });
  for (;;) {
    const idle = performance.now() - lastWriteAt > 500 && mgr.controllers()[0]!.queue.len() === 0;
    if (deployments.list(NS).length >= OWNERS && idle) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const convergeMs = performance.now() - t0 - 500;
  const converge = { ...cluster.requests.summary() };
  const reconcilesToConverge = reconciles;
  gc?.();
  const cached = ["ConfigMap", "Secret", "Service"].reduce((n, k) => n + mgr.cache.informer({ apiVersion: "v1", kind: k }).list(NS).length, 0)
    + deployments.list(NS).length + mgr.cache.informer(KIND).list(NS).length;
  const heapPerObject = (process.memoryUsage().heapUsed - heapBefore) / cached;

  // Idle resync: every owner again, nothing should be written.
  cluster.requests.clear();
  const before = reconciles;
  const tr = performance.now();
  for (let i = 0; i < OWNERS; i++) mgr.controllers()[0]!.enqueue({ namespace: NS, name: `app-${i}` });
  while (reconciles - before < OWNERS || mgr.controllers()[0]!.queue.len() > 0) await new Promise((r) => setTimeout(r, 20));
  const resyncMs = performance.now() - tr;
  const resyncWrites = cluster.requests.writes({ resource: ["configmaps", "secrets", "deployments", "services"] });
  const resyncRequests = cluster.requests.count();
  await mgr.stop();
  await cluster.stop();

  const byVerb: Record<string, number> = {};
  for (const [k, n] of Object.entries(converge)) byVerb[k.split(" ")[0]!] = (byVerb[k.split(" ")[0]!] ?? 0) + n;
  const rows = [
    ["owners × children", `${OWNERS} × 4 (${WORKERS} workers)`],
    ["time to converge", `${(convergeMs / 1000).toFixed(2)} s`],
    ["API requests to converge", Object.entries(byVerb).sort().map(([v, n]) => `${v} ${n}`).join(", ")],
    ["reconciles to converge", `${reconcilesToConverge} (${(reconcilesToConverge / (convergeMs / 1000)).toFixed(0)} reconciles/s)`],
    ["owner created → reconcile start", `p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`],
    ["heap per cached object", Number.isFinite(heapPerObject) ? `${(heapPerObject / 1024).toFixed(2)} KiB (${cached} objects, operator and LocalCluster in one process)` : "run with --expose-gc"],
    ["idle resync of every owner", `${resyncWrites} writes, ${resyncRequests} requests, ${(resyncMs / 1000).toFixed(2)} s (${(OWNERS / (resyncMs / 1000)).toFixed(0)} reconciles/s)`],
  ];
  const w = Math.max(...rows.map((r) => r[0]!.length));
  console.log(`\nController runtime: ${OWNERS} owners created at once (Node ${process.version}, LocalCluster in-process)\n`);
  for (const [k, v] of rows) console.log(`| ${k!.padEnd(w)} | ${v} |`);
  console.log(`\n${JSON.stringify({ bench: "runtime", owners: OWNERS, convergeMs, byVerb, reconcilesToConverge, p50: pct(latencies, 50), p99: pct(latencies, 99), heapPerObject, resyncWrites, resyncRequests, resyncMs })}`);
}
