/**
 * `operator-runtime/cache`: shared informer caches — the {@link Cache} a Manager hands its
 * controllers, {@link SharedInformer} and {@link Reflector} underneath, sharded informers,
 * cache transforms, and label/field/shard selector parsing and matching.
 *
 * @example
 * ```ts
 * import { Cache, parseLabelSelector } from "operator-runtime/cache";
 * import { Pod } from "operator-runtime";
 *
 * const cache = new Cache({ client, kubeConfig });
 * const pods = cache.informer(Pod, { namespace: "default" });
 * await cache.start(signal); // resolves once every informer has synced
 * const web = parseLabelSelector("app=web,tier!=canary");
 * console.log(pods.list().filter((p) => web.matches(p.metadata?.labels)).length);
 * ```
 * @module
 */
export * from "../cache/index.ts";
export { RETAINED_BY_ANNOTATION } from "../cache/retained.ts";
