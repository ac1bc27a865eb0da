import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { assignBuckets, rendezvousScore } from "../../src/sharding/assignment.ts";
import { SHARD_BUCKETS } from "../../src/sharding/buckets.ts";

const B = SHARD_BUCKETS;
/** Pod-like names, as a Deployment would give its replicas. */
const pods = (n: number, prefix = "dataapp-7d9f5c-") => Array.from({ length: n }, (_, i) => `${prefix}${(i * 7919 + 12345).toString(36)}`);
const count = (owners: (string | undefined)[], member: string) => owners.filter((o) => o === member).length;
const moved = (before: (string | undefined)[], after: (string | undefined)[]) => before.flatMap((o, b) => (o !== after[b] ? [b] : []));

describe("assignBuckets", () => {
  it("gives every bucket to one of the members, the same whatever order they are listed in", () => {
    const members = pods(3);
    const owners = assignBuckets(members);
    assert.equal(owners.length, B);
    for (const o of owners) assert.ok(o !== undefined && members.includes(o));
    assert.deepEqual(assignBuckets([...members].reverse()), owners);
    assert.deepEqual(assignBuckets([...members, members[0]!]), owners, "duplicates do not matter");
  });

  it("gives each bucket to the member with the highest score", () => {
    const members = pods(4);
    assignBuckets(members).forEach((owner, b) => {
      for (const m of members) assert.ok(rendezvousScore(owner!, b) >= rendezvousScore(m, b));
    });
  });

  it("spreads buckets about evenly, also over members whose names differ only at the end", () => {
    for (const members of [pods(3), ["op-0", "op-1", "op-2"], ["a", "b", "c"]]) {
      const owners = assignBuckets(members);
      for (const m of members) {
        const n = count(owners, m);
        assert.ok(n >= 10 && n <= 34, `${m} got ${n} of ${B} buckets among ${members.join(",")}`);
      }
    }
  });

  it("a 4th member joining 3 takes about a quarter of the buckets, each moving only to it", () => {
    for (const [three, fourth] of [[pods(3), "dataapp-7d9f5c-zzz9"], [["op-0", "op-1", "op-2"], "op-3"]] as const) {
      const before = assignBuckets(three);
      const after = assignBuckets([...three, fourth]);
      const changed = moved(before, after);
      for (const b of changed) assert.equal(after[b], fourth, `bucket ${b} moved to ${after[b]}, not to the new member`);
      assert.ok(changed.length >= 8 && changed.length <= 26, `${changed.length} buckets moved (expected about ${B / 4})`);
    }
  });

  it("a member leaving hands out only its own buckets", () => {
    const four = pods(4);
    const before = assignBuckets(four);
    const gone = four[2]!;
    const after = assignBuckets(four.filter((m) => m !== gone));
    const changed = moved(before, after);
    assert.deepEqual(changed, before.flatMap((o, b) => (o === gone ? [b] : [])));
    assert.ok(changed.every((b) => after[b] !== gone));
  });

  it("one member gets every bucket; none leaves every bucket unassigned", () => {
    assert.deepEqual(assignBuckets(["solo"]), new Array(B).fill("solo"));
    assert.deepEqual(assignBuckets([]), new Array(B).fill(undefined));
    assert.equal(assignBuckets(["a", "b"], 8).length, 8);
  });
});
