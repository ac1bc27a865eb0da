/**
 * Plain JSON views of client-node's model classes: what goes over the wire and what the SDK
 * reads and writes.
 */

/** True for `any` (so `any` fields such as `fieldsV1` stay `any`). */
type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * A client-node model as plain JSON, the way the API server sends it: every `Date` (and
 * `V1MicroTime`) becomes an RFC 3339 `string`, recursively; everything else is unchanged.
 * Property names stay those of the model, which for the kinds this package types are the JSON
 * names (checked by a test against client-node's attribute maps).
 *
 * Reads (ResourceClient, cache, informers) return `Plain<Model>` for built-in kinds.
 *
 * @example
 * ```ts
 * import type { V1Deployment } from "@kubernetes/client-node";
 * import type { Plain } from "operator-runtime/client";
 *
 * const live: Plain<V1Deployment> = await client.get<Plain<V1Deployment>>({ apiVersion: "apps/v1", kind: "Deployment", namespace: "default", name: "web" });
 * const created: string | undefined = live.metadata?.creationTimestamp; // a string, as on the wire
 * ```
 */
export type Plain<T> =
  IsAny<T> extends true ? T
  : T extends Date ? string
  : T extends readonly (infer U)[] ? Plain<U>[]
  : T extends object ? { [K in keyof T]: Plain<T[K]> }
  : T;

/**
 * What a write of a built-in kind accepts: an object literal checked against the model (a
 * typo in a field name is a compile error) or a client-node model instance — timestamps may be
 * RFC 3339 strings or `Date`s (sent as strings).
 *
 * @example
 * ```ts
 * import type { V1ConfigMap } from "@kubernetes/client-node";
 * import type { Input } from "operator-runtime/client";
 * const cm: Input<V1ConfigMap> = { metadata: { name: "app" }, data: { "app.properties": "threads=4" } };
 * ```
 */
export type Input<T> =
  IsAny<T> extends true ? T
  : T extends Date ? string | Date
  : T extends readonly (infer U)[] ? Input<U>[]
  : T extends object ? { [K in keyof T]: Input<T[K]> }
  : T;
