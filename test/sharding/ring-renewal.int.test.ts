/**
 * RingMembership when a member cannot renew its Lease, crashes, or restarts under the same
 * identity: it stops serving before its Lease can expire, the others wait for the expiry, and
 * Leases of crashed members are deleted later.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { NotFoundError } from "../../src/errors.ts";
import { LEASE_KIND } from "../../src/lease/lease-record.ts";
import { LEASE_MS, NS, RENEW_MS, Ring } from "./ring-harness.ts";
import type { Span } from "./ring-harness.ts";
import { waitFor, within } from "../support/wait.ts";

/** Slack for timings seen on both sides of an HTTP round trip in one process. */
const SLACK_MS = 25;

describe("RingMembership when a member cannot renew", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  /** Times (performance.now) of each served request for a Lease, by name and verb, with its code. */
  const served = new Map<string, { verb: string; code: number; at: number }[]>();
  const lastOk = (name: string, verb = "update") => Math.max(...(served.get(name) ?? []).filter((r) => r.verb === verb && r.code < 300).map((r) => r.at));

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    cluster.requests.onRequest((r) => {
      if (r.resource !== "leases" || !r.name) return;
      const list = served.get(r.name) ?? [];
      list.push({ verb: r.verb, code: r.code, at: performance.now() });
      served.set(r.name, list);
    });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** The spans in which members other than `member` took one of `buckets` after `member` held it. */
  const takeovers = (ring: Ring, member: string, buckets: number[]): Span[] =>
    ring.log.spans.filter((s) => s.member !== member && buckets.includes(s.bucket) && ring.log.spans.some((v) => v.member === member && v.bucket === s.bucket && v.startSeq < s.startSeq));

  it("a member whose Lease writes fail stops serving before its Lease expires; the others take over only after it expired, and it rejoins", async () => {
    const ring = new Ring(cluster, client, "failing");
    try {
      await Promise.all(["a", "b", "c"].map((id) => ring.join(id)));
      await ring.converged(["a", "b", "c"], "three members to split the buckets");
      const b = ring.members.get("b")!;
      const hers = [...ring.log.serving("b")];
      let lostAt: number | undefined;
      b.onLost(() => (lostAt = performance.now()));
      cluster.inject({ verb: "update", resource: "leases", name: b.leaseName, code: 500, times: 1000 });
      await waitFor(() => lostAt, "b to lose its membership", LEASE_MS * 2);
      assert.equal(b.served().size, 0, "served() is empty at once");
      assert.equal(b.mayReconcile(hers[0]!), false, "reconciles are refused at once");
      await waitFor(() => hers.every((x) => ring.owners()[x] !== undefined && ring.owners()[x] !== "b"), "a and c to take b's buckets", LEASE_MS * 3);
      const renewed = lastOk(b.leaseName);
      assert.ok(lostAt! - renewed < LEASE_MS, `b stopped ${Math.round(lostAt! - renewed)} ms after its last renewal, before its Lease could expire`);
      const taken = takeovers(ring, "b", hers);
      assert.equal(taken.length, hers.length);
      for (const s of taken) {
        assert.ok(s.startAt >= renewed + LEASE_MS - SLACK_MS, `bucket ${s.bucket} taken ${Math.round(s.startAt - renewed)} ms after b's last renewal (lease ${LEASE_MS} ms)`);
      }
      for (const s of ring.log.spans.filter((v) => v.member === "b")) assert.equal(s.hurried, true, `b's drain of ${s.bucket} was told to hurry`);
      ring.log.assertNoOverlap();

      cluster.clearFaults();
      await ring.converged(["a", "b", "c"], "b to rejoin and take its buckets back");
      ring.log.assertNoOverlap();
    } finally {
      cluster.clearFaults();
      await ring.close();
    }
  });

  it("a member that crashes: the others take its buckets once its Lease expired, and delete the Lease a lease duration later", async () => {
    const ring = new Ring(cluster, client, "crash");
    try {
      await Promise.all(["a", "b", "c"].map((id) => ring.join(id)));
      await ring.converged(["a", "b", "c"], "three members to split the buckets");
      const c = ring.members.get("c")!;
      const hers = [...ring.log.serving("c")];
      await within(c.abandon(), "c to crash");
      ring.log.crashed("c");
      ring.members.delete("c");
      await ring.converged(["a", "b"], "a and b to take c's buckets", LEASE_MS * 3);
      const renewed = Math.max(lastOk(c.leaseName), lastOk(c.leaseName, "create"));
      for (const s of takeovers(ring, "c", hers)) assert.ok(s.startAt >= renewed + LEASE_MS - SLACK_MS, `bucket ${s.bucket} taken only after c's Lease expired`);
      await waitFor(() => client.get({ ...LEASE_KIND, namespace: NS, name: c.leaseName }).then(() => false, (err: unknown) => err instanceof NotFoundError), "c's Lease to be deleted", LEASE_MS * 4);
      const deleted = lastOk(c.leaseName, "delete");
      assert.ok(deleted >= renewed + 2 * LEASE_MS - SLACK_MS, `c's Lease deleted ${Math.round(deleted - renewed)} ms after its last renewal`);
      ring.log.assertNoOverlap();
    } finally {
      await ring.close();
    }
  });

  it("a replica restarted under the same identity takes over its Lease and resumes without waiting for it to expire", async () => {
    const ring = new Ring(cluster, client, "restart");
    try {
      await Promise.all(["a", "b", "c"].map((id) => ring.join(id)));
      await ring.converged(["a", "b", "c"], "three members to split the buckets");
      await within(ring.members.get("c")!.abandon(), "c to crash");
      ring.log.crashed("c");
      const restarted = performance.now();
      await ring.join("c");
      await ring.converged(["a", "b", "c"], "the new c to serve c's buckets", LEASE_MS);
      assert.ok(performance.now() - restarted < RENEW_MS, "resumed well before the old Lease would have expired");
      ring.log.assertNoOverlap();
    } finally {
      await ring.close();
    }
  });
});
