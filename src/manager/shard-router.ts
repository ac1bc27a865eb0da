/**
 * ShardRouter: a sharded Manager's informer source — the primaries and owned kinds of its
 * controllers watched for the served buckets only — and the start and drain of buckets across
 * its controllers.
 */
import type { Kind, KindRef, KubeObject } from "../client/types.ts";
import type { Cache } from "../cache/cache.ts";
import { abortable } from "../cache/abortable.ts";
import { ShardedInformer } from "../cache/sharded-informer.ts";
import type { ShardBy } from "../cache/sharded-informer.ts";
import type { Informer } from "../cache/types.ts";
import type { SharedInformer } from "../cache/informer.ts";
import type { Controller, InformerSource, WatchRole } from "../controller/controller.ts";
import type { Logger } from "../log/logger.ts";
import type { Metrics } from "./metrics.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * Options of {@link ShardRouter}.
 *
 * @example
 * ```ts
 * const options: ShardRouterOptions = { cache: mgr.cache, logger: mgr.logger, metrics: mgr.metrics,
 *   controllers: () => mgr.controllers() };
 * ```
 */
export interface ShardRouterOptions {
  cache: Cache;
  logger: Logger;
  metrics: Metrics;
  /** The sharded controllers to start and drain buckets on. */
  controllers: () => Controller[];
}

/**
 * The informers and buckets of a sharded Manager (see `ManagerOptions.sharding`).
 *
 * Expected flow: controllers ask it for their informers (`role` `for`: objects whose UID hashes
 * into a served bucket, by a KEP-5866 shard selector; `owns`: objects labelled with a served
 * bucket; `watches`: every object, from the cache); the ring calls `start(b)` and `stop(b)`.
 * `start(b)` rebuilds the sharded informers with `b` (starts that arrive together share one
 * rebuild), then lets every controller serve `b`; `stop(b)` drains `b` in every controller,
 * then narrows the informers (in the background).
 *
 * Guarantees: reads of the sharded kinds through the cache (`get`, `listByOwner`, as the
 * Builder does) answer from the sharded informers, and `get` falls back to one API GET on a
 * miss; the cache keeps no unselected informer for them unless something else asks for one.
 *
 * @example
 * ```ts
 * import { RingMembership } from "operator-runtime/sharding";
 * import { hostname } from "node:os";
 *
 * const router = new ShardRouter({ cache: mgr.cache, logger: mgr.logger, metrics: mgr.metrics,
 *   controllers: () => mgr.controllers() });
 * const ring = new RingMembership({ client, kubeConfig, namespace: "operators", ring: "dataapp",
 *   identity: hostname(), handler: router });
 * await ring.start(signal);
 * ```
 */
export class ShardRouter implements InformerSource {
  readonly #o: ShardRouterOptions;
  readonly #facades = new Map<string, ShardedInformer>();
  readonly #buckets = new Set<number>();
  /** Buckets every controller serves: started, and no stop begun. */
  readonly #serving = new Set<number>();
  /** Aborted by {@link ShardRouter.abortStarts}: starts stop waiting for their informers. */
  readonly #stopping = new AbortController();

  constructor(options: ShardRouterOptions) {
    checkObject("new ShardRouter(options)", "options", options, "an options object");
    this.#o = options;
  }

  /** The informer of a controller's watch: sharded for its primary and owned kinds. */
  informer<T extends KubeObject = KubeObject>(kind: Kind<T>, options: { namespace?: string; role?: WatchRole } = {}): Informer<T> {
    const { role, namespace } = options;
    if (role === "for" || role === "owns") return this.#facade(kind, namespace, role === "for" ? "uid" : "label") as unknown as Informer<T>;
    return this.#o.cache.informer(kind, namespace ? { namespace } : {});
  }

  /**
   * Routes the cache's reads of `kinds` to informers of the served buckets' children (by the
   * bucket label), without any controller watching them: kinds a Builder lists by owner that
   * no controller owns, which would otherwise each get an informer of every object of the kind
   * on every replica. (A Builder in a controller prunes the kinds the controller owns, which
   * are routed already.)
   *
   * @example
   * ```ts
   * declare const router: ShardRouter;
   *
   * router.shardReads([{ apiVersion: "v1", kind: "ConfigMap" }]);
   * ```
   */
  shardReads(kinds: readonly KindRef[]): void {
    for (const kind of kinds) this.#facade(kind as Kind, undefined, "label");
  }

  /** The buckets the informers are asked to hold (served, or starting). */
  buckets(): ReadonlySet<number> {
    return new Set(this.#buckets);
  }

  /**
   * Whether `informer` is being built to replace one that still serves its kind (a bucket
   * change): readiness need not wait for it. The first informer of a kind is not pending: until
   * it has synced, nothing serves the kind.
   */
  isPending(informer: SharedInformer): boolean {
    for (const f of this.#facades.values()) if (f.pending === informer && f.current !== undefined) return true;
    return false;
  }

  /** The sharded informers. */
  informers(): ShardedInformer[] {
    return [...this.#facades.values()];
  }

  /**
   * Starts bucket `b`: informers hold its objects and have synced, then every controller serves
   * it. After {@link ShardRouter.abortStarts}, resolves without serving it.
   */
  async start(bucket: number): Promise<void> {
    this.#buckets.add(bucket);
    this.#o.metrics.shardBuckets(this.#buckets.size);
    try {
      await abortable(this.#rebuild(), this.#stopping.signal);
    } catch (err) {
      if (!this.#stopping.signal.aborted) throw err;
      this.#o.logger.info("stopping: a bucket whose informers had not synced is not served", { bucket });
      return;
    }
    if (!this.#buckets.has(bucket) || this.#stopping.signal.aborted) return;
    for (const c of this.#o.controllers()) c.serveBucket(bucket);
    this.#serving.add(bucket);
  }

  /**
   * A controller registered after the buckets started (`mgr.controller(…)` once the Manager
   * runs), now started: once its informers hold the buckets, it serves every bucket the others
   * serve. Buckets still starting reach it through their own start.
   *
   * @example
   * ```ts
   * import type { Controller } from "operator-runtime/controller";
   * declare const router: ShardRouter;
   * declare const controller: Controller;
   *
   * await controller.start(signal);
   * await router.attach(controller);
   * ```
   */
  async attach(controller: Controller): Promise<void> {
    await abortable(this.#rebuild(), this.#stopping.signal).catch(() => undefined);
    if (this.#stopping.signal.aborted) return;
    for (const b of this.#serving) controller.serveBucket(b);
  }

  /** Drains bucket `b` in every controller; then the informers let go of its objects. */
  async stop(bucket: number, signal: AbortSignal): Promise<void> {
    this.#serving.delete(bucket);
    await Promise.all(this.#o.controllers().map((c) => c.drainBucket(bucket, signal)));
    this.#buckets.delete(bucket);
    this.#o.metrics.shardBuckets(this.#buckets.size);
    void this.#rebuild().catch((err: unknown) => this.#o.logger.error("narrowing the sharded informers failed", { error: err }));
  }

  /**
   * The Manager is stopping: starts still waiting for their informers to sync (a list that keeps
   * failing) resolve at once without serving, so that the ring's drain of those buckets (which
   * waits for their start) cannot hang the stop. Served buckets and reads are unaffected.
   *
   * @example
   * ```ts
   * import type { RingMembership } from "operator-runtime/sharding";
   * declare const router: ShardRouter;
   * declare const ring: RingMembership;
   *
   * router.abortStarts();
   * await ring.stop(); // drains every bucket, those that never started included
   * ```
   */
  abortStarts(): void {
    this.#stopping.abort(new Error("the sharded Manager is stopping"));
  }

  /** Stops every sharded informer. */
  async close(): Promise<void> {
    await Promise.all([...this.#facades.values()].map((f) => f.stop()));
  }

  #rebuild(): Promise<unknown> {
    return Promise.all([...this.#facades.values()].map((f) => f.setBuckets(this.#buckets)));
  }

  #facade(kind: Kind, namespace: string | undefined, by: ShardBy): ShardedInformer {
    const key = `${kind.apiVersion}|${kind.kind}|${namespace ?? ""}|${by}`;
    let facade = this.#facades.get(key);
    if (!facade) {
      const name = `${kind.kind}.${kind.apiVersion}`;
      facade = new ShardedInformer({
        host: this.#o.cache, kind, namespace, by, logger: this.#o.logger,
        ...(by === "uid" ? { onFiltering: (f) => this.#o.metrics.shardClientFiltering(name, f === "client") } : {}),
      });
      this.#facades.set(key, facade);
      this.#o.cache.route(kind, facade);
      if (this.#buckets.size > 0) void facade.setBuckets(this.#buckets).catch(() => undefined);
    }
    return facade;
  }
}
