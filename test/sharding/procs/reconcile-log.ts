/**
 * Reading the shared reconcile log of replica processes: reconciles as spans, and the pairs of
 * spans of one key by two replicas that overlap in time (what sharding must never produce).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { LogLine } from "./protocol.ts";

/** One reconcile: from its `begin` line to its `end` line (or to its replica's death). */
export interface Span {
  replica: string;
  key: string;
  start: number;
  /** Infinity while it has no end (its replica still runs). */
  end: number;
  /** No `end` line: the replica died during it (end = its death) or it is still running. */
  open: boolean;
  ok: boolean;
  gen?: number | undefined;
  bucket?: number | undefined;
}

/**
 * Parses a reconcile log from byte `from` (a line start: 0, or the size of the file at an
 * earlier time); a torn last line (a write in progress) is left out.
 */
export function readLog(path: string, from = 0): LogLine[] {
  const fd = openSync(path, "r");
  let text: string;
  try {
    const buf = Buffer.alloc(Math.max(0, fstatSync(fd).size - from));
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    text = buf.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
  }
  const parts = text.split("\n");
  const lines: LogLine[] = [];
  for (let i = 0; i < parts.length; i++) {
    const l = parts[i]!;
    if (!l) continue;
    try {
      lines.push(JSON.parse(l) as LogLine);
    } catch {
      // Only the last line can be incomplete; anything else is a bug worth seeing.
      if (i !== parts.length - 1) throw new Error(`reconcile log: unreadable line ${JSON.stringify(l.slice(0, 200))}`);
    }
  }
  return lines;
}

/**
 * Pairs `begin` and `end` lines into spans. A replica runs one reconcile of a key at a time, so
 * an `end` closes the open `begin` of its replica and key. A `begin` left open ends at its
 * replica's death time in `deaths`, else stays open (end = Infinity).
 */
export function spans(lines: LogLine[], deaths: ReadonlyMap<string, number> = new Map()): Span[] {
  const out: Span[] = [];
  const open = new Map<string, Span>();
  for (const l of lines) {
    const id = `${l.replica}\u0000${l.key}`;
    if (l.t === "begin") {
      const s: Span = { replica: l.replica, key: l.key, start: l.start, end: Infinity, open: true, ok: false };
      open.set(id, s);
      out.push(s);
      continue;
    }
    const s = open.get(id);
    if (s && s.start === l.start) {
      open.delete(id);
      Object.assign(s, { end: l.end, open: false, ok: l.ok, gen: l.gen, bucket: l.bucket });
    } else {
      out.push({ replica: l.replica, key: l.key, start: l.start, end: l.end, open: false, ok: l.ok, gen: l.gen, bucket: l.bucket });
    }
  }
  for (const s of open.values()) {
    const died = deaths.get(s.replica);
    if (died !== undefined) s.end = Math.max(s.start, died);
  }
  return out;
}

/** Pairs of spans of one key by two different replicas whose times overlap (`a.start < b.end && b.start < a.end`). */
export function overlaps(all: Span[]): [Span, Span][] {
  const byKey = new Map<string, Span[]>();
  for (const s of all) {
    let list = byKey.get(s.key);
    if (!list) byKey.set(s.key, (list = []));
    list.push(s);
  }
  const found: [Span, Span][] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      for (let j = i + 1; j < list.length && list[j]!.start < a.end; j++) {
        const b = list[j]!;
        if (b.replica !== a.replica && b.start < a.end && a.start < b.end) found.push([a, b]);
      }
    }
  }
  return found;
}

/** A key passing from one replica to another: the earlier one's reconcile ended `gapMs` before the later one's began. */
export interface Handoff {
  key: string;
  from: string;
  to: string;
  gapMs: number;
}

/**
 * Every change of replica in each key's reconciles (ordered by start): what shows that a
 * handover happened while the key was being reconciled, and how close the two came (an
 * overlap is a negative gap; see {@link overlaps}).
 */
export function handoffs(all: Span[]): Handoff[] {
  const byKey = new Map<string, Span[]>();
  for (const s of all) {
    let list = byKey.get(s.key);
    if (!list) byKey.set(s.key, (list = []));
    list.push(s);
  }
  const out: Handoff[] = [];
  for (const [key, list] of byKey) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const next = list[i]!;
      if (prev.replica !== next.replica) out.push({ key, from: prev.replica, to: next.replica, gapMs: next.start - prev.end });
    }
  }
  return out;
}

/** A readable line for an overlap. */
export function describeOverlap([a, b]: [Span, Span]): string {
  const t = (s: Span) => `${s.replica} ${s.start}…${Number.isFinite(s.end) ? s.end : "running"}${s.open ? " (no end line)" : ""}`;
  return `${a.key}: ${t(a)} overlaps ${t(b)}`;
}

/** Distinct keys each replica reconciled, among `spans`. */
export function keysByReplica(all: Span[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of all) {
    let keys = out.get(s.replica);
    if (!keys) out.set(s.replica, (keys = new Set()));
    keys.add(s.key);
  }
  return out;
}
