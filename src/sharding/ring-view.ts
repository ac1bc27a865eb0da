/** What one member knows of the others: their Leases as last seen, whether each is live by the local clock, and what each publishes. */
import { LeaseObservation } from "../lease/lease-observation.ts";
import type { Lease } from "../lease/lease-record.ts";
import { CLAIMING_ANNOTATION, LEAVING_ANNOTATION, SERVING_ANNOTATION, publishedBuckets } from "./ring-lease.ts";

/**
 * A live member as one replica sees it.
 *
 * @example
 * ```ts
 * const peer: PeerView = { identity: "pod-b", leaseName: "dataapp-…", serving: new Set([3]), claiming: new Set(), leaving: false };
 * ```
 */
export interface PeerView {
  identity: string;
  leaseName: string;
  /** Buckets it serves, or "all" when its Lease cannot be read (see `publishedBuckets`). */
  serving: ReadonlySet<number> | "all";
  claiming: ReadonlySet<number> | "all";
  leaving: boolean;
}

interface Entry {
  seen: LeaseObservation;
  /** Deleted from the API while still publishing buckets: honoured until it expires. */
  deleted: boolean;
}

/**
 * The ring's member Leases as one replica's watch delivered them. A member is live while its
 * Lease names a holder and has changed within its lease duration, by this replica's monotonic
 * clock (the leader elector's rule, so clock skew cannot shorten a lease). A Lease deleted
 * while it still published buckets (by hand, or by a member that judged it expired) stays
 * counted until it expires, so a deletion alone never frees a bucket; a released Lease
 * (holderIdentity "") and a deleted one that published nothing are gone at once.
 *
 * @example
 * ```ts
 * import type { SharedInformer } from "operator-runtime/cache";
 * import type { Lease } from "../lease/lease-record.ts";
 * declare const informer: SharedInformer<Lease>; // the ring's member Leases
 *
 * const view = new RingView(() => performance.now(), 15_000, 64);
 * informer.addEventHandler({ add: (l) => view.see(l), update: (_, l) => view.see(l), delete: (l) => view.forget(l) });
 * const peers = view.live("pod-a");
 * ```
 */
export class RingView {
  readonly #now: () => number;
  readonly #fallbackMs: number;
  readonly #buckets: number;
  readonly #entries = new Map<string, Entry>();

  constructor(now: () => number, fallbackMs: number, buckets: number) {
    this.#now = now;
    this.#fallbackMs = fallbackMs;
    this.#buckets = buckets;
  }

  /** Records a member Lease as the watch delivered it. */
  see(lease: Lease): void {
    const name = lease.metadata?.name ?? "";
    let entry = this.#entries.get(name);
    if (!entry || entry.deleted) {
      entry = { seen: new LeaseObservation(this.#now, this.#fallbackMs), deleted: false };
      this.#entries.set(name, entry);
    }
    entry.seen.see(lease);
  }

  /** Records that a member Lease was deleted. */
  forget(lease: Lease): void {
    const name = lease.metadata?.name ?? "";
    const entry = this.#entries.get(name);
    if (!entry) return;
    if (this.#publishesNothing(entry.seen.lease!)) this.#entries.delete(name);
    else entry.deleted = true;
  }

  /** The live members other than `self` (by identity), by identity. */
  live(self: string): PeerView[] {
    const peers: PeerView[] = [];
    for (const [leaseName, { seen }] of this.#entries) {
      const identity = seen.holder;
      if (identity === "" || identity === self || seen.expiresIn() <= 0) continue;
      const lease = seen.lease!;
      peers.push({
        identity, leaseName,
        serving: publishedBuckets(lease, SERVING_ANNOTATION, this.#buckets),
        claiming: publishedBuckets(lease, CLAIMING_ANNOTATION, this.#buckets),
        leaving: lease.metadata?.annotations?.[LEAVING_ANNOTATION] === "true",
      });
    }
    return peers.sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0));
  }

  /** Milliseconds until the next live member (other than `self`) expires; undefined when none will. */
  nextExpiryIn(self: string): number | undefined {
    let next: number | undefined;
    for (const { seen } of this.#entries.values()) {
      if (seen.holder === "" || seen.holder === self) continue;
      const ms = seen.expiresIn();
      if (ms > 0 && (next === undefined || ms < next)) next = ms;
    }
    return next;
  }

  /**
   * Leases, other than `selfLease`, that are released or have been expired for at least
   * `graceMs` more: left behind by replicas that crashed or were killed. Deleted ones drop
   * out of the view here.
   */
  abandoned(selfLease: string, graceMs: number): Lease[] {
    const found: Lease[] = [];
    for (const [name, entry] of this.#entries) {
      if (name === selfLease) continue;
      const { seen } = entry;
      const released = seen.holder === "";
      if (!released && seen.expiresIn() > -graceMs) continue;
      if (entry.deleted) this.#entries.delete(name);
      else found.push(seen.lease!);
    }
    return found;
  }

  #publishesNothing(lease: Lease): boolean {
    if ((lease.spec?.holderIdentity ?? "") === "") return true;
    const serving = publishedBuckets(lease, SERVING_ANNOTATION, this.#buckets);
    const claiming = publishedBuckets(lease, CLAIMING_ANNOTATION, this.#buckets);
    return serving !== "all" && claiming !== "all" && serving.size === 0 && claiming.size === 0;
  }
}
