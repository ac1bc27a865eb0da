/** The ring's hashes: 64-bit FNV-1a (shared with the shard selectors, as the API server's `shardRange` hashes a UID) and a mixer for rendezvous scores. */

import { fnv1a64 } from "../util/shard-range.ts";

export { fnv1a64 };

const MASK = (1n << 64n) - 1n;

/**
 * MurmurHash3's 64-bit finalizer: spreads every input bit over every output bit. FNV-1a alone
 * leaves the high bits almost unchanged when only the last bytes differ (`member\0 7` vs
 * `member\0 8`), so raw FNV scores would rank members the same way for nearly every bucket.
 *
 * @example
 * ```ts
 * mix64(fnv1a64("pod-a\u00007")); // a well-spread 64-bit score
 * ```
 */
export function mix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK;
  k ^= k >> 33n;
  return k;
}
