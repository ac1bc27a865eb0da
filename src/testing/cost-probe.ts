/**
 * A test-only view of a LocalCluster's work counters (objects walked by lists and by the
 * garbage collector), so tests can assert that a request's cost does not grow with objects it
 * does not concern. Internal: not exported from `operator-runtime/testing`.
 */
import type { StoreCost } from "./object-store.ts";

/** A cluster's counters, and whether its garbage collector has nothing left to do. */
export interface CostProbe extends Readonly<StoreCost> {
  readonly gcIdle: boolean;
}

const probes = new WeakMap<object, CostProbe>();

/** Registers a cluster's counters (LocalCluster.start does). */
export function registerCost(cluster: object, cost: StoreCost, gc: { readonly idle: boolean }): void {
  probes.set(cluster, {
    get listed() {
      return cost.listed;
    },
    get collected() {
      return cost.collected;
    },
    get gcIdle() {
      return gc.idle;
    },
  });
}

/**
 * The live work counters of a LocalCluster started in this process.
 *
 * @example
 * ```ts
 * const before = costProbe(cluster).collected;
 * // … one write, then wait until costProbe(cluster).gcIdle …
 * const visited = costProbe(cluster).collected - before;
 * ```
 */
export function costProbe(cluster: object): CostProbe {
  const probe = probes.get(cluster);
  if (!probe) throw new TypeError("costProbe: not a LocalCluster started in this process");
  return probe;
}
