/** PodDisruptionBudget defaults: policy/v1 has none on decode; a new budget gets the zero status the v1 encoding shows. */
import type { KindDefaults } from "./types.ts";

/** PodDisruptionBudget. */
export const podDisruptionBudget: KindDefaults = {
  create(obj) {
    obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  },
};
