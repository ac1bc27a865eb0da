import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  fnv1a64, formatShardSelector, normalizeShardSelector, parseShardSelector, SHARD_HASH_SPACE, shardHashOf, shardSelectorMatcher, splitHashSpace,
} from "../../src/util/shard-range.ts";
import type { HashRange } from "../../src/util/shard-range.ts";
import { assertInvalidSelector } from "./assert-invalid-selector.ts";

const assertInvalid = (text: string, problem: RegExp | string) => assertInvalidSelector("shard", () => parseShardSelector(text), problem);

/** FNV-1a 64 by its definition, on BigInt: the reference the fast implementation must equal. */
function referenceFnv1a64(bytes: Uint8Array): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) % 2n ** 64n;
  return h;
}

const HALF = 2n ** 63n;
const LOWER = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
const UPPER = "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')";

describe("fnv1a64", () => {
  it("gives the published FNV-1a 64-bit test vectors", () => {
    assert.equal(fnv1a64(""), 0xcbf29ce484222325n, "the offset basis");
    assert.equal(fnv1a64("a"), 0xaf63dc4c8601ec8cn);
    assert.equal(fnv1a64("foobar"), 0x85944171f73967e8n);
  });

  it("equals the definition over the UTF-8 bytes, for UIDs and non-ASCII text", () => {
    const encoder = new TextEncoder();
    const samples = ["é", "☃ snow", "\u{1F600}", ...Array.from({ length: 300 }, () => randomUUID())];
    for (const s of samples) assert.equal(fnv1a64(s), referenceFnv1a64(encoder.encode(s)), s);
  });

  it("stays within 64 bits", () => {
    for (let i = 0; i < 200; i++) {
      const h = fnv1a64(randomUUID());
      assert.ok(h >= 0n && h < SHARD_HASH_SPACE);
    }
  });
});

describe("parseShardSelector", () => {
  it("reads one range: the field and [start, end) as bigints", () => {
    assert.deepEqual(parseShardSelector(LOWER), { field: "object.metadata.uid", ranges: [{ start: 0n, end: HALF }] });
    assert.deepEqual(parseShardSelector("shardRange(object.metadata.namespace, '0x00000000000000aa', '0x00000000000000ff')"),
      { field: "object.metadata.namespace", ranges: [{ start: 0xaan, end: 0xffn }] });
  });

  it("reads a union joined by ||, with 2^64 as an end", () => {
    assert.deepEqual(parseShardSelector(`${LOWER} || ${UPPER}`).ranges, [{ start: 0n, end: HALF }, { start: HALF, end: 2n ** 64n }]);
  });

  it("accepts CEL spacing, double quotes and parentheses, and normalizes them away", () => {
    for (const text of [
      "shardRange(object.metadata.uid,'0x0000000000000000','0x8000000000000000')",
      "  shardRange( object.metadata.uid ,  '0x0000000000000000' ,\n'0x8000000000000000' )  ",
      `shardRange(object.metadata.uid, "0x0000000000000000", "0x8000000000000000")`,
      `((shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')))`,
    ]) {
      assert.equal(normalizeShardSelector(text), LOWER, text);
    }
    assert.equal(normalizeShardSelector(`(${LOWER})||(${UPPER})`), `${LOWER} || ${UPPER}`);
  });

  it("refuses an empty selector (an absent parameter means unfiltered)", () => {
    for (const text of ["", "   "]) assertInvalid(text, "empty shard selector is not allowed; omit the parameter for unfiltered lists");
  });

  it("refuses fields other than object.metadata.uid and object.metadata.namespace", () => {
    assertInvalid("shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')",
      'unsupported field path "object.metadata.name"; supported: object.metadata.uid, object.metadata.namespace');
    assertInvalid("shardRange(metadata.uid, '0x0000000000000000', '0x8000000000000000')", /unsupported field path "metadata\.uid"/);
  });

  it("refuses ranges over two different fields", () => {
    assertInvalid(`${LOWER} || shardRange(object.metadata.namespace, '0x8000000000000000', '0x10000000000000000')`,
      'all shard ranges must use the same field, got "object.metadata.uid" and "object.metadata.namespace"');
  });

  it("requires 0x and exactly 16 lowercase hex digits, naming the padded value meant", () => {
    assertInvalid("shardRange(object.metadata.uid, '0x0', '0x8000000000000000')",
      'hexStart must be a 0x-prefixed 16-digit hex value, got "0x0" (did you mean "0x0000000000000000"?)');
    assertInvalid("shardRange(object.metadata.uid, '0x0000000000000000', '0xff')", /^hexEnd must be a 0x-prefixed 16-digit hex value, got "0xff"/);
    assertInvalid("shardRange(object.metadata.uid, '0000000000000000', '0x8000000000000000')", `hexStart must have '0x' prefix, got "0000000000000000"`);
    assertInvalid("shardRange(object.metadata.uid, '0X0000000000000000', '0x8000000000000000')", /^hexStart must have '0x' prefix/);
    assertInvalid("shardRange(object.metadata.uid, '0x', '0x8000000000000000')", "hexStart: hex value is required after '0x'");
    assertInvalid("shardRange(object.metadata.uid, '0x00000000000000000A', '0x8000000000000000')", /^hexStart: hex value too long \(18 chars, max 17\)/);
    assertInvalid("shardRange(object.metadata.uid, '0x000000000000000A', '0x8000000000000000')", 'hexStart: invalid hex character "A" in "0x000000000000000A"');
    assertInvalid("shardRange(object.metadata.uid, '0x0g00000000000000', '0x8000000000000000')", /invalid hex character "g"/);
    assertInvalid("shardRange(object.metadata.uid, '0x0000000000000000', '0x20000000000000000')",
      `hexEnd: 17-digit hex value must be '0x10000000000000000' (2^64), got "0x20000000000000000"`);
  });

  it("requires start < end", () => {
    assertInvalid("shardRange(object.metadata.uid, '0x8000000000000000', '0x8000000000000000')",
      "shard range start 0x8000000000000000 must be less than end 0x8000000000000000");
    assertInvalid("shardRange(object.metadata.uid, '0xffffffffffffffff', '0x0000000000000000')", /must be less than end/);
  });

  it("refuses other functions, operators and argument shapes", () => {
    assertInvalid("invalidFunc(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')",
      'unsupported function "invalidFunc"; only shardRange() and || are allowed');
    assertInvalid(`${LOWER} && ${UPPER}`, /^unsupported operator "&&" at column \d+; only shardRange\(\) and \|\| are allowed$/);
    assertInvalid("object.metadata.uid > '0x0'", /^unexpected expression "object\.metadata\.uid"/);
    assertInvalid("shardRange(object.metadata.uid, '0x0000000000000000')", /^shardRange\(\) requires exactly 3 arguments, got 2/);
    assertInvalid("shardRange(object.metadata.uid, 0, 8)", "hexStart must be a string literal (e.g. '0x0000000000000000'), got 0");
    assertInvalid("shardRange(object.metadata.uid, hex(0), '0x8000000000000000')", /^hexStart must be a string literal .*got hex\(0\)$/);
    assertInvalid("shardRange('object.metadata.uid', '0x0000000000000000', '0x8000000000000000')", /^shardRange\(\) first argument: expected a field path/);
    assertInvalid(LOWER.slice(0, -1), /^CEL parse error: Syntax error: unexpected end of input/);
    assertInvalid(`${LOWER} |`, /^CEL parse error: Syntax error: token recognition error/);
    assertInvalid(`${LOWER} ||`, /^CEL parse error: Syntax error: unexpected end of input/);
    assertInvalid("shardRange(object.metadata.uid, '0x0000000000000000, '0x8000000000000000')", /^CEL parse error/);
  });
});

describe("formatShardSelector", () => {
  it("writes kube's canonical form, which parses back to the same ranges", () => {
    const ranges: HashRange[] = [{ start: 0n, end: 0x4000000000000000n }, { start: HALF, end: 0xc000000000000000n }];
    const text = formatShardSelector("object.metadata.uid", ranges);
    assert.equal(text, "shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || " +
      "shardRange(object.metadata.uid, '0x8000000000000000', '0xc000000000000000')");
    assert.deepEqual(parseShardSelector(text), { field: "object.metadata.uid", ranges });
    for (const canonical of [LOWER, UPPER, `${LOWER} || ${UPPER}`]) assert.equal(normalizeShardSelector(canonical), canonical);
  });

  it("refuses what no server would accept: no ranges, bounds outside the hash space, start ≥ end, another field", () => {
    assert.throws(() => formatShardSelector("object.metadata.uid", []), /ranges is empty/);
    assert.throws(() => formatShardSelector("object.metadata.uid", [{ start: -1n, end: 5n }]), /ranges\[0\] must be bigints with 0 ≤ start < end ≤ 2\^64/);
    assert.throws(() => formatShardSelector("object.metadata.uid", [{ start: 0n, end: 2n ** 64n + 1n }]), RangeError);
    assert.throws(() => formatShardSelector("object.metadata.uid", [{ start: 5n, end: 5n }]), RangeError);
    assert.throws(() => formatShardSelector("object.metadata.name" as never, [{ start: 0n, end: 5n }]), /field must be one of/);
  });
});

describe("splitHashSpace", () => {
  it("splits [0, 2^64) into contiguous ranges that cover it", () => {
    for (const count of [1, 2, 3, 7, 64]) {
      const ranges = splitHashSpace(count);
      assert.equal(ranges.length, count);
      assert.equal(ranges[0]!.start, 0n);
      assert.equal(ranges.at(-1)!.end, SHARD_HASH_SPACE);
      for (let i = 1; i < count; i++) assert.equal(ranges[i]!.start, ranges[i - 1]!.end, `range ${i} starts where ${i - 1} ends`);
      for (const r of ranges) assert.ok(r.end - r.start >= SHARD_HASH_SPACE / BigInt(count) - 1n, "ranges are (nearly) equal");
    }
    assert.deepEqual(splitHashSpace(2), [{ start: 0n, end: HALF }, { start: HALF, end: 2n ** 64n }]);
    assert.equal(formatShardSelector("object.metadata.uid", splitHashSpace(4).slice(2, 3)),
      "shardRange(object.metadata.uid, '0x8000000000000000', '0xc000000000000000')");
  });

  it("refuses a count that is not a whole number from 1 to 2^32", () => {
    for (const count of [0, -1, 1.5, Number.NaN, 2 ** 32 + 1]) assert.throws(() => splitHashSpace(count), RangeError, String(count));
  });
});

describe("shardSelectorMatcher", () => {
  it("complementary ranges select every object exactly once", () => {
    const shards = splitHashSpace(3).map((r) => shardSelectorMatcher(formatShardSelector("object.metadata.uid", [r])));
    const objects = Array.from({ length: 300 }, () => ({ metadata: { uid: randomUUID() } }));
    const counts = shards.map((matches) => objects.filter(matches).length);
    for (const o of objects) assert.equal(shards.filter((matches) => matches(o)).length, 1, o.metadata.uid);
    assert.ok(counts.every((n) => n > 50), `each shard gets a fair share: ${counts.join(", ")}`);
  });

  it("a union selects what either range selects", () => {
    const lower = shardSelectorMatcher(LOWER);
    const upper = shardSelectorMatcher(UPPER);
    const both = shardSelectorMatcher(`${LOWER} || ${UPPER}`);
    for (let i = 0; i < 100; i++) {
      const o = { metadata: { uid: randomUUID() } };
      assert.equal(both(o), true);
      assert.notEqual(lower(o), upper(o));
      assert.equal(lower(o), shardHashOf(o, "object.metadata.uid") < HALF);
    }
  });

  it("hashes the namespace for object.metadata.namespace, and a missing field as the empty string", () => {
    const nsLower = shardSelectorMatcher(LOWER.replace("uid", "namespace"));
    for (const ns of ["default", "kube-system", "team-a", "team-b", "team-c"]) {
      assert.equal(nsLower({ metadata: { namespace: ns, uid: randomUUID() } }), fnv1a64(ns) < HALF, ns);
    }
    // fnv1a64("") = 0xcbf2…: in the upper half.
    assert.equal(shardSelectorMatcher(UPPER)({ metadata: {} }), true);
    assert.equal(shardSelectorMatcher(UPPER.replace("uid", "namespace"))(undefined), true);
    assert.equal(shardSelectorMatcher(LOWER)({}), false);
  });
});
