/**
 * Client-node model instances as write inputs: objects typed with a model class (`V1Deployment`,
 * …) carry `Date` timestamps and no index signature, so they are not {@link KubeObject}s; the
 * write methods take them through an overload and answer plain JSON.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import type { KubeObject } from "./kube-object.ts";
import type { Input } from "./plain.ts";

/**
 * What every client-node model of an object has: a value of `V1Deployment`, `V1ConfigMap`, …
 * (an instance or a literal typed with the class) fits. client-node's model constructors leave
 * `apiVersion` and `kind` unset: set them, as the API server needs them.
 *
 * @example
 * ```ts
 * import { V1ConfigMap } from "@kubernetes/client-node";
 * const cm = Object.assign(new V1ConfigMap(), {
 *   apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app", namespace: "default" }, data: { a: "1" },
 * });
 * const written = await client.apply(cm);   // Plain<V1ConfigMap>
 * ```
 */
export interface ModelObject {
  apiVersion?: string;
  kind?: string;
  metadata?: Input<V1ObjectMeta>;
}

/**
 * `M` when it is a model object that is not already plain JSON, `never` otherwise: keeps the
 * model overloads from swallowing plain literals (those are checked against the typed overload).
 */
export type OnlyModel<M> = M extends KubeObject ? never : M;
