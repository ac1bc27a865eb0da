/**
 * Expectations: the creations and deletions a controller has sent but its cache has not shown
 * yet, so that a reconcile running on a stale cache does not create or delete the same objects
 * twice (client-go's `ControllerExpectations`, with deletions tracked by uid).
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Informer } from "../cache/types.ts";
import type { Clock } from "../util/clock.ts";
import { realClock } from "../util/clock.ts";
import { controllerOf } from "./controller-ref.ts";
import { checkObject } from "../util/check-args.ts";

/** client-go's expectations timeout: 5 minutes. */
export const DEFAULT_EXPECTATIONS_TTL_MS = 5 * 60_000;

/**
 * Options of {@link Expectations}.
 *
 * @example
 * ```ts
 * const options: ExpectationsOptions = { ttlMs: 60_000 };
 * ```
 */
export interface ExpectationsOptions {
  /**
   * How long expectations may stay unmet before they are dropped and the owner counts as
   * satisfied again (default {@link DEFAULT_EXPECTATIONS_TTL_MS}): the safety net for a watch
   * event that never comes (an object created and deleted while the watch was down).
   */
  ttlMs?: number;
  /** Time source: monotonic milliseconds (default `performance.now()`); tests pass a fake `{ now }`. */
  clock?: Pick<Clock, "now">;
}

/**
 * What an owner still waits to see in the cache.
 *
 * @example
 * ```ts
 * declare const expectations: Expectations;
 * const key = owner.metadata!.uid!;
 * const p: PendingExpectations | undefined = expectations.pending(key);
 * if (p) log.info(`waiting for ${p.creations} creations and ${p.deletions} deletions`);
 * ```
 */
export interface PendingExpectations {
  /** Creations sent and not yet seen as an add. */
  readonly creations: number;
  /** Deletions sent and not yet seen as a delete (or a deletionTimestamp). */
  readonly deletions: number;
  /** Milliseconds until the expectations expire (the owner counts as satisfied then). */
  readonly expiresInMs: number;
}

/** One subscription of an Expectations to an informer, shared by every `observe` of it. */
interface Observation<T extends KubeObject> {
  keyOfs: Set<(obj: T) => string | undefined>;
  unsubscribe: () => void;
}

interface Entry {
  creations: number;
  deletions: Set<string>;
  /** When they were last raised (`clock.now()`). */
  since: number;
}

/**
 * Per owner key, the creations and deletions sent but not yet observed by the cache.
 *
 * Expected flow: a reconcile reads its children from the cache; when {@link satisfied} is
 * false it must not create or delete (the cache does not show its last writes yet) and waits
 * for the next event (or requeues after `pending(key).expiresInMs`). Otherwise it raises the
 * expectations ({@link expectCreations}, {@link expectDeletions}) *before* it writes, and lowers
 * them for each write that failed ({@link creationObserved}, {@link deletionObserved}: a failed
 * write will never show up). An informer handler lowers them as the cache sees the adds and
 * deletes: {@link observe} wires one.
 *
 * Guarantees: deletions are tracked by uid, so a deletion seen twice (deletionTimestamp, then
 * the delete) counts once; observations for a key with no expectations are ignored; counts
 * never go below zero. Expectations unmet after `ttlMs` are dropped and `satisfied` answers
 * true (client-go does the same), so a lost event delays a reconcile but never blocks it.
 *
 * Caveats: in memory, per process: a restarted operator starts satisfied and reads a cache
 * that was listed after its last writes. Keys are yours to choose; use one that a re-created
 * owner does not share (its uid). Expired entries are dropped whenever expectations are raised,
 * so the entries of deleted owners do not pile up; {@link forget} drops one at once.
 *
 * @example
 * ```ts
 * import { Action, Pod } from "operator-runtime";
 * import type { Reconciler } from "operator-runtime";
 * import { setControllerReference } from "operator-runtime/controller";
 *
 * const expectations = new Expectations();
 * expectations.observe(mgr.cache.informer(Pod));         // keyed by the controller's uid
 *
 * const reconcile: Reconciler = async (req) => {
 *   const greeting = mgr.cache.informer(Greeting).get(req.name, req.namespace);
 *   if (!greeting) return Action.done();
 *   const key = greeting.metadata!.uid!;
 *   if (!expectations.satisfied(key)) return Action.requeueAfter(expectations.pending(key)!.expiresInMs);
 *   expectations.expectCreations(key, 2);
 *   for (let i = 0; i < 2; i++) {
 *     const pod: Pod = {
 *       apiVersion: "v1", kind: "Pod", metadata: { generateName: `${req.name}-`, namespace: req.namespace },
 *       spec: { containers: [{ name: "hello", image: "busybox:1.36", command: ["sleep", "infinity"] }] },
 *     };
 *     try { await client.create(setControllerReference(greeting, pod)); } catch (err) { expectations.creationObserved(key); throw err; }
 *   }
 *   return Action.done();
 * };
 * ```
 */
export class Expectations {
  readonly #entries = new Map<string, Entry>();
  readonly #observed = new WeakMap<object, Observation<KubeObject>>();
  readonly #ttlMs: number;
  readonly #clock: Pick<Clock, "now">;

  constructor(options: ExpectationsOptions = {}) {
    checkObject("new Expectations(options)", "options", options, "an options object ({ ttlMs?, clock? })");
    const ttl = options.ttlMs ?? DEFAULT_EXPECTATIONS_TTL_MS;
    if (!(ttl >= 0)) throw new RangeError(`Expectations: ttlMs must be a number >= 0, got ${ttl}`);
    this.#ttlMs = ttl;
    this.#clock = options.clock ?? realClock;
  }

  /** Expects `count` more creations for `key` (call before sending them). */
  expectCreations(key: string, count: number): void {
    if (!(Number.isInteger(count) && count >= 0)) throw new RangeError(`Expectations: count must be an integer >= 0, got ${count}`);
    if (count === 0) return;
    const e = this.#raise(key);
    e.creations += count;
  }

  /** Expects the deletion of the objects with these uids (call before sending the deletes). */
  expectDeletions(key: string, uids: readonly string[]): void {
    if (uids.length === 0) return;
    const e = this.#raise(key);
    for (const uid of uids) e.deletions.add(uid);
  }

  /** One creation for `key` was seen by the cache (or failed, so it never will be). */
  creationObserved(key: string): void {
    const e = this.#entries.get(key);
    if (!e) return;
    if (e.creations > 0) e.creations--;
    this.#dropIfMet(key, e);
  }

  /** The object with `uid` was seen deleted (or its delete failed, so it never will be). */
  deletionObserved(key: string, uid: string): void {
    const e = this.#entries.get(key);
    if (!e) return;
    e.deletions.delete(uid);
    this.#dropIfMet(key, e);
  }

  /**
   * Whether the cache has shown every creation and deletion expected for `key` (true when none
   * were, or when they expired: see {@link ExpectationsOptions.ttlMs}).
   */
  satisfied(key: string): boolean {
    return this.pending(key) === undefined;
  }

  /** What `key` still waits for, or undefined when it is satisfied. */
  pending(key: string): PendingExpectations | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    const left = e.since + this.#ttlMs - this.#clock.now();
    if (left <= 0) {
      this.#entries.delete(key);
      return undefined;
    }
    return { creations: e.creations, deletions: e.deletions.size, expiresInMs: Math.ceil(left) };
  }

  /** Drops the expectations of `key` (its owner was deleted). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  /**
   * Lowers expectations from an informer's events: an add counts as a creation of the key
   * `keyOf` gives the object (an add of an object already being deleted, also as its deletion), a
   * deletionTimestamp appearing or a delete as a deletion of its uid. The default key is the
   * uid of the object's controller (see `controllerOf`); objects for which `keyOf` answers
   * undefined are ignored. Register it on the same informer the reconcile reads from (the
   * handler runs before the reconcile can see the change). Returns an unsubscribe.
   *
   * Idempotent per informer: an Expectations subscribes once to each informer, however often
   * `observe` is called for it (by you, and by every `ReplicaSetReconciler` given this
   * Expectations). Each event lowers each distinct key the registered `keyOf`s give at most
   * once, so observing twice never counts one add twice; a `keyOf` that gives another key (yours
   * and a reconciler's) still lowers that key. The subscription ends when every `observe` of the
   * informer was unsubscribed.
   *
   * @example
   * ```ts
   * import { Pod } from "operator-runtime";
   * import { controllerOf } from "operator-runtime/controller";
   *
   * const expectations = new Expectations();
   * const stop = expectations.observe(cache.informer(Pod), (pod) => controllerOf(pod)?.uid);
   * ```
   */
  observe<T extends KubeObject>(informer: Informer<T>, keyOf: (obj: T) => string | undefined = (obj) => controllerOf(obj)?.uid): () => void {
    let sub = this.#observed.get(informer) as Observation<T> | undefined;
    if (!sub) {
      const created: Observation<T> = { keyOfs: new Set(), unsubscribe: () => undefined };
      const keys = (obj: T) => new Set([...created.keyOfs].map((f) => f(obj)).filter((k): k is string => k !== undefined));
      const deleted = (obj: T) => {
        const uid = obj.metadata?.uid;
        if (uid) for (const key of keys(obj)) this.deletionObserved(key, uid);
      };
      this.#observed.set(informer, created as Observation<KubeObject>);
      sub = created;
      created.unsubscribe = informer.addEventHandler({
        add: (obj) => {
          for (const key of keys(obj)) this.creationObserved(key);
          if (obj.metadata?.deletionTimestamp) deleted(obj);
        },
        update: (oldObj, obj) => {
          if (obj.metadata?.deletionTimestamp && !oldObj.metadata?.deletionTimestamp) deleted(obj);
        },
        delete: deleted,
      });
    }
    // A wrapper per call, so the same function observed twice needs two unsubscribes.
    const entry = (obj: T) => keyOf(obj);
    const s = sub;
    s.keyOfs.add(entry);
    return () => {
      if (!s.keyOfs.delete(entry) || s.keyOfs.size > 0) return;
      s.unsubscribe();
      if (this.#observed.get(informer) === (s as Observation<KubeObject>)) this.#observed.delete(informer);
    };
  }

  #raise(key: string): Entry {
    const now = this.#clock.now();
    // Entries are kept in the order they were last raised (a raised one moves to the end), so the
    // expired ones (owners deleted meanwhile, lost events) are at the front: dropping them costs
    // only what is dropped, and memory stays bounded by the owners written to within the TTL.
    for (const [k, old] of this.#entries) {
      if (now - old.since < this.#ttlMs) break;
      this.#entries.delete(k);
    }
    let e = this.#entries.get(key);
    if (e) this.#entries.delete(key);
    else e = { creations: 0, deletions: new Set(), since: 0 };
    e.since = now;
    this.#entries.set(key, e);
    return e;
  }

  #dropIfMet(key: string, e: Entry): void {
    if (e.creations === 0 && e.deletions.size === 0) this.#entries.delete(key);
  }
}
