/**
 * The capability interfaces of the client layer: what reads (ObjectReader) and the object
 * shapes it moves (defined with the kinds in `src/kinds/`).
 */
import type { Kind, ObjectRef } from "../kinds/kind.ts";
import type { KubeObject } from "../kinds/kube-object.ts";

export type { KubeObject, ObjectMeta, OwnerReference } from "../kinds/kube-object.ts";
export type { Kind, KindRef, ObjectRef } from "../kinds/kind.ts";

/**
 * List options.
 *
 * @example
 * ```ts
 * const options: ListOptions = { namespace: "default", labelSelector: "app=web" };
 * ```
 */
export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
}

/**
 * Reads objects. The Builder reads live children through this seam: from the API
 * ({@link ApiReader}) or from an informer cache ({@link Cache}), without changing the Builder.
 * A kind handle types the answer: `reader.list(Deployment)` gives Deployments,
 * `reader.get({ ...Greeting, name, namespace })` a Greeting.
 *
 * @example
 * ```ts
 * import { Deployment } from "operator-runtime";
 *
 * const reader: ObjectReader = mgr.cache;
 * const web = await reader.get({ ...Deployment, name: "web", namespace: "default" }); // Deployment | undefined
 * ```
 */
export interface ObjectReader {
  /** The object, or undefined when it does not exist. */
  get<T extends KubeObject = KubeObject>(ref: ObjectRef<T>): Promise<T | undefined>;
  /** All objects of a kind matching the options. */
  list<T extends KubeObject = KubeObject>(kind: Kind<T>, options?: ListOptions): Promise<T[]>;
}

/**
 * An {@link ObjectReader} that also finds one owner's objects through an owner index (the
 * informer {@link Cache} is one): a lookup whose cost follows that owner's children, however
 * many other owners' objects the reader holds. The Builder and `prune` use it when the reader
 * has it, and otherwise list by the owner-UID label (`OWNER_UID_LABEL`).
 *
 * @example
 * ```ts
 * import { ConfigMap } from "operator-runtime";
 *
 * const reader: OwnerIndexedReader = mgr.cache;
 * const mine = await reader.listByOwner(ConfigMap, owner.metadata!.uid!, { namespace: "default" });
 * ```
 */
export interface OwnerIndexedReader extends ObjectReader {
  /**
   * Objects of `kind` whose controller ownerReference carries `ownerUid` (and PersistentVolumeClaims
   * a Builder retains for that owner), in `options.namespace` when given.
   */
  listByOwner<T extends KubeObject = KubeObject>(kind: Kind<T>, ownerUid: string, options?: { namespace?: string }): Promise<T[]>;
}
