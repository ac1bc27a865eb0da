/** Reflector: lists then watches one kind in one scope, forever, feeding a store. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ResourceClient } from "../client/resource-client.ts";
import type { ResourceInfo } from "../client/discovery.ts";
import type { KindRef, KubeObject } from "../client/types.ts";
import type { ListCallOptions, ListPage } from "../client/client-options.ts";
import { GoneError, OperatorRuntimeError, TooManyRequestsError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import { Backoff, resolveTimings } from "./backoff.ts";
import type { ReflectorTimings, ResolvedTimings } from "./backoff.ts";
import { collectionPath, openWatch } from "./watch-stream.ts";
import type { WatchEventType, WatchStream } from "./watch-stream.ts";
import { ShardFilter } from "./shard-filter.ts";
import type { ShardFiltering } from "./shard-filter.ts";
import { checkKindRef, checkObject } from "../util/check-args.ts";

/**
 * Where a reflector delivers what it learns. Calls never overlap and come in order.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 *
 * const byName = new Map<string, KubeObject>();
 * const sink: ReflectorSink = {
 *   replace: (items) => { byName.clear(); for (const o of items) byName.set(o.metadata!.name!, o); },
 *   apply: (type, o) => (type === "DELETED" ? byName.delete(o.metadata!.name!) : byName.set(o.metadata!.name!, o)),
 * };
 * ```
 */
export interface ReflectorSink<T extends KubeObject = KubeObject> {
  /** A complete list at `resourceVersion`: replace the contents (report the differences). */
  replace(items: T[], resourceVersion: string): void;
  /** One watch event (ADDED, MODIFIED or DELETED with the object's last state). */
  apply(type: "ADDED" | "MODIFIED" | "DELETED", obj: T): void;
  /**
   * Whether the contents may lag behind the server for longer than a watch event's trip:
   * `true` from the moment a watch fails (an error, 410 Gone, a refused connection) — or, after
   * a clean close or a stalled stream, once the resumed watch has not been accepted within
   * `resumeGraceMs` — until a list is delivered or the server accepts the next watch; `false`
   * then. Called on changes only.
   */
  stale?(stale: boolean): void;
}

/**
 * Options of {@link Reflector}.
 *
 * @example
 * ```ts
 * declare const sink: ReflectorSink; // where the lists and events go
 * const options: ReflectorOptions = { client, kubeConfig, kind: { apiVersion: "apps/v1", kind: "Deployment" },
 *   namespace: "prod", labelSelector: "app=web", sink, timings: { maxBackoffMs: 10_000 } };
 * ```
 */
export interface ReflectorOptions<T extends KubeObject = KubeObject> {
  client: ResourceClient;
  kubeConfig: KubeConfig;
  kind: KindRef;
  /** Namespace scope; undefined = all namespaces (ignored for cluster-scoped kinds). */
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /**
   * A KEP-5866 shard selector (`shardRange(object.metadata.uid, '0x…', '0x…') || …`): only
   * objects in its hash ranges reach the sink — filtered by the server when it supports it,
   * otherwise here (see {@link Reflector.shardFiltering}).
   */
  shardSelector?: string | undefined;
  /**
   * List in pages of this many objects (`limit` and `continue`), as client-go's reflector does:
   * no list response is held whole, and each page's objects are transformed before the next
   * page is read. Default {@link DEFAULT_LIST_PAGE_SIZE}; 0 lists in one request. A `continue`
   * token that expires mid-list (410) restarts the list as one request.
   */
  pageSize?: number | undefined;
  /**
   * Applied to every object as it arrives (each list page's, each watch event's) before the
   * sink sees it: the informer's cache transform, so an object's dropped fields never pile up.
   */
  transform?: ((obj: T) => T) | undefined;
  sink: ReflectorSink<T>;
  logger?: Logger | undefined;
  timings?: ReflectorTimings | undefined;
}

/**
 * Counters of what a reflector did, for tests and diagnostics.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const { lists, relists, watchFailures }: ReflectorStats = cache.informer(ConfigMap).stats;
 * ```
 */
export interface ReflectorStats {
  /** Successful lists (the first one included). */
  lists: number;
  /** Failed list attempts. */
  listFailures: number;
  /** Watch requests started. */
  watches: number;
  /** Watches that ended with an error (not a clean close, not a 410). */
  watchFailures: number;
  /**
   * Relists caused by 410 Gone, 504 Too large resource version, a refused connection or
   * repeated watch failures.
   */
  relists: number;
}

/** Objects per list page unless `pageSize` says otherwise (client-go's reflector uses 500). */
export const DEFAULT_LIST_PAGE_SIZE = 500;

/** One run between start() and stop(). */
interface Session {
  stopped: boolean;
  /**
   * Called once by stop(). Waits register here and remove themselves when they end: a
   * `Promise.race` with a never-settling "stopping" promise would leave a reaction on it per
   * wait, each holding what its wait resolved with (a whole list) until the reflector stops.
   */
  onStop: Set<() => void>;
  stop(): void;
  watch: WatchStream | undefined;
  loop: Promise<void>;
  /** A watch of this session got a bookmark. */
  sawBookmark: boolean;
}

/**
 * Mirrors one kind in one scope into a {@link ReflectorSink}: list, then watch from the list's
 * resourceVersion with bookmarks, resuming and relisting as needed.
 *
 * Expected flow: discovery → list (replace) → watch `timeoutSeconds` random 300–600 s → on a
 * clean close (server timeout, dropped watch) resume at once from the last resourceVersion
 * (updated by every event, bookmarks included) → on 410 Gone or 504 Too large resource version
 * (ERROR event or HTTP: the server lost that history, or restarted with a lower
 * resourceVersion) relist at once (after a backoff if it came on the first watch after a list),
 * as client-go does → on a refused connection (the server is down or restarting, and may come
 * back with other contents) relist on the next attempt → on any other error (network, 5xx,
 * 429, an aborted stream, a connect timeout) retry the watch after a jittered exponential
 * backoff (800 ms doubling to 30 s, reset after 2 min without failures), relisting after
 * `relistAfterWatchFailures` consecutive failures. Failed lists back off the same way and are
 * retried. Lists never name a resourceVersion (a consistent read of the server's current state).
 *
 * Sharding: with `shardSelector`, lists and watches send it (canonical form); a list whose
 * `metadata.shardInfo` echoes it is stored as is, one without is filtered here (one warning
 * logged), and every watch event is checked too (a watch may reach another API server than
 * the list). {@link Reflector.shardFiltering} says which.
 *
 * Idle watches: a quiet watch stays open for its whole `timeoutSeconds` (client-node's 30 s
 * inactivity abort is lifted). A stream silent (no event, no bookmark) for `watchStallMs`
 * (150 s) once the server is known to send bookmarks is stalled (a half-open connection, a proxy
 * swallowing it): it is aborted and reopened from the last resourceVersion with a warning.
 *
 * Staleness: the sink hears `stale(true)` as soon as a watch fails, and after a clean close or a
 * stalled stream only if the resume is not
 * accepted within `resumeGraceMs` (default 1 s); `stale(false)` once a list was delivered or the
 * server accepted the next watch (see {@link ReflectorSink.stale}). During that grace the
 * contents may lag by the events the server sends until the resume is accepted.
 *
 * Guarantees: never stops by itself and never throws out of its loop: only {@link stop} ends
 * it. No sink call happens after `stop()` resolves. Sink errors are logged, not propagated.
 *
 * Caveats: a server that restarts with other contents and a *higher* resourceVersion, without
 * this reflector ever seeing its connection refused (a restart between two of its requests),
 * accepts the resume and replays only its own newer changes: objects of the old server stay
 * cached until their next change or the next relist. client-go has the same blind spot; real
 * API servers keep resourceVersions across restarts (etcd), so it needs a wiped or restored etcd.
 * A stream that stalled or closed cleanly is resumed at once only if it delivered an event or stayed open at least
 * `initialBackoffMs`; otherwise it counts as a failure, so a server that closes every watch at
 * once cannot cause a hot loop.
 *
 * @example
 * ```ts
 * const reflector = new Reflector({ client, kubeConfig, kind: { apiVersion: "v1", kind: "ConfigMap" },
 *   namespace: "default", sink: { replace: (items) => console.log(items.length), apply: (t, o) => console.log(t, o.metadata?.name) } });
 * reflector.start();
 * // …
 * await reflector.stop();
 * ```
 */
export class Reflector<T extends KubeObject = KubeObject> {
  readonly kind: KindRef;
  readonly namespace: string | undefined;
  /** What this reflector did so far. */
  readonly stats: ReflectorStats = { lists: 0, listFailures: 0, watches: 0, watchFailures: 0, relists: 0 };
  readonly #o: ReflectorOptions<T>;
  readonly #t: ResolvedTimings;
  readonly #log: Logger;
  readonly #backoff: Backoff;
  readonly #shard: ShardFilter | undefined;
  #rv = "";
  #stale = true;
  /** A watch of this reflector got a bookmark: the server sends them, so silence means a stall. */
  #bookmarking = false;
  /** Marks stale when a resume after a clean close is not accepted in time. */
  #graceTimer: NodeJS.Timeout | undefined;
  #session: Session | undefined;

  /** @throws {InvalidSelectorError} for a malformed `shardSelector`. */
  constructor(options: ReflectorOptions<T>) {
    checkObject("new Reflector(options)", "options", options, "an options object ({ client, kind, store, … })");
    checkKindRef("new Reflector(options)", "options.kind", options.kind);
    this.#o = options;
    this.kind = options.kind;
    this.namespace = options.namespace;
    this.#t = resolveTimings(options.timings);
    this.#backoff = new Backoff(this.#t);
    this.#log = (options.logger ?? silentLogger).child({
      kind: options.kind.kind, apiVersion: options.kind.apiVersion, namespace: options.namespace ?? "*",
    });
    this.#shard = options.shardSelector ? new ShardFilter(options.shardSelector, this.#log) : undefined;
  }

  /**
   * Where the shard selector is applied: `"server"` when the last list echoed it, `"client"`
   * when the server ignored it and this reflector filters; undefined without a shard selector
   * or before the first list.
   */
  get shardFiltering(): ShardFiltering | undefined {
    return this.#shard?.mode;
  }

  /** The shard selector in canonical form (as sent, and as a KEP-5866 server echoes it), if any. */
  get shardSelector(): string | undefined {
    return this.#shard?.selector;
  }

  /** The last resourceVersion seen (from a list, an event or a bookmark); "" before the first list. */
  get resourceVersion(): string {
    return this.#rv;
  }

  /** Whether the contents may lag behind the server (see {@link ReflectorSink.stale}); true before the first list. */
  get stale(): boolean {
    return this.#stale;
  }

  /** Whether the loop runs (between start and stop). */
  get running(): boolean {
    return this.#session !== undefined && !this.#session.stopped;
  }

  /** Starts the list/watch loop (a no-op while running). A restart after stop relists. */
  start(): void {
    if (this.running) return;
    this.#setStale(true);
    const onStop = new Set<() => void>();
    const stop = () => {
      for (const fn of [...onStop]) fn();
      onStop.clear();
    };
    const session: Session = { stopped: false, onStop, stop, watch: undefined, loop: Promise.resolve(), sawBookmark: false };
    this.#session = session;
    session.loop = this.#run(session).catch((err: unknown) => {
      // Unreachable by design; logged so a bug can never become an unhandled rejection.
      this.#log.error("reflector loop failed", { error: err });
    });
  }

  /** Stops the loop and the open watch; resolves when nothing more will reach the sink. */
  async stop(): Promise<void> {
    const s = this.#session;
    if (!s || s.stopped) return s?.loop;
    s.stopped = true;
    this.#clearGrace();
    s.stop();
    s.watch?.stop();
    await s.loop;
  }

  async #run(s: Session): Promise<void> {
    let info: ResourceInfo | undefined;
    let needList = true;
    let failedWatches = 0;
    while (!s.stopped) {
      const listing = needList;
      if (needList) {
        try {
          if (!info) {
            const found = await this.#race(s, this.#o.client.resourceFor(this.#o.kind));
            if (found === "stopped" || s.stopped) return;
            info = found;
          }
          const listed = await this.#race(s, this.#listPages(s));
          if (listed === "stopped" || s.stopped) return;
          this.#rv = listed.resourceVersion;
          this.stats.lists++;
          const items = listed.items;
          this.#deliver(() => this.#o.sink.replace(items, listed.resourceVersion));
          this.#setStale(false);
          this.#log.debug("listed", { items: items.length, resourceVersion: listed.resourceVersion });
          needList = false;
          failedWatches = 0;
        } catch (err) {
          this.stats.listFailures++;
          const delay = this.#delayAfter(err);
          this.#log.warn("list failed; retrying", { error: err, retryInMs: delay, attempt: this.#backoff.failures });
          await this.#sleep(s, delay);
          continue;
        }
      }
      if (!info) continue;
      const outcome = await this.#watchOnce(s, info);
      if (outcome.type === "stopped" || s.stopped) return;
      const resumesAtOnce = (outcome.type === "closed" || outcome.type === "silent")
        && (outcome.events > 0 || outcome.durationMs >= this.#t.initialBackoffMs);
      if (resumesAtOnce) this.#staleAfterGrace(s);
      else this.#setStale(true);
      switch (outcome.type) {
        case "gone":
          this.stats.relists++;
          this.#log.info("watch cannot resume (410 expired or 504 too large resource version); relisting", { resourceVersion: this.#rv, error: outcome.error });
          needList = true;
          // 410 right after a fresh list is abnormal: back off so it cannot become a list loop.
          if (listing) await this.#sleep(s, this.#backoff.next());
          break;
        case "closed":
        case "silent":
          if (outcome.type === "silent") this.#logStall(outcome.silentForMs, outcome.bookmarking);
          if (outcome.events > 0 || outcome.durationMs >= this.#t.initialBackoffMs) {
            failedWatches = 0;
            if (outcome.type === "closed") this.#log.debug("watch closed; resuming", { resourceVersion: this.#rv });
            break;
          }
          this.#log.debug("watch ended at once; backing off", { resourceVersion: this.#rv });
          await this.#sleep(s, this.#backoff.next());
          break;
        case "error": {
          this.stats.watchFailures++;
          if (outcome.events > 0) failedWatches = 0;
          failedWatches++;
          // Refused: the server is down or restarting and may come back with other contents.
          if (outcome.refused || failedWatches >= this.#t.relistAfterWatchFailures) {
            this.stats.relists++;
            needList = true;
            failedWatches = 0;
          }
          const delay = this.#delayAfter(outcome.error);
          this.#log.warn(needList ? "watch failed (refused, or repeatedly); relisting" : "watch failed; resuming", {
            error: outcome.error, retryInMs: delay, resourceVersion: this.#rv,
          });
          await this.#sleep(s, delay);
          break;
        }
      }
    }
  }

  #watchOnce(s: Session, info: ResourceInfo): Promise<Awaited<WatchStream["done"]>> {
    const t = this.#t;
    const span = t.maxWatchTimeoutSeconds - t.minWatchTimeoutSeconds;
    const query: Record<string, string | number | boolean | undefined> = {
      resourceVersion: this.#rv,
      allowWatchBookmarks: true,
      timeoutSeconds: Math.floor(t.minWatchTimeoutSeconds + t.random() * (span + 1)),
      labelSelector: this.#o.labelSelector,
      fieldSelector: this.#o.fieldSelector,
      shardSelector: this.#shard?.selector,
    };
    this.stats.watches++;
    const watch = openWatch({
      kubeConfig: this.#o.kubeConfig, path: collectionPath(info, this.namespace), query, now: t.now,
      stallTimeoutMs: t.watchStallMs, bookmarking: this.#bookmarking,
      onEvent: (type, obj) => this.#onEvent(s, type, obj as T),
      onEstablished: () => {
        if (!s.stopped) this.#setStale(false);
      },
    });
    s.watch = watch;
    return watch.done.finally(() => {
      if (!this.#bookmarking && s.sawBookmark) this.#bookmarking = true;
      if (s.watch === watch) s.watch = undefined;
    });
  }

  #onEvent(s: Session, type: WatchEventType, obj: T): void {
    if (s.stopped) return;
    if (type === "BOOKMARK") s.sawBookmark = true;
    const rv = obj.metadata?.resourceVersion;
    if (type !== "BOOKMARK" && (!this.#shard || this.#shard.keeps(obj))) {
      const typed = { apiVersion: this.#o.kind.apiVersion, kind: this.#o.kind.kind, ...obj } as T;
      const stored = this.#transformed(typed);
      this.#deliver(() => this.#o.sink.apply(type, stored));
    }
    if (rv) this.#rv = rv;
  }

  /**
   * A stream that sent nothing for its silence limit: a warning when the server sends bookmarks
   * (the silence was abnormal: a stall), a debug line otherwise (a quiet watch of a server
   * without bookmarks, past its own timeout).
   */
  #logStall(silentForMs: number, bookmarking: boolean): void {
    const fields = { resourceVersion: this.#rv, silentForS: Math.round(silentForMs / 1000) };
    if (bookmarking) {
      this.#log.warn(`watch stalled: no event or bookmark for ${fields.silentForS} s although the server sends bookmarks; reopening it`, fields);
    } else {
      this.#log.debug("watch silent past its timeout (the server sends no bookmarks); reopening it", fields);
    }
  }

  /** Stale only if the resume is not accepted within `resumeGraceMs` (a clean close is routine). */
  #staleAfterGrace(s: Session): void {
    if (this.#stale || this.#graceTimer) return;
    if (this.#t.resumeGraceMs <= 0) {
      this.#setStale(true);
      return;
    }
    this.#graceTimer = setTimeout(() => {
      this.#graceTimer = undefined;
      if (!s.stopped) this.#setStale(true);
    }, this.#t.resumeGraceMs);
    this.#graceTimer.unref?.();
  }

  #clearGrace(): void {
    clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
  }

  #setStale(stale: boolean): void {
    this.#clearGrace();
    if (this.#stale === stale) return;
    this.#stale = stale;
    this.#deliver(() => this.#o.sink.stale?.(stale));
  }

  #deliver(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#log.error("cache sink failed", { error: err });
    }
  }

  /**
   * The whole list, page by page: each page's objects judged by the shard selector, then
   * transformed, as it arrives (the raw page is garbage once the next one is read).
   * `resourceVersion` is the last page's (a continued list's pages all carry its snapshot's).
   * stop() aborts the page in flight and reads no more.
   */
  async #listPages(s: Session): Promise<{ items: T[]; resourceVersion: string }> {
    const { client, kind } = this.#o;
    const limit = this.#o.pageSize ?? DEFAULT_LIST_PAGE_SIZE;
    const abort = new AbortController();
    const onStop = () => abort.abort(new OperatorRuntimeError(`the reflector of ${kind.kind} stopped while listing`));
    s.onStop.add(onStop);
    if (s.stopped) onStop();
    try {
      const base = { ...this.#listOptions(), signal: abort.signal };
      const items: T[] = [];
      const keep = (page: ListPage<T>) => {
        const kept = this.#shard ? this.#shard.listedPage(page.items, page.shardInfo) : page.items;
        for (const item of kept) items.push(this.#transformed(item));
      };
      let page = await client.list<T>(kind, limit > 0 ? { ...base, limit } : base);
      keep(page);
      while (page.continue) {
        abort.signal.throwIfAborted();
        try {
          page = await client.list<T>(kind, { ...base, limit, continue: page.continue });
        } catch (err) {
          if (!(err instanceof GoneError)) throw err;
          // The continue token expired (the server compacted past it): list again in one request,
          // as client-go's pager does; the pages read so far are dropped.
          this.#log.info("list continue token expired; listing again in one request", { kind: kind.kind });
          items.length = 0;
          this.#shard?.listEnded();
          page = await client.list<T>(kind, base);
          keep(page);
          break;
        }
        keep(page);
      }
      this.#shard?.listEnded();
      return { items, resourceVersion: page.resourceVersion };
    } finally {
      s.onStop.delete(onStop);
    }
  }

  /**
   * The object as the sink stores it: `transform`'s answer, or — when the transform throws — the
   * object as received, with an error logged (a cache that holds an object whole is better than
   * one missing it, or a list that never completes).
   */
  #transformed(obj: T): T {
    const transform = this.#o.transform;
    if (!transform) return obj;
    try {
      return transform(obj);
    } catch (err) {
      const m = obj.metadata;
      this.#log.error("cache transform failed; the object is cached as received", {
        object: `${m?.namespace ? `${m.namespace}/` : ""}${m?.name ?? ""}`, error: err,
      });
      return obj;
    }
  }

  #listOptions(): ListCallOptions {
    const o = this.#o;
    return {
      ...(this.namespace !== undefined ? { namespace: this.namespace } : {}),
      ...(this.#shard ? { shardSelector: this.#shard.selector } : {}),
      ...(o.labelSelector ? { labelSelector: o.labelSelector } : {}),
      ...(o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}),
    };
  }

  /** The backoff delay, stretched to a server's Retry-After (capped at the max backoff). */
  #delayAfter(err: unknown): number {
    const delay = this.#backoff.next();
    const retryAfter = err instanceof TooManyRequestsError ? err.retryAfterSeconds : undefined;
    return retryAfter ? Math.max(delay, Math.min(retryAfter * 1000, this.#t.maxBackoffMs)) : delay;
  }

  /** Waits for `p` or for stop(); a rejection of `p` after stop is swallowed. Holds nothing once settled. */
  #race<V>(s: Session, p: Promise<V>): Promise<V | "stopped"> {
    p.catch(() => undefined);
    if (s.stopped) return Promise.resolve("stopped");
    return new Promise<V | "stopped">((resolve, reject) => {
      const stopped = () => resolve("stopped");
      s.onStop.add(stopped);
      p.then(
        (v) => {
          s.onStop.delete(stopped);
          resolve(v);
        },
        (err: unknown) => {
          s.onStop.delete(stopped);
          reject(err);
        },
      );
    });
  }

  #sleep(s: Session, ms: number): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const slept = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    return this.#race(s, slept).finally(() => clearTimeout(timer));
  }
}
