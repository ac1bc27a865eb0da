/**
 * The built-in owner index of every informer: objects filed under the UID of the owner that
 * controls them, so that one owner's children are found without looking at anyone else's.
 */
import type { KubeObject } from "../client/types.ts";
import { RETAINED_BY_ANNOTATION } from "./retained.ts";
import type { Informer } from "./types.ts";

/**
 * The name of the index every {@link SharedInformer} keeps: an object is filed under the UID of
 * its controller ownerReference, and a PersistentVolumeClaim a Builder retains (no
 * ownerReference, see `persistentVolumeClaimRetention`) under the owner UID it is retained for.
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const children = cache.informer(ConfigMap).byIndex(OWNER_UID_INDEX, owner.metadata!.uid!);
 * ```
 */
export const OWNER_UID_INDEX = "operator-runtime.io/owner-uid";

/** The index function of {@link OWNER_UID_INDEX}. */
export function ownerUidIndexValues(obj: KubeObject): string[] {
  const values: string[] = [];
  for (const ref of obj.metadata?.ownerReferences ?? []) if (ref.controller === true && ref.uid) values.push(ref.uid);
  const retainedFor = obj.metadata?.annotations?.[RETAINED_BY_ANNOTATION];
  if (retainedFor) values.push(retainedFor);
  return values;
}

/** Informers that keep the owner index (every SharedInformer). */
const indexed = new WeakSet<object>();

/** Adds the owner index to `informer` and remembers that it has it. */
export function addOwnerIndex<T extends KubeObject>(informer: Pick<Informer<T>, "addIndex">): void {
  informer.addIndex(OWNER_UID_INDEX, ownerUidIndexValues);
  indexed.add(informer);
}

/** Marks `informer` as answering `byIndex(OWNER_UID_INDEX, …)` (it delegates to informers that keep it). */
export function delegatesOwnerIndex(informer: object): void {
  indexed.add(informer);
}

/**
 * The objects of `informer` filed under `ownerUid` (in `namespace` when given): a lookup in the
 * owner index, so the cost follows this owner's children, not the informer's size. An informer
 * without the index (one a caller wrote) is scanned instead.
 */
export function ownedIn<T extends KubeObject>(informer: Informer<T>, ownerUid: string, namespace: string | undefined): T[] {
  if (!indexed.has(informer)) return informer.list(namespace).filter((o) => ownerUidIndexValues(o).includes(ownerUid));
  const filed = informer.byIndex(OWNER_UID_INDEX, ownerUid);
  return namespace === undefined ? filed : filed.filter((o) => (o.metadata?.namespace ?? "") === namespace);
}
