/**
 * What the dashboard remembers: the latest reconciles (a bounded ring), the Events the operator
 * recorded, its log lines, the Builder's last pass per key, and ring handovers; and who is
 * listening for new ones.
 */
import type { KubeObject } from "../client/types.ts";
import type { Controller } from "../controller/controller.ts";
import type { ControllerObserver, ObservedWrite, ReconcileEnd, ReconcileRun } from "../controller/observer.ts";
import type { BuilderResult, ObjectResult } from "../controller/results.ts";
import type { Trigger } from "../controller/triggers.ts";
import type { RecordedEvent } from "../events/recorded-event.ts";
import type { TappedRecord } from "../log/tap.ts";
import { toLogValue } from "../log/safe-value.ts";
import { diffBytes, objectDiff } from "./diff.ts";
import type { BuilderPass } from "./owners.ts";
import type { DiffOp, EventRecord, LogRecord, ReconcileOutcome, ReconcileRecord, StreamMessage, WriteRecord } from "./types.ts";

/** Limits of a {@link DashboardRecorder}. */
export interface RecorderLimits {
  /** Reconciles kept (default 5,000). */
  timeline?: number;
  /** Events kept (default 2,000). */
  events?: number;
  /** Log lines kept (default 2,000). */
  logs?: number;
  /** Lowest log level kept (default `info`). */
  logLevel?: "debug" | "info" | "warn" | "error";
}

const LEVELS = { debug: 0, info: 1, warn: 2, error: 3 } as const;
/** Writes kept per reconcile record. */
const MAX_WRITES = 50;
/** Diff JSON kept per reconcile record, all its writes together (bytes, about). */
const MAX_DIFF_BYTES_PER_RECORD = 32 * 1024;
/** Diff JSON kept in the whole timeline (bytes, about): past it the oldest records' diffs are dropped. */
const MAX_DIFF_BYTES = 8 * 1024 * 1024;
/** What a dropped diff says. */
const DROPPED: DiffOp[] = [{ op: "replace", path: "", value: "… diff dropped: the timeline keeps the newest 8 MiB of diffs" }];
/** Keys whose last run and last Builder pass are kept (the oldest are forgotten beyond it). */
const MAX_KEYS = 50_000;

/** A fixed-size ring: pushes past the capacity drop the oldest. */
class Ring<T> {
  readonly #items: (T | undefined)[];
  #start = 0;
  #size = 0;

  constructor(capacity: number) {
    this.#items = new Array<T | undefined>(Math.max(1, capacity));
  }

  /** Adds `item`; answers the item it pushed out, if the ring was full. */
  push(item: T): T | undefined {
    const cap = this.#items.length;
    if (this.#size < cap) {
      this.#items[(this.#start + this.#size) % cap] = item;
      this.#size++;
      return undefined;
    }
    const evicted = this.#items[this.#start];
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % cap;
    return evicted;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    const cap = this.#items.length;
    for (let i = 0; i < this.#size; i++) out.push(this.#items[(this.#start + i) % cap]!);
    return out;
  }

  /** The last `n`, oldest first. */
  last(n: number): T[] {
    const all = this.toArray();
    return n >= all.length ? all : all.slice(all.length - n);
  }

  get size(): number {
    return this.#size;
  }
}

/**
 * Records what the dashboard shows, from controller observers, the Manager's log tap and its
 * event recorder; tells subscribers (the page's streams) of each new record.
 *
 * @example
 * ```ts
 * import type { Controller } from "operator-runtime/controller";
 *
 * declare const controller: Controller;
 * const recorder = new DashboardRecorder();
 * recorder.attach(controller);
 * const stop = recorder.subscribe((m) => console.log(m.type));
 * ```
 */
export class DashboardRecorder {
  readonly #timeline: Ring<ReconcileRecord>;
  readonly #events: Ring<EventRecord>;
  readonly #logs: Ring<LogRecord>;
  readonly #minLevel: number;
  #seq = 0;
  /** The Builder passes of running reconciles, by reconcileID (kept for the owners tree when the run ends). */
  readonly #runPasses = new Map<string, BuilderResult[]>();
  /** Diffs in the timeline, oldest first, with their size; and their total. */
  readonly #diffs: { record: ReconcileRecord; bytes: number }[] = [];
  #diffBytes = 0;
  /** Records the ring has pushed out. */
  readonly #evicted = new WeakSet<ReconcileRecord>();
  /** Diff bytes held by each running record. */
  readonly #recordBytes = new WeakMap<ReconcileRecord, number>();
  /** Running records by reconcileID. */
  readonly #running = new Map<string, ReconcileRecord>();
  /** controller → key → the last run. */
  readonly #lastRuns = new Map<string, Map<string, { seq: number; outcome: ReconcileOutcome; endedAt?: number; trigger: Trigger }>>();
  /** controller → key → the last Builder pass. */
  readonly #passes = new Map<string, Map<string, BuilderPass>>();
  /** controller → totals. */
  readonly #totals = new Map<string, { total: number; errors: number; loops: number }>();
  readonly #subscribers = new Set<(m: StreamMessage) => void>();
  readonly #detach: (() => void)[] = [];

  constructor(limits: RecorderLimits = {}) {
    this.#timeline = new Ring(limits.timeline ?? 5000);
    this.#events = new Ring(limits.events ?? 2000);
    this.#logs = new Ring(limits.logs ?? 2000);
    this.#minLevel = LEVELS[limits.logLevel ?? "info"];
  }

  /** Observes a controller's runs. */
  attach(controller: Controller): void {
    const name = controller.name;
    this.#totals.set(name, { total: 0, errors: 0, loops: 0 });
    const observer: ControllerObserver = {
      started: (run) => this.#started(run),
      wrote: (run, write) => this.#wrote(run, write),
      builderResult: (run, _owner, result) => this.#builderPass(run, result),
      ended: (run, end) => this.#ended(run, end),
    };
    this.#detach.push(controller.observe(observer));
  }

  /** Stops observing every controller and drops the subscribers. */
  close(): void {
    for (const d of this.#detach.splice(0)) d();
    this.#subscribers.clear();
  }

  /** Tells `fn` of every new record; answers the function that stops it. */
  subscribe(fn: (m: StreamMessage) => void): () => void {
    this.#subscribers.add(fn);
    return () => void this.#subscribers.delete(fn);
  }

  /** How many subscribers listen. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /** The latest `n` reconciles (oldest first), running ones included. */
  timeline(n = 500, filter: { controller?: string; key?: string; before?: number } = {}): ReconcileRecord[] {
    const all = this.#timeline.toArray();
    const picked = all.filter((r) => (!filter.controller || r.controller === filter.controller) && (!filter.key || r.key === filter.key) && (filter.before === undefined || r.seq < filter.before));
    return picked.length > n ? picked.slice(picked.length - n) : picked;
  }

  /** The latest `n` Events, oldest first. */
  events(n = 500): EventRecord[] {
    return this.#events.last(n);
  }

  /** The latest `n` log lines, oldest first. */
  logs(n = 500): LogRecord[] {
    return this.#logs.last(n);
  }

  /** Reconciles, errors and loops of a controller so far. */
  totals(controller: string): { total: number; errors: number; loops: number } {
    return this.#totals.get(controller) ?? { total: 0, errors: 0, loops: 0 };
  }

  /** The last run of each key of a controller. */
  lastRuns(controller: string): ReadonlyMap<string, { seq: number; outcome: ReconcileOutcome; endedAt?: number; trigger: Trigger }> {
    return this.#lastRuns.get(controller) ?? new Map();
  }

  /** The last Builder pass of each key of a controller. */
  passes(controller: string): ReadonlyMap<string, BuilderPass> {
    return this.#passes.get(controller) ?? new Map();
  }

  /** Records a log line (the Manager's log tap). */
  log(record: TappedRecord): void {
    if (LEVELS[record.level] < this.#minLevel) return;
    const { controller, key, ...rest } = record.fields;
    const fields = toLogValue(rest);
    const line: LogRecord = {
      seq: ++this.#seq, at: Date.now(), level: record.level, msg: record.msg,
      ...(typeof controller === "string" ? { controller } : {}), ...(typeof key === "string" ? { key } : {}),
      fields: typeof fields === "object" && fields !== null && !Array.isArray(fields) ? fields as Record<string, unknown> : { fields },
    };
    this.#logs.push(line);
    this.#send({ type: "log", data: line });
  }

  /** Records an Event the operator's recorder wrote (or dropped), with the reconcile it came from. */
  event(recorded: RecordedEvent, scope?: { controller: string; key?: string }): void {
    const e = recorded.event;
    const r = e.regarding ?? {};
    const record: EventRecord = {
      seq: ++this.#seq, at: Date.now(), type: e.type === "Warning" ? "Warning" : "Normal", reason: e.reason ?? "",
      ...(e.action ? { action: e.action } : {}), note: e.note ?? "",
      regarding: { apiVersion: r.apiVersion ?? "", kind: r.kind ?? "", namespace: r.namespace ?? "", name: r.name ?? "" },
      ...(scope ? { controller: scope.controller } : {}), ...(scope?.key ? { key: scope.key } : {}),
    };
    this.#events.push(record);
    this.#send({ type: "event", data: record });
  }

  /** Records an Event another controller wrote about one of the operator's objects (see `followClusterEvents`). */
  clusterEvent(e: Omit<EventRecord, "seq" | "at">): void {
    const record: EventRecord = { seq: ++this.#seq, at: Date.now(), ...e };
    this.#events.push(record);
    this.#send({ type: "event", data: record });
  }

  /** Records the Builder passes of a plan, shown in the owners tree as planned. */
  planned(controller: string, key: string, results: readonly BuilderResult[]): void {
    if (results.length === 0) return;
    remember(this.#passes, controller, key, { at: Date.now(), planned: true, objects: mergePasses(results) });
  }

  /** The write records of observed writes (diffs computed). */
  static writeRecords(writes: readonly ObservedWrite[]): WriteRecord[] {
    return writes.slice(0, MAX_WRITES).map(writeRecord);
  }

  #started(run: ReconcileRun): void {
    const record: ReconcileRecord = {
      seq: ++this.#seq, controller: run.controller, key: run.key, reconcileID: run.reconcileID, trigger: run.trigger,
      triggers: run.triggers, queuedAt: run.queuedAt, startedAt: run.startedAt, waitMs: Math.max(0, run.startedAt - run.queuedAt),
      outcome: "running", writes: [], selfTriggered: run.trigger.self === true, loop: false,
    };
    this.#running.set(run.reconcileID, record);
    const evicted = this.#timeline.push(record);
    if (evicted) {
      // Its diffs no longer count (they are mostly the oldest).
      this.#evicted.add(evicted);
      let drop = 0;
      while (drop < this.#diffs.length && this.#evicted.has(this.#diffs[drop]!.record)) this.#diffBytes -= this.#diffs[drop++]!.bytes;
      if (drop > 0) this.#diffs.splice(0, drop);
    }
    this.#send({ type: "reconcile", data: record });
  }

  #wrote(run: ReconcileRun, write: ObservedWrite): void {
    const record = this.#running.get(run.reconcileID);
    if (!record || record.writes.length >= MAX_WRITES) return;
    const w = writeRecord(write);
    // A record's diffs stay within a budget, and so do the ring's (the oldest diffs go first).
    const size = w.diff ? diffBytes(w.diff) : 0;
    const bytes = (this.#recordBytes.get(record) ?? 0) + size;
    if (w.diff && bytes > MAX_DIFF_BYTES_PER_RECORD) {
      w.diff = [{ op: "replace", path: "", value: `… diff left out: this reconcile's diffs passed ${MAX_DIFF_BYTES_PER_RECORD / 1024} KiB` }];
    } else if (size > 0) {
      this.#recordBytes.set(record, bytes);
      this.#diffs.push({ record, bytes: size });
      this.#diffBytes += size;
      this.#trimDiffs();
    }
    record.writes.push(w);
  }

  /** Drops the oldest diffs while the timeline holds more than its budget. */
  #trimDiffs(): void {
    let drop = 0;
    while (this.#diffBytes > MAX_DIFF_BYTES && drop < this.#diffs.length) {
      const { record, bytes } = this.#diffs[drop++]!;
      this.#diffBytes -= bytes;
      for (const w of record.writes) if (w.diff && w.diff !== DROPPED && w.diff.length > 0) w.diff = DROPPED;
    }
    if (drop > 0) this.#diffs.splice(0, drop);
  }

  #ended(run: ReconcileRun, end: ReconcileEnd): void {
    const passes = this.#runPasses.get(run.reconcileID);
    this.#runPasses.delete(run.reconcileID);
    if (passes) remember(this.#passes, run.controller, run.key, { at: end.endedAt, planned: passes.every((p) => p.dryRun), objects: mergePasses(passes) });
    const record = this.#running.get(run.reconcileID);
    if (!record) return;
    this.#running.delete(run.reconcileID);
    record.endedAt = end.endedAt;
    record.durationMs = Math.max(0, end.endedAt - record.startedAt);
    record.outcome = end.outcome;
    if (end.requeueAfterMs !== undefined) record.requeueAfterMs = end.requeueAfterMs;
    if (end.error !== undefined) record.error = messageOf(end.error);
    if (end.retries !== undefined) record.retries = end.retries;
    record.selfTriggered = end.selfTriggered;
    record.loop = end.loop;
    const totals = this.#totals.get(run.controller) ?? { total: 0, errors: 0, loops: 0 };
    totals.total++;
    if (end.outcome === "error" || end.outcome === "terminal") totals.errors++;
    if (end.loop) totals.loops++;
    this.#totals.set(run.controller, totals);
    remember(this.#lastRuns, run.controller, run.key, { seq: record.seq, outcome: record.outcome, endedAt: end.endedAt, trigger: record.trigger });
    this.#send({ type: "reconcile", data: record });
    if (record.writes.length > 0 || this.#passes.get(run.controller)?.has(run.key)) this.#send({ type: "owners", data: { controller: run.controller, key: run.key } });
  }

  /** Keeps a Builder pass of a running reconcile, until the run ends (several Builders of a run, by component, are merged then). */
  #builderPass(run: ReconcileRun, result: BuilderResult): void {
    // A run that already ended (it timed out and goes on in the background) is not shown again.
    if (!this.#running.has(run.reconcileID)) return;
    const passes = this.#runPasses.get(run.reconcileID);
    if (passes) passes.push(result);
    else this.#runPasses.set(run.reconcileID, [result]);
  }

  #send(message: StreamMessage): void {
    for (const s of this.#subscribers) {
      try {
        s(message);
      } catch {
        // A broken subscriber never breaks recording.
      }
    }
  }
}

/** The objects of several Builder passes of one run (by component): a later result of the same object wins. */
function mergePasses(passes: readonly BuilderResult[]): ObjectResult[] {
  const byRef = new Map<string, ObjectResult>();
  for (const p of passes) for (const o of p.objects) byRef.set(`${o.apiVersion}|${o.kind}|${o.namespace ?? ""}|${o.name}`, o);
  return [...byRef.values()];
}

/** Sets `map[outer][key]`, forgetting the oldest key past the limit. */
function remember<V>(map: Map<string, Map<string, V>>, outer: string, key: string, value: V): void {
  let inner = map.get(outer);
  if (!inner) map.set(outer, (inner = new Map()));
  inner.delete(key);
  inner.set(key, value);
  if (inner.size > MAX_KEYS) inner.delete(inner.keys().next().value!);
}

function writeRecord(w: ObservedWrite): WriteRecord {
  const answer = w.answer;
  const after = w.verb === "delete" ? (answer?.metadata?.deletionTimestamp ? answer : undefined) : answer;
  // Unknown without the object before it (a kind the controller does not cache), but for a create.
  const known = w.error === undefined && (w.before !== undefined || w.verb === "create");
  const diff = known ? objectDiff(w.before, after ?? (w.verb === "delete" ? undefined : w.before), {
    secret: w.kind === "Secret", ...(w.subresource === "status" ? { only: "status" } : {}),
  }) : null;
  return {
    apiVersion: w.apiVersion, kind: w.kind, namespace: w.namespace ?? "", name: w.name ?? answer?.metadata?.name ?? "",
    verb: w.verb, ...(w.subresource ? { subresource: w.subresource } : {}),
    ...(answer?.metadata?.resourceVersion ? { resourceVersion: answer.metadata.resourceVersion } : {}),
    diff, ...(w.error !== undefined ? { error: messageOf(w.error) } : {}), ...(w.dryRun ? { dryRun: true } : {}),
  };
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  try {
    return typeof err === "string" ? err : JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
