/**
 * Kind handles: a kind's `apiVersion` and `kind` carrying, for the compiler only, the type of
 * its objects — so reads through a handle return typed objects without casts.
 */
import type { KubeObject } from "./kube-object.ts";
import type { Plain } from "./plain.ts";
import { checkKindRef } from "../util/check-args.ts";

/**
 * Identifies a kind: `{ apiVersion: "apps/v1", kind: "Deployment" }`.
 *
 * @example
 * ```ts
 * const kind: KindRef = { apiVersion: "apps/v1", kind: "Deployment" };
 * ```
 */
export interface KindRef {
  apiVersion: string;
  kind: string;
}

/** The type-only slot of a handle; never set at runtime. */
declare const objectType: unique symbol;

/**
 * A typed kind handle: a {@link KindRef} whose object type is `T`. Pass it wherever a kind is
 * expected — `client.list(Deployment)`, `cache.informer(Greeting)`,
 * `mgr.controller(…).for(Greeting)`, `prune`'s `kinds` — and reads come back as `T`. Handles
 * come from {@link defineKind} (custom resources), {@link kindFromModel} (built-in kinds typed
 * from client-node's models) or are the built-in constants (`ConfigMap`, `Deployment`, …).
 *
 * For one object, spread the handle into a ref: `client.get({ ...Greeting, name, namespace })`
 * returns a `Greeting`.
 *
 * @example
 * ```ts
 * import { Deployment } from "operator-runtime";
 * const page = await client.list(Deployment, { namespace: "default" });
 * const replicas = page.items[0]?.spec?.replicas;                    // number | undefined
 * const web = await client.get({ ...Deployment, name: "web", namespace: "default" }); // a Deployment
 * ```
 */
export interface Kind<T = KubeObject> extends KindRef {
  readonly apiVersion: string;
  readonly kind: string;
  /** Type-only: the object type of this kind. */
  readonly [objectType]?: T;
}

/**
 * The object type of a kind handle.
 *
 * @example
 * ```ts
 * import { defineKind } from "operator-runtime";
 *
 * const Greeting = defineKind<{ name: string }>({ apiVersion: "example.com/v1", kind: "Greeting" });
 * type Greeting = ObjectOf<typeof Greeting>; // CustomResource<{ name: string }>
 * ```
 */
export type ObjectOf<K> = K extends Kind<infer T> ? T : never;

/**
 * The object a write takes (`client.create`, `apply`, `replace`, the Builder's `.object()`):
 * checked against `T`, given as a type argument or taken from a kind handle spread into the
 * literal, so `{ ...Greeting, spec: { nmae: "Ada" } }` is a compile error as much as
 * `create<Greeting>({ … })` is. Without either, `T` is `KubeObject`.
 *
 * @example
 * ```ts
 * await client.create({ ...Greeting, metadata: { name: "hello", namespace: "default" }, spec: { name: "Ada" } }); // a Greeting
 * ```
 */
export type ObjectInput<T> = NoInfer<T> & { readonly [K in keyof Kind<T>]?: Kind<T>[K] };

/**
 * Identifies one object; `namespace` is omitted for cluster-scoped kinds. Spread a handle into
 * it (`{ ...Deployment, name, namespace }`) and methods taking a ref return that kind's type.
 *
 * @example
 * ```ts
 * const ref: ObjectRef = { apiVersion: "v1", kind: "ConfigMap", name: "app", namespace: "default" };
 * ```
 */
export interface ObjectRef<T = KubeObject> extends Kind<T> {
  name: string;
  namespace?: string;
}

/**
 * A handle for a built-in (or any) kind typed from a client-node model, as plain JSON
 * ({@link Plain}). The package's own `ConfigMap`, `Deployment`, … are made this way.
 *
 * @example
 * ```ts
 * import type { V1Job } from "@kubernetes/client-node";
 * import { kindFromModel } from "operator-runtime/client";
 * export const Job = kindFromModel<V1Job>({ apiVersion: "batch/v1", kind: "Job" });
 * const jobs = await client.list(Job, { namespace: "default" });   // Plain<V1Job>[] items
 * ```
 */
export function kindFromModel<Model extends object>(ref: KindRef): Kind<Plain<Model>> {
  checkKindRef("kindFromModel(ref)", "ref", ref);
  return Object.freeze({ apiVersion: ref.apiVersion, kind: ref.kind });
}
