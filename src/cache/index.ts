/**
 * The cache: shared informers (list + watch mirrors of one kind in one scope) with event
 * handlers and indexes, and a {@link Cache} that shares them and answers reads from memory.
 *
 * Start with {@link Cache}; a {@link SharedInformer} or a {@link Reflector} can be used alone.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 * import { Cache } from "operator-runtime/cache";
 *
 * const cache = new Cache({ client, kubeConfig });
 * cache.informer(ConfigMap).addEventHandler({ add: (cm) => console.log(cm.metadata?.name, cm.data) });
 * await cache.start(AbortSignal.timeout(60_000));
 * ```
 * @module
 */
export { Cache } from "./cache.ts";
export type { CacheInformerOptions, CacheOptions } from "./cache.ts";
export { SharedInformer } from "./informer.ts";
export { stripManagedFields } from "./transform.ts";
export type { CacheTransform, CacheTransformOption } from "./transform.ts";
export type { SharedInformerOptions } from "./informer.ts";
export type { ShardFiltering } from "./shard-filter.ts";
export { ShardedInformer } from "./sharded-informer.ts";
export type { ShardBy, ShardedInformerHost, ShardedInformerOptions } from "./sharded-informer.ts";
export { Reflector, DEFAULT_LIST_PAGE_SIZE } from "./reflector.ts";
export type { ReflectorOptions, ReflectorSink, ReflectorStats } from "./reflector.ts";
export type { ReflectorTimings } from "./backoff.ts";
export { objectKey } from "./indexer.ts";
export { OWNER_UID_INDEX } from "./owner-index.ts";
export { labelSelectorFromObject, labelSelectorMatcher, parseLabelSelector } from "../util/label-selector.ts";
export type { LabelOperator, LabelRequirement, LabelSelector, LabelSelectorObject, LabelSelectorRequirementObject } from "../util/label-selector.ts";
export { escapeFieldValue, parseFieldSelector } from "../util/field-selector.ts";
export type { FieldOperator, FieldRequirement, FieldSelector } from "../util/field-selector.ts";
export { InvalidSelectorError } from "../util/selector-error.ts";
export {
  fnv1a64, formatShardSelector, normalizeShardSelector, parseShardSelector, shardHashOf, shardSelectorMatcher, splitHashSpace,
  SHARD_FIELDS, SHARD_HASH_SPACE,
} from "../util/shard-range.ts";
export type { ShardField, HashRange, ShardSelector } from "../util/shard-range.ts";
export { fieldSelectorMatcher } from "./field-selector.ts";
export type { IndexFunc, Informer, InformerEventHandler } from "./types.ts";
