/**
 * For the ring's integration tests: members with short timings on one LocalCluster, and a
 * shared log of when each member started a bucket and when its drain of it resolved, to check
 * that no bucket was ever served by two members at once.
 */
import assert from "node:assert/strict";
import type { ResourceClient } from "../../src/client/resource-client.ts";
import { silentLogger } from "../../src/log/logger.ts";
import type { LocalCluster } from "../../src/testing/index.ts";
import { RingMembership } from "../../src/sharding/ring-membership.ts";
import type { RingMembershipOptions, ShardHandler } from "../../src/sharding/ring-membership.ts";
import { SHARD_BUCKETS } from "../../src/cache/shard-buckets.ts";
import { waitFor, within } from "../support/wait.ts";

export const LEASE_MS = 1500;
export const RENEW_MS = 1000;
export const RETRY_MS = 150;
export const NS = "default";

/** One member's time serving one bucket: from `start` called to its drain resolved. */
export interface Span {
  member: string;
  bucket: number;
  /** Order of events across all members (one process: a strict order). */
  startSeq: number;
  startAt: number;
  stopCalledAt?: number;
  /** Whether `stop` got an aborted signal (membership lost). */
  hurried?: boolean;
  stopSeq?: number;
  stopAt?: number;
}

/** What every member's handler reports to. */
export class ServeLog {
  readonly spans: Span[] = [];
  #seq = 0;

  /** The handler of member `member`; the promise `gate` returns (if any) holds its drains until it resolves or their signal aborts. */
  handler(member: string, gate?: () => Promise<void> | undefined): ShardHandler {
    return {
      start: (bucket) => {
        const open = this.#open(member, bucket);
        assert.equal(open, undefined, `${member} started bucket ${bucket} twice`);
        this.spans.push({ member, bucket, startSeq: ++this.#seq, startAt: performance.now() });
      },
      stop: async (bucket, signal) => {
        const span = this.#open(member, bucket);
        assert.ok(span, `${member} stopped bucket ${bucket} it had not started`);
        span.stopCalledAt = performance.now();
        span.hurried = signal.aborted;
        const held = gate?.();
        if (held && !signal.aborted) {
          await new Promise<void>((resolve) => {
            void held.then(resolve);
            signal.addEventListener("abort", () => resolve(), { once: true });
          });
        }
        span.stopSeq = ++this.#seq;
        span.stopAt = performance.now();
      },
    };
  }

  /** Buckets `member` serves by this log (started, drain not resolved). */
  serving(member: string): Set<number> {
    return new Set(this.spans.filter((s) => s.member === member && s.stopSeq === undefined).map((s) => s.bucket));
  }

  /** Ends `member`'s open spans now: it crashed, so its reconciles ended with it. */
  crashed(member: string): void {
    for (const s of this.spans) {
      if (s.member === member && s.stopSeq === undefined) {
        s.stopSeq = ++this.#seq;
        s.stopAt = performance.now();
      }
    }
  }

  /** Fails unless, for every bucket, each span started after the one before it had drained. */
  assertNoOverlap(): void {
    for (let b = 0; b < SHARD_BUCKETS; b++) {
      const spans = this.spans.filter((s) => s.bucket === b).sort((x, y) => x.startSeq - y.startSeq);
      for (let i = 1; i < spans.length; i++) {
        const prev = spans[i - 1]!;
        const next = spans[i]!;
        assert.ok(
          prev.stopSeq !== undefined && prev.stopSeq < next.startSeq,
          `bucket ${b}: ${next.member} started it while ${prev.member} still served it (${JSON.stringify(prev)} / ${JSON.stringify(next)})`,
        );
      }
    }
  }

  #open(member: string, bucket: number): Span | undefined {
    return this.spans.find((s) => s.member === member && s.bucket === bucket && s.stopSeq === undefined);
  }
}

/** A gate for {@link ServeLog.handler}. */
export function drainGate(): { gate: Promise<void>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

/** Members of one ring on one cluster, all stopped (or abandoned) by `close()`. */
export class Ring {
  readonly log = new ServeLog();
  readonly members = new Map<string, RingMembership>();
  readonly #cluster: LocalCluster;
  readonly #client: ResourceClient;
  readonly #ring: string;

  constructor(cluster: LocalCluster, client: ResourceClient, ring: string) {
    this.#cluster = cluster;
    this.#client = client;
    this.#ring = ring;
  }

  /** Creates and starts a member. */
  async join(identity: string, extra: Partial<RingMembershipOptions> & { gate?: () => Promise<void> | undefined } = {}): Promise<RingMembership> {
    const { gate, ...options } = extra;
    const m = new RingMembership({
      client: this.#client, kubeConfig: this.#cluster.kubeConfig, namespace: NS, ring: this.#ring, identity,
      handler: this.log.handler(identity, gate), leaseDurationMs: LEASE_MS, renewDeadlineMs: RENEW_MS, retryPeriodMs: RETRY_MS,
      logger: silentLogger, ...options,
    });
    this.members.set(identity, m);
    await within(m.start(AbortSignal.timeout(5000)), `${identity} to start`);
    return m;
  }

  /** Waits until the members `ids` agree on exactly themselves and serve, between them, every bucket as assigned. */
  async converged(ids: string[], what: string, timeoutMs = 10_000): Promise<void> {
    const expected = [...ids].sort();
    await waitFor(() => {
      for (const id of ids) {
        const m = this.members.get(id)!;
        if (JSON.stringify(m.members()) !== JSON.stringify(expected)) return false;
      }
      const owners = this.members.get(ids[0]!)!.assignment();
      for (const id of ids) {
        const mine = owners.flatMap((o, b) => (o === id ? [b] : []));
        if (JSON.stringify([...this.members.get(id)!.served()].sort((a, b) => a - b)) !== JSON.stringify(mine)) return false;
        if (JSON.stringify([...this.log.serving(id)].sort((a, b) => a - b)) !== JSON.stringify(mine)) return false;
      }
      return true;
    }, what, timeoutMs);
  }

  /** The owner of each bucket by the serve log (undefined: none). */
  owners(): (string | undefined)[] {
    const owners: (string | undefined)[] = new Array(SHARD_BUCKETS).fill(undefined);
    for (const id of this.members.keys()) for (const b of this.log.serving(id)) owners[b] = id;
    return owners;
  }

  /** Stops every member still running. */
  async close(): Promise<void> {
    await Promise.all([...this.members.values()].map((m) => within(m.stop(), `${m.identity} to stop`, 10_000)));
  }
}
