/** The ring's hashes: 64-bit FNV-1a (as the API server's `shardRange` hashes a UID) and a mixer for rendezvous scores. */

const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;
const utf8 = new TextEncoder();

/**
 * 64-bit FNV-1a over the UTF-8 bytes of `text`, as an unsigned bigint below 2^64 — the hash
 * KEP-5866's `shardRange(object.metadata.uid, …)` places an object by.
 *
 * @example
 * ```ts
 * fnv1a64("");  // 0xcbf29ce484222325n
 * fnv1a64("a"); // 0xaf63dc4c8601ec8cn
 * ```
 */
export function fnv1a64(text: string): bigint {
  let h = OFFSET_BASIS;
  for (const byte of utf8.encode(text)) h = ((h ^ BigInt(byte)) * PRIME) & MASK;
  return h;
}

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
