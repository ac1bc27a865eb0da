/** Which member serves which bucket: rendezvous (highest-random-weight) hashing with bounded load over the live members. */
import { SHARD_BUCKETS } from "../cache/shard-buckets.ts";
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
 * Assigns each of `buckets` buckets to one of `members` by rendezvous hashing with bounded
 * load: every (member, bucket) pair is ranked by {@link rendezvousScore}, highest first, and
 * each bucket goes to the first member in that ranking that still has room — at most
 * `ceil(buckets / members)` buckets each. So the load is even (no member serves more than one
 * bucket over its fair share; plain rendezvous hashing gives some member of 4 over 1.2× its
 * share in most rings), and it stays consistent: a member joining takes about 1/N of the
 * buckets, mostly from their previous owners, and a member leaving hands out mostly its own.
 *
 * Pure and deterministic: every replica that sees the same members derives the same
 * assignment, whatever the order they are listed in (ties, which need equal 64-bit scores,
 * go to the member whose name sorts first). No members: every entry is undefined.
 *
 * @example
 * ```ts
 * const owners = assignBuckets(["pod-a", "pod-b", "pod-c"]);
 * const mine = owners.flatMap((owner, b) => (owner === "pod-b" ? [b] : []));  // 21 or 22 buckets
 * ```
 */
export function assignBuckets(members: Iterable<string>, buckets = SHARD_BUCKETS): (string | undefined)[] {
  const names = [...new Set(members)].sort();
  const owners = new Array<string | undefined>(buckets).fill(undefined);
  if (names.length === 0) return owners;
  const capacity = Math.ceil(buckets / names.length);
  const pairs: { score: bigint; member: number; bucket: number }[] = [];
  names.forEach((m, member) => {
    for (let bucket = 0; bucket < buckets; bucket++) pairs.push({ score: rendezvousScore(m, bucket), member, bucket });
  });
  pairs.sort((x, y) => (x.score > y.score ? -1 : x.score < y.score ? 1 : x.member - y.member));
  const load = new Array<number>(names.length).fill(0);
  let left = buckets;
  for (const { member, bucket } of pairs) {
    if (owners[bucket] !== undefined || load[member]! >= capacity) continue;
    owners[bucket] = names[member];
    load[member]!++;
    if (--left === 0) break;
  }
  return owners;
}
