/**
 * What a Builder is given: the options of the Builder, of each object added to it, and the
 * entries a pass works through (kept apart from the Builder so the pass's steps can import
 * them without importing the Builder).
 */
import type { Kind, KubeObject, ObjectReader } from "../client/types.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import type { KindRules } from "../../builders/index.ts";
import type { BuilderEventRecorder } from "../controller/event-notes.ts";

/** Options of one object added to a Builder. */
export interface ObjectOptions {
  /**
   * When a change touches a field the API server refuses to update (a StatefulSet's
   * volumeClaimTemplates, a selector, a bound PVC's spec), delete and re-create the object
   * instead of reporting the error. Workloads are deleted with Orphan propagation so their Pods
   * keep running and are adopted by the new object. Default false.
   */
  recreateOnImmutableChange?: boolean;
  /**
   * Take over this object when it already exists with no controller (created by hand or by
   * another tool): it gets the owner reference and the Builder's fields, and is pruned and
   * garbage-collected like any child from then on. Default: the Builder's `adopt` option
   * (false): such an object is `failed` with a `NotOwnedError` and left as it is. An object
   * controlled by another owner is never adopted.
   */
  adopt?: boolean;
}

/** Constructor options of {@link Builder}. */
export interface BuilderOptions {
  /** Writes go through this client (server-side apply with `fieldManager`). */
  client: ResourceClient;
  /** The custom resource that owns every object (as read from the API: it needs its uid). */
  owner: KubeObject;
  /**
   * Aborts the pass: once aborted, the Builder's requests reject with the signal's reason and
   * no further write is sent (pass a reconcile's `ctx.signal`). Same as
   * `client: client.withSignal(signal)`.
   */
  signal?: AbortSignal;
  /**
   * Where live objects are read; default: `client.reader()` (the API: one list per kind by the
   * owner-UID label). Pass the informer cache (`mgr.cache`) to read through its owner index at
   * no API cost.
   */
  reader?: ObjectReader;
  /** Records Created/Updated/Deleted/…Failed events on the owner. */
  recorder?: BuilderEventRecorder;
  /** Field manager for server-side apply and the managed-by label. Default: `client.fieldManager`. */
  fieldManager?: string;
  /** Labels added to every object (an object's own labels win; the Builder's managed-by, owner-UID and shard-bucket labels win over both). */
  labels?: Record<string, string>;
  /**
   * Namespace of namespaced objects that set none. Default: the owner's namespace. With a
   * namespaced owner it can only be that namespace (an owner reference cannot cross
   * namespaces), so it is for cluster-scoped owners; another value is a validation error.
   */
  namespace?: string;
  /**
   * Pruning of owned objects that are no longer desired. Default: on, except
   * PersistentVolumeClaims. `false` turns it off.
   */
  prune?: false | { persistentVolumeClaims?: boolean };
  /**
   * Further kinds to prune even when this pass adds none of them. A Builder lists and prunes
   * only kinds it is told about: the kinds of the objects added in this pass, the kinds earlier
   * passes in this process added for the same owner (so scaling a variable set of children to
   * zero prunes them), the kinds named here, and — when it runs in a reconcile of a controller
   * built with `mgr.controller(…)` — the kinds that controller `.owns`. After a restart, a kind
   * whose objects a pass no longer adds is pruned only when it is one of the last two: name
   * every kind of a variable set of children here or in `.owns`. Kind handles fit:
   * `manages: [Greeting]`. PersistentVolumeClaims are pruned only with
   * `prune: { persistentVolumeClaims: true }`.
   *
   * RBAC: `list` and `delete` on each (`.owns` grants them).
   *
   * @example
   * ```ts
   * import { Builder, ConfigMap } from "operator-runtime";
   *
   * // Workers scale to zero: their ConfigMaps are still pruned after a restart.
   * new Builder({ client, owner, manages: [ConfigMap] });
   * ```
   */
  manages?: readonly Kind[];
  /**
   * Scopes this Builder to one part of its owner, so that several Builders may reconcile one
   * owner (say, one per reconcile step or per sub-resource of the spec) without pruning each
   * other's objects. Every object gets the label `operator-runtime.io/component: <component>`,
   * and prune considers only the owner's objects with this label; a Builder without a component
   * considers only the owner's objects without the label.
   *
   * Two Builders of one owner with the same component (or both without one) are one Builder
   * split in two: each prunes what the other added. Give each its own component. An object
   * that carries another component of the same owner is never written (its result is
   * `failed`: add each object to one Builder only). A valid label value (e.g. `"broker"`);
   * default: none.
   */
  component?: string;
  /**
   * Retry children the API server refuses as invalid (422 Invalid) like any other failure.
   * Default false: such a child is `failed` with its `InvalidError` (and a `CreateFailed` /
   * `UpdateFailed` Warning event naming the refused fields), and the error is terminal —
   * `result.terminal` is true when every failure is one, and a controller that gets
   * `new AggregateError(result.errors)` records it once (`Ready=False`, reason `InvalidSpec`)
   * and does not run the owner again until it changes, instead of retrying with backoff a
   * request that fails the same way each time. Set it when a 422 can clear up without the owner
   * changing (a webhook that answers 422 while something else is missing; a Service port name
   * another manager holds).
   */
  retryInvalid?: boolean;
  /** Roll workloads out one at a time, in the order they were added. Default false. */
  orderedRollout?: boolean;
  /**
   * How many objects of one phase (ConfigMaps and Secrets, storage, workloads, Services, custom
   * objects) are reconciled at once. Phases still run in order, the next starting once every
   * object of the previous one is done; results keep the order objects were added in; with
   * `orderedRollout` workloads still go one at a time. `1` reconciles one object after another.
   * An integer from 1; default 8.
   *
   * @example
   * ```ts
   * import { Builder } from "operator-runtime";
   *
   * await new Builder({ client, owner, concurrency: 4 })
   *   .configMap({ metadata: { name: "a" }, data: { x: "1" } })
   *   .configMap({ metadata: { name: "b" }, data: { y: "2" } })
   *   .reconcile();
   * ```
   */
  concurrency?: number;
  /** Take over fields other managers set (server-side apply `force`). Default true, as controllers should. */
  force?: boolean;
  /**
   * Adopt every added object that already exists with no controller (see
   * {@link ObjectOptions.adopt}, which wins per object). Default false: an existing object the
   * owner does not control is reported `failed` with a `NotOwnedError` and a Warning event, and
   * never written, pruned or garbage-collected by the Builder.
   */
  adopt?: boolean;
  /**
   * What happens to the PersistentVolumeClaims added with `.storage()` when the owner is
   * deleted, as a StatefulSet's `persistentVolumeClaimRetentionPolicy`:
   *
   * - `"Retain"` (default): the claim gets no ownerReference, so garbage collection never
   *   deletes the data; it carries the managed-by label and the annotation
   *   `operator-runtime.io/retained-by-owner-uid: <owner uid>`, by which the Builder still
   *   recognises it as its own (updates, and prune when `prune.persistentVolumeClaims` opts in).
   *   After the owner is gone the claim stays; a re-created owner (a new UID) takes it over with
   *   `{ adopt: true }`, or you delete it.
   * - `"Delete"`: the claim gets the owner as controller ownerReference, and garbage collection
   *   deletes it with the owner.
   *
   * Claims a StatefulSet creates from `volumeClaimTemplates` follow the StatefulSet's own policy.
   */
  persistentVolumeClaimRetention?: "Retain" | "Delete";
}

/** One added object. */
export interface BuilderEntry {
  rules: KindRules;
  object: KubeObject;
  options: ObjectOptions;
  /** The Builder method used, for misuse messages. */
  method: string;
}

