/**
 * `npm run bench -- shards [--owners 10000] [--replicas 1,2,4]`: what sharding a Manager over N
 * replicas saves each replica. For each N, one LocalCluster (this process) and N replica
 * processes of a sharded Manager (`test/sharding/procs/replica.ts`: a ShardOwner owns a
 * ConfigMap, a Secret, a Service and a Deployment, written with the Builder reading the cache).
 * The ring settles first; then the owners are created as a user would, and the replicas
 * converge. Two modes (`--mode together,alone`):
 * - `together`: every replica runs throughout, as deployed. On a machine with fewer cores than
 *   N + 1, the replicas and the API server share them, and each replica's CPU per reconcile
 *   grows with the others' load.
 * - `alone`: every replica count is set up at once (a LocalCluster each, all served by this
 *   process), and every replica is paused (SIGSTOP) while the owners are created. Then one
 *   replica runs at a time, in turns of {@link TURN_MS} (the others paused), going round all
 *   the counts' replicas in proportion to their shares, until each has converged its share:
 *   the CPU each would use with a core of its own, and every count measured over the same
 *   stretch of the machine's time, so a slow spell of a shared machine weighs on all alike.
 *   Its CPU runs from before the owners were created to its own convergence. Leases are long
 *   (an hour), so no pause costs a membership. The replicas first run the same workload once
 *   as a warm-up (their share of the owners, converged, then deleted, then a full
 *   collection), so each is measured in the steady state of a long-running operator at its
 *   share: its code compiled, its heap sized for its cache.
 *
 * Measured per N, per replica (the table shows the busiest replica; each one is listed below
 * it): events received (items listed plus watch events, over every informer the replica's
 * cache held), objects cached, CPU from the first owner created to convergence, GC pauses,
 * heap after a collection; for the whole: converge wall time (first owner created → the last
 * owner's first successful reconcile), reconciles, and for N ≥ 2 (together) failover: one
 * replica SIGKILLed, one of its owners changed at once → time until its buckets are served
 * again, and until that owner is reconciled. Double reconciles: reconciles of one key by two
 * replicas overlapping in time, from the shared reconcile log (each reconcile's start and
 * end, across processes). Each mode runs every N `--repeat` times (default 3; in `together`
 * the counts take turns, so a slow spell of the machine hits them alike), and the tables show
 * medians.
 * Target (issue 13): per-replica events, objects cached and CPU ≤ 1.2 × (single replica ÷ N);
 * 0 double reconciles. Measures; never asserts.
 *
 * Options: `--owners N` (default `SHARD_BENCH_OWNERS` or 10000), `--replicas 1,2,4`,
 * `--mode together,alone`, `--repeat 3`, `--warmup N|share` (warm-up owners per replica, both
 * modes; `share` is owners ÷ N; default 0 together, `share` alone), `--workers 4`
 * (maxConcurrentReconciles per replica), `--lease 6000,4000,1000` (leaseDuration, renewDeadline, retryPeriod in ms; `together`),
 * `--timeout S` (converge bound per N; default 60 s + 60 ms per owner), `--cpu-prof DIR` (each
 * replica's CPU profile of the converge phase, written as `DIR/shards-N-replica-I.cpuprofile`;
 * profiling costs CPU, so the figures of such a run are not comparable).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ResourceClient } from "../src/index.ts";
import { LocalCluster } from "../src/testing/index.ts";
import { bucketOfUid } from "../src/cache/shard-buckets.ts";
import { ShardOwner, configMapOf, createOwners, installShardOwner } from "../test/sharding/procs/owner.ts";
import { overlaps, readLog, spans } from "../test/sharding/procs/reconcile-log.ts";
import type { ReplicaStats } from "../test/sharding/procs/protocol.ts";
import { killAll, launchReplica, pollUntil, settledRing } from "../test/sharding/procs/replicas.ts";
import type { ReplicaProcess } from "../test/sharding/procs/replicas.ts";

const NS = "shards";
const LEASE_NS = "shards-ring";
const RING = "shards-bench";
const PREFIX = "owner-";
const WARM_NS = "shards-warmup";
const QUIET_MS = 1000;
/** `alone`: how long a replica runs per turn while the others are paused. */
const TURN_MS = 250;
const MIB = 1024 * 1024;
/**
 * Warm-up owners per replica of a run with N replicas. By default an `alone` run warms up with
 * its share (`owners ÷ N`, so N × share = the measured owners: the same workload once): a
 * process's first reconciles cost more (its code is not yet compiled, its heap not yet sized
 * for its cache; with 500 owners a replica of 2,500 still took 32,000 page faults in the
 * measured phase, with 2,500 about 2,000), a cost a long-running operator has paid.
 * `together` runs are cold unless `--warmup` says otherwise.
 */
function warmupOf(opts: Options, mode: Mode, n: number): number {
  const w = opts.warmup ?? (mode === "alone" ? "share" : 0);
  return w === "share" ? Math.ceil(opts.owners / n) : w;
}
/** Leases of a one-at-a-time run: a replica stays paused while the owners are created and through the others' turns, far below this renew deadline. */
const ALONE_LEASE = { leaseDurationMs: 3_600_000, renewDeadlineMs: 2_400_000 };

interface Options {
  /** Owners per replica converged (then deleted) before measuring, or `share` (owners ÷ N) (`--warmup`; by default 0 together, `share` alone). */
  warmup: number | "share" | undefined;
  /** Runs per mode and replica count (`--repeat`); the tables show medians. */
  repeat: number;
  /** The modes to run, each for every replica count (`--mode together,alone`). */
  modes: Mode[];
  /** Write each replica's CPU profile of the converge phase here (`--cpu-prof DIR`). */
  cpuProfDir: string | undefined;
  owners: number; replicas: number[]; workers: number; timeoutS: number | undefined;
  lease: { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number };
}

/** One replica's figures for the converge phase. */
interface PerReplica {
  identity: string; events: number; cached: number; cpuS: number; systemCpuS: number; contextSwitches: number; pageFaults: number; gcS: number; heapMiB: number; rssMiB: number; reconciles: number; buckets: number; owners: number;
  /** Informers replaced (the buckets changed) before the converge phase ended. */
  informersReplaced: number;
  /** Warnings and errors it logged by the end of the run, by `level msg`. */
  logged: Record<string, number>;
}

/** One N's measures. */
interface Measures {
  mode: Mode;
  replicas: number;
  per: PerReplica[];
  convergeS: number; reconciles: number; failures: number;
  failoverServedS: number | undefined; failoverReconciledS: number | undefined;
  doubleReconciles: number; stale: number;
  /** The machine's 1-minute load average when the replicas had converged (other processes count too). */
  loadAvg: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv, allowPositionals: false, strict: true,
    options: {
      owners: { type: "string", default: process.env.SHARD_BENCH_OWNERS ?? "10000" },
      replicas: { type: "string", default: "1,2,4" },
      workers: { type: "string", default: "4" },
      lease: { type: "string", default: "6000,4000,1000" },
      timeout: { type: "string" },
      "cpu-prof": { type: "string" },
      mode: { type: "string", default: "together,alone" },
      warmup: { type: "string" },
      repeat: { type: "string", default: "3" },
    },
  });
  const num = (name: string, v: string, min: number) => {
    const n = Number(v.trim().replaceAll("_", ""));
    if (!Number.isFinite(n) || n < min) throw new Error(`shards: --${name} ${v}: expected a number ≥ ${min}`);
    return n;
  };
  const [leaseDurationMs, renewDeadlineMs, retryPeriodMs] = values.lease.split(",").map((s) => num("lease", s, 1));
  if (!(leaseDurationMs! > renewDeadlineMs! && renewDeadlineMs! > retryPeriodMs!)) {
    throw new Error(`shards: --lease ${values.lease}: expected leaseDuration,renewDeadline,retryPeriod in ms with leaseDuration > renewDeadline > retryPeriod`);
  }
  return {
    owners: Math.round(num("owners (or SHARD_BENCH_OWNERS)", values.owners, 1)),
    replicas: values.replicas.split(",").map((s) => Math.round(num("replicas", s, 1))),
    workers: num("workers", values.workers, 1),
    lease: { leaseDurationMs: leaseDurationMs!, renewDeadlineMs: renewDeadlineMs!, retryPeriodMs: retryPeriodMs! },
    timeoutS: values.timeout === undefined ? undefined : num("timeout", values.timeout, 1),
    cpuProfDir: values["cpu-prof"],
    warmup: values.warmup === undefined ? undefined : values.warmup.trim() === "share" ? "share" : Math.round(num("warmup (or share)", values.warmup, 0)),
    repeat: Math.round(num("repeat", values.repeat, 1)),
    modes: values.mode.split(",").map((m) => {
      const t = m.trim();
      if (t !== "together" && t !== "alone") throw new Error(`shards: --mode ${values.mode}: expected together, alone or both (together,alone)`);
      return t;
    }),
  };
}

/**
 * How the replicas converge: `together` (all at once, as deployed; on this machine they share its
 * cores with each other and with the API server) or `alone` (paused with SIGSTOP while the owners
 * are created, then run one at a time in short turns until each has converged its share: the
 * CPU each would use with a core of its own; long leases, so no pause costs a membership).
 */
type Mode = "together" | "alone";

/** One replica count's set-up: its LocalCluster (served by this process), its replicas and their reconcile log. */
interface Setup {
  n: number; mode: Mode; dir: string; logPath: string; cluster: LocalCluster; client: ResourceClient; replicas: ReplicaProcess[];
}

/** Starts a LocalCluster and `n` replicas, waits for their ring to settle, and warms them up ({@link warmupOf}). */
async function setUp(n: number, opts: Options, log: (s: string) => void, mode: Mode): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), "shards-bench-"));
  const cluster = await LocalCluster.start();
  const s: Setup = {
    n, mode, dir, logPath: join(dir, "reconciles.jsonl"), cluster, replicas: [],
    client: new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "shards-bench-user" }),
  };
  try {
    await installShardOwner(s.client, NS);
    await s.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: LEASE_NS } });
    const lease = mode === "alone" ? { ...ALONE_LEASE, retryPeriodMs: opts.lease.retryPeriodMs } : opts.lease;
    for (let i = 1; i <= n; i++) {
      s.replicas.push(launchReplica({
        kubeconfig: cluster.kubeconfigPath, identity: `replica-${i}`, ring: RING, leaseNamespace: LEASE_NS, ...lease,
        log: s.logPath, children: 4, workers: opts.workers, logLevel: "warn",
      }, ["--expose-gc"]));
    }
    const why = { reason: "" };
    await pollUntil(() => settledRing(s.replicas, why), `${n} replicas to settle the ring`, 120_000, 50, () => why.reason);
    await pollUntil(() => s.replicas.every((r) => r.started), `${n} replicas' Managers to start`, 60_000, 50);
    log(`  ${n} replica(s): ring settled`);
    const warmup = warmupOf(opts, mode, n);
    if (warmup) {
      const tw = Date.now();
      await warmUp(cluster, s.client, n, warmup, s.logPath);
      log(`  ${n} replica(s): warmed up with ${warmup * n} owners in ${((Date.now() - tw) / 1000).toFixed(1)} s`);
    }
    return s;
  } catch (err) {
    await tearDown(s);
    throw err;
  }
}

async function tearDown(s: Setup): Promise<void> {
  for (const r of s.replicas) r.pause(false); // a stopped process acts on SIGTERM only once continued
  await killAll(s.replicas);
  await s.cluster.stop();
  rmSync(s.dir, { recursive: true, force: true });
}

/** Where the converge phase starts in the reconcile log, and each replica's stats then (after a full collection; starting a CPU profile with `--cpu-prof`). */
async function startMeasure(s: Setup, opts: Options): Promise<{ logFrom: number; before: ReplicaStats[] }> {
  const logFrom = statSync(s.logPath, { throwIfNoEntry: false })?.size ?? 0;
  if (opts.cpuProfDir) mkdirSync(opts.cpuProfDir, { recursive: true });
  // A full collection first (warmed up or not): garbage left by the warm-up (or the ring's
  // settling) is not charged to the measured phase, and every N starts from a collected heap.
  const before = await Promise.all(s.replicas.map((r) => r.stats({ gc: true, timeoutMs: 120_000, ...(opts.cpuProfDir ? { profile: "start" } : {}) })));
  return { logFrom, before };
}

/** Each replica's stats at the end of the converge phase (heap after a collection; writing its CPU profile with `--cpu-prof`). */
function endMeasure(s: Setup, opts: Options): Promise<ReplicaStats[]> {
  const prof = opts.cpuProfDir;
  return Promise.all(s.replicas.map((r) => r.stats({ gc: true, timeoutMs: 120_000, ...(prof ? { profile: join(resolve(prof), `shards-${s.n}-${s.mode}-${r.identity}.cpuprofile`) } : {}) })));
}

const timeoutOf = (opts: Options) => (opts.timeoutS ?? 60 + 0.06 * opts.owners) * 1000;

/** Waits until every owner of `names` has its children at generation 1, then until the log is quiet. */
async function converged(s: Setup, names: Iterable<string>, timeoutMs: number): Promise<void> {
  const pending = new Set(names);
  await pollUntil(() => {
    for (const name of pending) if (childrenAt(s.cluster, name, 1)) pending.delete(name);
    return pending.size === 0;
  }, `${s.n} replica(s)' owners' children`, timeoutMs, 250, () => `${pending.size} owners lack children at generation 1`);
  await quiet(s.logPath, QUIET_MS, 60_000);
}

/** A replica count's measures from the stats around its converge phase and its reconcile log (no failover yet). */
function measuresOf(s: Setup, from: { logFrom: number; before: ReplicaStats[] }, after: ReplicaStats[], uids: Map<string, string>, convergeS: number): Measures {
  // The measured owners' reconciles (a warm-up owner's retry, refused as it was deleted, can land here too).
  const convergeSpans = spans(readLog(s.logPath, from.logFrom)).filter((x) => x.key.startsWith(`${NS}/`));
  return {
    mode: s.mode, replicas: s.n, per: s.replicas.map((r, i) => perReplica(r, from.before[i]!, after[i]!, uids)), convergeS,
    reconciles: convergeSpans.length, failures: convergeSpans.filter((x) => !x.ok).length,
    failoverServedS: undefined, failoverReconciledS: undefined, doubleReconciles: 0, stale: 0, loadAvg: loadavg()[0]!,
  };
}

/** What a run ends with: each replica's log counts, double reconciles over the whole log, owners without children. */
function finish(s: Setup, m: Measures, uids: Map<string, string>): Measures {
  for (const [i, r] of s.replicas.entries()) m.per[i]!.logged = Object.fromEntries(r.logCounts);
  const deaths = new Map(s.replicas.flatMap((r) => (r.killedAt !== undefined ? [[r.identity, r.killedAt] as const] : [])));
  m.doubleReconciles = overlaps(spans(readLog(s.logPath), deaths)).length;
  for (const name of uids.keys()) if (!childrenAt(s.cluster, name)) m.stale++;
  return m;
}

/** `together`: N replicas converge the owners at once, then one is SIGKILLed (N ≥ 2) for the failover figures. */
async function measureTogether(n: number, opts: Options, log: (s: string) => void): Promise<Measures> {
  const s = await setUp(n, opts, log, "together");
  try {
    const { client, cluster, replicas, logPath } = s;
    const from = await startMeasure(s, opts);
    const t0 = Date.now();
    const uids = await createOwners(client, NS, PREFIX, opts.owners);
    log(`  ${n} replica(s): ${opts.owners} owners created in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await converged(s, uids.keys(), timeoutOf(opts));
    const after = await endMeasure(s, opts);
    const firstOk = new Map<string, number>();
    for (const x of spans(readLog(logPath, from.logFrom))) if (x.ok && x.gen === 1 && !firstOk.has(x.key)) firstOk.set(x.key, x.end);
    const m = measuresOf(s, from, after, uids, (Math.max(...firstOk.values()) - t0) / 1000);
    log(`  ${n} replica(s): converged in ${m.convergeS.toFixed(2)} s`);

    // Failover: kill the last replica, change one of its owners at once.
    if (n >= 2) {
      const victim = replicas.at(-1)!;
      const lost = victim.served();
      const survivors = replicas.filter((r) => r !== victim);
      const changed = [...uids].find(([, uid]) => lost.includes(bucketOfUid(uid)))?.[0];
      if (lost.length && changed) {
        const logSize = statSync(logPath).size;
        victim.kill("SIGKILL");
        const tk = victim.killedAt!;
        await client.patch({ ...ShardOwner, name: changed, namespace: NS }, { spec: { rev: 1 } }, "merge");
        const boundMs = 4 * opts.lease.leaseDurationMs + 60_000;
        const servedAt = await pollUntil(() => {
          let latest = tk;
          for (const b of lost) {
            const first = Math.min(...survivors.map((r) => r.rings.find((e) => e.at >= tk && e.served.includes(b))?.at ?? Infinity));
            if (first === Infinity) return undefined;
            latest = Math.max(latest, first);
          }
          return latest;
        }, `the killed replica's ${lost.length} buckets to be served again`, boundMs, 20);
        // The end of its first successful reconcile at generation 2 (read from the log's tail).
        const reconciledAt = await pollUntil(() => {
          const ends = spans(readLog(logPath, logSize)).filter((x) => x.key === `${NS}/${changed}` && x.ok && x.gen === 2).map((x) => x.end);
          return ends.length ? Math.min(...ends) : undefined;
        }, `${changed} to be reconciled after the failover`, boundMs, 20);
        if (!childrenAt(cluster, changed, 2)) throw new Error(`${changed}: reconciled at generation 2 but its ConfigMap does not say so`);
        m.failoverServedS = (servedAt - tk) / 1000;
        m.failoverReconciledS = (reconciledAt - tk) / 1000;
        log(`  ${n} replica(s): failover: buckets served again after ${m.failoverServedS.toFixed(2)} s, ${changed} reconciled after ${m.failoverReconciledS.toFixed(2)} s`);
      }
    }
    return finish(s, m, uids);
  } finally {
    await tearDown(s);
  }
}

/**
 * `alone`: every replica count at once, each with its own LocalCluster (all served by this
 * process) and replicas, measured in one stretch of the machine's time so a slow spell of a
 * shared machine weighs on every count alike (run after run, single runs moved by ±10 %).
 * Every replica is paused while the owners are created; then one replica runs at a time, for
 * {@link TURN_MS}, the others paused: turns go round every count's replicas in proportion to
 * their shares (a single replica gets N turns to each of N replicas' one, smooth weighted
 * round-robin), so all converge over about the same stretch. A replica whose share has
 * converged runs alone until no reconcile was logged for {@link QUIET_MS}; its CPU is read
 * then, and it gets no further turns. Returns the measures in `opts.replicas` order.
 */
async function measureAlone(opts: Options, log: (s: string) => void): Promise<Measures[]> {
  const setups: Setup[] = [];
  try {
    for (const n of opts.replicas) setups.push(await setUp(n, opts, log, "alone"));
    const from = new Map<Setup, Awaited<ReturnType<typeof startMeasure>>>();
    for (const s of setups) from.set(s, await startMeasure(s, opts));
    for (const s of setups) for (const r of s.replicas) r.pause(true);
    const uidsOf = new Map<Setup, Map<string, string>>();
    for (const s of setups) {
      const t0 = Date.now();
      uidsOf.set(s, await createOwners(s.client, NS, PREFIX, opts.owners));
      log(`  ${s.n} replica(s): ${opts.owners} owners created in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }

    interface Turn { r: ReplicaProcess; s: Setup; pending: Set<string>; weight: number; credit: number; ranMs: number; cpu?: ReplicaStats }
    const turns: Turn[] = setups.flatMap((s) => s.replicas.map((r) => {
      const served = new Set(r.served());
      const pending = new Set([...uidsOf.get(s)!].filter(([, uid]) => served.has(bucketOfUid(uid))).map(([name]) => name));
      return { r, s, pending, weight: 1 / s.n, credit: 0, ranMs: 0 };
    }));
    const running = new Set(turns);
    const deadline = performance.now() + timeoutOf(opts) * setups.length;
    await apiServerIdle();
    while (running.size) {
      let total = 0;
      let next: Turn | undefined;
      for (const t of running) {
        t.credit += t.weight;
        total += t.weight;
        if (!next || t.credit > next.credit) next = t;
      }
      const t = next!;
      t.credit -= total;
      const start = performance.now();
      t.r.pause(false);
      await new Promise((resolve) => setTimeout(resolve, TURN_MS));
      for (const name of t.pending) if (childrenAt(t.s.cluster, name, 1)) t.pending.delete(name);
      if (t.pending.size === 0) {
        await quiet(t.s.logPath, QUIET_MS, 60_000);
        t.cpu = await t.r.stats();
        running.delete(t);
      }
      t.r.pause(true);
      t.ranMs += performance.now() - start;
      if (t.cpu) log(`  ${t.s.n} replica(s): ${t.r.identity} converged after running ${((t.ranMs - QUIET_MS) / 1000).toFixed(1)} s in turns of ${TURN_MS} ms`);
      if (performance.now() > deadline) {
        throw new Error(`alone: not converged in time: ${[...running].map((x) => `${x.s.n} replica(s), ${x.r.identity}: ${x.pending.size} owners lack children`).join("; ")}`);
      }
    }

    const results: Measures[] = [];
    for (const s of setups) {
      for (const r of s.replicas) r.pause(false);
      const uids = uidsOf.get(s)!;
      await converged(s, uids.keys(), timeoutOf(opts));
      const after = (await endMeasure(s, opts)).map((st, i) => {
        const own = turns.find((t) => t.r === s.replicas[i])!.cpu!;
        return { ...st, cpuMs: own.cpuMs, systemCpuMs: own.systemCpuMs, contextSwitches: own.contextSwitches, pageFaults: own.pageFaults, gcPauseMs: own.gcPauseMs };
      });
      const slowestS = Math.max(...turns.filter((t) => t.s === s).map((t) => (t.ranMs - QUIET_MS) / 1000));
      results.push(finish(s, measuresOf(s, from.get(s)!, after, uids, slowestS), uids));
    }
    return results;
  } finally {
    for (const s of setups) await tearDown(s);
  }
}

/** Whether owner `name` has its four children, its ConfigMap at generation `gen` (any, if undefined). */
function childrenAt(cluster: LocalCluster, name: string, gen?: number, ns = NS): boolean {
  const cm = cluster.peek({ plural: "configmaps" }, ns, configMapOf(name)) as { data?: Record<string, string> } | undefined;
  if (!cm || (gen !== undefined && cm.data?.generation !== String(gen))) return false;
  return !!cluster.peek({ plural: "secrets" }, ns, `${name}-secret`) && !!cluster.peek({ plural: "services" }, ns, name) &&
    !!cluster.peek({ group: "apps", plural: "deployments" }, ns, name);
}

/**
 * Warms the replicas up: `perReplica × N` owners in their own namespace, converged, then the
 * namespace deleted and emptied, so each replica has run its code paths (JIT) and sized its
 * heap before the measured phase, as a long-running operator has; their caches are empty again.
 */
async function warmUp(cluster: LocalCluster, client: ResourceClient, n: number, perReplica: number, logPath: string): Promise<void> {
  const owners = perReplica * n;
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: WARM_NS } });
  const uids = await createOwners(client, WARM_NS, PREFIX, owners);
  const pending = new Set(uids.keys());
  await pollUntil(() => {
    for (const name of pending) if (childrenAt(cluster, name, 1, WARM_NS)) pending.delete(name);
    return pending.size === 0;
  }, `the ${owners} warm-up owners' children`, 60_000 + 60 * owners, 100, () => `${pending.size} warm-up owners lack children`);
  await client.delete({ apiVersion: "v1", kind: "Namespace", name: WARM_NS });
  await pollUntil(() => !cluster.peek({ plural: "namespaces" }, "", WARM_NS), `namespace ${WARM_NS} to be emptied and removed`, 60_000 + 60 * owners, 100);
  await quiet(logPath, QUIET_MS, 60_000);
}

/**
 * Waits (at most 10 s) until this process — the API server — has used under 5 % of a core for
 * 250 ms: the `alone` turns start against an idle server, not one still busy with the owners
 * just created, which would slow its answers and so the first replica's turns.
 */
async function apiServerIdle(): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 0.05 * 250 || performance.now() > deadline) return;
  }
}

/** Waits until the reconcile log has not grown for `quietMs`. */
async function quiet(path: string, quietMs: number, timeoutMs: number): Promise<void> {
  let size = -1;
  let since = performance.now();
  await pollUntil(() => {
    const now = statSync(path).size;
    if (now !== size) {
      size = now;
      since = performance.now();
    }
    return performance.now() - since >= quietMs;
  }, "the replicas to stop reconciling", timeoutMs, 50);
}

function perReplica(r: ReplicaProcess, a: ReplicaStats, b: ReplicaStats, uids: Map<string, string>): PerReplica {
  const buckets = new Set(b.served);
  let owners = 0;
  for (const uid of uids.values()) if (buckets.has(bucketOfUid(uid))) owners++;
  return {
    identity: r.identity, events: b.eventsReceived - a.eventsReceived, cached: b.cachedObjects, cpuS: (b.cpuMs - a.cpuMs) / 1000, systemCpuS: (b.systemCpuMs - a.systemCpuMs) / 1000,
    contextSwitches: b.contextSwitches - a.contextSwitches, pageFaults: b.pageFaults - a.pageFaults, gcS: (b.gcPauseMs - a.gcPauseMs) / 1000,
    heapMiB: b.heapBytes / MIB, rssMiB: b.rssBytes / MIB, reconciles: b.reconciles - a.reconciles, buckets: buckets.size, owners,
    informersReplaced: b.informersReplaced, logged: {},
  };
}

/** A row: `value` of a run (the busiest replica for per-replica rows); `perReplicaTarget` judges N ≥ 2 against 1.2 × single ÷ N. */
interface Row { measure: string; value: (m: Measures) => number | undefined; fmt: (n: number) => string; perReplicaTarget?: boolean; target?: (m: Measures, o: Options) => string; met?: (m: Measures, o: Options) => boolean }

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const secs = (n: number) => `${n.toFixed(2)} s`;
const busiest = (f: (p: PerReplica) => number) => (m: Measures) => Math.max(...m.per.map(f));

const ROWS: Row[] = [
  { measure: "events received, per replica", value: busiest((p) => p.events), fmt: int, perReplicaTarget: true },
  { measure: "objects cached, per replica", value: busiest((p) => p.cached), fmt: int, perReplicaTarget: true },
  { measure: "CPU to converge, per replica", value: busiest((p) => p.cpuS), fmt: secs, perReplicaTarget: true },
  { measure: "CPU to converge, mean of the replicas", value: (m) => m.per.reduce((t, p) => t + p.cpuS, 0) / m.per.length, fmt: secs },
  { measure: "CPU per reconcile (busiest replica)", value: (m) => {
    const p = m.per.reduce((a, b) => (b.cpuS > a.cpuS ? b : a));
    return (p.cpuS * 1000) / p.reconciles;
  }, fmt: (n) => `${n.toFixed(2)} ms` },
  { measure: "heap after converge, per replica", value: busiest((p) => p.heapMiB), fmt: (n) => `${n.toFixed(0)} MiB` },
  { measure: "owners, per replica", value: busiest((p) => p.owners), fmt: int },
  { measure: "busiest replica's owners ÷ (owners ÷ N)", value: (m) => Math.max(...m.per.map((p) => p.owners)) / (m.per.reduce((n, p) => n + p.owners, 0) / m.replicas), fmt: (n) => `${n.toFixed(2)}×` },
  { measure: "busiest replica's buckets", value: busiest((p) => p.buckets), fmt: (n) => `${n} of 64` },
  { measure: "converge wall time (alone: the slowest replica's turns)", value: (m) => m.convergeS, fmt: secs },
  { measure: "reconciles to converge (all replicas)", value: (m) => m.reconciles, fmt: int },
  { measure: "failover: buckets served again", value: (m) => m.failoverServedS, fmt: secs,
    target: (_, o) => `≤ lease + retry (${secs((o.lease.leaseDurationMs + o.lease.retryPeriodMs) / 1000)})`,
    met: (m, o) => m.failoverServedS === undefined || m.failoverServedS * 1000 <= o.lease.leaseDurationMs + o.lease.retryPeriodMs },
  { measure: "failover: changed owner reconciled", value: (m) => m.failoverReconciledS, fmt: secs },
  { measure: "double reconciles", value: (m) => m.doubleReconciles, fmt: int, target: () => "0", met: (m) => m.doubleReconciles === 0 },
];

const CAPTIONS: Record<Mode, string> = {
  together: "all replicas at once, as deployed (here N replicas and the API server share the machine's cores)",
  alone: `one replica at a time: every count's replicas paused while the owners are created, then run in turns of ${TURN_MS} ms (the others paused), round all the counts' replicas in proportion to their shares, until each has converged its share (the CPU each uses with a core of its own, every count over the same stretch of time); CPU from before the owners were created to its own convergence`,
};

/** The median of `values` (the mean of the middle two for an even count); undefined for none. */
function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1]! + v[mid]!) / 2;
}

/** Prints one mode's table: each cell is the median over that replica count's runs. */
function printTable(runs: Map<number, (Measures | Error)[]>, opts: Options, mode: Mode): void {
  const okOf = (n: number) => (runs.get(n) ?? []).filter((r): r is Measures => !(r instanceof Error));
  const valueOf = (row: Row, n: number) => median(okOf(n).map((m) => row.value(m)).filter((v): v is number => v !== undefined));
  const counts = opts.replicas;
  const head = ["measure", ...counts.map((n) => `${n} replica${n === 1 ? "" : "s"}`), "target", "met"];
  const body = ROWS.map((row) => {
    const cells = counts.map((n) => {
      if (okOf(n).length === 0) return "failed";
      const v = valueOf(row, n);
      return v === undefined ? "—" : row.fmt(v);
    });
    let target = "";
    let met = "";
    if (row.perReplicaTarget) {
      const base = valueOf(row, 1);
      const judged = counts.filter((n) => n > 1 && valueOf(row, n) !== undefined);
      if (base !== undefined && judged.length) {
        target = `≤ 1.2 × single ÷ N: ${judged.map((n) => row.fmt((1.2 * base) / n)).join(" / ")}`;
        met = judged.map((n) => `${judged.length > 1 ? `${n}: ` : ""}${valueOf(row, n)! <= (1.2 * base) / n ? "yes" : "no"}`).join(", ");
      } else target = "≤ 1.2 × single ÷ N (needs a 1-replica run)";
    } else if (row.target) {
      const all = counts.flatMap(okOf);
      target = all.length ? row.target(all[0]!, opts) : "";
      met = all.length ? (all.every((m) => row.met!(m, opts)) ? "yes" : "no") : "";
    }
    return [row.measure, ...cells, target, met];
  });
  const cpu = ROWS.find((r) => r.measure.startsWith("CPU to converge"))!;
  const extra: string[][] = [];
  if (opts.repeat > 1) extra.push(["  … each run (busiest replica)", ...counts.map((n) => okOf(n).map((m) => cpu.value(m)!.toFixed(1)).join(" / ")), "", ""]);
  if (mode === "alone" && counts.includes(1)) {
    // Each alone run measures every count in one stretch: its ratio to that run's own single replica.
    const singles = runs.get(1) ?? [];
    const ratios = (n: number) => (runs.get(n) ?? []).map((m, i) => {
      const one = singles[i];
      return m instanceof Error || !one || one instanceof Error ? "—" : `${((cpu.value(m)! * n) / cpu.value(one)!).toFixed(2)}×`;
    });
    const medianRatio = (n: number) => median((runs.get(n) ?? []).flatMap((m, i) => {
      const one = singles[i];
      return m instanceof Error || !one || one instanceof Error ? [] : [(cpu.value(m)! * n) / cpu.value(one)!];
    }));
    extra.push(["  … ÷ (same run's single ÷ N), each run", ...counts.map((n) => (n === 1 ? "" : ratios(n).join(" / "))), "≤ 1.2×",
      counts.filter((n) => n > 1).map((n) => `${n}: ${(medianRatio(n) ?? Infinity) <= 1.2 ? "yes" : "no"} (median ${medianRatio(n)?.toFixed(2) ?? "—"}×)`).join(", ")]);
  }
  body.splice(ROWS.indexOf(cpu) + 1, 0, ...extra);
  const widths = head.map((_, c) => Math.max(head[c]!.length, ...body.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const l = opts.lease;
  const lease = mode === "alone" ? `lease ${ALONE_LEASE.leaseDurationMs}/${ALONE_LEASE.renewDeadlineMs}/${l.retryPeriodMs} ms` : `lease ${l.leaseDurationMs}/${l.renewDeadlineMs}/${l.retryPeriodMs} ms`;
  const warmup = opts.warmup ?? (mode === "alone" ? "share" : 0);
  const warmupText = warmup === "share" ? "its share of the owners (owners ÷ N)" : `${warmup} owners`;
  console.log(`\nShards, ${mode}: ${int(opts.owners)} owners × 4 children, sharded Manager replicas as separate processes against one LocalCluster; ${CAPTIONS[mode]} ` +
    `(Node ${process.version}, ${availableParallelism()} CPUs, ${opts.workers} workers per replica, ${lease}, ` +
    `${warmup ? `each replica warmed up first with ${warmupText} (converged, then deleted, then a full collection)` : "cold: no warm-up"}). ` +
    `Per-replica rows show the busiest replica; ${opts.repeat > 1 ? `each cell is the median of ${opts.repeat} runs (${mode === "alone" ? "each run measures every count in one stretch" : "the replica counts take turns"})` : "one run"}.\n`);
  console.log(line(head));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of body) console.log(line(r));
  for (const n of counts) {
    for (const [i, r] of (runs.get(n) ?? []).entries()) {
      const run = opts.repeat > 1 ? `, run ${i + 1}` : "";
      if (r instanceof Error) {
        console.log(`\n${n} replica(s)${run}: failed: ${r.message}`);
        continue;
      }
      console.log(`\n${n} replica(s)${run}: ${int(r.reconciles)} reconciles (${r.failures} failed), converge ${secs(r.convergeS)}, load average ${r.loadAvg.toFixed(1)} on ${availableParallelism()} CPUs`);
      for (const p of r.per) {
        console.log(`  ${p.identity}: ${p.buckets} buckets, ${int(p.owners)} owners, ${int(p.events)} events, ${int(p.cached)} cached, ` +
          `CPU ${secs(p.cpuS)} (${secs(p.systemCpuS)} in the kernel; GC pauses ${secs(p.gcS)}${mode === "alone" ? " of wall time, a stop during one included" : ""}; ${int(p.contextSwitches)} context switches; ${int(p.pageFaults)} page faults), ${int(p.reconciles)} reconciles, ${p.informersReplaced} informers replaced, heap ${p.heapMiB.toFixed(0)} MiB, RSS ${p.rssMiB.toFixed(0)} MiB`);
        const logged = Object.entries(p.logged).sort((x, y) => y[1] - x[1]);
        if (logged.length) console.log(`    logged: ${logged.slice(0, 6).map(([k, c]) => `${c}× ${k}`).join("; ")}`);
      }
      if (r.stale) console.log(`  WARNING: at the end ${r.stale} owners lack a child: the measures above are not of a converged system`);
    }
  }
  console.log(`\n${JSON.stringify({ bench: "shards", mode, warmup, repeat: opts.repeat, owners: opts.owners, workers: opts.workers, lease: opts.lease,
    results: counts.map((n) => ({ replicas: n, runs: (runs.get(n) ?? []).map((r) => (r instanceof Error ? { error: r.message } : r)) })) })}`);
}

/** Runs the benchmark for each mode and replica count (`--repeat` times, the counts taking turns) and prints a table per mode (and a JSON line). */
export async function run(argv: string[] = []): Promise<void> {
  const opts = parseOptions(argv);
  const tables: [Mode, Map<number, (Measures | Error)[]>][] = [];
  for (const mode of opts.modes) {
    const runs = new Map<number, (Measures | Error)[]>(opts.replicas.map((n) => [n, []]));
    for (let rep = 1; rep <= opts.repeat; rep++) {
      console.log(`${mode}${opts.repeat > 1 ? `, run ${rep} of ${opts.repeat}` : ""}:`);
      const log = (s: string) => console.log(s);
      if (mode === "alone") {
        // Every count in one stretch (measureAlone).
        const t = performance.now();
        try {
          const results = await measureAlone(opts, log);
          for (const [i, n] of opts.replicas.entries()) runs.get(n)!.push(results[i]!);
        } catch (err) {
          console.log(`  failed: ${(err as Error).message}`);
          for (const n of opts.replicas) runs.get(n)!.push(err as Error);
        }
        console.log(`  done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
        continue;
      }
      for (const n of opts.replicas) {
        const t = performance.now();
        try {
          runs.get(n)!.push(await measureTogether(n, opts, log));
        } catch (err) {
          console.log(`  ${n} replica(s) failed: ${(err as Error).message}`);
          runs.get(n)!.push(err as Error);
        }
        console.log(`  ${n} replica(s): done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      }
    }
    tables.push([mode, runs]);
  }
  for (const [mode, runs] of tables) printTable(runs, opts, mode);
}
