/** What an informer keeps of each object: by default everything but `metadata.managedFields`. */
import type { KubeObject } from "../client/types.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * Turns an object the API server sent into the copy an informer stores and hands to handlers.
 * It receives a freshly parsed object no one else holds, and may return it changed or a new
 * object; it must keep `metadata.name`, `namespace`, `uid` and `resourceVersion` (the store is
 * keyed and ordered by them) and must not throw.
 *
 * A Builder that reads through the cache compares desired objects with what the transform kept
 * and hashes the ConfigMaps and Secrets its workloads reference from it: never drop or blank
 * `data`, `spec` or labels of kinds a Builder manages or references, or it sees changes that are
 * not there (a read per pass) and misses ones that are (no rollout on a config change).
 *
 * @example
 * ```ts
 * // Drop a large annotation nobody reads, besides managedFields.
 * const transform: CacheTransform = (obj) => {
 *   const lean = stripManagedFields(obj);
 *   const { "kubectl.kubernetes.io/last-applied-configuration": _, ...annotations } = lean.metadata?.annotations ?? {};
 *   return { ...lean, metadata: { ...lean.metadata, annotations } };
 * };
 * ```
 */
export type CacheTransform<T extends KubeObject = KubeObject> = (obj: T) => T;

/**
 * The `transform` option of {@link Cache}, {@link SharedInformer} and the Manager: a
 * {@link CacheTransform}, or `"none"` to store objects exactly as the server sent them.
 * Unset means {@link stripManagedFields} (controller-runtime's default transform).
 *
 * @example
 * ```ts
 * const keep: CacheTransformOption = "none";               // cached copies keep managedFields
 * const lean: CacheTransformOption = stripManagedFields;   // the default, spelled out
 * ```
 */
export type CacheTransformOption<T extends KubeObject = KubeObject> = CacheTransform<T> | "none";

/**
 * The object without `metadata.managedFields` — the server-side-apply bookkeeping that is often
 * larger than the object itself and that few readers need. Returns `obj` itself when it has
 * none; otherwise a shallow copy with a new `metadata` (no `delete`, so both stay compact).
 *
 * @example
 * ```ts
 * stripManagedFields({ metadata: { name: "a", managedFields: [{ manager: "kubectl" }] } });
 * // { metadata: { name: "a" } }
 * ```
 */
export function stripManagedFields<T extends KubeObject>(obj: T): T {
  checkObject("stripManagedFields(obj)", "obj", obj, "a Kubernetes object");
  const meta = obj.metadata;
  if (!meta || meta.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** The function an informer applies for `option` (undefined: store objects as received). */
export function resolveTransform<T extends KubeObject>(option: CacheTransformOption<T> | undefined): CacheTransform<T> | undefined {
  if (option === "none") return undefined;
  return option ?? stripManagedFields;
}
