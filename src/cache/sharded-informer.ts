/**
 * ShardedInformer: one kind's objects of a changing set of hash buckets, mirrored by a
 * SharedInformer that is rebuilt (with a new shard or label selector) whenever the set changes.
 */
import type { KindRef, KubeObject } from "../client/types.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import { SHARD_BUCKETS, SHARD_BUCKET_LABEL, bucketLabelSelector, bucketOfUid, bucketRanges } from "./shard-buckets.ts";
import { formatShardSelector } from "../util/shard-range.ts";
import { abortable } from "./abortable.ts";
import { delegatesOwnerIndex } from "./owner-index.ts";
import type { CacheInformerOptions } from "./cache.ts";
import type { SharedInformer } from "./informer.ts";
import { withShardFilterOptions } from "./shard-filter.ts";
import type { ShardFiltering, ShardFilteringChange } from "./shard-filter.ts";
import { ShardWarningLimiter } from "./shard-warning-limiter.ts";
import type { IndexFunc, Informer, InformerEventHandler } from "./types.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * How a {@link ShardedInformer} selects a bucket's objects: `"uid"` by the object's own UID (a
 * KEP-5866 `shardSelector` on `object.metadata.uid`: the primaries of a sharded controller),
 * `"label"` by the bucket label the Builder stamps on children (`operator-runtime.io/shard-bucket`,
 * the bucket of the child's owner).
 *
 * @example
 * ```ts
 * const by: ShardBy = "label"; // children of the served owners
 * ```
 */
export type ShardBy = "uid" | "label";

/** Where a {@link ShardedInformer} gets (and gives back) its SharedInformers: the Manager's Cache. */
export interface ShardedInformerHost {
  informer<T extends KubeObject = KubeObject>(kind: KindRef, options: CacheInformerOptions): SharedInformer<T>;
  release(informer: SharedInformer<any>): Promise<void>;
}

/**
 * Options of {@link ShardedInformer}.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const options: ShardedInformerOptions = { host: cache, kind: ConfigMap, by: "label" };
 * ```
 */
export interface ShardedInformerOptions {
  host: ShardedInformerHost;
  kind: KindRef;
  /** Namespace scope (default: all namespaces). */
  namespace?: string | undefined;
  by: ShardBy;
  /** Buckets of the hash space (default {@link SHARD_BUCKETS}); the same as the ring's. */
  buckets?: number;
  logger?: Logger;
  /**
   * Called with where the shard selector is applied (`"uid"` only): after each rebuild, and
   * whenever it changes while an informer serves (an event from outside the selector turns it
   * `"client"`); `undefined` when no informer serves (no buckets).
   */
  onFiltering?: (filtering: ShardFiltering | undefined) => void;
  /**
   * The shortest time between two "the API server ignored the shard selector" warnings of
   * this informer, across rebuilds (`"uid"` only; default 10 minutes).
   */
  shardWarningIntervalMs?: number;
}

/**
 * The objects of one kind in a set of buckets, as one {@link Informer}: handlers, indexes and
 * reads stay in place while the underlying SharedInformer is replaced.
 *
 * Expected flow: `setBuckets(set)` asks for a new set; calls made together (in one turn of the
 * event loop, or while a rebuild runs) are served by one rebuild: a SharedInformer with the
 * selector of the newest set is created, synced, and then swapped in. At the swap, handlers
 * hear what differs from the old one — `add` for objects it did not hold (or held at another
 * resourceVersion: `update`), `delete` for objects of buckets still served that are gone — and
 * the old informer is released (its watch ends); when the old one was stale and the new one is
 * not, handlers also hear `caughtUp()` (the old one never will). No set means no informer at
 * all (nothing is held, nothing is watched).
 *
 * Guarantees: after `await setBuckets(s)`, the current informer holds exactly the objects of the
 * newest set asked for, synced; events are delivered from the current informer only (an event
 * of the old one after the swap is covered by the diff). A swap waits (up to 5 s) until the new
 * informer holds every object of the buckets both serve at least at the version the old one
 * delivered, so reads never step back to an older copy. Reads (`get`, `list`, `byIndex`) answer
 * from the current informer, empty before the first.
 *
 * A rebuild still listing when another set is asked for (its list may keep failing, say for
 * want of RBAC) is given up for the newest set, so it never holds later changes back.
 *
 * Shard filtering (`"uid"`): each rebuilt informer finds out afresh where its selector is
 * applied ({@link ShardFiltering}): an API server may start or stop honouring it between two
 * rebuilds, and kube-apiserver v1.36 filters custom resources without echoing the selector
 * (`"unconfirmed"`: no warning). `onFiltering` hears the serving informer's state at each swap
 * and at each change. The "ignored" warning is limited per ShardedInformer, not per rebuild:
 * the first, then at most one per 10 minutes (`shardWarningIntervalMs`), each saying how
 * many were held back.
 *
 * Caveats: a rebuild lists the new set's objects afresh (one list per change batch). Objects
 * of a child kind that lack the bucket label are not seen (the Builder labels every child).
 * When the host already held an informer with the new selector (another user asked for the
 * same one), its filter keeps its own warning limit and its changes are heard at swaps only.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 * import { OWNER_UID_INDEX } from "operator-runtime/cache";
 *
 * const children = new ShardedInformer<ConfigMap>({ host: cache, kind: ConfigMap, by: "label" });
 * children.addEventHandler({ add: (cm) => log.info("child added", { name: cm.metadata?.name }) });
 * await children.setBuckets(new Set([3, 17]));
 * children.byIndex(OWNER_UID_INDEX, owner.metadata!.uid!);
 * ```
 */
export class ShardedInformer<T extends KubeObject = KubeObject> implements Informer<T> {
  readonly kind: KindRef;
  readonly namespace: string | undefined;
  readonly by: ShardBy;
  readonly #o: ShardedInformerOptions;
  readonly #log: Logger;
  readonly #count: number;
  readonly #handlers = new Set<{ h: InformerEventHandler<T> }>();
  readonly #indexes: [string, IndexFunc<T>][] = [];
  #current: SharedInformer<T> | undefined;
  #pending: SharedInformer<T> | undefined;
  #currentKey = "";
  #unsubscribe: (() => void) | undefined;
  #wanted = new Set<number>();
  #wantedKey = "";
  /** The rebuild loop, while one runs. */
  #running: Promise<void> | undefined;
  #stopped = false;
  /** Aborted by stop(): a rebuild waiting for its informer's first list gives up. */
  readonly #lifetime = new AbortController();
  /** The rebuild waiting for its informer's first list: a call asking for another set supersedes it. */
  #syncing: { key: string; superseded: AbortController } | undefined;
  /** Shared by the shard filters of every rebuild: the "ignored" warning is limited per kind, not per rebuild. */
  readonly #warnings: ShardWarningLimiter;

  constructor(options: ShardedInformerOptions) {
    checkObject("new ShardedInformer(options)", "options", options, "an options object");
    this.#o = options;
    this.kind = options.kind;
    this.namespace = options.namespace || undefined;
    this.by = options.by;
    this.#count = options.buckets ?? SHARD_BUCKETS;
    this.#log = (options.logger ?? silentLogger).child({ kind: options.kind.kind, shardBy: options.by });
    this.#warnings = new ShardWarningLimiter(options.shardWarningIntervalMs !== undefined ? { intervalMs: options.shardWarningIntervalMs } : {});
    delegatesOwnerIndex(this);
  }

  /** The buckets asked for last (sorted). */
  buckets(): number[] {
    return [...this.#wanted].sort((a, b) => a - b);
  }

  /**
   * The SharedInformer being built for a new set of buckets (listing, not yet swapped in), if
   * any: readiness does not wait for it, since the current one still serves.
   */
  get pending(): SharedInformer<T> | undefined {
    return this.#pending;
  }

  /** The SharedInformer serving now (undefined with no buckets). */
  get current(): SharedInformer<T> | undefined {
    return this.#current;
  }

  /** The bucket of an object as this informer selects it: by its UID, or by its bucket label. */
  bucketOf(obj: KubeObject): number | undefined {
    if (this.by === "uid") {
      const uid = obj.metadata?.uid;
      return uid ? bucketOfUid(uid, this.#count) : undefined;
    }
    const label = obj.metadata?.labels?.[SHARD_BUCKET_LABEL];
    const b = label !== undefined && /^\d+$/.test(label) ? Number(label) : NaN;
    return Number.isInteger(b) && b < this.#count ? b : undefined;
  }

  /**
   * Serves `set` from now on; resolves once the current informer holds exactly the newest set
   * asked for and has synced (a later call's set, if one came meanwhile). Rejects only when
   * stopped.
   */
  setBuckets(set: Iterable<number>): Promise<void> {
    this.#wanted = new Set(set);
    this.#wantedKey = this.buckets().join(",");
    if (this.#syncing && this.#syncing.key !== this.#wantedKey) this.#syncing.superseded.abort();
    this.#running ??= this.#rebuildLoop();
    return this.#running;
  }

  /** Releases the current informer; no further rebuild. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#lifetime.abort(new Error(`sharded informer of ${this.kind.kind}: stopped`));
    await this.#running?.catch(() => undefined);
    await this.#drop("");
  }

  /**
   * Rebuilds until the current informer serves the newest set. `#running` is cleared in the
   * same turn as the loop decides it is done (the `finally`), so a setBuckets call that comes
   * after that decision starts a new loop rather than joining one that has ended.
   */
  async #rebuildLoop(): Promise<void> {
    try {
      // Let the other setBuckets calls of this turn (the ring starts buckets together) join in.
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (;;) {
        if (this.#stopped || this.#wantedKey === this.#currentKey) return;
        const key = this.#wantedKey;
        const set = [...this.#wanted];
        if (set.length === 0) {
          await this.#drop(key);
          continue;
        }
        const next: SharedInformer<T> = withShardFilterOptions(
          { warnings: this.#warnings, onChange: (change) => this.#filteringChanged(next, change) },
          () => this.#o.host.informer<T>(this.kind, { ...(this.namespace ? { namespace: this.namespace } : {}), ...this.#selector(set) }),
        );
        if (next === this.#current) {
          this.#currentKey = key;
          continue;
        }
        for (const [name, fn] of this.#indexes) addIndexOnce(next, name, fn);
        this.#pending = next;
        // Subscribed before the sync so that no watch event falls between the list and the swap;
        // replays and events are dropped until the swap, which reports the difference instead.
        let live = false;
        const forward = <A extends unknown[]>(f: (h: InformerEventHandler<T>, ...a: A) => void) => (...a: A) => {
          if (live) for (const { h } of this.#handlers) f(h, ...a);
        };
        const unsubscribe = next.addEventHandler({
          add: forward((h, obj: T, initial: boolean) => h.add?.(obj, initial)),
          update: forward((h, o: T, n: T) => h.update?.(o, n)),
          delete: forward((h, obj: T) => h.delete?.(obj)),
          caughtUp: forward((h) => h.caughtUp?.()),
        });
        // A set asked for while this one lists (its list may never succeed, say for want of
        // RBAC) replaces it at once: an outdated rebuild never holds up the newest set.
        const syncing = (this.#syncing = { key, superseded: new AbortController() });
        try {
          await abortable(next.synced(), AbortSignal.any([this.#lifetime.signal, syncing.superseded.signal]));
        } catch (err) {
          unsubscribe();
          this.#pending = undefined;
          await this.#o.host.release(next);
          if (this.#stopped) return;
          if (syncing.superseded.signal.aborted) {
            this.#log.debug("a newer set of buckets replaces a rebuild that had not synced", { buckets: key, next: this.#wantedKey });
            continue;
          }
          throw err;
        } finally {
          this.#syncing = undefined;
        }
        // The new list may predate changes the old informer delivered meanwhile (they reach the
        // new one through its watch): swap only once it holds them, so reads and handlers never
        // step back to an older copy.
        await this.#catchUp(next, new Set(set));
        if (this.#stopped) {
          unsubscribe();
          await this.#o.host.release(next);
          return;
        }
        const old = this.#current;
        this.#pending = undefined;
        const wasStale = this.isStale();
        const oldUnsubscribe = this.#unsubscribe;
        this.#current = next;
        this.#currentKey = key;
        this.#unsubscribe = unsubscribe;
        oldUnsubscribe?.();
        live = true;
        this.#reportDifference(old, next, new Set(set));
        // The stale informer is gone and will never say it caught up: say it for it.
        if (wasStale && !this.isStale()) this.#emit((h) => h.caughtUp?.());
        this.#o.onFiltering?.(next.shardFiltering);
        this.#log.debug("serving buckets", { buckets: key, objects: next.list().length });
        if (old) await this.#o.host.release(old);
      }
    } finally {
      this.#running = undefined;
      this.#pending = undefined;
    }
  }

  /**
   * Waits until `next` is at least as new as the current informer for every object of the
   * `served` buckets (see `#behind`), at most `CATCH_UP_MS`, or
   * until stopped. Resolves in the same turn as the check that found it caught up.
   */
  async #catchUp(next: SharedInformer<T>, served: Set<number>): Promise<void> {
    const deadline = performance.now() + CATCH_UP_MS;
    while (!this.#stopped && this.#behind(next, served)) {
      if (performance.now() >= deadline) {
        this.#log.debug("the rebuilt informer has not caught up with the old one; swapping anyway", { waitedMs: CATCH_UP_MS });
        return;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CATCH_UP_POLL_MS);
        timer.unref?.();
      });
    }
  }

  /**
   * Whether `next` lacks something the current informer delivered in the `served` buckets: an
   * object it holds at an older resourceVersion, or does not hold although its list and watch
   * have not reached the current informer's copy (so its absence is not a deletion yet).
   */
  #behind(next: SharedInformer<T>, served: Set<number>): boolean {
    const old = this.#current;
    if (!old) return false;
    const reached = next.lastSyncResourceVersion();
    for (const obj of old.list()) {
      const b = this.bucketOf(obj);
      if (b === undefined || !served.has(b)) continue;
      const rv = obj.metadata?.resourceVersion;
      const mine = next.get(obj.metadata?.name ?? "", obj.metadata?.namespace || undefined);
      if (olderVersion(mine ? mine.metadata?.resourceVersion : reached, rv)) return true;
    }
    return false;
  }

  /** Drops the current informer (no buckets, or stopped), reporting only that it caught up when it was stale. */
  async #drop(key: string): Promise<void> {
    const old = this.#current;
    const wasStale = this.isStale();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#current = undefined;
    this.#currentKey = key;
    if (wasStale && !this.#stopped) this.#emit((h) => h.caughtUp?.());
    if (old) {
      this.#o.onFiltering?.(undefined);
      await this.#o.host.release(old);
    }
  }

  /** A change of an informer's shard filtering: reported at once for the serving one, at its swap for one being built. */
  #filteringChanged(informer: SharedInformer<T>, change: ShardFilteringChange): void {
    if (informer !== this.#current) return;
    this.#log.debug("shard filtering changed", { filtering: change.filtering, buckets: this.#currentKey });
    this.#o.onFiltering?.(change.filtering);
  }

  /** Tells handlers how `next` differs from `old` in the buckets both cover. */
  #reportDifference(old: SharedInformer<T> | undefined, next: SharedInformer<T>, served: Set<number>): void {
    const calls: (() => void)[] = [];
    for (const obj of next.list()) {
      const before = old?.get(obj.metadata?.name ?? "", obj.metadata?.namespace || undefined);
      if (!before) calls.push(() => this.#emit((h) => h.add?.(obj, false)));
      else if (before.metadata?.resourceVersion !== obj.metadata?.resourceVersion) calls.push(() => this.#emit((h) => h.update?.(before, obj)));
    }
    if (old) {
      for (const obj of old.list()) {
        const b = this.bucketOf(obj);
        if (b === undefined || !served.has(b)) continue;
        if (!next.get(obj.metadata?.name ?? "", obj.metadata?.namespace || undefined)) calls.push(() => this.#emit((h) => h.delete?.(obj)));
      }
    }
    for (const call of calls) call();
  }

  #emit(f: (h: InformerEventHandler<T>) => void): void {
    for (const { h } of this.#handlers) {
      try {
        f(h);
      } catch (err) {
        this.#log.error("event handler threw", { error: err });
      }
    }
  }

  #selector(set: number[]): Pick<CacheInformerOptions, "shardSelector" | "labelSelector"> {
    return this.by === "uid"
      ? { shardSelector: formatShardSelector("object.metadata.uid", bucketRanges(set, this.#count)) }
      : { labelSelector: bucketLabelSelector(set, this.#count) };
  }

  /** Registers a handler; the current informer's objects are replayed to it as `add(obj, true)`. */
  addEventHandler(handler: InformerEventHandler<T>): () => void {
    const entry = { h: handler };
    this.#handlers.add(entry);
    if (this.#current?.hasSynced()) for (const obj of this.#current.list()) handler.add?.(obj, true);
    return () => void this.#handlers.delete(entry);
  }

  /** Resolves at once: each rebuild syncs before it is swapped in (await `setBuckets` instead). */
  synced(): Promise<void> {
    return Promise.resolve();
  }

  hasSynced(): boolean {
    return true;
  }

  /** Whether the current informer is stale (false with no buckets). */
  isStale(): boolean {
    return this.#current?.isStale() ?? false;
  }

  get(name: string, namespace?: string): T | undefined {
    return this.#current?.get(name, namespace);
  }

  list(namespace?: string): T[] {
    return this.#current?.list(namespace) ?? [];
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    this.#indexes.push([name, fn]);
    if (this.#current) addIndexOnce(this.#current, name, fn);
  }

  byIndex(name: string, value: string): T[] {
    return this.#current?.byIndex(name, value) ?? [];
  }

  lastSyncResourceVersion(): string {
    return this.#current?.lastSyncResourceVersion() ?? "";
  }
}

/** The longest a rebuild waits for its new informer to catch up with the old one before the swap. */
const CATCH_UP_MS = 5_000;
const CATCH_UP_POLL_MS = 20;
const INTEGER = /^\d+$/;

/** Whether resourceVersion `a` is older than `b` (both integers, as etcd's are; else false). */
function olderVersion(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || !INTEGER.test(a) || !INTEGER.test(b)) return false;
  return BigInt(a) < BigInt(b);
}

/** Adds an index unless the informer (shared with another user) has one by that name. */
function addIndexOnce<T extends KubeObject>(informer: SharedInformer<T>, name: string, fn: IndexFunc<T>): void {
  try {
    informer.addIndex(name, fn);
  } catch {
    // Already there: a shared informer indexed by another ShardedInformer of the same kind.
  }
}
