import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { assignBuckets, rendezvousScore } from "../../src/sharding/assignment.ts";
import { SHARD_BUCKETS } from "../../src/cache/shard-buckets.ts";

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

  it("gives each bucket to its highest-scoring member that has room: only full members outrank the owner", () => {
    for (const n of [2, 3, 4, 5, 7]) {
      const members = pods(n);
      const owners = assignBuckets(members);
      const capacity = Math.ceil(B / n);
      owners.forEach((owner, b) => {
        for (const m of members) {
          if (rendezvousScore(m, b) > rendezvousScore(owner!, b)) assert.equal(count(owners, m), capacity, `${m} outranks ${owner} for bucket ${b} but has room`);
        }
      });
    }
  });

  it("spreads buckets evenly: each member gets floor or ceil of its share, also for names that differ only at the end", () => {
    for (const members of [pods(3), pods(4), pods(5), ["op-0", "op-1", "op-2"], ["a", "b", "c"], ["a", "b", "c", "d", "e", "f", "g", "h"]]) {
      const owners = assignBuckets(members);
      const total = members.reduce((sum, m) => sum + count(owners, m), 0);
      assert.equal(total, B);
      for (const m of members) {
        const n = count(owners, m);
        assert.ok(n >= Math.floor(B / members.length) - 1 && n <= Math.ceil(B / members.length), `${m} got ${n} of ${B} buckets among ${members.join(",")}`);
      }
    }
  });

  it("a 4th member joining 3 takes a quarter of the buckets; few others move", () => {
    for (const [three, fourth] of [[pods(3), "dataapp-7d9f5c-zzz9"], [["op-0", "op-1", "op-2"], "op-3"]] as const) {
      const before = assignBuckets(three);
      const after = assignBuckets([...three, fourth]);
      const changed = moved(before, after);
      assert.equal(count(after, fourth), B / 4);
      const elsewhere = changed.filter((b) => after[b] !== fourth);
      assert.ok(changed.length >= B / 4 && changed.length <= 26, `${changed.length} buckets moved (expected about ${B / 4})`);
      assert.ok(elsewhere.length <= 10, `${elsewhere.length} buckets moved between the old members`);
    }
  });

  it("a member leaving hands out its own buckets, and few others move", () => {
    const four = pods(4);
    const before = assignBuckets(four);
    const gone = four[2]!;
    const after = assignBuckets(four.filter((m) => m !== gone));
    const changed = moved(before, after);
    const its = before.flatMap((o, b) => (o === gone ? [b] : []));
    for (const b of its) assert.ok(changed.includes(b) && after[b] !== gone);
    assert.ok(changed.length - its.length <= 10, `${changed.length - its.length} other buckets moved`);
  });

  it("one member gets every bucket; none leaves every bucket unassigned", () => {
    assert.deepEqual(assignBuckets(["solo"]), new Array(B).fill("solo"));
    assert.deepEqual(assignBuckets([]), new Array(B).fill(undefined));
    assert.equal(assignBuckets(["a", "b"], 8).length, 8);
  });
});
