/**
 * RingMembership against LocalCluster over real HTTP: several members with short timings in one
 * process, each with its own client and watch, reporting to one serve log.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { LEASE_KIND } from "../../src/lease/lease-record.ts";
import type { Lease } from "../../src/lease/lease-record.ts";
import { SHARD_BUCKETS } from "../../src/cache/shard-buckets.ts";
import { RING_LABEL, SERVING_ANNOTATION } from "../../src/sharding/ring-lease.ts";
import { NotFoundError } from "../../src/errors.ts";
import { LEASE_MS, NS, Ring, drainGate } from "./ring-harness.ts";
import { waitFor, within } from "../support/wait.ts";

/** Buckets whose owner differs between two assignments. */
const movedBuckets = (before: (string | undefined)[], after: (string | undefined)[]) => before.flatMap((o, b) => (o !== after[b] ? [b] : []));

describe("RingMembership", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("three members converge to a partition of all buckets, each published on its Lease", async () => {
    const ring = new Ring(cluster, client, "three");
    try {
      await Promise.all(["a", "b", "c"].map((id) => ring.join(id)));
      await ring.converged(["a", "b", "c"], "three members to split the buckets");
      const owners = ring.owners();
      assert.ok(owners.every((o) => o !== undefined), "every bucket is served");
      ring.log.assertNoOverlap();
      const leases = (await client.list<Lease>(LEASE_KIND, { namespace: NS, labelSelector: `${RING_LABEL}=three` })).items;
      assert.equal(leases.length, 3);
      for (const lease of leases) {
        const id = lease.spec!.holderIdentity!;
        const published = lease.metadata!.annotations![SERVING_ANNOTATION]!;
        assert.equal(published, [...ring.members.get(id)!.served()].sort((a, b) => a - b).join(","), `${id}'s Lease publishes what it serves`);
      }
    } finally {
      await ring.close();
    }
    ring.log.assertNoOverlap();
    assert.equal(ring.owners().filter((o) => o !== undefined).length, 0, "every bucket drained on stop");
    assert.equal(SHARD_BUCKETS, 64);
  });

  it("a fourth member takes about a quarter of the buckets, each only after its previous server drained it", async () => {
    const ring = new Ring(cluster, client, "join");
    try {
      await Promise.all(["a", "b", "c"].map((id) => ring.join(id)));
      await ring.converged(["a", "b", "c"], "three members to split the buckets");
      const before = ring.owners();
      const spansBefore = ring.log.spans.length;
      await ring.join("d");
      await ring.converged(["a", "b", "c", "d"], "four members to split the buckets");
      const after = ring.owners();
      const moved = movedBuckets(before, after);
      assert.ok(moved.length >= 8 && moved.length <= 26, `${moved.length} buckets moved (expected about ${SHARD_BUCKETS / 4})`);
      assert.equal(after.filter((o) => o === "d").length, SHARD_BUCKETS / 4, "the new member gets its share (bounded load)");
      assert.ok(moved.filter((b) => after[b] !== "d").length <= 10, "few buckets move between the old members");
      const started = ring.log.spans.slice(spansBefore);
      assert.deepEqual(started.map((s) => s.bucket).sort((x, y) => x - y), moved, "only the moved buckets were started again");
      for (const span of started) {
        const prev = ring.log.spans.find((s) => s.bucket === span.bucket && s.member === before[span.bucket])!;
        assert.ok(prev.stopSeq! < span.startSeq, `bucket ${span.bucket}: ${prev.member} drained it before d started it`);
        assert.equal(prev.hurried, false, "a planned handover does not hurry the drain");
      }
      ring.log.assertNoOverlap();
    } finally {
      await ring.close();
    }
  });

  it("stop() drains, unpublishes and deletes the Lease: the others take its buckets well within a lease duration", async () => {
    const ring = new Ring(cluster, client, "leave");
    try {
      await Promise.all(["a", "b", "c"].map((id) => ring.join(id)));
      await ring.converged(["a", "b", "c"], "three members to split the buckets");
      const b = ring.members.get("b")!;
      const hers = [...ring.log.serving("b")];
      assert.ok(hers.length > 0);
      await within(b.stop(), "b to leave");
      const left = performance.now();
      assert.equal(ring.log.serving("b").size, 0, "b drained every bucket before stop() resolved");
      await assert.rejects(client.get({ ...LEASE_KIND, namespace: NS, name: b.leaseName }), NotFoundError);
      ring.members.delete("b");
      await ring.converged(["a", "c"], "a and c to take b's buckets", LEASE_MS);
      const took = performance.now() - left;
      assert.ok(took < LEASE_MS / 2, `takeover took ${Math.round(took)} ms after b left (a lease is ${LEASE_MS} ms)`);
      assert.equal(b.served().size, 0);
      ring.log.assertNoOverlap();
    } finally {
      await ring.close();
    }
  });

  it("a slow drain delays the takeover of its buckets, and only of those", async () => {
    const ring = new Ring(cluster, client, "slow");
    const { gate, release } = drainGate();
    let hold: Promise<void> | undefined;
    try {
      await ring.join("a", { gate: () => hold });
      await ring.join("b");
      await ring.converged(["a", "b"], "two members to split the buckets");
      hold = gate; // from now on, a's drains wait for release()
      const before = ring.owners();
      const c = await ring.join("c");
      await waitFor(() => c.members().length === 3, "c to see all three members");
      const owners = c.assignment();
      const fromA = movedBuckets(before, owners).filter((x) => before[x] === "a");
      const fromB = movedBuckets(before, owners).filter((x) => before[x] === "b" && owners[x] === "c");
      assert.ok(fromA.length > 0 && fromB.length > 0, `c takes buckets from both (${fromA} / ${fromB})`);
      await waitFor(() => fromB.every((x) => ring.log.serving("c").has(x)), "c to take b's buckets");
      const draining = () => ring.log.spans.filter((s) => s.member === "a" && s.stopCalledAt !== undefined && s.stopSeq === undefined).length;
      await waitFor(() => draining() === fromA.length, "a to drain the buckets c takes from it");
      const renewals = () => cluster.requests.count({ verb: "update", resource: "leases", name: c.leaseName });
      const seen = renewals();
      await waitFor(() => renewals() >= seen + 5, "five more renewals of c", 5000);
      for (const x of fromA) assert.equal(ring.log.serving(owners[x]!).has(x), false, `${owners[x]} waits for a to drain bucket ${x}`);
      const aLease = await client.get<Lease>({ ...LEASE_KIND, namespace: NS, name: ring.members.get("a")!.leaseName });
      const published = aLease.metadata!.annotations![SERVING_ANNOTATION]!.split(",").map(Number);
      for (const x of fromA) assert.ok(published.includes(x), `a still publishes bucket ${x} while draining it`);
      release();
      await ring.converged(["a", "b", "c"], "c to take a's buckets once drained");
      ring.log.assertNoOverlap();
    } finally {
      release();
      await ring.close();
    }
  });
});
