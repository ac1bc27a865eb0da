/** A ring member's Lease: its name, labels, and the buckets it publishes as serving, claiming or leaving. */
import { OperatorRuntimeError } from "../errors.ts";
import { holdingLease } from "../lease/lease-record.ts";
import type { Lease } from "../lease/lease-record.ts";
import { fnv1a64 } from "./hash.ts";

/**
 * The label on every member Lease of a ring, valued with the ring's name; members watch the
 * Leases selected by `operator-runtime.io/ring=<ring>`.
 *
 * @example
 * ```ts
 * import { LEASE_KIND } from "../lease/lease-record.ts";
 * import type { Lease } from "../lease/lease-record.ts";
 *
 * const members = await client.listAll<Lease>(LEASE_KIND, { namespace: "operators", labelSelector: `${RING_LABEL}=dataapp` });
 * console.log(members.items.map((l) => l.spec?.holderIdentity));
 * ```
 */
export const RING_LABEL = "operator-runtime.io/ring";

/**
 * The buckets a member serves now (their reconciles may run), comma-separated ascending:
 * `"1,5,9"`, or `""` for none. Others never take a bucket a live member publishes here.
 *
 * @example
 * ```ts
 * import type { Lease } from "../lease/lease-record.ts";
 * declare const lease: Lease;
 *
 * lease.metadata?.annotations?.[SERVING_ANNOTATION]; // "1,5,9"
 * ```
 */
export const SERVING_ANNOTATION = "operator-runtime.io/serving";

/**
 * The buckets a member is about to serve, in the same format: a claim that competitors see
 * before any of them starts, so at most one takes the bucket.
 *
 * @example
 * ```ts
 * import type { Lease } from "../lease/lease-record.ts";
 * declare const lease: Lease;
 *
 * lease.metadata?.annotations?.[CLAIMING_ANNOTATION]; // "12"
 * ```
 */
export const CLAIMING_ANNOTATION = "operator-runtime.io/claiming";

/**
 * Present (`"true"`) while a member shuts down: the others leave it out of the assignment at
 * once, but still wait for each bucket it publishes until it stops publishing it.
 *
 * @example
 * ```ts
 * import type { Lease } from "../lease/lease-record.ts";
 * declare const lease: Lease;
 *
 * const leaving = lease.metadata?.annotations?.[LEAVING_ANNOTATION] === "true";
 * ```
 */
export const LEAVING_ANNOTATION = "operator-runtime.io/leaving";

/**
 * The bucket count the member divides the hash space into. Members of one ring must agree;
 * a live member with another count is taken to hold every bucket.
 *
 * @example
 * ```ts
 * import type { Lease } from "../lease/lease-record.ts";
 * declare const lease: Lease;
 *
 * lease.metadata?.annotations?.[BUCKETS_ANNOTATION]; // "64"
 * ```
 */
export const BUCKETS_ANNOTATION = "operator-runtime.io/shard-buckets";

const RING_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Throws unless `ring` can name a ring: a DNS label of at most 46 characters, so that it is a
 * valid label value and the member Lease names (`<ring>-<16 hex digits>`) are DNS labels too.
 *
 * @example
 * ```ts
 * checkRingName("dataapp"); // ok
 * ```
 */
export function checkRingName(ring: string): void {
  if (!RING_NAME.test(ring) || ring.length > 46) {
    throw new OperatorRuntimeError(
      `RingMembership: ring ${JSON.stringify(ring)} is not a lowercase DNS label of at most 46 characters. Fix: use a name such as "dataapp-operator".`,
    );
  }
}

/**
 * The name of `identity`'s Lease in `ring`: `<ring>-<fnv1a64(identity) in 16 hex digits>`, so
 * any identity (a pod name with a random suffix) gives a valid, stable name.
 *
 * @example
 * ```ts
 * memberLeaseName("dataapp", "dataapp-7d9f-x2k4q"); // "dataapp-" + 16 hex digits
 * ```
 */
export function memberLeaseName(ring: string, identity: string): string {
  return `${ring}-${fnv1a64(identity).toString(16).padStart(16, "0")}`;
}

/**
 * What a member writes: who it is, for how long its word holds, and its buckets.
 *
 * @example
 * ```ts
 * const state: MemberState = { namespace: "ops", ring: "dataapp", name: "dataapp-0123456789abcdef",
 *   identity: "pod-a", durationMs: 15_000, now: Date.now(), buckets: 64, serving: [1, 5], claiming: [], leaving: false };
 * ```
 */
export interface MemberState {
  namespace: string;
  ring: string;
  name: string;
  identity: string;
  durationMs: number;
  /** Epoch ms for renewTime. */
  now: number;
  buckets: number;
  serving: Iterable<number>;
  claiming: Iterable<number>;
  leaving: boolean;
}

/**
 * The body of a member's Lease: held by `identity` (renewed when `current` is its own, taken
 * over when it was released or left by an earlier process of the same identity), labelled with
 * the ring, publishing the member's buckets. Keeps `current`'s resourceVersion: the PUT is
 * conditional.
 *
 * @example
 * ```ts
 * import { LEASE_KIND } from "../lease/lease-record.ts";
 * import type { Lease } from "../lease/lease-record.ts";
 *
 * const name = memberLeaseName("dataapp", "pod-a");
 * const current = await client.get<Lease>({ ...LEASE_KIND, namespace: "ops", name });
 * const state: MemberState = { namespace: "ops", ring: "dataapp", name, identity: "pod-a",
 *   durationMs: 15_000, now: Date.now(), buckets: 64, serving: [1, 5], claiming: [9], leaving: false };
 * await client.replace(memberLease(current, state)); // ConflictError if it changed meanwhile
 * ```
 */
export function memberLease(current: Lease | undefined, s: MemberState): Lease {
  const held = holdingLease(current, { namespace: s.namespace, name: s.name, identity: s.identity, durationMs: s.durationMs, now: s.now });
  const annotations: Record<string, string> = {
    ...held.metadata?.annotations,
    [SERVING_ANNOTATION]: formatBuckets(s.serving),
    [CLAIMING_ANNOTATION]: formatBuckets(s.claiming),
    [BUCKETS_ANNOTATION]: String(s.buckets),
  };
  if (s.leaving) annotations[LEAVING_ANNOTATION] = "true";
  else delete annotations[LEAVING_ANNOTATION];
  return { ...held, metadata: { ...held.metadata, labels: { ...held.metadata?.labels, [RING_LABEL]: s.ring }, annotations } };
}

/**
 * The buckets `lease` publishes in `annotation`, or "all" when they cannot be trusted: the
 * annotation does not parse, or the member counts buckets differently (another version of the
 * ring). Treating such a member as holding everything keeps the ring safe: nobody takes a bucket
 * it might be serving.
 *
 * @example
 * ```ts
 * import type { Lease } from "../lease/lease-record.ts";
 * declare const lease: Lease;
 *
 * publishedBuckets(lease, SERVING_ANNOTATION, 64); // Set {1, 5, 9}
 * ```
 */
export function publishedBuckets(lease: Lease, annotation: string, buckets: number): ReadonlySet<number> | "all" {
  const annotations = lease.metadata?.annotations ?? {};
  const count = annotations[BUCKETS_ANNOTATION];
  const text = annotations[annotation];
  if (text === undefined && count === undefined) return new Set();
  if (count !== String(buckets)) return "all";
  if (text === undefined || text === "") return new Set();
  const set = new Set<number>();
  for (const part of text.split(",")) {
    if (!/^\d+$/.test(part)) return "all";
    const b = Number(part);
    if (b >= buckets) return "all";
    set.add(b);
  }
  return set;
}

/** `"1,5,9"`: distinct buckets ascending. */
function formatBuckets(set: Iterable<number>): string {
  return [...new Set(set)].sort((a, b) => a - b).join(",");
}
