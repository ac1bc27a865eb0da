/**
 * `?shardSelector=` on lists, watches and collection deletes (KEP-5866, kube-apiserver v1.36
 * with the `ShardedListAndWatch` feature gate): only objects whose FNV-1a 64 hash of
 * `metadata.uid` or `metadata.namespace` falls in the selector's ranges. With the feature off
 * (`LocalCluster.start({ shardedListWatch: false })`) the parameter is ignored, as an API
 * server without the feature ignores an unknown query parameter. Lists echo the applied
 * selector in `metadata.shardInfo` for every kind, or, with `shardInfoEcho: "built-in"`, for
 * built-in kinds only, as kube-apiserver v1.36.2 does (it filters custom resources without
 * echoing).
 */
import type { ApiContext } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { ResourceType } from "./resource-type.ts";
import { StatusError } from "./status.ts";
import { InvalidSelectorError } from "../util/selector-error.ts";
import { fnv1a64, formatShardSelector, parseShardSelector } from "../util/shard-range.ts";

/**
 * A shard selector the server applies: what it echoes in a list's `metadata.shardInfo.selector`
 * (the canonical form, as kube-apiserver formats its parsed selector) and the predicate.
 */
export interface ShardSelection {
  readonly selector: string;
  matches(o: StoredObject): boolean;
}

/**
 * The request's shard selection, or undefined when it has none (an absent or empty
 * parameter) or the feature is off.
 *
 * @throws {StatusError} for a malformed selector, what kube-apiserver v1.36.2 answers: 500
 *   InternalError `Internal error occurred: invalid shard selector: …` (its parse error surfaces
 *   from the storage layer, not from option validation).
 */
export function shardSelectionOf(ctx: ApiContext, query: URLSearchParams): ShardSelection | undefined {
  const text = query.get("shardSelector");
  if (!ctx.shardedListWatch || !text) return undefined;
  let parsed;
  try {
    parsed = parseShardSelector(text);
  } catch (err) {
    if (!(err instanceof InvalidSelectorError)) throw err;
    const problem = `invalid shard selector: ${err.problem}`;
    throw new StatusError(500, "InternalError", `Internal error occurred: ${problem}`, { causes: [{ message: problem }] });
  }
  const { field, ranges } = parsed;
  const byUid = field === "object.metadata.uid";
  // A uid is hashed once per stored version, a namespace once per request.
  const namespaces = new Map<string, bigint>();
  const namespaceHash = (ns: string) => {
    let h = namespaces.get(ns);
    if (h === undefined) namespaces.set(ns, (h = fnv1a64(ns)));
    return h;
  };
  return {
    selector: formatShardSelector(field, ranges),
    matches: (o) => {
      const h = byUid ? uidHash(o) : namespaceHash(o.namespace);
      return ranges.some((r) => h >= r.start && h < r.end);
    },
  };
}

import type { ShardInfoEcho } from "./api-context.ts";
export type { ShardInfoEcho } from "./api-context.ts";

/** The sharding settings of a LocalCluster (see `LocalClusterOptions`). */
export interface ShardingSettings {
  shardedListWatch?: boolean | undefined;
  shardInfoEcho?: ShardInfoEcho | undefined;
}

/**
 * Checks sharding settings given to `where` (`LocalCluster.start`, `setSharding`).
 *
 * @throws {TypeError} naming the field and the values it takes.
 */
export function checkShardingSettings(where: string, s: ShardingSettings): void {
  if (s.shardedListWatch !== undefined && typeof s.shardedListWatch !== "boolean") {
    throw new TypeError(`${where}: shardedListWatch must be true or false, got ${JSON.stringify(s.shardedListWatch)}`);
  }
  if (s.shardInfoEcho !== undefined && s.shardInfoEcho !== "all" && s.shardInfoEcho !== "built-in") {
    throw new TypeError(`${where}: shardInfoEcho must be "all" (every kind's filtered list carries metadata.shardInfo) or "built-in" ` +
      `(custom resources' do not, as kube-apiserver v1.36.2), got ${JSON.stringify(s.shardInfoEcho)}`);
  }
}

/** Whether a list of `type` filtered by a shard selector carries `metadata.shardInfo`. */
export function echoesShardInfo(ctx: ApiContext, type: ResourceType): boolean {
  return ctx.shardInfoEcho === "all" || type.builtin;
}

const uidHashes = new WeakMap<StoredObject, bigint>();

function uidHash(o: StoredObject): bigint {
  let h = uidHashes.get(o);
  if (h === undefined) uidHashes.set(o, (h = fnv1a64(o.uid)));
  return h;
}
