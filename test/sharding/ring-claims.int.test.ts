/**
 * What a member honours in other members' Leases: buckets published as served or claimed by a
 * live member are not taken, until that member stops publishing them; a member counting buckets
 * differently is taken to hold them all. The other member here is a Lease the test writes.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import type { Lease } from "../../src/lease/lease-record.ts";
import { SHARD_BUCKETS } from "../../src/cache/shard-buckets.ts";
import { LEASE_KIND } from "../../src/lease/lease-record.ts";
import { BUCKETS_ANNOTATION, CLAIMING_ANNOTATION, SERVING_ANNOTATION, memberLease, memberLeaseName } from "../../src/sharding/ring-lease.ts";
import type { RingMembership } from "../../src/sharding/ring-membership.ts";
import { NS, Ring } from "./ring-harness.ts";
import { waitFor, within } from "../support/wait.ts";

const ALL = Array.from({ length: SHARD_BUCKETS }, (_, b) => b);
const sorted = (set: Iterable<number>) => [...set].sort((a, b) => a - b);

describe("RingMembership and the buckets other members publish", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** Writes (creates, then replaces) the Lease of a member played by the test, valid for a minute. */
  function handMember(ring: string, identity: string) {
    let lease: Lease | undefined;
    return async (serving: number[], claiming: number[] = [], tweak: (l: Lease) => void = () => undefined) => {
      const body = memberLease(lease, {
        namespace: NS, ring, name: memberLeaseName(ring, identity), identity, durationMs: 60_000, now: Date.now(),
        buckets: SHARD_BUCKETS, serving, claiming, leaving: false,
      });
      tweak(body);
      lease = lease ? await client.replace<Lease>(body) : await client.create<Lease>(body);
    };
  }

  /** Resolves after `m` has renewed its Lease `n` more times: it has had that many steps to act. */
  async function renewals(m: RingMembership, n: number): Promise<void> {
    const count = () => cluster.requests.count({ verb: "update", resource: "leases", name: m.leaseName });
    const from = count();
    await waitFor(() => count() >= from + n, `${n} renewals of ${m.identity}`);
  }

  it("takes no bucket a live member serves or claims, and takes each once it is no longer published", async () => {
    const ring = new Ring(cluster, client, "honour");
    const x = handMember("honour", "x");
    try {
      await x(ALL);
      const a = await ring.join("a");
      await waitFor(() => a.members().length === 2, "a to see x");
      const mine = a.assignment().flatMap((o, b) => (o === "a" ? [b] : []));
      assert.ok(mine.length > 2);
      await renewals(a, 3);
      assert.equal(a.served().size, 0, "every bucket is served by x");
      const [kept, claimed] = mine;
      await x([...ALL.filter((b) => !mine.includes(b)), kept!], [claimed!]);
      await waitFor(() => a.served().size === mine.length - 2, "a to take the buckets x released");
      await renewals(a, 3);
      assert.deepEqual(sorted(a.served()), mine.filter((b) => b !== kept && b !== claimed), "a leaves the served and the claimed bucket alone");
      await x(ALL.filter((b) => !mine.includes(b)));
      await waitFor(() => a.served().size === mine.length, "a to take the rest once x stopped publishing them");
      ring.log.assertNoOverlap();
    } finally {
      await ring.close();
    }
  });

  it("a live member that counts buckets differently is taken to hold every bucket", async () => {
    const ring = new Ring(cluster, client, "count");
    const y = handMember("count", "y");
    try {
      await y([], [], (l) => (l.metadata!.annotations![BUCKETS_ANNOTATION] = "32"));
      const a = await ring.join("a");
      await waitFor(() => a.members().length === 2, "a to see y");
      await renewals(a, 3);
      assert.equal(a.served().size, 0, "nothing is taken from a member that might serve any bucket");
      await y([]);
      const mine = a.assignment().filter((o) => o === "a").length;
      await waitFor(() => a.served().size === mine, "a to take its share once y counts the same");
    } finally {
      await ring.close();
    }
  });

  it("withdraws its claim when a competitor's claim, written before its own landed, is in view", async () => {
    const ring = new Ring(cluster, client, "race");
    const x = handMember("race", "x");
    // a writes only when what it publishes changes (renewals are 20 s apart), so the test can hold one write.
    const slow = { leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 20_000 };
    try {
      await x(ALL);
      const a = await ring.join("a", slow);
      await waitFor(() => a.members().length === 2, "a to see x");
      const contested = a.assignment().indexOf("a");
      assert.ok(contested >= 0);
      const others = ALL.filter((b) => b !== contested);
      const held = cluster.inject({ verb: "update", resource: "leases", name: a.leaseName, latencyMs: 500, times: 1 });
      await x(others); // frees the bucket: a claims it, and its write is held by the server
      await waitFor(() => held.hits === 1, "a's claim to reach the server");
      await x(others, [contested]); // x claims it too, stored before a's claim
      const aLease = () => client.get<Lease>({ ...LEASE_KIND, namespace: NS, name: a.leaseName });
      const updates = () => cluster.requests.count({ verb: "update", resource: "leases", name: a.leaseName });
      await waitFor(async () => updates() >= 2 && (await aLease()).metadata!.annotations![CLAIMING_ANNOTATION] === "", "a to withdraw its claim");
      assert.equal((await aLease()).metadata!.annotations![SERVING_ANNOTATION], "");
      assert.equal(a.served().has(contested), false);
      assert.equal(ring.log.spans.some((s) => s.bucket === contested), false, "a never started the contested bucket");
      await x(others);
      await waitFor(() => a.served().has(contested), "a to take the bucket once x dropped its claim");
    } finally {
      await ring.close();
    }
  });
});
