/** Reads and writes a ring member's own Lease, and deletes those of departed members. */
import type { ResourceClient } from "../client/resource-client.ts";
import { AlreadyExistsError, ConflictError, NotFoundError, OperatorRuntimeError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import { LEASE_KIND } from "../lease/lease-record.ts";
import type { Lease } from "../lease/lease-record.ts";
import { memberLease } from "./ring-lease.ts";

/**
 * What a member's Lease publishes.
 *
 * @example
 * ```ts
 * const p: Published = { serving: [1, 5], claiming: [9], leaving: false };
 * ```
 */
export interface Published {
  serving: number[];
  claiming: number[];
  leaving: boolean;
}

/**
 * The fixed part of a member's Lease.
 *
 * @example
 * ```ts
 * import { memberLeaseName } from "operator-runtime/sharding";
 *
 * const who: MemberIdentity = { namespace: "ops", ring: "dataapp", name: memberLeaseName("dataapp", "pod-a"),
 *   identity: "pod-a", durationMs: 15_000, buckets: 64, now: Date.now };
 * ```
 */
export interface MemberIdentity {
  namespace: string;
  ring: string;
  name: string;
  identity: string;
  durationMs: number;
  buckets: number;
  /** Wall-clock time (epoch ms) for renewTime. */
  now: () => number;
}

/**
 * A member's Lease as this member last wrote it. Every write is a PUT conditional on that
 * resourceVersion; the first one (or the one after the Lease changed under the member) reads
 * the Lease first and creates it when missing, or takes it over from an earlier process of the
 * same identity.
 *
 * @example
 * ```ts
 * declare const who: MemberIdentity;
 *
 * const store = new MemberLeaseStore(client, who);
 * const lease = await store.write({ serving: [], claiming: [3], leaving: false }, AbortSignal.timeout(10_000));
 * ```
 */
export class MemberLeaseStore {
  readonly #client: ResourceClient;
  readonly #who: MemberIdentity;
  #lease: Lease | undefined;

  constructor(client: ResourceClient, who: MemberIdentity) {
    this.#client = client;
    this.#who = who;
  }

  /**
   * Writes the Lease publishing `p`; resolves with what the server stored. Rejects as the
   * client does; after a ConflictError, AlreadyExistsError or NotFoundError (someone else wrote
   * or deleted the Lease) the next write reads it again first.
   */
  async write(p: Published, signal: AbortSignal): Promise<Lease> {
    const who = this.#who;
    try {
      this.#lease ??= await this.#read(signal);
      const body = memberLease(this.#lease, { ...who, now: who.now(), ...p });
      this.#lease = this.#lease ? await this.#client.replace<Lease>(body, { signal }) : await this.#client.create<Lease>(body, { signal });
      return this.#lease;
    } catch (err) {
      if (changedUnderUs(err)) this.#lease = undefined;
      throw err;
    }
  }

  /** Deletes the Lease as last written (preconditions: its uid and resourceVersion); does nothing if none was. */
  async delete(signal: AbortSignal): Promise<void> {
    const meta = this.#lease?.metadata;
    if (!meta?.uid || !meta.resourceVersion) return;
    await this.#client.delete({ ...LEASE_KIND, namespace: this.#who.namespace, name: this.#who.name }, {
      preconditions: { uid: meta.uid, resourceVersion: meta.resourceVersion }, signal,
    });
    this.#lease = undefined;
  }

  /**
   * Deletes Leases of departed members, each only as last seen (preconditions), in the
   * background; a Lease already gone or renewed meanwhile is left alone.
   */
  deleteDeparted(leases: readonly Lease[], timeoutMs: number, log: Logger): void {
    for (const lease of leases) {
      const { name, uid, resourceVersion } = lease.metadata ?? {};
      if (!name || !uid || !resourceVersion) continue;
      this.#client.delete({ ...LEASE_KIND, namespace: this.#who.namespace, name }, { preconditions: { uid, resourceVersion }, signal: AbortSignal.timeout(timeoutMs) }).then(
        () => log.info("deleted the Lease of a departed member", { lease: name, member: lease.spec?.holderIdentity ?? "" }),
        (err: unknown) => {
          if (!(err instanceof NotFoundError) && !(err instanceof ConflictError)) log.warn("could not delete a departed member's Lease", { lease: name, error: err });
        },
      );
    }
  }

  async #read(signal: AbortSignal): Promise<Lease | undefined> {
    const { namespace, name, identity } = this.#who;
    let found: Lease;
    try {
      found = await this.#client.get<Lease>({ ...LEASE_KIND, namespace, name }, { signal });
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
    const holder = found.spec?.holderIdentity ?? "";
    if (holder !== "" && holder !== identity) {
      throw new OperatorRuntimeError(`RingMembership: Lease ${name} is held by ${JSON.stringify(holder)}, not ${JSON.stringify(identity)}: two identities hash alike. Fix: use another identity.`);
    }
    return found;
  }
}

/**
 * Whether a write failed because someone else wrote or deleted the Lease (409 or 404).
 *
 * @example
 * ```ts
 * declare const store: MemberLeaseStore;
 * let retryNow = false;
 *
 * const published: Published = { serving: [1, 5], claiming: [], leaving: false };
 * await store.write(published, signal).catch((err: unknown) => { if (changedUnderUs(err)) retryNow = true; else throw err; });
 * ```
 */
export function changedUnderUs(err: unknown): boolean {
  return err instanceof ConflictError || err instanceof AlreadyExistsError || err instanceof NotFoundError;
}
