/**
 * Custom resources with a typed spec and status, and {@link defineKind}, their handle.
 */
import type { Kind, KindRef } from "./kind.ts";
import type { ObjectMeta } from "./kube-object.ts";
import { checkKindRef } from "../util/check-args.ts";

/**
 * A custom resource as plain JSON with a typed `spec` and `status`. A typo in a field name of
 * a literal, or a value of the wrong type in `spec`, is a compile error.
 *
 * @example
 * ```ts
 * type Greeting = CustomResource<{ name?: string; surname?: string }, { message?: string }>;
 * const hello: Greeting = { apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "hello" }, spec: { name: "Ada" } };
 * ```
 */
export type CustomResource<Spec, Status = unknown> = {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: Spec;
  /** Written by the operator through `/status`; absent until then. */
  status?: Status;
};

/**
 * The handle of a custom resource kind with a typed spec and status. The Manager's controller
 * builder (`for`/`owns`/`watches`), the cache (`cache.informer(Greeting).get(…)` is a
 * `Greeting | undefined`), the ResourceClient (`client.list(Greeting)`,
 * `client.get({ ...Greeting, name, namespace })`) and prune's `kinds` take it.
 *
 * Assumptions: the types are yours to keep in line with the CRD's schema; nothing is checked at
 * runtime. The kind's plural and scope come from discovery, as for every kind.
 *
 * @example
 * ```ts
 * import { defineKind } from "operator-runtime";
 * import type { ObjectOf } from "operator-runtime";
 *
 * export const Greeting = defineKind<{ name?: string; surname?: string }, { message?: string }>({
 *   apiVersion: "example.com/v1", kind: "Greeting",
 * });
 * export type Greeting = ObjectOf<typeof Greeting>;
 *
 * const hello = mgr.cache.informer(Greeting).get("hello", "default"); // Greeting | undefined
 * console.log(hello?.spec.name, hello?.status?.message);
 * ```
 */
export function defineKind<Spec, Status = unknown>(ref: KindRef): Kind<CustomResource<Spec, Status>> {
  checkKindRef("defineKind(ref)", "ref", ref);
  return Object.freeze({ apiVersion: ref.apiVersion, kind: ref.kind });
}
