/**
 * Typed kinds: the object types and kind handles the client, the cache, the Manager and the
 * Builder take.
 *
 * Built-in kinds are client-node's models as plain JSON ({@link Plain}): `ConfigMap`,
 * `Secret`, `Deployment`, `StatefulSet`, `Service`, `PersistentVolumeClaim`, `Pod` are each a
 * handle and a type; {@link kindFromModel} makes more. Custom resources get a handle with a
 * typed spec and status from {@link defineKind}. {@link KubeObject} is any object whose kind is
 * not known statically.
 *
 * @example
 * ```ts
 * import { Deployment, defineKind } from "operator-runtime";
 * import type { ObjectOf } from "operator-runtime";
 * const Greeting = defineKind<{ name: string }, { message?: string }>({ apiVersion: "example.com/v1", kind: "Greeting" });
 * type Greeting = ObjectOf<typeof Greeting>;
 * const greetings = await client.list(Greeting, { namespace: "default" }); // ListPage<Greeting>
 * const web = await client.get({ ...Deployment, name: "web", namespace: "default" });
 * ```
 * @module
 */
export type { Plain, Input } from "./plain.ts";
export type { KubeObject, ObjectMeta, OwnerReference } from "./kube-object.ts";
export { kindFromModel } from "./kind.ts";
export type { Kind, KindRef, ObjectInput, ObjectOf, ObjectRef } from "./kind.ts";
export { defineKind } from "./custom-resource.ts";
export type { CustomResource } from "./custom-resource.ts";
export type { ModelObject } from "./model-object.ts";
export { ConfigMap, Secret, Deployment, StatefulSet, Service, PersistentVolumeClaim, Pod } from "./builtin-kinds.ts";
