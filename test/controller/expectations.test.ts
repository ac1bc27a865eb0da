import { test } from "node:test";
import assert from "node:assert/strict";
import { Expectations } from "../../src/entries/controller.ts";
import type { KubeObject } from "../../src/index.ts";
import { FakeInformer } from "../support/fake-informer.ts";

/** A clock that moves only when told. */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const member = (name: string, uid: string, owner = "owner-1"): KubeObject => ({
  apiVersion: "v1", kind: "Pod",
  metadata: { name, namespace: "default", uid, ownerReferences: [{ apiVersion: "example.com/v1", kind: "PodSet", name: "web", uid: owner, controller: true }] },
});

test("a key with no expectations is satisfied", () => {
  assert.equal(new Expectations().satisfied("k"), true);
});

test("expected creations are satisfied once each was observed", () => {
  const e = new Expectations();
  e.expectCreations("k", 2);
  assert.equal(e.satisfied("k"), false);
  assert.deepEqual({ ...e.pending("k"), expiresInMs: 0 }, { creations: 2, deletions: 0, expiresInMs: 0 });
  e.creationObserved("k");
  assert.equal(e.satisfied("k"), false);
  e.creationObserved("k");
  assert.equal(e.satisfied("k"), true);
});

test("deletions are tracked by uid: the same deletion seen twice counts once", () => {
  const e = new Expectations();
  e.expectDeletions("k", ["a", "b"]);
  e.deletionObserved("k", "a");
  e.deletionObserved("k", "a");
  assert.equal(e.pending("k")?.deletions, 1);
  e.deletionObserved("k", "b");
  assert.equal(e.satisfied("k"), true);
});

test("observations for keys without expectations are ignored, and counts never go below zero", () => {
  const e = new Expectations();
  e.creationObserved("k");
  e.expectCreations("k", 1);
  assert.equal(e.satisfied("k"), false);
});

test("unmet expectations expire after the TTL, so a lost event never blocks an owner", () => {
  const c = clock();
  const e = new Expectations({ ttlMs: 1000, clock: c });
  e.expectCreations("k", 1);
  c.advance(400);
  assert.equal(e.pending("k")?.expiresInMs, 600);
  c.advance(600);
  assert.equal(e.satisfied("k"), true);
  e.creationObserved("k"); // late: ignored
  e.expectCreations("k", 1);
  assert.equal(e.pending("k")?.creations, 1);
});

test("raising again restarts the TTL", () => {
  const c = clock();
  const e = new Expectations({ ttlMs: 1000, clock: c });
  e.expectCreations("k", 1);
  c.advance(900);
  e.expectDeletions("k", ["x"]);
  c.advance(900);
  assert.deepEqual(e.pending("k"), { creations: 1, deletions: 1, expiresInMs: 100 });
});

test("expired keys are dropped when another is raised, a re-raised key is kept, in any order", () => {
  const c = clock();
  const e = new Expectations({ ttlMs: 1000, clock: c });
  e.expectCreations("first", 1); // t = 0
  c.advance(100);
  e.expectCreations("second", 1); // t = 100
  c.advance(50);
  e.expectCreations("third", 1); // t = 150
  c.advance(750);
  e.expectCreations("first", 1); // t = 900: raised again, kept, and now the newest
  c.advance(300); // t = 1200: "second" and "third" are past the TTL, "first" is not
  e.expectCreations("fourth", 1);
  assert.equal(e.pending("second"), undefined);
  assert.equal(e.pending("third"), undefined);
  assert.deepEqual(e.pending("first"), { creations: 2, deletions: 0, expiresInMs: 700 });
  assert.equal(e.pending("fourth")?.creations, 1);
});

test("forget drops a key's expectations", () => {
  const e = new Expectations();
  e.expectCreations("k", 3);
  e.forget("k");
  assert.equal(e.satisfied("k"), true);
});

test("bad counts and TTLs are refused", () => {
  assert.throws(() => new Expectations().expectCreations("k", -1), RangeError);
  assert.throws(() => new Expectations().expectCreations("k", 1.5), RangeError);
  assert.throws(() => new Expectations({ ttlMs: Number.NaN }), RangeError);
});

test("observe lowers expectations from an informer: adds per controller uid, deletes and deletionTimestamps by uid", () => {
  const informer = new FakeInformer();
  const e = new Expectations();
  e.observe(informer);
  e.expectCreations("owner-1", 2);
  informer.add(member("a", "uid-a"));
  informer.add(member("x", "uid-x", "owner-2")); // another owner's: not ours
  assert.equal(e.pending("owner-1")?.creations, 1);
  informer.add(member("b", "uid-b"));
  assert.equal(e.satisfied("owner-1"), true);

  e.expectDeletions("owner-1", ["uid-a", "uid-b"]);
  const a = member("a", "uid-a");
  informer.update({ ...a, metadata: { ...a.metadata, deletionTimestamp: "2024-01-01T00:00:00Z" } });
  informer.delete(a); // the same deletion again: counted once
  assert.equal(e.pending("owner-1")?.deletions, 1);
  informer.delete(member("b", "uid-b"));
  assert.equal(e.satisfied("owner-1"), true);
});

test("observe with a key function ignores objects it maps to no key", () => {
  const informer = new FakeInformer();
  const e = new Expectations();
  e.observe(informer, (o) => o.metadata?.labels?.set);
  e.expectCreations("workers", 1);
  informer.add(member("a", "uid-a"));
  assert.equal(e.satisfied("workers"), false);
  informer.add({ ...member("b", "uid-b"), metadata: { ...member("b", "uid-b").metadata, labels: { set: "workers" } } });
  assert.equal(e.satisfied("workers"), true);
});

test("observing one informer twice counts each add once (an Expectations subscribes once per informer)", () => {
  const informer = new FakeInformer();
  const e = new Expectations();
  e.observe(informer);
  e.observe(informer); // e.g. a second ReplicaSetReconciler sharing it, or the author too
  e.expectCreations("owner-1", 2);
  informer.add(member("a", "uid-a"));
  assert.equal(e.pending("owner-1")?.creations, 1, "one add lowers the count by one, not two");
  informer.add(member("b", "uid-b"));
  assert.equal(e.satisfied("owner-1"), true);
});

test("observing one informer with key functions that give different keys lowers each key once", () => {
  const informer = new FakeInformer();
  const e = new Expectations();
  e.observe(informer);
  e.observe(informer, (o) => `${o.metadata?.ownerReferences?.[0]?.uid}/set`);
  e.observe(informer, (o) => `${o.metadata?.ownerReferences?.[0]?.uid}/set`); // the same key again
  e.expectCreations("owner-1", 2);
  e.expectCreations("owner-1/set", 2);
  informer.add(member("a", "uid-a"));
  assert.equal(e.pending("owner-1")?.creations, 1);
  assert.equal(e.pending("owner-1/set")?.creations, 1);
});

test("the informer subscription ends when every observe of it was unsubscribed", () => {
  const informer = new FakeInformer();
  const e = new Expectations();
  const stopA = e.observe(informer);
  const stopB = e.observe(informer);
  e.expectCreations("owner-1", 3);
  stopA();
  informer.add(member("a", "uid-a"));
  assert.equal(e.pending("owner-1")?.creations, 2, "still observed through the second observe");
  stopB();
  stopB(); // twice: harmless
  informer.add(member("b", "uid-b"));
  assert.equal(e.pending("owner-1")?.creations, 2, "no longer observed");
  e.observe(informer);
  informer.add(member("c", "uid-c"));
  assert.equal(e.pending("owner-1")?.creations, 1, "observed again after a new observe");
});
