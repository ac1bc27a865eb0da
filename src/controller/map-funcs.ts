/**
 * Ready-made {@link MapFunc}s for `.watches(kind, map)`: which primaries an object of another
 * kind concerns.
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { MapFunc } from "./controller.ts";
import type { Request } from "./reconciler.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * Maps an object to the primary named by one of its labels, in the object's own namespace: the
 * way to reach an owner from objects it does not own directly, such as the Pods of its
 * Deployment (they are owned by a ReplicaSet, so `.owns(Pod)` cannot see them). Give the
 * workload's pod template the label with the primary's name, then watch the Pods with this map.
 * Objects without the label (or with an empty value) map to nothing.
 *
 * For a cluster-scoped primary, pass `{ clusterScoped: true }`: requests then carry no namespace.
 *
 * Errors: a `label` that is not a non-empty string throws a TypeError at once (at registration,
 * not on the first event).
 *
 * @example
 * ```ts
 * import { Deployment, Pod, defineKind } from "operator-runtime";
 * import type { Reconciler } from "operator-runtime";
 *
 * const Memcached = defineKind<{ size: number }>({ apiVersion: "cache.example.com/v1", kind: "Memcached" });
 * declare const reconcileMemcached: Reconciler;
 * mgr.controller("memcached")
 *   .for(Memcached, { status: ["patch"] })
 *   .owns(Deployment)
 *   .watches(Pod, mapByLabel("example.com/memcached"))   // a pod's events enqueue its Memcached
 *   .reconcile(reconcileMemcached);
 * // The Deployment's pod template carries `labels: { "example.com/memcached": memcached.metadata.name }`.
 * ```
 */
export function mapByLabel<T extends KubeObject = KubeObject>(label: string, options: { clusterScoped?: boolean } = {}): MapFunc<T> {
  if (typeof label !== "string" || label === "") {
    throw new TypeError(`mapByLabel(label): label must be a non-empty label key such as "example.com/owner", got ${JSON.stringify(label) ?? String(label)}`);
  }
  checkObject("mapByLabel(label, options)", "options", options, "an options object ({ clusterScoped? })");
  const clusterScoped = options.clusterScoped === true;
  return (obj: T): Request[] => {
    const name = obj.metadata?.labels?.[label];
    if (typeof name !== "string" || name === "") return [];
    return [{ namespace: clusterScoped ? "" : obj.metadata?.namespace ?? "", name }];
  };
}
