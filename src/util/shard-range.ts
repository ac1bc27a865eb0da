/**
 * KEP-5866 shard selectors (Kubernetes v1.36, alpha, feature gate `ShardedListAndWatch`): the
 * 64-bit FNV-1a hash kube-apiserver computes over a metadata field, and the
 * `shardRange(object.metadata.uid, '0x…', '0x…') || …` selectors that pick hash ranges. Used by
 * LocalCluster to serve `?shardSelector=` and by informers to filter client-side when a server
 * ignored it.
 *
 * Grammar, as kube-apiserver parses it: `shardRange(<field>, '<start>', '<end>')` calls joined
 * by `||` (parentheses and whitespace allowed). The field is `object.metadata.uid` or
 * `object.metadata.namespace`, the same in every call. Bounds are CEL string literals holding
 * `0x` and exactly 16 lowercase hex digits, or `0x10000000000000000` (2^64) as an end; each
 * range is `[start, end)` with start < end. An object matches when its field's hash is in any
 * range (a missing field hashes as the empty string).
 *
 * @module
 */
import { readShardRangeCalls } from "./shard-selector-syntax.ts";
import { InvalidSelectorError } from "./selector-error.ts";
import { checkArray, checkObject } from "./check-args.ts";

/**
 * A field a shard selector may hash.
 *
 * @example
 * ```ts
 * const field: ShardField = "object.metadata.namespace";
 * ```
 */
export type ShardField = "object.metadata.uid" | "object.metadata.namespace";

/** The fields a shard selector may hash, as kube-apiserver v1.36 supports them. */
export const SHARD_FIELDS: readonly ShardField[] = ["object.metadata.uid", "object.metadata.namespace"];

/** 2^64: the exclusive end of the hash space (`'0x10000000000000000'`). */
export const SHARD_HASH_SPACE = 2n ** 64n;

/**
 * A hash range `[start, end)`, 0 ≤ start < end ≤ 2^64: a shard selector's range, or the
 * hashes of a set of buckets (`bucketRanges`).
 *
 * @example
 * ```ts
 * const lowerHalf: HashRange = { start: 0n, end: 2n ** 63n };
 * ```
 */
export interface HashRange {
  start: bigint;
  end: bigint;
}

/**
 * A parsed shard selector: one field and the ranges whose union it selects, in the order written.
 *
 * @example
 * ```ts
 * const sel: ShardSelector = { field: "object.metadata.uid", ranges: [{ start: 0n, end: 2n ** 63n }] };
 * ```
 */
export interface ShardSelector {
  readonly field: ShardField;
  readonly ranges: readonly HashRange[];
}

const FNV_OFFSET_HI = 0xcbf29ce4;
const FNV_OFFSET_LO = 0x84222325;
const TWO_32 = 4294967296;
const encoder = new TextEncoder();

/**
 * The 64-bit FNV-1a hash of `text`'s UTF-8 bytes, as Go's `hash/fnv.New64a` computes it over
 * `[]byte(text)` (kube-apiserver's shard hash).
 *
 * @example
 * ```ts
 * fnv1a64("");  // 0xcbf29ce484222325n
 * fnv1a64("a"); // 0xaf63dc4c8601ec8cn
 * ```
 */
export function fnv1a64(text: string): bigint {
  // 64-bit arithmetic on two 32-bit halves: h * prime, prime = 2^40 + 0x1b3.
  let hi = FNV_OFFSET_HI;
  let lo = FNV_OFFSET_LO;
  for (const byte of encoder.encode(text)) {
    lo = (lo ^ byte) >>> 0;
    const loProduct = lo * 0x1b3;
    const carry = Math.floor(loProduct / TWO_32);
    hi = (hi * 0x1b3 + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = loProduct >>> 0;
  }
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/**
 * Parses a shard selector as kube-apiserver does (see the module's grammar).
 *
 * @throws {InvalidSelectorError} (`selectorType` `"shard"`) whose `problem` says what is wrong
 *   in kube-apiserver's words: an unsupported field path, a bound without `0x`, not 16 digits
 *   (with the padded value it meant), upper-case digits, start ≥ end, two fields, a syntax error.
 * @example
 * ```ts
 * parseShardSelector("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
 * // { field: "object.metadata.uid", ranges: [{ start: 0n, end: 0x8000000000000000n }] }
 * ```
 */
export function parseShardSelector(text: string): ShardSelector {
  const fail = (problem: string): never => {
    throw new InvalidSelectorError("shard", text, problem);
  };
  const calls = readShardRangeCalls(text);
  const ranges: HashRange[] = [];
  for (const call of calls) {
    if (!(SHARD_FIELDS as readonly string[]).includes(call.field)) {
      fail(`unsupported field path ${JSON.stringify(call.field)}; supported: ${SHARD_FIELDS.join(", ")}`);
    }
    if (call.field !== calls[0]!.field) {
      fail(`all shard ranges must use the same field, got ${JSON.stringify(calls[0]!.field)} and ${JSON.stringify(call.field)}`);
    }
    const start = hexBound(call.start, "hexStart", fail);
    const end = hexBound(call.end, "hexEnd", fail);
    if (start >= end) fail(`shard range start ${call.start} must be less than end ${call.end}`);
    ranges.push({ start, end });
  }
  return { field: calls[0]!.field as ShardField, ranges };
}

/** A bound's value: `0x` + 16 lowercase hex digits, or exactly 2^64 (17 digits). */
function hexBound(s: string, name: string, fail: (problem: string) => never): bigint {
  if (!s.startsWith("0x")) fail(`${name} must have '0x' prefix, got ${JSON.stringify(s)}`);
  const digits = s.slice(2);
  if (digits === "") fail(`${name}: hex value is required after '0x'`);
  if (digits.length > 17) fail(`${name}: hex value too long (${digits.length} chars, max 17): ${JSON.stringify(digits)}`);
  const bad = [...digits].find((c) => !/[0-9a-f]/.test(c));
  if (bad !== undefined) fail(`${name}: invalid hex character ${JSON.stringify(bad)} in ${JSON.stringify(s)}`);
  if (digits.length === 17 && s !== "0x10000000000000000") {
    fail(`${name}: 17-digit hex value must be '0x10000000000000000' (2^64), got ${JSON.stringify(s)}`);
  }
  if (digits.length < 16) {
    fail(`${name} must be a 0x-prefixed 16-digit hex value, got ${JSON.stringify(s)} (did you mean ${JSON.stringify(`0x${digits.padStart(16, "0")}`)}?)`);
  }
  return BigInt(s);
}

/** A bound in the wire format: `0x` + 16 lowercase digits (2^64 has 17). */
function hexOf(n: bigint): string {
  return `0x${n.toString(16).padStart(16, "0")}`;
}

/**
 * The selector text for `ranges` of `field`, in the canonical form kube-apiserver formats
 * selectors in: `shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')`
 * joined by ` || `. `parseShardSelector` reads it back unchanged.
 *
 * @throws {RangeError} for an unknown field, no ranges, or a range outside 0 ≤ start < end ≤ 2^64.
 * @example
 * ```ts
 * formatShardSelector("object.metadata.uid", splitHashSpace(2).slice(1));
 * // "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')"
 * ```
 */
export function formatShardSelector(field: ShardField, ranges: readonly HashRange[]): string {
  if (!SHARD_FIELDS.includes(field)) {
    throw new RangeError(`formatShardSelector: field must be one of ${SHARD_FIELDS.join(", ")}, got ${JSON.stringify(field)}`);
  }
  checkArray("formatShardSelector(field, ranges)", "ranges", ranges, "an array of { start, end } ranges (from bucketRanges or splitHashSpace)");
  if (ranges.length === 0) throw new RangeError("formatShardSelector: ranges is empty. Fix: give at least one { start, end } range.");
  return ranges.map(({ start, end }, i) => {
    if (typeof start !== "bigint" || typeof end !== "bigint" || start < 0n || end > SHARD_HASH_SPACE || start >= end) {
      throw new RangeError(`formatShardSelector: ranges[${i}] must be bigints with 0 ≤ start < end ≤ 2^64, got start ${String(start)}, end ${String(end)}`);
    }
    return `shardRange(${field}, '${hexOf(start)}', '${hexOf(end)}')`;
  }).join(" || ");
}

/**
 * The canonical form of a selector (`formatShardSelector` of what `parseShardSelector` reads):
 * two selectors that differ only in spacing, quotes or parentheses normalize alike.
 *
 * @throws {InvalidSelectorError} for a malformed selector, as {@link parseShardSelector}.
 * @example
 * ```ts
 * normalizeShardSelector(`shardRange( object.metadata.uid,"0x0000000000000000","0x8000000000000000" )`);
 * // "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
 * ```
 */
export function normalizeShardSelector(text: string): string {
  const sel = parseShardSelector(text);
  return formatShardSelector(sel.field, sel.ranges);
}

/**
 * The hash of `obj`'s `field` (`metadata.uid` or `metadata.namespace`; missing is "").
 *
 * @example
 * ```ts
 * shardHashOf({ metadata: { namespace: "team-a" } }, "object.metadata.namespace") === fnv1a64("team-a"); // true
 * ```
 */
export function shardHashOf(obj: { metadata?: { uid?: string; namespace?: string } } | undefined, field: ShardField): bigint {
  if (obj !== undefined && obj !== null) checkObject("shardHashOf(obj, field)", "obj", obj, "a Kubernetes object or undefined");
  const m = obj?.metadata;
  return fnv1a64((field === "object.metadata.uid" ? m?.uid : m?.namespace) ?? "");
}

/**
 * A predicate selecting the objects a shard selector selects, for filtering client-side what
 * a server that ignores `shardSelector` sent.
 *
 * @throws {InvalidSelectorError} for a malformed selector, as {@link parseShardSelector}.
 * @example
 * ```ts
 * import type { Pod } from "operator-runtime";
 *
 * declare const pods: Pod[];
 * const mine = shardSelectorMatcher("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
 * const kept = pods.filter(mine);
 * ```
 */
export function shardSelectorMatcher(text: string): (obj: { metadata?: { uid?: string; namespace?: string } } | undefined) => boolean {
  const { field, ranges } = parseShardSelector(text);
  return (obj) => {
    const h = shardHashOf(obj, field);
    return ranges.some((r) => h >= r.start && h < r.end);
  };
}

/**
 * Splits the hash space into `count` contiguous ranges of (nearly) equal size: range `i` is
 * `[⌊i·2^64/count⌋, ⌊(i+1)·2^64/count⌋)`, the last ending at 2^64 — the ranges client-go's
 * `sharding.NewShardRangeSelector` builds.
 *
 * @throws {RangeError} unless `count` is a whole number from 1 to 2^32.
 * @example
 * ```ts
 * splitHashSpace(2); // [{ start: 0n, end: 0x8000000000000000n }, { start: 0x8000000000000000n, end: 2n ** 64n }]
 * ```
 */
export function splitHashSpace(count: number): HashRange[] {
  if (!Number.isInteger(count) || count < 1 || count > 2 ** 32) {
    throw new RangeError(`splitHashSpace: count must be a whole number from 1 to 2^32, got ${String(count)}`);
  }
  const n = BigInt(count);
  const bound = (i: bigint) => (i === n ? SHARD_HASH_SPACE : (i * SHARD_HASH_SPACE) / n);
  return Array.from({ length: count }, (_, i) => ({ start: bound(BigInt(i)), end: bound(BigInt(i) + 1n) }));
}
