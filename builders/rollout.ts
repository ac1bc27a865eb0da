/**
 * Rollout helpers shared by workloads: has the controller observed the current spec, and the replica counts.
 */
import type { KubeObject } from "../src/client/types.ts";
import { numberAt } from "./json.ts";

/**
 * What a workload waits on while its controller has not yet observed the current generation
 * (`observedGeneration 1 < generation 2`), or undefined when it has. A missing
 * `status.observedGeneration` counts as 0, so a fresh object waits until its first status.
 *
 * @example
 * ```ts
 * generationLag({ metadata: { generation: 2 }, status: { observedGeneration: 1 } });
 * // "observedGeneration 1 < generation 2"
 * ```
 */
export function generationLag(live: KubeObject): string | undefined {
  const generation = numberAt(live, 0, "metadata", "generation");
  const observed = numberAt(live, 0, "status", "observedGeneration");
  return observed < generation ? `observedGeneration ${observed} < generation ${generation}` : undefined;
}

/**
 * The desired replica count: `spec.replicas`, defaulting to 1.
 *
 * @example
 * ```ts
 * specReplicas({ spec: {} }); // 1
 * ```
 */
export function specReplicas(live: KubeObject): number {
  return numberAt(live, 1, "spec", "replicas");
}

/**
 * A replica count from `status` (missing counts as 0).
 *
 * @example
 * ```ts
 * statusCount({ status: { readyReplicas: 2 } }, "readyReplicas"); // 2
 * ```
 */
export function statusCount(live: KubeObject, field: string): number {
  return numberAt(live, 0, "status", field);
}
