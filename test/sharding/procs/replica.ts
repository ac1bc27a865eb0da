/**
 * One replica of a sharded operator, run as its own process (forked with an IPC channel) by
 * the sharded-process tests and the `shards` benchmark: a sharded Manager whose controller
 * reconciles `ShardOwner`s by writing their children with the Builder.
 *
 * Usage: `node replica.ts '<ReplicaConfig as JSON>'`, forked with an IPC channel.
 *
 * What it reports:
 * - The shared reconcile log (`config.log`): per reconcile, one `begin` line when it starts and
 *   one `end` line when it ends, each written whole by one `appendFileSync` (lines of several
 *   processes never interleave). Times are `Date.now()` (one clock for every process).
 * - Over IPC, unasked: `{ event: "ring", at, served, members, assignment, joined }` each time
 *   what the ring says changes (polled every 20 ms), and `{ event: "started" }` once the Manager
 *   started.
 * - Over IPC, asked (`{ id, cmd: "stats", gc?, profile? }`): {@link ReplicaStats} (heap after a
 *   collection with `gc: true` and `--expose-gc`); `profile: "start"` then starts a CPU profile,
 *   `profile: PATH` stops it and writes it to PATH.
 *
 * Children: a ConfigMap `<owner>-gen` whose data carries the owner's generation and `rev` (what
 * the tests check convergence by), plus with `children: 4` a Secret, a Service and a Deployment.
 * SIGTERM: `process.exit(await mgr.runUntilSignal())` — the ring hands the buckets over first.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { PerformanceObserver } from "node:perf_hooks";
import { KubeConfig } from "@kubernetes/client-node";
import { Builder, Manager, Action, createLogger } from "../../../src/index.ts";
import type { Request } from "../../../src/index.ts";
import { bucketOfUid } from "../../../src/cache/shard-buckets.ts";
import { ShardOwner, configMapOf } from "./owner.ts";
import type { LogLine, ReplicaConfig, ReplicaStats, RingEvent } from "./protocol.ts";

const config = JSON.parse(process.argv[2] ?? "{}") as ReplicaConfig;
const { identity } = config;
const gc = (globalThis as { gc?: () => void }).gc;
const send = (m: unknown) => {
  if (process.connected) process.send?.(m);
};
// Orphaned (the test or bench died): go too, without handing over (the others take over on expiry).
process.on("disconnect", () => process.exit(3));

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(config.kubeconfig);
const ConfigMap = { apiVersion: "v1", kind: "ConfigMap" };
const Secret = { apiVersion: "v1", kind: "Secret" };
const Service = { apiVersion: "v1", kind: "Service" };
const Deployment = { apiVersion: "apps/v1", kind: "Deployment" };

const mgr = new Manager({
  kubeConfig, healthPort: false, recorder: false, fieldManager: "shard-test",
  logger: createLogger({ level: config.logLevel ?? "warn" }).child({ replica: identity }),
  sharding: {
    ring: config.ring, namespace: config.leaseNamespace, identity,
    leaseDurationMs: config.leaseDurationMs, renewDeadlineMs: config.renewDeadlineMs, retryPeriodMs: config.retryPeriodMs,
  },
});

const line = (l: LogLine) => appendFileSync(config.log, `${JSON.stringify(l)}\n`);
let reconciles = 0;
let failures = 0;

/** The owner as cached by whichever informer of the owner kind holds it (the sharded one). */
async function ownerOf(req: Request): Promise<ShardOwner | undefined> {
  for (const informer of mgr.cache.informers()) {
    if (informer.kind.kind !== ShardOwner.kind || informer.kind.apiVersion !== ShardOwner.apiVersion) continue;
    const o = informer.get(req.name, req.namespace);
    if (o) return o as ShardOwner;
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}

const controller = mgr.controller("owner").for(ShardOwner).owns(ConfigMap);
if (config.children === 4) controller.owns(Secret).owns(Service).owns(Deployment);
controller.maxConcurrentReconciles(config.workers ?? 4).reconcile(async (req, { signal }) => {
  const key = `${req.namespace}/${req.name}`;
  const start = Date.now();
  reconciles++;
  line({ t: "begin", replica: identity, key, start });
  let ok = false;
  let gen: number | undefined;
  let bucket: number | undefined;
  try {
    const owner = await ownerOf(req);
    if (!owner) {
      ok = true;
      return Action.done();
    }
    gen = owner.metadata!.generation;
    bucket = bucketOfUid(owner.metadata!.uid!);
    if (config.reconcileDelayMs) await sleep(config.reconcileDelayMs, signal);
    const name = owner.metadata!.name!;
    const labels = { "app.kubernetes.io/name": "shard-owner", "app.kubernetes.io/instance": name };
    const b = new Builder({ client: mgr.client, owner, reader: mgr.cache, signal, labels })
      .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: configMapOf(name) },
        data: { generation: String(gen), rev: String(owner.spec.rev) } });
    if (config.children === 4) {
      b.secret({ apiVersion: "v1", kind: "Secret", metadata: { name: `${name}-secret` }, stringData: { token: `token-${name}` } })
        .service({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: labels, ports: [{ name: "http", port: 8080, targetPort: 8080 }] } })
        .deployment({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name }, spec: {
          replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: {
            containers: [{ name: "app", image: "example/app:1", envFrom: [{ configMapRef: { name: configMapOf(name) } }] }] } } } });
    }
    const result = await b.reconcile();
    if (!result.ok) throw new AggregateError(result.errors, `${name}: ${result.errors.map((e) => e.message).join("; ")}`);
    ok = true;
    return Action.done();
  } catch (err) {
    failures++;
    throw err;
  } finally {
    line({ t: "end", replica: identity, key, start, end: Date.now(), ok, ...(gen !== undefined ? { gen } : {}), ...(bucket !== undefined ? { bucket } : {}) });
  }
});

/**
 * Events received by informers the cache no longer holds: a sharded Manager replaces its
 * informers when its buckets change, and what the replaced ones received still counts (as of
 * the last 20 ms poll; the informers themselves are not kept, so their objects can be
 * collected).
 */
const informerIds = new WeakMap<object, number>();
let nextInformerId = 0;
let currentEvents = new Map<number, number>();
let retiredEvents = 0;
let retiredInformers = 0;
function noteInformers(): void {
  const now = new Map<number, number>();
  for (const i of mgr.cache.informers()) {
    let id = informerIds.get(i);
    if (id === undefined) informerIds.set(i, (id = nextInformerId++));
    now.set(id, i.eventsReceived);
  }
  for (const [id, n] of currentEvents) {
    if (now.has(id)) continue;
    retiredEvents += n;
    retiredInformers++;
  }
  currentEvents = now;
}

// What the ring says, pushed on change; informers noted on the same beat.
let last = "";
const watchRing = setInterval(() => {
  noteInformers();
  const ring = mgr.ring;
  if (!ring) return;
  const ev: RingEvent = {
    event: "ring", at: Date.now(),
    served: [...ring.served()].sort((a, b) => a - b), members: ring.members(),
    assignment: ring.assignment().map((o) => o ?? null), joined: ring.isJoined(),
  };
  const key = JSON.stringify([ev.served, ev.members, ev.assignment, ev.joined]);
  if (key === last) return;
  last = key;
  send(ev);
}, 20);
watchRing.unref();

/** Main-thread GC pauses so far, in ms. */
let gcPauseMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauseMs += e.duration;
}).observe({ entryTypes: ["gc"] });

function stats(collect: boolean): ReplicaStats {
  if (collect) gc?.();
  noteInformers();
  const informers = mgr.cache.informers().map((i) => ({
    name: i.name, kind: i.kind.kind, objects: i.list().length, events: i.eventsReceived,
    shardFiltering: i.shardFiltering ?? null, shardSelector: i.shardSelector ?? null, labelSelector: i.labelSelector ?? null,
  }));
  const cpu = process.cpuUsage();
  const usage = process.resourceUsage();
  const mem = process.memoryUsage();
  return {
    identity, cpuMs: (cpu.user + cpu.system) / 1000, systemCpuMs: cpu.system / 1000, contextSwitches: usage.voluntaryContextSwitches + usage.involuntaryContextSwitches, pageFaults: usage.minorPageFault + usage.majorPageFault, gcPauseMs, heapBytes: mem.heapUsed, rssBytes: mem.rss,
    eventsReceived: retiredEvents + informers.reduce((n, i) => n + i.events, 0),
    cachedObjects: informers.reduce((n, i) => n + i.objects, 0),
    informers, informersReplaced: retiredInformers, reconciles, failures,
    served: [...(mgr.ring?.served() ?? [])].sort((a, b) => a - b),
  };
}

/** A CPU profile of this process (the bench's `--cpu-prof`): started and written on `stats` requests. */
let profiler: Session | undefined;
async function profile(what: string): Promise<void> {
  if (what === "start") {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
    return;
  }
  if (!profiler) throw new Error(`profile ${what}: no profile was started`);
  const { profile: p } = await profiler.post("Profiler.stop");
  writeFileSync(what, JSON.stringify(p));
  profiler.disconnect();
  profiler = undefined;
}

process.on("message", (m: { id: number; cmd: string; gc?: boolean; profile?: string }) => {
  if (m.cmd !== "stats") return send({ id: m.id, error: `unknown command "${m.cmd}"` });
  const result = stats(m.gc === true);
  if (!m.profile) return send({ id: m.id, result });
  profile(m.profile).then(() => send({ id: m.id, result }), (err: unknown) => send({ id: m.id, error: `profile: ${(err as Error).message}` }));
});

const started = mgr.start().then(() => send({ event: "started" }), (err: unknown) => {
  process.stderr.write(`${identity}: the Manager failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(2);
});
const code = await mgr.runUntilSignal();
await started;
process.exit(code);
