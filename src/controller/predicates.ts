/**
 * Event filters for controllers: which changes are worth a reconcile.
 */
import type { KubeObject } from "../client/types.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * Decides whether an event enqueues. `oldObj` is set for updates only. The predicates here
 * take any object, so they fit every kind; write a `Predicate<Greeting>` to read typed fields.
 *
 * @example
 * ```ts
 * const nameChanged: Predicate<Greeting> = (e) => e.type !== "update" || e.oldObj?.spec.name !== e.obj.spec.name;
 * mgr.controller("greeting").for(Greeting, { predicates: [nameChanged] });
 * ```
 */
export type Predicate<T = KubeObject> = (event: { type: "add" | "update" | "delete"; obj: T; oldObj?: T }) => boolean;

/**
 * Updates only when `metadata.generation` changed (spec changes), plus every add and delete.
 * Status-only and metadata-only updates are skipped.
 *
 * @example
 * ```ts
 * mgr.controller("dataapp").for({ apiVersion: "example.com/v1", kind: "DataApp" }, { predicates: [generationChanged] })
 * ```
 */
export const generationChanged: Predicate = (e) =>
  e.type !== "update" || e.oldObj?.metadata?.generation !== e.obj.metadata?.generation;

/** Updates only when labels changed, plus adds and deletes. */
export const labelsChanged: Predicate = (e) =>
  e.type !== "update" || JSON.stringify(e.oldObj?.metadata?.labels ?? {}) !== JSON.stringify(e.obj.metadata?.labels ?? {});

/** Skips updates that changed nothing but the resourceVersion (periodic resyncs). */
export const resourceVersionChanged: Predicate = (e) =>
  e.type !== "update" || e.oldObj?.metadata?.resourceVersion !== e.obj.metadata?.resourceVersion;

/** Only objects whose labels match every given label. */
export function hasLabels(labels: Record<string, string>): Predicate {
  checkObject("hasLabels(labels)", "labels", labels, "a label map ({ key: value })");
  return (e) => Object.entries(labels).every(([k, v]) => e.obj.metadata?.labels?.[k] === v);
}

/** Passes when all predicates pass. */
export function and<T = KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (e) => predicates.every((p) => p(e));
}

/** Passes when any predicate passes. */
export function or<T = KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (e) => predicates.some((p) => p(e));
}
