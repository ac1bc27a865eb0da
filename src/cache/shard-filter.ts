/**
 * ShardFilter: a reflector's KEP-5866 shard selector — sent on every list and watch, trusted
 * when the server echoes it, applied client-side otherwise, and reported as ignored only when
 * an object outside it arrives.
 */
import type { ShardInfo } from "../client/client-options.ts";
import type { KubeObject } from "../client/types.ts";
import type { Logger } from "../log/logger.ts";
import { normalizeShardSelector, shardSelectorMatcher } from "../util/shard-range.ts";
import { ShardWarningLimiter } from "./shard-warning-limiter.ts";

/**
 * Where an informer's shard selector is applied:
 * - `"server"`: the last list echoed it in `metadata.shardInfo` (KEP-5866 on).
 * - `"unconfirmed"`: no echo, and nothing outside the selector has arrived. kube-apiserver
 *   v1.36 filters custom resources' lists and watches without echoing the selector; a server
 *   that ignores it looks the same until it sends an object of another shard (or while every
 *   object happens to be in range). The informer filters too, which costs nothing.
 * - `"client"`: no echo, and a listed object or a watch event fell outside the selector: the
 *   server ignored it (no KEP-5866, or its `ShardedListAndWatch` feature gate is off), so every
 *   object crosses the network and the informer drops the other shards' objects itself.
 *
 * @example
 * ```ts
 * import { Pod } from "operator-runtime";
 *
 * const informer = cache.informer(Pod, { shardSelector: "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')" });
 * const filtering: ShardFiltering | undefined = informer.shardFiltering; // undefined before the first list
 * if (filtering === "client") console.log("this API server sends every object");
 * ```
 */
export type ShardFiltering = "server" | "unconfirmed" | "client";

/**
 * A change of {@link ShardFiltering}, with the object that proved the server ignored the
 * selector when it turned `"client"`.
 *
 * @example
 * ```ts
 * import { Metrics } from "operator-runtime/controller";
 *
 * declare const metrics: Metrics;
 * const onChange = (c: ShardFilteringChange) => metrics.shardClientFiltering("Widget", c.filtering === "client");
 * ```
 */
export interface ShardFilteringChange {
  readonly filtering: ShardFiltering;
  /** The object outside the selector (`"client"` only), and whether a list or a watch sent it. */
  readonly outside?: { readonly object: KubeObject; readonly from: "list" | "watch" };
}

/**
 * Options of {@link ShardFilter}.
 *
 * @example
 * ```ts
 * import { ShardWarningLimiter } from "./shard-warning-limiter.ts";
 *
 * const options: ShardFilterOptions = { warnings: new ShardWarningLimiter(), onChange: (c) => console.log(c.filtering) };
 * ```
 */
export interface ShardFilterOptions {
  /** Hears every change of {@link ShardFilter.mode}, synchronously, in the list or event that caused it. */
  onChange?: ((change: ShardFilteringChange) => void) | undefined;
  /**
   * Limits the "ignored" warning. Share one between the filters that succeed each other for
   * one kind (a sharded informer's rebuilds). Default: one per filter, so a filter warns at
   * most once per {@link SHARD_WARNING_INTERVAL_MS}.
   */
  warnings?: ShardWarningLimiter | undefined;
}

/** Options for the filters constructed during {@link withShardFilterOptions}. */
let ambient: ShardFilterOptions | undefined;

/**
 * Runs `create` — which constructs an informer, and so its reflector and shard filter,
 * synchronously — so that a ShardFilter constructed meanwhile without options of its own takes
 * `options`. This is how a {@link ShardedInformer} hears its informers' filtering changes and
 * shares one warning limiter between them, though the Cache constructs them.
 *
 * Caveat: a call that constructs no filter (the Cache already held an informer with these
 * selectors) leaves `options` unused; {@link ShardFilter.mode} still answers.
 *
 * @example
 * ```ts
 * const shardSelector = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
 * const informer = withShardFilterOptions(
 *   { onChange: (c) => log.info("shard filtering changed", { filtering: c.filtering }) },
 *   () => cache.informer(Greeting, { shardSelector }),
 * );
 * ```
 */
export function withShardFilterOptions<R>(options: ShardFilterOptions, create: () => R): R {
  const outer = ambient;
  ambient = options;
  try {
    return create();
  } finally {
    ambient = outer;
  }
}

/**
 * Applies one shard selector to a reflector's lists and watch events.
 *
 * Guarantees: only objects in range get through, whatever the server did. Lists are trusted
 * when their `shardInfo.selector` is this selector (compared in canonical form) and filtered
 * otherwise. Watch events carry no echo, so each is checked (one FNV-1a hash of a short
 * string): behind a load balancer, the watch may reach an API server other than the list's.
 * The mode turns `"client"` only on evidence, an object outside the selector (from a list or a
 * watch), and stays so until a list echoes the selector; a list without echo and without such
 * an object leaves it `"unconfirmed"`. Turning `"client"` logs one warning, as the limiter
 * allows (else a debug line).
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const filter = new ShardFilter("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')", log);
 * const page = await client.list(ConfigMap, { shardSelector: filter.selector });
 * const kept = filter.listed(page.items, page.shardInfo); // page.items, or those in range when the server ignored the selector
 * ```
 */
export class ShardFilter {
  /** The selector in canonical form: what is sent, and what a KEP-5866 server echoes. */
  readonly selector: string;
  readonly #matches: (obj: KubeObject) => boolean;
  readonly #log: Logger;
  readonly #onChange: ((change: ShardFilteringChange) => void) | undefined;
  readonly #warnings: ShardWarningLimiter;
  #mode: ShardFiltering | undefined;
  #warnedMismatch = false;
  /** Whether every page of the list in progress echoed the selector. */
  #listServerFiltered = true;
  /** The first object of the list in progress outside the selector. */
  #listOutside: KubeObject | undefined;

  /**
   * Without `options`, takes those of an enclosing {@link withShardFilterOptions}, if any.
   *
   * @throws {InvalidSelectorError} for a malformed selector.
   */
  constructor(selector: string, log: Logger, options: ShardFilterOptions | undefined = ambient) {
    this.selector = normalizeShardSelector(selector);
    this.#matches = shardSelectorMatcher(this.selector);
    this.#log = log;
    this.#onChange = options?.onChange;
    this.#warnings = options?.warnings ?? new ShardWarningLimiter();
  }

  /** Where the selector is applied, from the lists and events so far; undefined before the first list. */
  get mode(): ShardFiltering | undefined {
    return this.#mode;
  }

  /**
   * The items of a complete list to keep: all of them when the server applied the selector
   * (`shardInfo` echoes it), else those in range. The same as {@link ShardFilter.listedPage}
   * for one page, then {@link ShardFilter.listEnded}.
   */
  listed<T extends KubeObject>(items: T[], shardInfo: ShardInfo | undefined): T[] {
    const kept = this.listedPage(items, shardInfo);
    this.listEnded();
    return kept;
  }

  /**
   * The items of one page of a list to keep (all of them when the server applied the selector to
   * it). Pages are judged before anything else looks at them (a transform may drop the fields
   * the selector hashes). Call {@link ShardFilter.listEnded} after the last page.
   */
  listedPage<T extends KubeObject>(items: T[], shardInfo: ShardInfo | undefined): T[] {
    if (shardInfo && this.#echoes(shardInfo.selector)) return items;
    this.#listServerFiltered = false;
    if (shardInfo && !this.#warnedMismatch) {
      this.#warnedMismatch = true;
      this.#log.warn(`the API server echoed another shard selector than shard selector ${JSON.stringify(this.selector)}; filtering client-side`,
        { shardSelector: this.selector, echoedSelector: shardInfo.selector });
    }
    const kept: T[] = [];
    for (const item of items) {
      if (this.#matches(item)) kept.push(item);
      else this.#listOutside ??= item;
    }
    return kept;
  }

  /** A list's last page was judged: where the selector is applied, from what its pages showed. */
  listEnded(): void {
    const [serverFiltered, outside] = [this.#listServerFiltered, this.#listOutside];
    this.#listServerFiltered = true;
    this.#listOutside = undefined;
    if (serverFiltered) this.#set({ filtering: "server" });
    // A complete list with nothing outside the selector: the server filters (now), whatever an
    // earlier list or event showed (one API server of several without the feature, an upgrade).
    else if (outside) this.#ignored(outside, "list");
    else this.#set({ filtering: "unconfirmed" });
  }

  /** Whether a watch event's object is in range (one outside turns the mode `"client"`). */
  keeps(obj: KubeObject): boolean {
    if (this.#matches(obj)) return true;
    this.#ignored(obj, "watch");
    return false;
  }

  #ignored(object: KubeObject, from: "list" | "watch"): void {
    if (this.#mode === "client") return;
    this.#set({ filtering: "client", outside: { object, from } });
    const m = object.metadata;
    const fields = { shardSelector: this.selector, outside: `${m?.namespace ? `${m.namespace}/` : ""}${m?.name ?? ""}`, uid: m?.uid, from };
    const turn = this.#warnings.take();
    if (!turn.warn) {
      this.#log.debug("the API server ignored the shard selector again (warning held back)", fields);
      return;
    }
    this.#log.warn(`the API server ignored shard selector ${JSON.stringify(this.selector)}: its ${from} sent ${fields.outside}, which is outside it. ` +
      "It does not support KEP-5866 sharded list and watch (Kubernetes v1.36+ with the ShardedListAndWatch feature gate), " +
      "so this informer filters client-side and receives every object", { ...fields, ...(turn.heldBack ? { heldBack: turn.heldBack } : {}) });
  }

  #set(change: ShardFilteringChange): void {
    if (this.#mode === change.filtering) return;
    this.#mode = change.filtering;
    try {
      this.#onChange?.(change);
    } catch (err) {
      this.#log.error("shard filtering listener threw", { error: err });
    }
  }

  #echoes(echoed: string): boolean {
    try {
      return echoed === this.selector || normalizeShardSelector(echoed) === this.selector;
    } catch {
      return false;
    }
  }
}
