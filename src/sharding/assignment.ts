/** Which member serves which bucket: rendezvous (highest-random-weight) hashing over the live members. */
import { SHARD_BUCKETS } from "./buckets.ts";
import { fnv1a64, mix64 } from "./hash.ts";

/**
 * A member's score for a bucket: the mixed FNV-1a hash of `${member}\0${bucket}`. The bucket
 * goes to the member with the highest score (ties, which need equal 64-bit scores, to the
 * member whose name sorts first).
 *
 * @example
 * ```ts
 * rendezvousScore("pod-a", 7) > rendezvousScore("pod-b", 7); // pod-a outranks pod-b for bucket 7
 * ```
 */
export function rendezvousScore(member: string, bucket: number): bigint {
  return mix64(fnv1a64(`${member}\u0000${bucket}`));
}

/**
 * Assigns each of `buckets` buckets to one of `members` by rendezvous hashing: entry `b` of the
 * result is the member with the highest {@link rendezvousScore} for `b`. Pure and
 * deterministic: every replica that sees the same members derives the same assignment,
 * whatever the order they are listed in. A member joining takes about 1/N of the buckets, each
 * from its previous owner, and nothing else moves; a member leaving hands only its own buckets
 * out, spread over the others. No members: every entry is undefined.
 *
 * @example
 * ```ts
 * const owners = assignBuckets(["pod-a", "pod-b", "pod-c"]);
 * const mine = owners.flatMap((owner, b) => (owner === "pod-b" ? [b] : []));
 * ```
 */
export function assignBuckets(members: Iterable<string>, buckets = SHARD_BUCKETS): (string | undefined)[] {
  const names = [...new Set(members)].sort();
  const owners: (string | undefined)[] = [];
  for (let b = 0; b < buckets; b++) {
    let best: string | undefined;
    let bestScore = -1n;
    for (const m of names) {
      const score = rendezvousScore(m, b);
      if (score > bestScore) {
        best = m;
        bestScore = score;
      }
    }
    owners.push(best);
  }
  return owners;
}
