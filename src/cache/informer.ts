/** SharedInformer: a list+watch mirror of one kind in one scope, with event handlers and indexes. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ResourceClient } from "../client/resource-client.ts";
import type { Kind, KindRef, KubeObject } from "../client/types.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import type { Runnable } from "../util/runnable.ts";
import type { ReflectorTimings } from "./backoff.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { abortable } from "./abortable.ts";
import { Indexer, objectKey } from "./indexer.ts";
import { addOwnerIndex } from "./owner-index.ts";
import { Reflector } from "./reflector.ts";
import type { ReflectorStats } from "./reflector.ts";
import type { ShardFiltering } from "./shard-filter.ts";
import type { IndexFunc, Informer, InformerEventHandler } from "./types.ts";
import { resolveTransform } from "./transform.ts";
import type { CacheTransform, CacheTransformOption } from "./transform.ts";
import { checkKindRef, checkObject } from "../util/check-args.ts";

/**
 * Options of {@link SharedInformer}.
 *
 * @example
 * ```ts
 * import { Pod } from "operator-runtime";
 *
 * const options: SharedInformerOptions<Pod> = { client, kubeConfig, kind: Pod,
 *   namespace: "default", labelSelector: "app=web", timings: { initialBackoffMs: 500 } };
 * ```
 */
export interface SharedInformerOptions<T extends KubeObject = KubeObject> {
  client: ResourceClient;
  kubeConfig: KubeConfig;
  /** The kind (a handle types the informer: `kind: Person` gives a `SharedInformer<Person>`). */
  kind: Kind<T>;
  /** Namespace scope; undefined = all namespaces (or a cluster-scoped kind). */
  namespace?: string | undefined;
  /** Server-side filters of the list and the watch. */
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /**
   * A KEP-5866 shard selector, e.g. `shardRange(object.metadata.uid, '0x0000000000000000',
   * '0x8000000000000000')` (`formatShardSelector` builds them): the informer holds only the
   * objects whose hash is in range. Filtered by the API server when it supports sharded list
   * and watch (Kubernetes v1.36+, `ShardedListAndWatch` gate), else by the informer itself,
   * with one warning logged; {@link SharedInformer.shardFiltering} says which. A malformed
   * selector throws `InvalidSelectorError` from the constructor.
   */
  shardSelector?: string | undefined;
  /** List in pages of this many objects (default 500, as client-go; 0: one request). */
  pageSize?: number | undefined;
  logger?: Logger | undefined;
  timings?: ReflectorTimings | undefined;
  /**
   * What is stored of each object (and handed to handlers): default {@link stripManagedFields},
   * `"none"` keeps objects as the server sent them, or a {@link CacheTransform} of your own.
   */
  transform?: CacheTransformOption<T> | undefined;
}

/**
 * A shared informer: keeps the newest copy of every object of one kind in one scope, tells
 * handlers about adds, updates and deletes, and maintains indexes.
 *
 * Expected flow: `start()` lists (every object → `add(obj, true)`), `synced()` resolves, then
 * watch events arrive as `add(obj, false)`, `update(old, new)` and `delete(lastState)`. A relist
 * (after 410 Gone or repeated watch failures) reports the differences against the cache:
 * objects deleted during the gap arrive as `delete`, changed ones as `update`, new ones as
 * `add(obj, false)`, and one deleted and recreated (a new uid) as `delete` then `add`.
 *
 * Staleness: {@link isStale} answers true from the moment a watch fails (a server restart, a
 * network failure; after a clean close, once the resume was not accepted within 1 s) until a
 * relist was stored or the server accepted the next watch;
 * handlers hear `caughtUp()` then. Controllers hold reconciles meanwhile (see `Controller`).
 *
 * Indexes: besides those added with `addIndex`, every informer keeps `OWNER_UID_INDEX`
 * (objects by the UID of their controller), so `byIndex(OWNER_UID_INDEX, uid)` finds one owner's
 * children without scanning.
 *
 * Guarantees: handlers run after the store holds the new state, in event order, one at a
 * time; a throwing handler is logged and does not affect others. An event whose
 * resourceVersion is older than the stored copy's is dropped — compared only when both parse
 * as integers (resourceVersions are opaque in general; every known API server uses integers).
 * An event with the same resourceVersion as the stored copy changes nothing.
 *
 * Sharding: with `shardSelector`, only objects in its hash ranges are stored and reported,
 * whether the server filtered (`shardFiltering === "server"`) or the informer did
 * (`"client"`: the server ignored the parameter, so every object crossed the network).
 *
 * Memory: objects are stored without `metadata.managedFields` unless `transform: "none"` (the
 * default transform, as controller-runtime's); a 1 KiB object costs about 2 KiB of heap.
 *
 * Caveats: objects handed out (by `get`, `list`, `byIndex` and to handlers) are the cached
 * copies: treat them as read-only, copy before changing. Handlers must be quick (enqueue work).
 * They lack `managedFields` by default: read the object from the API when you need them.
 *
 * @example
 * ```ts
 * const people = new SharedInformer({ client, kubeConfig, kind: Person });   // a SharedInformer<Person>
 * people.addIndex("surname", (p) => (p.spec?.surname ? [p.spec.surname] : []));
 * people.addEventHandler({ update: (oldP, p) => console.log("changed", p.metadata?.name) });
 * await people.start(AbortSignal.timeout(60_000));
 * people.byIndex("surname", "Smith");
 * ```
 */
export class SharedInformer<T extends KubeObject = KubeObject> implements Informer<T>, Runnable {
  readonly name: string;
  readonly needsLeaderElection = false;
  readonly kind: KindRef;
  readonly namespace: string | undefined;
  /** The label selector of the list and watch, if any. */
  readonly labelSelector: string | undefined;
  /** The shard selector in canonical form (as sent and echoed), if any. */
  readonly shardSelector: string | undefined;
  readonly #store: Indexer<T>;
  readonly #reflector: Reflector<T>;
  readonly #handlers = new Set<{ h: InformerEventHandler<T> }>();
  readonly #log: Logger;
  readonly #transform: CacheTransform<T> | undefined;
  readonly #synced: Promise<void>;
  #resolveSynced!: () => void;
  #hasSynced = false;
  /** Went stale after the first list: handlers hear `caughtUp()` when it follows again. */
  #lapsed = false;
  /** Aborted by stop(): ends a start() still waiting for the first list. */
  #lifetime = new AbortController();
  #received = 0;
  #stalls = 0;

  constructor(options: SharedInformerOptions<T>) {
    checkObject("new SharedInformer(options)", "options", options, "an options object ({ client, kind, … })");
    checkKindRef("new SharedInformer(options)", "options.kind", options.kind);
    this.kind = options.kind;
    this.namespace = options.namespace;
    this.labelSelector = options.labelSelector || undefined;
    this.#log = (options.logger ?? silentLogger).child({ kind: options.kind.kind, namespace: options.namespace ?? "*" });
    this.#transform = resolveTransform(options.transform);
    this.#store = new Indexer<T>((index, obj, err) => this.#log.error("index function failed", { index, key: objectKey(obj), error: err }));
    this.#synced = new Promise((resolve) => (this.#resolveSynced = resolve));
    this.#reflector = new Reflector<T>({
      client: options.client, kubeConfig: options.kubeConfig, kind: options.kind, namespace: options.namespace,
      labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, shardSelector: options.shardSelector, pageSize: options.pageSize,
      logger: options.logger, timings: options.timings, transform: this.#transform,
      sink: {
        replace: (items) => {
          this.#received += items.length;
          this.#replace(items);
        },
        apply: (type, obj) => {
          this.#received++;
          this.#apply(type, obj);
        },
        stale: (stale) => this.#staleChanged(stale),
      },
    });
    this.shardSelector = this.#reflector.shardSelector;
    this.name = `informer ${options.kind.apiVersion} ${options.kind.kind}${options.namespace ? ` in ${options.namespace}` : ""}` +
      `${this.labelSelector ? ` labels ${this.labelSelector}` : ""}${this.shardSelector ? ` shard ${this.shardSelector}` : ""}`;
    addOwnerIndex(this);
  }

  /**
   * Where the shard selector is applied: `"server"` when the last list echoed it in
   * `metadata.shardInfo`, `"client"` when the API server ignored it (no KEP-5866) and the
   * informer filters; undefined without a shard selector or before the first list.
   */
  get shardFiltering(): ShardFiltering | undefined {
    return this.#reflector.shardFiltering;
  }

  /**
   * Starts listing and watching (a no-op while running); resolves once synced. Aborting
   * `signal` before that stops the informer and rejects; so does `stop()`.
   */
  async start(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    if (!this.running) this.#lifetime = new AbortController();
    const lifetime = this.#lifetime.signal;
    this.#reflector.start();
    if (this.#hasSynced) return;
    try {
      await abortable(this.#synced, signal ? AbortSignal.any([signal, lifetime]) : lifetime);
    } catch (err) {
      if (signal?.aborted) await this.stop();
      throw err;
    }
  }

  /** Stops the list/watch loop; the cached objects stay readable. */
  stop(): Promise<void> {
    this.#lifetime.abort(new OperatorRuntimeError(`${this.name} was stopped before it synced`));
    return this.#reflector.stop();
  }

  /** Whether the list/watch loop runs. */
  get running(): boolean {
    return this.#reflector.running;
  }

  /**
   * Objects this informer has received since it was created: every item of each list (the
   * first and every relist) plus every watch event, counted after shard filtering and before
   * unchanged copies are dropped. Read-only; for metrics and benchmarks (what a sharded replica
   * is sent, compared with an unsharded one).
   *
   * @example
   * ```ts
   * const received = mgr.cache.informers().reduce((n, i) => n + i.eventsReceived, 0);
   * ```
   */
  get eventsReceived(): number {
    return this.#received;
  }

  /**
   * Times this informer went stale after its first list (its watch failed or a resume was not
   * accepted promptly; see `isStale`). Read-only; for dashboards and metrics.
   *
   * @example
   * ```ts
   * const stalls = mgr.cache.informers().reduce((n, i) => n + i.stalls, 0);
   * ```
   */
  get stalls(): number {
    return this.#stalls;
  }

  /** What the underlying reflector did (lists, watches, failures, relists). */
  get stats(): Readonly<ReflectorStats> {
    return this.#reflector.stats;
  }

  addEventHandler(handler: InformerEventHandler<T>): () => void {
    const entry = { h: handler };
    this.#handlers.add(entry);
    if (this.#hasSynced) for (const obj of this.#store.list()) this.#call("add", () => handler.add?.(obj, true));
    return () => void this.#handlers.delete(entry);
  }

  synced(): Promise<void> {
    return this.#synced;
  }

  hasSynced(): boolean {
    return this.#hasSynced;
  }

  isStale(): boolean {
    return this.#reflector.stale;
  }

  get(name: string, namespace?: string): T | undefined {
    return this.#store.get(namespace ? `${namespace}/${name}` : name);
  }

  list(namespace?: string): T[] {
    return this.#store.list(namespace);
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    this.#store.addIndex(name, fn);
  }

  byIndex(name: string, value: string): T[] {
    return this.#store.byIndex(name, value);
  }

  lastSyncResourceVersion(): string {
    return this.#reflector.resourceVersion;
  }

  /** A full list: store it and report the differences against what was cached. */
  #replace(items: T[]): void {
    const initial = !this.#hasSynced;
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj);
      seen.add(key);
      const old = this.#store.get(key);
      if (old && sameVersion(old, obj)) continue;
      if (old && old.metadata?.uid !== obj.metadata?.uid) {
        // Deleted and recreated during a gap: report it as such, not as an update.
        this.#store.delete(key);
        this.#emit("delete", (h) => h.delete?.(old));
      }
      const prev = this.#store.get(key);
      this.#store.set(key, obj);
      if (prev) this.#emit("update", (h) => h.update?.(prev, obj));
      else this.#emit("add", (h) => h.add?.(obj, initial));
    }
    for (const key of [...this.#store.keys()]) {
      if (seen.has(key)) continue;
      const old = this.#store.delete(key)!;
      this.#emit("delete", (h) => h.delete?.(old));
    }
    if (initial) {
      this.#hasSynced = true;
      this.#resolveSynced();
    }
  }

  #staleChanged(stale: boolean): void {
    if (stale) {
      // Before the first list there is nothing to catch up with: handlers hear the initial adds.
      this.#lapsed = this.#hasSynced;
      if (this.#hasSynced) this.#stalls++;
      this.#log.debug("stale until a relist or an accepted watch resume");
    } else if (this.#lapsed) {
      this.#lapsed = false;
      this.#emit("caughtUp", (h) => h.caughtUp?.());
    }
  }

  #apply(type: "ADDED" | "MODIFIED" | "DELETED", obj: T): void {
    const key = objectKey(obj);
    const old = this.#store.get(key);
    if (old && isOlder(obj, old)) {
      this.#log.debug("dropped a stale event", { type, key, resourceVersion: obj.metadata?.resourceVersion });
      return;
    }
    if (type === "DELETED") {
      if (!old) return;
      this.#store.delete(key);
      this.#emit("delete", (h) => h.delete?.(obj));
      return;
    }
    if (old && sameVersion(old, obj)) return;
    this.#store.set(key, obj);
    if (old) this.#emit("update", (h) => h.update?.(old, obj));
    else this.#emit("add", (h) => h.add?.(obj, false));
  }

  #emit(event: string, fn: (h: InformerEventHandler<T>) => void): void {
    for (const entry of [...this.#handlers]) {
      if (this.#handlers.has(entry)) this.#call(event, () => fn(entry.h));
    }
  }

  #call(event: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#log.error("event handler failed", { event, error: err });
    }
  }
}

const INTEGER = /^\d+$/;

/** Whether `a` has a resourceVersion older than `b`'s (only when both are integers). */
function isOlder(a: KubeObject, b: KubeObject): boolean {
  const ra = a.metadata?.resourceVersion;
  const rb = b.metadata?.resourceVersion;
  if (!ra || !rb || !INTEGER.test(ra) || !INTEGER.test(rb)) return false;
  return BigInt(ra) < BigInt(rb);
}

/** Whether two copies carry the same (non-empty) resourceVersion. */
function sameVersion(a: KubeObject, b: KubeObject): boolean {
  const ra = a.metadata?.resourceVersion;
  return !!ra && ra === b.metadata?.resourceVersion;
}
