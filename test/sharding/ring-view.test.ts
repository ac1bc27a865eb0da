import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { KubeConfig } from "@kubernetes/client-node";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { ManualClock } from "../../src/util/clock.ts";
import { OperatorRuntimeError } from "../../src/errors.ts";
import type { Lease } from "../../src/lease/lease-record.ts";
import {
  BUCKETS_ANNOTATION, CLAIMING_ANNOTATION, LEAVING_ANNOTATION, RING_LABEL, SERVING_ANNOTATION,
  memberLease, memberLeaseName, publishedBuckets,
} from "../../src/sharding/ring-lease.ts";
import { RingMembership } from "../../src/sharding/ring-membership.ts";
import type { RingMembershipOptions } from "../../src/sharding/ring-membership.ts";
import { RingView } from "../../src/sharding/ring-view.ts";

let rv = 0;
/** A Lease released as the leader elector releases one: no holder, whatever it still says. */
const released = (l: Lease): Lease => ({ ...l, spec: { ...l.spec, holderIdentity: "" } });
/** A member's Lease as the watch would deliver it (a new resourceVersion each time). */
function lease(identity: string, serving: number[], claiming: number[] = [], o: { leaving?: boolean; durationMs?: number } = {}): Lease {
  const body = memberLease(undefined, {
    namespace: "ops", ring: "r", name: memberLeaseName("r", identity), identity, durationMs: o.durationMs ?? 1000, now: Date.now(),
    buckets: 64, serving, claiming, leaving: o.leaving ?? false,
  });
  return { ...body, metadata: { ...body.metadata, uid: `uid-${identity}`, resourceVersion: String(++rv) } };
}

describe("member Leases", () => {
  it("are labelled with the ring and publish buckets ascending, the count, and leaving", () => {
    const l = lease("a", [9, 1, 5], [3], { leaving: true });
    assert.equal(l.metadata!.labels![RING_LABEL], "r");
    assert.equal(l.metadata!.name, memberLeaseName("r", "a"));
    assert.match(l.metadata!.name!, /^r-[0-9a-f]{16}$/);
    const a = l.metadata!.annotations!;
    assert.equal(a[SERVING_ANNOTATION], "1,5,9");
    assert.equal(a[CLAIMING_ANNOTATION], "3");
    assert.equal(a[BUCKETS_ANNOTATION], "64");
    assert.equal(a[LEAVING_ANNOTATION], "true");
    assert.equal(l.spec!.holderIdentity, "a");
    assert.equal(l.spec!.leaseDurationSeconds, 1);
    const renewed = memberLease(l, { namespace: "ops", ring: "r", name: l.metadata!.name!, identity: "a", durationMs: 1000, now: Date.now(), buckets: 64, serving: [], claiming: [], leaving: false });
    assert.equal(renewed.metadata!.annotations![LEAVING_ANNOTATION], undefined);
    assert.equal(renewed.metadata!.resourceVersion, l.metadata!.resourceVersion, "a renewal is conditional on the resourceVersion read");
  });

  it("publishedBuckets reads the buckets back, and answers 'all' for what it cannot trust", () => {
    assert.deepEqual([...(publishedBuckets(lease("a", [2, 7]), SERVING_ANNOTATION, 64) as Set<number>)], [2, 7]);
    assert.deepEqual([...(publishedBuckets(lease("a", []), SERVING_ANNOTATION, 64) as Set<number>)], []);
    const odd = (patch: Record<string, string>) => {
      const l = lease("a", [1]);
      Object.assign(l.metadata!.annotations!, patch);
      return publishedBuckets(l, SERVING_ANNOTATION, 64);
    };
    assert.equal(odd({ [SERVING_ANNOTATION]: "1,x" }), "all");
    assert.equal(odd({ [SERVING_ANNOTATION]: "64" }), "all");
    assert.equal(odd({ [BUCKETS_ANNOTATION]: "32" }), "all");
    assert.equal(odd({ [SERVING_ANNOTATION]: "1, 2" }), "all");
  });

});

describe("RingView", () => {
  it("counts a member live while its Lease changed within its duration, by the local clock", () => {
    const clock = new ManualClock();
    const view = new RingView(clock.now, 15_000, 64);
    view.see(lease("b", [1], [2]));
    view.see(lease("self", [3]));
    assert.deepEqual(view.live("self").map((p) => p.identity), ["b"], "self is not a peer");
    assert.equal(view.nextExpiryIn("self"), 1000);
    clock.advance(999);
    assert.equal(view.live("self").length, 1);
    view.see(lease("b", [1]));
    clock.advance(999);
    assert.equal(view.live("self").length, 1, "the renewal restarted its lease");
    clock.advance(1);
    assert.deepEqual(view.live("self"), []);
    assert.equal(view.nextExpiryIn("self"), undefined);
  });

  it("a released Lease is not live; a deleted one still publishing buckets counts until it expires", () => {
    const clock = new ManualClock();
    const view = new RingView(clock.now, 15_000, 64);
    const b = lease("b", [1]);
    view.see(b);
    view.see(released(lease("c", [2])));
    assert.deepEqual(view.live("self").map((p) => p.identity), ["b"]);
    view.forget(b);
    assert.deepEqual(view.live("self").map((p) => [p.identity, [...(p.serving as Set<number>)]]), [["b", [1]]], "deleted by hand: its buckets stay held");
    clock.advance(1000);
    assert.deepEqual(view.live("self"), []);
    const c = lease("c", []);
    view.see(c);
    view.forget(c);
    assert.deepEqual(view.live("self"), [], "deleted after publishing nothing: gone at once");
  });

  it("reports as abandoned the released Leases and those expired for another grace period", () => {
    const clock = new ManualClock();
    const view = new RingView(clock.now, 15_000, 64);
    view.see(lease("b", [1]));
    view.see(lease("self", [1]));
    view.see(released(lease("c", [])));
    assert.deepEqual(view.abandoned(memberLeaseName("r", "self"), 1000).map((l) => l.metadata!.name), [memberLeaseName("r", "c")]);
    clock.advance(1999);
    assert.equal(view.abandoned(memberLeaseName("r", "self"), 1000).length, 1);
    clock.advance(1);
    assert.deepEqual(view.abandoned(memberLeaseName("r", "self"), 1000).map((l) => l.spec!.holderIdentity).sort(), ["", "b"]);
  });
});

describe("RingMembership options", () => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({ clusters: [{ name: "c", server: "http://127.0.0.1:1" }], users: [{ name: "u" }], contexts: [{ name: "x", cluster: "c", user: "u" }], currentContext: "x" });
  const base: RingMembershipOptions = {
    client: new ResourceClient({ kubeConfig }), kubeConfig, namespace: "ops", ring: "dataapp", identity: "pod-a",
    handler: { start: () => undefined, stop: async () => undefined },
  };

  it("names its Lease after the ring and a hash of the identity", () => {
    assert.equal(new RingMembership(base).leaseName, memberLeaseName("dataapp", "pod-a"));
  });

  it("rejects bad options, naming the field and the fix", () => {
    const bad: [Partial<RingMembershipOptions>, RegExp][] = [
      [{ ring: "Data_App" }, /ring "Data_App" is not a lowercase DNS label.*Fix/],
      [{ ring: "x".repeat(47) }, /at most 46 characters/],
      [{ identity: "" }, /namespace and identity are required.*Fix/],
      [{ leaseDurationMs: 1000, renewDeadlineMs: 1000 }, /leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0.*Fix/],
      [{ buckets: 0 }, /buckets 0 .*Fix/],
    ];
    for (const [patch, message] of bad) {
      assert.throws(() => new RingMembership({ ...base, ...patch }), (err: unknown) => err instanceof OperatorRuntimeError && message.test(err.message), JSON.stringify(patch));
    }
  });
});
