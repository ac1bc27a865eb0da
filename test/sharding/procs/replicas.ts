/**
 * The parent side of replica processes (`replica.ts`): launch them, follow what their rings
 * say, ask for their stats, kill or stop them, and judge the ring they form.
 *
 * Guarantees: every launched process is SIGKILLed when this process exits; every wait is
 * bounded and its error names what was awaited, with the tail of the replicas' stderr.
 */
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SHARD_BUCKETS } from "../../../src/cache/shard-buckets.ts";
import type { ReplicaConfig, ReplicaStats, RingEvent } from "./protocol.ts";

const SCRIPT = fileURLToPath(new URL("./replica.ts", import.meta.url));
const STDERR_KEEP = 16 * 1024;

const live = new Set<ChildProcess>();
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    for (const p of live) p.kill("SIGKILL");
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** One replica process. */
export class ReplicaProcess {
  readonly identity: string;
  readonly config: ReplicaConfig;
  /** Every ring event it pushed, oldest first. */
  readonly rings: RingEvent[] = [];
  /** Resolves with how it exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Date.now() when `kill("SIGKILL")` was called: its death, for open spans of the reconcile log. */
  killedAt: number | undefined;
  /** Date.now() when `kill` was first called, with any signal. */
  signalledAt: number | undefined;
  started = false;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #proc: ChildProcess;
  /** Log lines on its stderr by `level msg` (JSON lines; anything else by its first 100 characters). */
  readonly logCounts = new Map<string, number>();
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  #stderr = "";
  #partial = "";

  constructor(config: ReplicaConfig, execArgv: string[] = []) {
    hookExit();
    this.identity = config.identity;
    this.config = config;
    const proc = (this.#proc = fork(SCRIPT, [JSON.stringify(config)], { execArgv, stdio: ["ignore", "ignore", "pipe", "ipc"] }));
    live.add(proc);
    proc.stderr!.setEncoding("utf8");
    proc.stderr!.on("data", (d: string) => {
      this.#stderr = (this.#stderr + d).slice(-STDERR_KEEP);
      const lines = (this.#partial + d).split("\n");
      this.#partial = lines.pop()!;
      for (const l of lines) if (l) this.#count(l);
    });
    proc.on("message", (m: RingEvent | { event: "started" } | { id: number; result?: unknown; error?: string }) => {
      if ("event" in m) {
        if (m.event === "ring") this.rings.push(m);
        else if (m.event === "started") this.started = true;
        return;
      }
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`${this.identity}: ${m.error}`));
      else p.resolve(m.result);
    });
    this.exited = new Promise((resolve) => {
      proc.on("exit", (code, signal) => {
        live.delete(proc);
        this.exit = { code, signal };
        for (const p of this.#pending.values()) p.reject(new Error(`${this.identity} exited (${signal ?? `code ${code}`})`));
        this.#pending.clear();
        resolve({ code, signal });
      });
    });
  }

  /** The last ring event, if any. */
  get ring(): RingEvent | undefined {
    return this.rings.at(-1);
  }

  /** Buckets it serves by its last ring event (none once it exited). */
  served(): number[] {
    return this.exit ? [] : this.ring?.served ?? [];
  }

  #count(line: string): void {
    let key: string;
    try {
      const r = JSON.parse(line) as { level?: string; msg?: string };
      key = `${r.level ?? "?"} ${r.msg ?? line.slice(0, 100)}`;
    } catch {
      key = line.slice(0, 100);
    }
    this.logCounts.set(key, (this.logCounts.get(key) ?? 0) + 1);
  }

  /** The last `STDERR_KEEP` characters of its stderr. */
  stderr(): string {
    return this.#stderr;
  }

  /**
   * Its stats (heap after a collection with `gc`, if launched with `--expose-gc`); rejects when it does not answer within `timeoutMs` or exits.
   * `profile: "start"` starts a CPU profile once the stats are taken; `profile: PATH` stops it after they are taken and writes it to PATH (a `.cpuprofile`).
   */
  stats(options: { gc?: boolean; timeoutMs?: number; profile?: string } = {}): Promise<ReplicaStats> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (this.exit) return Promise.reject(new Error(`${this.identity} exited before "stats"`));
    const id = this.#nextId++;
    return new Promise<ReplicaStats>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${this.identity}: no stats within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v as ReplicaStats); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.#proc.send({ id, cmd: "stats", gc: options.gc === true, ...(options.profile ? { profile: options.profile } : {}) });
    });
  }

  /**
   * SIGSTOPs it (`true`) or SIGCONTs it (`false`): a paused replica uses no CPU and renews no
   * Lease, so pause it only for less than its renew deadline. Not noted as a signal.
   */
  pause(paused: boolean): void {
    if (this.exit) return;
    this.#proc.kill(paused ? "SIGSTOP" : "SIGCONT");
  }

  /** Sends `signal` (noting the time) unless it exited already. */
  kill(signal: NodeJS.Signals): void {
    if (this.exit) return;
    const now = Date.now();
    this.signalledAt ??= now;
    if (signal === "SIGKILL") this.killedAt ??= now;
    this.#proc.kill(signal);
  }
}

/** Launches a replica process. */
export function launchReplica(config: ReplicaConfig, execArgv: string[] = []): ReplicaProcess {
  return new ReplicaProcess(config, execArgv);
}

/** SIGKILLs every replica still running and waits for them to exit (bounded). */
export async function killAll(replicas: Iterable<ReplicaProcess>): Promise<void> {
  const all = [...replicas];
  for (const r of all) r.kill("SIGKILL");
  await Promise.race([Promise.all(all.map((r) => r.exited)), sleep(10_000)]);
}

/** The stderr tails of `replicas`, for a failure message. */
export function stderrTails(replicas: Iterable<ReplicaProcess>, chars = 2000): string {
  return [...replicas].map((r) => `--- ${r.identity} (${r.exit ? `exited ${r.exit.signal ?? r.exit.code}` : "running"}) stderr:\n${r.stderr().slice(-chars)}`).join("\n");
}

/**
 * The owner of each bucket when `replicas` form a settled ring: each is joined and sees exactly
 * these members, their served sets are disjoint and cover every bucket, and each serves exactly
 * what its own view assigns it. Undefined otherwise (with why in `why`, if given).
 */
export function settledRing(replicas: ReplicaProcess[], why?: { reason: string }): string[] | undefined {
  const ids = replicas.map((r) => r.identity).sort();
  const owners: (string | undefined)[] = new Array(SHARD_BUCKETS).fill(undefined);
  const no = (reason: string) => {
    if (why) why.reason = reason;
    return undefined;
  };
  for (const r of replicas) {
    const ev = r.ring;
    if (r.exit) return no(`${r.identity} exited`);
    if (!ev) return no(`${r.identity} reported no ring yet`);
    if (!ev.joined) return no(`${r.identity} is not joined`);
    if (JSON.stringify(ev.members) !== JSON.stringify(ids)) return no(`${r.identity} sees members ${ev.members.join(",")}`);
    const mine = ev.assignment.flatMap((o, b) => (o === r.identity ? [b] : []));
    if (JSON.stringify(mine) !== JSON.stringify(ev.served)) return no(`${r.identity} serves ${ev.served.length} of the ${mine.length} buckets it is assigned`);
    for (const b of ev.served) {
      if (owners[b] !== undefined) return no(`bucket ${b} served by ${owners[b]} and ${r.identity}`);
      owners[b] = r.identity;
    }
  }
  const unserved = owners.flatMap((o, b) => (o === undefined ? [b] : []));
  if (unserved.length) return no(`buckets ${unserved.join(",")} are not served`);
  return owners as string[];
}

/** Waits until `replicas` form a settled ring (see {@link settledRing}); returns each bucket's server. */
export async function waitSettled(replicas: ReplicaProcess[], what: string, timeoutMs: number): Promise<string[]> {
  const why = { reason: "" };
  const owners = await pollUntil(() => settledRing(replicas, why), what, timeoutMs, 20, () => why.reason);
  return owners;
}

/**
 * Polls `check` every `intervalMs` until it returns a truthy value; fails after `timeoutMs`
 * naming `what`, the last `detail()`, and the last error the check threw.
 */
export async function pollUntil<T>(check: () => T | Promise<T>, what: string, timeoutMs: number, intervalMs = 100, detail: () => string = () => ""): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (performance.now() > deadline) {
      const d = detail();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${d ? `: ${d}` : ""}${last ? ` (last error: ${(last as Error).message})` : ""}`);
    }
    await sleep(intervalMs);
  }
}
