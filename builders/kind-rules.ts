/**
 * What the Builder needs to know about one kind it manages: how to validate a desired object,
 * which changes the API server refuses (immutable fields), and when a workload is rolled out.
 */
import type { BuilderValidationError } from "../src/errors.ts";
import type { KubeObject } from "../src/client/types.ts";

/** Where an object sits in the Builder's reconcile order. */
export type ReconcilePhase = "config" | "storage" | "workload" | "service" | "custom";

/** Rollout state of a live workload. */
export interface RolloutStatus {
  /** True when the current spec is fully rolled out and ready. */
  done: boolean;
  /** Human text of what it waits on, e.g. `2/3 replicas ready`, `observedGeneration 3 < generation 4`. */
  waitingOn?: string;
}

/** Per-kind rules used by the Builder. */
export interface KindRules {
  apiVersion: string;
  kind: string;
  phase: ReconcilePhase;
  /** Problems of a desired object (empty when valid). Never throws, never calls the API. */
  validate(obj: KubeObject): BuilderValidationError[];
  /**
   * Fields whose change the API server refuses, comparing a live object with the desired one;
   * returns the changed immutable field paths (empty when the desired change is allowed).
   */
  immutableChanges?(live: KubeObject, desired: KubeObject): string[];
  /** Rollout state (workloads only). */
  rolloutStatus?(live: KubeObject): RolloutStatus;
}
