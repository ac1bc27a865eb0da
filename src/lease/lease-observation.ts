/** What a candidate knows of a Lease: its last-seen state and when, by the local clock, that state last changed. */
import { leaseDurationMsOf } from "./lease-record.ts";
import type { Lease } from "./lease-record.ts";

/**
 * The last-seen Lease and the local time its (holderIdentity, renewTime, resourceVersion) last
 * changed. A holder's lease expires when that time is older than the holder's lease duration —
 * judged by this process's clock only, so clock skew between replicas cannot shorten it.
 *
 * @example
 * ```ts
 * import { LEASE_KIND } from "./lease-record.ts";
 * import type { Lease } from "./lease-record.ts";
 *
 * const seen = new LeaseObservation(() => performance.now(), 15_000);
 * seen.see(await client.get<Lease>({ ...LEASE_KIND, namespace: "operators", name: "dataapp-operator" }));
 * if (seen.holder !== "" && seen.expiresIn() > 0) console.log(`${seen.holder} leads`);
 * ```
 */
export class LeaseObservation {
  /** The Lease as last read or written, if any. */
  lease: Lease | undefined;
  readonly #now: () => number;
  readonly #fallbackMs: number;
  #key = "";
  #changedAt = 0;

  /** `fallbackMs`: the duration assumed when the Lease states none. */
  constructor(now: () => number, fallbackMs: number) {
    this.#now = now;
    this.#fallbackMs = fallbackMs;
  }

  /** Records a Lease just read or written; restarts the expiry clock if it changed. */
  see(lease: Lease): void {
    const key = JSON.stringify([lease.spec?.holderIdentity ?? "", lease.spec?.renewTime ?? "", lease.metadata?.resourceVersion ?? ""]);
    if (key !== this.#key) {
      this.#key = key;
      this.#changedAt = this.#now();
    }
    this.lease = lease;
  }

  /** The holder seen ("" when none, released, or nothing seen yet). */
  get holder(): string {
    return this.lease?.spec?.holderIdentity ?? "";
  }

  /** Milliseconds until the seen holder's lease expires; 0 or less once expired. */
  expiresIn(): number {
    if (!this.lease) return 0;
    return this.#changedAt + leaseDurationMsOf(this.lease, this.#fallbackMs) - this.#now();
  }
}
