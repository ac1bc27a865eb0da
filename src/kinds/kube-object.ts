/**
 * The shape every Kubernetes object has, as plain JSON: the one object type the SDK and
 * LocalCluster share.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import type { Plain } from "./plain.ts";

/**
 * `metadata` of every object: client-node's `V1ObjectMeta` as plain JSON (timestamps are
 * RFC 3339 strings). No other keys: the API server keeps none.
 *
 * @example
 * ```ts
 * const meta: ObjectMeta = { name: "app", namespace: "default", labels: { app: "web" } };
 * ```
 */
export type ObjectMeta = Plain<V1ObjectMeta>;

/**
 * `metadata.ownerReferences[]`.
 *
 * @example
 * ```ts
 * const ref: OwnerReference = { apiVersion: "example.com/v1", kind: "Greeting", name: "hello", uid: owner.metadata!.uid!, controller: true };
 * ```
 */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/**
 * Any Kubernetes object as plain JSON, when its kind is not known statically: typed
 * `apiVersion`, `kind` and `metadata`, every other field `unknown`. Typed kinds
 * ({@link Kind} handles such as `Deployment`, or {@link defineKind} for custom resources)
 * are assignable to it.
 *
 * @example
 * ```ts
 * const obj: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { x: "1" } };
 * ```
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [key: string]: unknown;
}
