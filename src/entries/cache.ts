/**
 * `operator-runtime/cache`: shared informer caches — the {@link Cache} a Manager hands its
 * controllers, {@link SharedInformer} and {@link Reflector} underneath, sharded informers,
 * cache transforms, and label/field/shard selector parsing and matching.
 *
 * @example
 * ```ts
 * import { Cache, parseLabelSelector, labelSelectorMatcher } from "operator-runtime/cache";
 * import { Pod } from "operator-runtime";
 *
 * const cache = new Cache({ client });
 * const pods = cache.informer(Pod, { namespace: "default" });
 * await cache.start(AbortSignal.timeout(30_000));
 * const web = labelSelectorMatcher(parseLabelSelector("app=web"));
 * console.log(pods.list().filter((p) => web(p.metadata?.labels ?? {})).length);
 * ```
 * @module
 */
export * from "../cache/index.ts";
export { RETAINED_BY_ANNOTATION } from "../cache/retained.ts";
