/**
 * `npm run bench -- builder`: the Builder vs a naive client-node reconcile (GET then PUT every
 * object, as the Go operator-runtime does) and vs apply-everything (a server-side apply of every
 * object on every reconcile, as kubernetes-fluent-client does) for a Pinot-like owner with 16
 * children: time, API requests and writes for the first, a no-op and a one-ConfigMap-changed
 * reconcile, plus CPU per no-op reconcile when live objects come from a cache.
 *
 * The cache row reads through the shared informer `Cache` (namespace-scoped informers per
 * managed kind). Everything runs in one process with LocalCluster, so wall times include the
 * server's work; the cache row makes no API request at all.
 */
import { KubernetesObjectApi } from "@kubernetes/client-node";
import type { KubernetesObject } from "@kubernetes/client-node";
import { LocalCluster } from "../src/testing/index.ts";
import { Builder, ResourceClient } from "../src/index.ts";
import { Cache } from "../src/entries/cache.ts";
import type { KindRef, ObjectReader } from "../src/entries/client.ts";
import type { KubeObject } from "../src/index.ts";
import { pinotObjects } from "./pinot-like.ts";

const NS = "pinot";
const KINDS: KindRef[] = [
  { apiVersion: "v1", kind: "ConfigMap" }, { apiVersion: "v1", kind: "Secret" }, { apiVersion: "v1", kind: "Service" },
  { apiVersion: "v1", kind: "PersistentVolumeClaim" }, { apiVersion: "apps/v1", kind: "StatefulSet" }, { apiVersion: "apps/v1", kind: "Deployment" },
];

interface Row { scenario: string; ms: number; requests: number; writes: number; byVerb: string }

function byVerb(summary: Record<string, number>): string {
  const verbs: Record<string, number> = {};
  for (const [k, n] of Object.entries(summary)) {
    const verb = k.split(" ")[0]!;
    verbs[verb] = (verbs[verb] ?? 0) + n;
  }
  return Object.entries(verbs).sort().map(([v, n]) => `${v} ${n}`).join(", ");
}

async function measure(cluster: LocalCluster, scenario: string, fn: () => Promise<unknown>): Promise<Row> {
  cluster.requests.clear();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const all = cluster.requests.all().filter((r) => r.resource !== "events");
  return { scenario, ms, requests: all.length, writes: cluster.requests.writes() - cluster.requests.writes({ resource: "events" }), byVerb: byVerb(cluster.requests.summary()) };
}

async function ownerIn(cluster: LocalCluster, client: ResourceClient, name: string): Promise<KubeObject> {
  return client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data: { role: "owner" } });
}

async function applyEverything(client: ResourceClient, owner: KubeObject, objects: KubeObject[]): Promise<void> {
  for (const o of objects) {
    await client.apply({ ...o, metadata: { ...o.metadata, namespace: NS, ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: owner.metadata!.name!, uid: owner.metadata!.uid!, controller: true }] } }, { force: true });
  }
}

async function naiveReconcile(api: KubernetesObjectApi, owner: KubeObject, objects: KubeObject[]): Promise<void> {
  for (const o of objects) {
    const desired = { ...o, metadata: { ...o.metadata, namespace: NS, ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: owner.metadata!.name!, uid: owner.metadata!.uid!, controller: true }] } } as KubernetesObject;
    try {
      const live = await api.read(desired as { metadata: { name: string; namespace: string } } & KubernetesObject);
      desired.metadata!.resourceVersion = live.metadata?.resourceVersion;
      await api.replace(desired);
    } catch (err) {
      if ((err as { code?: number }).code !== 404) throw err;
      await api.create(desired);
    }
  }
}

/** Round-trip time added to every request in the "over a network" rows. */
const LATENCY_MS = 10;

/** Runs the benchmark and prints the table (and a JSON line). */
export async function run(): Promise<void> {
  const cluster = await LocalCluster.start();
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "pinot-operator" });
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  const builderOwner = await ownerIn(cluster, client, "pinot-a");
  const naiveOwner = await ownerIn(cluster, client, "pinot-b");
  const applyOwner = await ownerIn(cluster, client, "pinot-c");
  const build = (config = {}, reader?: ObjectReader) => {
    let b = new Builder({ client, owner: builderOwner, ...(reader ? { reader } : {}) });
    for (const o of pinotObjects("a", config)) {
      if (o.kind === "ConfigMap") b = b.configMap(o);
      else if (o.kind === "StatefulSet") b = b.statefulSet(o);
      else if (o.kind === "Service") b = b.service(o);
      else b = b.storage(o);
    }
    return b;
  };
  const changed = { broker: "pinot.broker.port=9001\n" };
  const api = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);

  const rows: { builder: Row; naive: Row; apply: Row }[] = [];
  // The first change of an object the Builder created also moves the create's field ownership
  // into its apply (one more write per object, once); the second change shows the steady cost.
  const changedAgain = { broker: "pinot.broker.port=9002\n" };
  for (const [scenario, config] of [["first reconcile", {}], ["no-op reconcile", {}], ["one ConfigMap changed", changed], ["the same ConfigMap changed again", changedAgain]] as const) {
    rows.push({
      builder: await measure(cluster, scenario, () => build(config).reconcile()),
      naive: await measure(cluster, scenario, () => naiveReconcile(api, naiveOwner, pinotObjects("b", config))),
      apply: await measure(cluster, scenario, () => applyEverything(client, applyOwner, pinotObjects("c", config))),
    });
  }

  // The first reconcile over a network: every request takes LATENCY_MS. One object at a time
  // costs the sum of the round trips; with the default concurrency, about one per phase.
  cluster.inject({ latencyMs: LATENCY_MS, times: Infinity });
  const slow: { label: string; row: Row }[] = [];
  for (const [label, concurrency, suffix] of [["Builder, concurrency 1", 1, "d"], ["Builder, default concurrency (8)", undefined, "e"]] as const) {
    const owner = await ownerIn(cluster, client, `pinot-${suffix}`);
    let b = new Builder({ client, owner, ...(concurrency ? { concurrency } : {}) });
    for (const o of pinotObjects(suffix, {})) {
      if (o.kind === "ConfigMap") b = b.configMap(o);
      else if (o.kind === "StatefulSet") b = b.statefulSet(o);
      else if (o.kind === "Service") b = b.service(o);
      else b = b.storage(o);
    }
    slow.push({ label, row: await measure(cluster, "first reconcile", () => b.reconcile()) });
  }
  const naiveSlowOwner = await ownerIn(cluster, client, "pinot-f");
  slow.push({ label: "naive GET+PUT", row: await measure(cluster, "first reconcile", () => naiveReconcile(api, naiveSlowOwner, pinotObjects("f", {}))) });
  cluster.clearFaults();

  // CPU per no-op reconcile with live objects from the informer cache (no API requests at all).
  const snapshot = new Cache({ client, kubeConfig: cluster.kubeConfig });
  for (const k of KINDS) snapshot.informer(k, { namespace: NS });
  await snapshot.start(new AbortController().signal);
  await build(changedAgain, snapshot).reconcile();
  cluster.requests.clear();
  // The steady state of a long-running operator: code compiled and heap sized by 300 passes
  // first (20 passes of warm-up measured 1.6 ms of CPU per pass, most of it compiling and GC).
  const n = 1000;
  for (let i = 0; i < 300; i++) await build(changedAgain, snapshot).reconcile();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await build(changedAgain, snapshot).reconcile();
  const cpu = process.cpuUsage(cpu0);
  const cachedMs = (performance.now() - t0) / n;
  const cpuMs = (cpu.user + cpu.system) / 1000 / n;
  const cachedRequests = cluster.requests.count({ verb: ["get", "list", "create", "update", "patch", "delete"] });
  await snapshot.stop();
  await cluster.stop();

  const fmt = (r: Row) => `${r.ms.toFixed(1)} ms, ${r.requests} req, ${r.writes} writes`;
  const table = [
    ["scenario", "Builder (SSA, hash + subset skip)", "naive GET+PUT (Go library style)", "apply everything (kubernetes-fluent-client style)"],
    ...rows.map(({ builder, naive, apply }) => [builder.scenario, fmt(builder), fmt(naive), fmt(apply)]),
    ["no-op, live objects from a cache", `${cpuMs.toFixed(3)} ms CPU, ${cachedMs.toFixed(3)} ms wall, ${cachedRequests} req (target ≤ 1.0 ms CPU)`, "n/a (always 16 GET + 16 PUT)", "n/a (always 16 applies)"],
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...table.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\nBuilder vs naive reconcile, Pinot-like owner with 16 children (Node ${process.version}, LocalCluster in-process)\n`);
  console.log(line(table[0]!));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of table.slice(1)) console.log(line(r));
  console.log("\nrequests by verb:");
  for (const { builder, naive, apply } of rows) console.log(`  ${builder.scenario}: Builder {${builder.byVerb}} · naive {${naive.byVerb}} · apply everything {${apply.byVerb}}`);
  console.log(`\nfirst reconcile of a new owner with ${LATENCY_MS} ms per request:`);
  for (const { label, row } of slow) console.log(`  ${label.padEnd(34)} ${fmt(row)}`);
  console.log(`\n${JSON.stringify({ bench: "builder", rows, slow, latencyMs: LATENCY_MS, cachedNoOpCpuMs: cpuMs, cachedNoOpWallMs: cachedMs, cachedRequests })}`);
}
