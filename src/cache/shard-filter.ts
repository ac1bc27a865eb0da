/**
 * ShardFilter: a reflector's KEP-5866 shard selector — sent on every list and watch, trusted
 * when the server echoes it, applied client-side when the server ignored it.
 */
import type { ShardInfo } from "../client/client-options.ts";
import type { KubeObject } from "../client/types.ts";
import type { Logger } from "../log/logger.ts";
import { normalizeShardSelector, shardSelectorMatcher } from "../util/shard-range.ts";

/**
 * Where an informer's shard selector is applied: `"server"` when the last list echoed it in
 * `metadata.shardInfo` (KEP-5866 on), `"client"` when it did not (the informer drops the other
 * shards' objects itself).
 *
 * @example
 * ```ts
 * if (informer.shardFiltering === "client") console.log("this API server sends every object");
 * ```
 */
export type ShardFiltering = "server" | "client";

/**
 * Applies one shard selector to a reflector's lists and watch events.
 *
 * Guarantees: only objects in range get through, whatever the server did. Lists are trusted
 * when their `shardInfo.selector` is this selector (compared in canonical form) and filtered
 * otherwise. Watch events carry no echo, so each is checked (one FNV-1a hash of a short
 * string): behind a load balancer, the watch may reach an API server other than the list's.
 *
 * @example
 * ```ts
 * const filter = new ShardFilter("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')", logger);
 * const kept = filter.listed(page.items, page.shardInfo);
 * ```
 */
export class ShardFilter {
  /** The selector in canonical form: what is sent, and what a KEP-5866 server echoes. */
  readonly selector: string;
  readonly #matches: (obj: KubeObject) => boolean;
  readonly #log: Logger;
  #mode: ShardFiltering | undefined;

  /** @throws {InvalidSelectorError} for a malformed selector. */
  constructor(selector: string, log: Logger) {
    this.selector = normalizeShardSelector(selector);
    this.#matches = shardSelectorMatcher(this.selector);
    this.#log = log;
  }

  /** Where the selector is applied, from the last list; undefined before the first. */
  get mode(): ShardFiltering | undefined {
    return this.#mode;
  }

  /**
   * The items of a complete list to keep: all of them when the server applied the selector
   * (`shardInfo` echoes it), else those in range. Logs one warning when filtering turns
   * client-side.
   */
  listed<T extends KubeObject>(items: T[], shardInfo: ShardInfo | undefined): T[] {
    if (shardInfo && this.#echoes(shardInfo.selector)) {
      this.#mode = "server";
      return items;
    }
    if (this.#mode !== "client") {
      const fields = { shardSelector: this.selector, ...(shardInfo ? { echoedSelector: shardInfo.selector } : {}) };
      this.#log.warn(shardInfo
        ? `the API server echoed another shard selector than shard selector ${JSON.stringify(this.selector)}; filtering client-side`
        : `the API server ignored shard selector ${JSON.stringify(this.selector)}: it does not support KEP-5866 sharded list and watch ` +
          "(Kubernetes v1.36+ with the ShardedListAndWatch feature gate), so this informer filters client-side and receives every object", fields);
    }
    this.#mode = "client";
    return items.filter(this.#matches);
  }

  /** Whether a watch event's object is in range. */
  keeps(obj: KubeObject): boolean {
    return this.#matches(obj);
  }

  #echoes(echoed: string): boolean {
    try {
      return echoed === this.selector || normalizeShardSelector(echoed) === this.selector;
    } catch {
      return false;
    }
  }
}
