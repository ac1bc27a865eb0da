/** One member's side of the handover: which buckets it claims, serves and drains, and when it calls the handler. */
import type { Clock } from "../util/clock.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import type { ShardHandler } from "./ring-options.ts";

/**
 * Where a bucket stands for this member (an absent bucket is neither published nor served):
 * - `claiming`: wanted; published as claimed once `claimedIn` is set (the write that did it).
 * - `promoting`: the claim held; the next write publishes it as served.
 * - `starting` / `serving`: published as served; `start` called / settled.
 * - `draining`: still published as served; `stop` called, not yet resolved.
 */
type Phase = "claiming" | "promoting" | "starting" | "serving" | "draining";

interface Bucket {
  phase: Phase;
  claimedIn?: number;
  /** Settles when `start` has (never rejects). */
  started?: Promise<void>;
  /** Aborts the drain's `stop` call: the drain must hurry. */
  hurry?: AbortController;
}

/**
 * What the member decides a step on.
 *
 * @example
 * ```ts
 * const owners = ["pod-a", "pod-b", "pod-a", "pod-b"]; // the assignment of 4 buckets
 * const input: HandoverInput = { owners, takenByOthers: (b) => false, ready: true, leaving: false, claimVisible: () => true };
 * ```
 */
export interface HandoverInput {
  /** The assignment: entry b is the member that should serve b. */
  owners: readonly (string | undefined)[];
  /** Whether another live member publishes b as served or claimed. */
  takenByOthers(bucket: number): boolean;
  /** Joined, not leaving, and the watch of the ring follows the server: claims may be made and held. */
  ready: boolean;
  /** Shutting down: drain everything, claim nothing. */
  leaving: boolean;
  /** Whether the ring's watch has delivered this member's write number `seq` or a later one. */
  claimVisible(seq: number): boolean;
}

/**
 * The buckets of one member and their phases. A bucket is published as served from before
 * `start` is called until after `stop` resolved; it is claimed (published as claiming, and
 * seen so in the ring's watch, with no competitor) before that.
 *
 * @example
 * ```ts
 * import { realClock } from "../util/clock.ts";
 * import type { ShardHandler } from "operator-runtime/sharding";
 * declare const handler: ShardHandler;
 * declare const input: HandoverInput;
 * declare function kick(): void; // schedules the member's next step
 * declare function writeLease(serving: number[], claiming: number[]): Promise<number>; // resolves with the write's number
 *
 * const handover = new BucketHandover("pod-a", handler, log, realClock, 2_000, () => kick());
 * handover.decide(input);
 * const { serving, claiming } = handover.toPublish();
 * const seq = await writeLease(serving, claiming);
 * handover.written(seq, serving, claiming);
 * ```
 */
export class BucketHandover {
  readonly #self: string;
  readonly #handler: ShardHandler;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #retryMs: number;
  readonly #changed: () => void;
  readonly #buckets = new Map<number, Bucket>();

  /** `changed` runs when a start or a drain settles: the member should take another step. */
  constructor(self: string, handler: ShardHandler, log: Logger, clock: Clock, retryMs: number, changed: () => void) {
    this.#self = self;
    this.#handler = handler;
    this.#log = log;
    this.#clock = clock;
    this.#retryMs = retryMs;
    this.#changed = changed;
  }

  /** Moves every bucket one step along: claim, withdraw, promote, drain. */
  decide(input: HandoverInput): void {
    const { owners, takenByOthers, ready, leaving } = input;
    const drained: number[] = [];
    for (let b = 0; b < owners.length; b++) {
      const mine = !leaving && owners[b] === this.#self;
      const st = this.#buckets.get(b);
      if (!st) {
        if (ready && mine && !takenByOthers(b)) this.#buckets.set(b, { phase: "claiming" });
        continue;
      }
      if (st.phase === "claiming") {
        if (!ready || !mine) this.#withdraw(b, "no longer assigned here");
        else if (st.claimedIn !== undefined && input.claimVisible(st.claimedIn)) {
          if (takenByOthers(b)) this.#withdraw(b, "another member publishes it");
          else st.phase = "promoting";
        }
      } else if (st.phase === "promoting") {
        if (!ready || !mine) this.#withdraw(b, "no longer assigned here");
      } else if (st.phase === "serving" && (leaving || (ready && !mine))) {
        this.#drain(b, st, false);
        drained.push(b);
      }
    }
    if (drained.length > 0) this.#log.info("draining buckets", { buckets: drained });
  }

  /** What the next Lease write publishes. */
  toPublish(): { serving: number[]; claiming: number[] } {
    const serving: number[] = [];
    const claiming: number[] = [];
    for (const [b, st] of this.#buckets) {
      if (st.phase === "claiming") claiming.push(b);
      else serving.push(b);
    }
    return { serving: serving.sort((x, y) => x - y), claiming: claiming.sort((x, y) => x - y) };
  }

  /**
   * The Lease write numbered `seq`, publishing `serving` and `claiming`, succeeded: claims in it
   * are now published, and buckets it published as served are started.
   */
  written(seq: number, serving: readonly number[], claiming: readonly number[]): void {
    for (const b of claiming) {
      const st = this.#buckets.get(b);
      if (st?.phase === "claiming") st.claimedIn ??= seq;
    }
    const started: number[] = [];
    for (const b of serving) {
      const st = this.#buckets.get(b);
      if (st?.phase !== "promoting") continue;
      this.#start(b, st);
      started.push(b);
    }
    if (started.length > 0) this.#log.info("took buckets", { buckets: started });
  }

  /** The lowest write number a claim still waits to see in the watch; undefined when none does. */
  oldestClaim(): number | undefined {
    let oldest: number | undefined;
    for (const st of this.#buckets.values()) {
      if (st.phase === "claiming" && st.claimedIn !== undefined && (oldest === undefined || st.claimedIn < oldest)) oldest = st.claimedIn;
    }
    return oldest;
  }

  /**
   * Membership lost: drop claims, and drain every served bucket in a hurry (its `stop` gets an
   * aborted signal; drains already running are aborted too).
   */
  lose(reason: unknown): void {
    const stopped: number[] = [];
    for (const [b, st] of this.#buckets) {
      if (st.phase === "claiming" || st.phase === "promoting") this.#buckets.delete(b);
      else if (st.phase === "draining") st.hurry!.abort(reason);
      else this.#drain(b, st, true, reason);
      if (st.phase === "draining") stopped.push(b);
    }
    if (stopped.length > 0) this.#log.warn("stopping buckets at once", { buckets: stopped.sort((x, y) => x - y) });
  }

  /** Buckets whose keys may be dispatched to reconcile: started or starting, not draining. */
  served(): Set<number> {
    const set = new Set<number>();
    for (const [b, st] of this.#buckets) if (st.phase === "starting" || st.phase === "serving") set.add(b);
    return set;
  }

  /** Whether reconciles of `bucket` may still run: started and not yet drained. */
  running(bucket: number): boolean {
    const phase = this.#buckets.get(bucket)?.phase;
    return phase === "starting" || phase === "serving" || phase === "draining";
  }

  /** Whether nothing is claimed, served or draining. */
  isEmpty(): boolean {
    return this.#buckets.size === 0;
  }

  #withdraw(b: number, why: string): void {
    this.#buckets.delete(b);
    this.#log.debug("withdrew a claim", { bucket: b, why });
  }

  #start(b: number, st: Bucket): void {
    st.phase = "starting";
    st.started = (async () => this.#handler.start(b))().then(
      () => {
        if (st.phase === "starting") st.phase = "serving";
      },
      (err: unknown) => {
        this.#log.error("start of a bucket failed; stopping it again", { bucket: b, error: err });
        if (st.phase === "starting") this.#drain(b, st, false);
      },
    );
    void st.started.then(this.#changed);
  }

  #drain(b: number, st: Bucket, hurry: boolean, reason?: unknown): void {
    st.phase = "draining";
    st.hurry = new AbortController();
    if (hurry) st.hurry.abort(reason);
    const signal = st.hurry.signal;
    void (async () => {
      await st.started;
      for (;;) {
        try {
          await this.#handler.stop(b, signal);
          break;
        } catch (err) {
          this.#log.error("stop of a bucket failed; it stays published, calling stop again", { bucket: b, error: err });
          await new Promise<void>((resolve) => this.#clock.setTimeout(resolve, this.#retryMs));
        }
      }
      if (this.#buckets.get(b) === st) this.#buckets.delete(b);
      this.#log.debug("drained a bucket", { bucket: b });
      this.#changed();
    })();
  }
}

/**
 * The reason an aborted drain's signal carries when membership is lost.
 *
 * @example
 * ```ts
 * declare const handover: BucketHandover;
 *
 * handover.lose(lostMembership("pod-a")); // signal.reason.message names pod-a and the renew deadline
 * ```
 */
export function lostMembership(identity: string): OperatorRuntimeError {
  return new OperatorRuntimeError(`ring membership of ${identity} lost: its Lease could not be renewed within the renew deadline`);
}
