/** Cache: shared informers per kind and scope, and an ObjectReader that answers from them. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ResourceClient } from "../client/resource-client.ts";
import type { Kind, KindRef, KubeObject, ListOptions, ObjectRef, OwnerIndexedReader } from "../client/types.ts";
import { OperatorRuntimeError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import type { Runnable } from "../util/runnable.ts";
import type { ReflectorTimings } from "./backoff.ts";
import { abortable } from "./abortable.ts";
import { fieldSelectorMatcher } from "./field-selector.ts";
import { SharedInformer } from "./informer.ts";
import type { Informer } from "./types.ts";
import type { CacheTransformOption } from "./transform.ts";
import { ownedIn } from "./owner-index.ts";
import { labelSelectorMatcher } from "../util/label-selector.ts";
import { normalizeShardSelector } from "../util/shard-range.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * Options of {@link Cache.informer}: the scope and server-side filters of the informer.
 *
 * @example
 * ```ts
 * const options: CacheInformerOptions = { namespace: "prod", labelSelector: "app=web",
 *   shardSelector: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')" };
 * ```
 */
export interface CacheInformerOptions {
  /** Namespace scope; unset = all namespaces (and cluster-scoped kinds). */
  namespace?: string;
  /** Only objects with these labels. */
  labelSelector?: string;
  /** Only objects in these KEP-5866 hash ranges (see `SharedInformerOptions.shardSelector`). */
  shardSelector?: string;
}

/**
 * Options of {@link Cache}.
 *
 * @example
 * ```ts
 * import { createLogger } from "operator-runtime";
 *
 * const options: CacheOptions = { client, kubeConfig, logger: createLogger().child({ component: "cache" }) };
 * ```
 */
export interface CacheOptions {
  client: ResourceClient;
  kubeConfig: KubeConfig;
  logger?: Logger;
  /** Backoff and watch timings of every informer (defaults: client-go's). */
  timings?: ReflectorTimings;
  /** How long `get`/`list` wait for an informer's first list before throwing (default 2 min). */
  readSyncTimeoutMs?: number;
  /**
   * What every informer stores of each object. Default: {@link stripManagedFields} — cached
   * copies have no `metadata.managedFields` (often half an object's size). `"none"` keeps
   * objects as the server sent them; a function of your own may strip more (switch on
   * `obj.kind`; start from `stripManagedFields(obj)` to keep the default). The Builder reading
   * through the cache works either way: see `BuilderOptions.reader`.
   *
   * @example
   * ```ts
   * import { stripManagedFields } from "operator-runtime/cache";
   *
   * new Cache({ client, kubeConfig, transform: "none" });  // keep managedFields
   * new Cache({ client, kubeConfig, transform: (o) => {     // also drop a bulky annotation
   *   const lean = stripManagedFields(o);
   *   const { "kubectl.kubernetes.io/last-applied-configuration": _, ...annotations } = lean.metadata?.annotations ?? {};
   *   return { ...lean, metadata: { ...lean.metadata, annotations } };
   * } });
   * ```
   */
  transform?: CacheTransformOption;
}

/**
 * The shared cache: one {@link SharedInformer} per kind and namespace scope, and an
 * {@link ObjectReader} answering `get`/`list` from memory — no API request per read.
 *
 * Expected flow: controllers ask `informer(kind)` for what they watch; the Manager calls
 * `start(signal)` (resolves when every informer has synced) and `stop()` at shutdown.
 * Informers asked for after `start()` start at once. `get`/`list` create the informer they
 * need on first use and wait for its first list.
 *
 * Guarantees: the same kind and namespace always give the same informer. Reads return the
 * newest copy the watch has delivered (a write is visible once its watch event arrived, not
 * when the write returns). An all-namespaces informer serves reads of any namespace; a
 * namespace-scoped informer serves reads of its namespace when no all-namespaces one exists.
 *
 * Caveats: returned objects are the cached copies — read-only; copy before changing. They lack
 * `metadata.managedFields` unless `transform: "none"` (see {@link CacheOptions.transform}). A read
 * for a namespace with no informer creates an all-namespaces informer (needs list/watch on the
 * kind cluster-wide): with namespace-only RBAC, call `informer(kind, { namespace })` first.
 * `list` ignores `limit` (like {@link ApiReader}, it returns everything); field selectors are
 * limited to `metadata.name` and `metadata.namespace`.
 *
 * Errors: reads before `start()` or after `stop()`, a namespaced `get` without a namespace, or
 * an informer not synced within `readSyncTimeoutMs` throw {@link OperatorRuntimeError}; a bad
 * or unsupported selector throws its subclass `InvalidSelectorError`; an unknown kind throws
 * from discovery.
 *
 * @example
 * ```ts
 * import { ConfigMap, Pod } from "operator-runtime";
 *
 * const cache = new Cache({ client, kubeConfig });
 * const people = cache.informer(Person);                   // SharedInformer of Person objects
 * people.addIndex("surname", (p) => [p.spec.surname]);
 * await cache.start(AbortSignal.timeout(120_000));
 * const cm = await cache.get({ ...ConfigMap, namespace: "default", name: "app" });  // ConfigMap | undefined
 * const web = await cache.list(Pod, { namespace: "default", labelSelector: "app=web" }); // Pod[]
 * await cache.stop();
 * ```
 */
export class Cache implements OwnerIndexedReader, Runnable {
  readonly name = "cache";
  readonly needsLeaderElection = false;
  readonly #o: CacheOptions;
  readonly #log: Logger;
  readonly #informers = new Map<string, SharedInformer<KubeObject>>();
  readonly #routes = new Map<string, Informer[]>();
  #state: "new" | "started" | "stopped" = "new";
  /** Aborted by stop(): ends starts and reads still waiting for a first list. */
  #lifetime = new AbortController();
  /** Aborted by {@link abortSyncWaits}: reads waiting for an informer's first sync give up. */
  #syncWaits = new AbortController();

  constructor(options: CacheOptions) {
    checkObject("new Cache(options)", "options", options, "an options object ({ client, … })");
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  /**
   * The shared informer of `kind` in `options.namespace` (all namespaces when unset; leave it
   * unset for cluster-scoped kinds), narrowed to `labelSelector` and the KEP-5866
   * `shardSelector` when given. Created on first use; started at once if the cache runs. The
   * same kind, namespace and selectors (a shard selector compared in canonical form) give the
   * same informer.
   *
   * Caveat: an informer with a selector holds a subset, so `get`/`list`/`listByOwner` never
   * read from it (they use, or create, the kind's informer without selectors): read a
   * selected informer directly (`informer.get`, `informer.list`).
   *
   * @throws {InvalidSelectorError} for a malformed `shardSelector`.
   * @example
   * ```ts
   * import { Pod } from "operator-runtime";
   * import { formatShardSelector, splitHashSpace } from "operator-runtime/cache";
   *
   * // The first third of the hash space, by UID.
   * const mine = cache.informer(Pod, { shardSelector: formatShardSelector("object.metadata.uid", [splitHashSpace(3)[0]!]) });
   * ```
   */
  informer<T extends KubeObject = KubeObject>(kind: Kind<T>, options: CacheInformerOptions = {}): SharedInformer<T> {
    const namespace = options.namespace || undefined;
    const labelSelector = options.labelSelector || undefined;
    const shardSelector = options.shardSelector ? normalizeShardSelector(options.shardSelector) : undefined;
    const key = informerKey(kind, namespace, labelSelector, shardSelector);
    let informer = this.#informers.get(key);
    if (!informer) {
      informer = new SharedInformer<KubeObject>({
        client: this.#o.client, kubeConfig: this.#o.kubeConfig, kind: { apiVersion: kind.apiVersion, kind: kind.kind },
        namespace, labelSelector, shardSelector, logger: this.#log, timings: this.#o.timings, transform: this.#o.transform,
      });
      this.#informers.set(key, informer);
      if (this.#state === "started") this.#run(informer);
    }
    return informer as unknown as SharedInformer<T>;
  }

  /**
   * Stops `informer` and forgets it: the next `informer()` call with its kind and selectors
   * creates a new one. For informers with selectors that are replaced over time (the sharded
   * Manager's); releasing one that others still read leaves them reading a stopped informer.
   *
   * @example
   * ```ts
   * import { ConfigMap } from "operator-runtime";
   *
   * const narrow = cache.informer(ConfigMap, { labelSelector: "tier=web" });
   * await cache.release(narrow);
   * ```
   */
  async release(informer: SharedInformer<any>): Promise<void> {
    for (const [key, i] of this.#informers) if (i === informer) this.#informers.delete(key);
    await informer.stop();
  }

  /**
   * Serves `get` and `listByOwner` of `kind` from `informer` (a subset: a sharded Manager's
   * buckets) instead of the kind's informer without selectors, which is then never created for
   * them: `get` answers from it and, on a miss (an object outside the subset, or not labelled
   * for it), from a synced informer of the whole kind if one runs, else from the API;
   * `listByOwner` answers from its owner index, except for a route of objects selected by their
   * own UID (a `ShardedInformer` with `by: "uid"`), whose share of an owner's children is
   * arbitrary: without another route, `listByOwner` reads the kind's informer as usual.
   * Several routes of one kind are tried in order. `list` is not routed. Returns a function that removes the route.
   *
   * @example
   * ```ts
   * import { ConfigMap } from "operator-runtime";
   *
   * // Serve reads of ConfigMaps from the informer of the buckets this replica holds.
   * const bucketLabel = "example.com/bucket";
   * const mine = cache.informer(ConfigMap, { labelSelector: `${bucketLabel} in (3,7)` });
   * const undo = cache.route(ConfigMap, mine);
   * // ... later, when the buckets change:
   * undo();
   * ```
   */
  route(kind: KindRef, informer: Informer): () => void {
    const key = `${kind.apiVersion}|${kind.kind}`;
    const list = this.#routes.get(key) ?? [];
    list.push(informer);
    this.#routes.set(key, list);
    return () => {
      const now = this.#routes.get(key) ?? [];
      const i = now.indexOf(informer);
      if (i >= 0) now.splice(i, 1);
    };
  }

  /** Every informer created so far. */
  informers(): SharedInformer[] {
    return [...this.#informers.values()];
  }

  /**
   * Starts every informer; resolves when all (including any created meanwhile) have synced.
   * Aborting `signal` before that stops the cache and rejects. A stopped cache can be started
   * again (its informers relist).
   */
  async start(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw signal.reason;
    if (this.#state !== "started") this.#lifetime = new AbortController();
    if (this.#syncWaits.signal.aborted) this.#syncWaits = new AbortController();
    this.#state = "started";
    for (const informer of this.#informers.values()) this.#run(informer);
    try {
      await abortable(this.synced(), AbortSignal.any([signal, this.#lifetime.signal]));
    } catch (err) {
      if (signal.aborted) await this.stop();
      throw err;
    }
  }

  /**
   * Makes reads that wait for an informer's first sync (a reconcile reading a kind whose list
   * keeps failing, e.g. for want of RBAC) reject at once, and later ones too until the cache
   * starts again; reads of synced informers go on. A stopping Manager calls it before draining
   * its controllers, so the drain does not wait out the reconcile timeout.
   */
  abortSyncWaits(): void {
    this.#syncWaits.abort(new OperatorRuntimeError("cache: stopping; an informer that has not synced is not read"));
  }

  /** Stops every informer (their watches end); resolves when all have stopped. */
  async stop(): Promise<void> {
    this.#state = "stopped";
    this.#lifetime.abort(new OperatorRuntimeError("cache: stopped before it synced"));
    await Promise.all([...this.#informers.values()].map((i) => i.stop()));
  }

  /** Starts an informer; its start() rejects only when stopped, which needs no report. */
  #run(informer: SharedInformer<KubeObject>): void {
    informer.start().catch(() => undefined);
  }

  /** Resolves when every informer, including any created while waiting, has synced. */
  async synced(): Promise<void> {
    for (;;) {
      const pending = [...this.#informers.values()].filter((i) => !i.hasSynced());
      if (pending.length === 0) return;
      await Promise.all(pending.map((i) => i.synced()));
    }
  }

  /** Whether every informer has synced (true with none), leaving out those `ignore` names. */
  hasSynced(ignore?: (informer: SharedInformer) => boolean): boolean {
    return [...this.#informers.values()].every((i) => i.hasSynced() || (ignore?.(i) ?? false));
  }

  /** The newest cached copy, or undefined. Waits for the kind's informer to sync. */
  async get<T extends KubeObject = KubeObject>(ref: ObjectRef<T>): Promise<T | undefined> {
    const routes = this.#routesOf(ref, ref.namespace);
    if (routes.length > 0) {
      this.#assertRunning();
      for (const r of routes) {
        const hit = r.get(ref.name, ref.namespace || undefined);
        if (hit) return hit as T;
      }
      // A synced informer of the whole kind (a `watches`, a `list`) answers a miss as it does
      // anywhere else; only without one is the object read from the API.
      const full = this.#informers.get(informerKey(ref, undefined)) ?? (ref.namespace ? this.#informers.get(informerKey(ref, ref.namespace)) : undefined);
      if (full?.hasSynced()) return full.get(ref.name, ref.namespace || undefined) as T | undefined;
      return this.#o.client.reader().get(ref);
    }
    const { informer, namespaced } = await this.#reader(ref, ref.namespace);
    if (namespaced && !ref.namespace) {
      throw new OperatorRuntimeError(`cache.get: ${ref.kind} "${ref.name}" (${ref.apiVersion}) is namespaced but no namespace was given. Fix: set namespace on the ref.`);
    }
    return informer.get(ref.name, namespaced ? ref.namespace : undefined) as T | undefined;
  }

  /**
   * The cached copy of `ref` from an informer that runs and has synced already — the kind's
   * informer without selectors for all namespaces or for `ref.namespace`, or a route holding
   * it — without creating an informer or waiting for one: `{ object }` (`object` undefined
   * when that informer holds none), or undefined when no synced informer covers the read (read
   * it from the API instead). A route's miss is not an answer: routes hold subsets.
   *
   * @example
   * ```ts
   * import { Secret } from "operator-runtime";
   *
   * const hit = cache.peek({ ...Secret, namespace: "default", name: "tls" });
   * const secret = hit ? hit.object : await client.reader().get({ ...Secret, namespace: "default", name: "tls" });
   * ```
   */
  peek<T extends KubeObject = KubeObject>(ref: ObjectRef<T>): { object: T | undefined } | undefined {
    if (this.#state !== "started") return undefined;
    const namespace = ref.namespace || undefined;
    for (const r of this.#routesOf(ref, namespace)) {
      const hit = r.get(ref.name, namespace);
      if (hit) return { object: hit as T };
    }
    const informer = this.#informers.get(informerKey(ref, undefined)) ?? (namespace ? this.#informers.get(informerKey(ref, namespace)) : undefined);
    if (!informer?.hasSynced()) return undefined;
    return { object: informer.get(ref.name, namespace) as T | undefined };
  }

  /** Cached objects of a kind matching `namespace`, `labelSelector` and `fieldSelector`. */
  async list<T extends KubeObject = KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<T[]> {
    const labels = options.labelSelector ? labelSelectorMatcher(options.labelSelector) : undefined;
    const fields = options.fieldSelector ? fieldSelectorMatcher(options.fieldSelector) : undefined;
    const { informer, namespaced } = await this.#reader(kind, options.namespace);
    const items = informer.list(namespaced ? options.namespace || undefined : undefined);
    return items.filter((o) => (!labels || labels(o.metadata?.labels)) && (!fields || fields(o))) as T[];
  }

  /**
   * Cached objects of a kind controlled by the owner with UID `ownerUid` (and PersistentVolumeClaims
   * a Builder retains for it), in `options.namespace` when given: a lookup in the informer's
   * owner index (`OWNER_UID_INDEX`), whose cost follows this owner's children, not the
   * number of cached objects.
   *
   * @example
   * ```ts
   * import { ConfigMap } from "operator-runtime";
   *
   * const mine = await cache.listByOwner(ConfigMap, owner.metadata!.uid!, { namespace: owner.metadata!.namespace });
   * ```
   */
  async listByOwner<T extends KubeObject = KubeObject>(kind: Kind<T>, ownerUid: string, options: { namespace?: string } = {}): Promise<T[]> {
    // A route holding objects by their own UID (a sharded primary) holds an owner's children
    // only where their UIDs fall in its buckets: it cannot answer by owner.
    const routes = this.#routesOf(kind, options.namespace).filter((r) => (r as { by?: string }).by !== "uid");
    const route = routes.find((r) => (r as { by?: string }).by === "label") ?? routes[0];
    if (route) {
      this.#assertRunning();
      return ownedIn(route, ownerUid, options.namespace || undefined) as T[];
    }
    const { informer, namespaced } = await this.#reader(kind, options.namespace);
    return ownedIn(informer, ownerUid, namespaced ? options.namespace || undefined : undefined) as T[];
  }

  /** The routes of `kind` that cover `namespace` (a route with a namespace covers only it). */
  #routesOf(kind: KindRef, namespace: string | undefined): Informer[] {
    const routes = this.#routes.get(`${kind.apiVersion}|${kind.kind}`);
    if (!routes || routes.length === 0) return [];
    return routes.filter((r) => r.namespace === undefined || r.namespace === (namespace || undefined));
  }

  /** Picks (or creates) the informer serving a read and waits until it has synced. */
  async #reader(kind: KindRef, namespace: string | undefined): Promise<{ informer: SharedInformer<KubeObject>; namespaced: boolean }> {
    this.#assertRunning();
    const info = await this.#o.client.resourceFor(kind);
    let informer: SharedInformer<KubeObject> | undefined;
    if (info.namespaced) {
      informer = this.#informers.get(informerKey(kind, undefined));
      if (!informer && namespace) informer = this.#informers.get(informerKey(kind, namespace));
    }
    informer ??= this.informer(kind);
    if (!informer.hasSynced()) await this.#waitSynced(informer);
    return { informer, namespaced: info.namespaced };
  }

  async #waitSynced(informer: SharedInformer<KubeObject>): Promise<void> {
    const ms = this.#o.readSyncTimeoutMs ?? 120_000;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new OperatorRuntimeError(
      `cache: ${informer.name} has not synced within ${ms} ms (its list keeps failing; see the logs).`,
    )), ms);
    try {
      await abortable(informer.synced(), AbortSignal.any([timeout.signal, this.#lifetime.signal, this.#syncWaits.signal]));
    } finally {
      clearTimeout(timer);
    }
  }

  #assertRunning(): void {
    if (this.#state === "new") throw new OperatorRuntimeError("cache: read before start(). Fix: start the cache (or the Manager) before reading from it.");
    if (this.#state === "stopped") throw new OperatorRuntimeError("cache: read after stop(). Fix: read from a running cache, or through client.reader().");
  }
}

/** `apiVersion|kind|namespace`, then `|labels|shard` for an informer with selectors. */
function informerKey(kind: KindRef, namespace: string | undefined, labelSelector?: string, shardSelector?: string): string {
  const base = `${kind.apiVersion}|${kind.kind}|${namespace ?? ""}`;
  return labelSelector || shardSelector ? `${base}|${labelSelector ?? ""}|${shardSelector ?? ""}` : base;
}
