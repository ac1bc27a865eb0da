/**
 * What a controller tells those who watch it run (the dashboard): each reconcile's start with
 * its trigger, each write it makes, the Builder's results, and how it ended.
 */
import type { KubeObject } from "../client/types.ts";
import type { GatedWrite } from "../client/write-gate.ts";
import type { BuilderResult } from "./results.ts";
import type { Trigger } from "./triggers.ts";

/**
 * One reconcile (or plan) of a key.
 *
 * @example
 * ```ts
 * const run: ReconcileRun = { controller: "pinot", key: "default/demo", reconcileID: "4b1d…", trigger: { reason: "manual" }, triggers: 1, queuedAt: Date.now(), startedAt: Date.now(), plan: false };
 * ```
 */
export interface ReconcileRun {
  controller: string;
  key: string;
  reconcileID: string;
  /** The first cause since the key's previous run. */
  trigger: Trigger;
  /** Causes coalesced into this run (≥ 1). */
  triggers: number;
  /** Epoch ms the first cause queued the key. */
  queuedAt: number;
  /** Epoch ms the run started. */
  startedAt: number;
  /** A plan: every write a server dry run (see `Controller.plan`). */
  plan: boolean;
}

/**
 * A write a run made: the request, the cached object before it (when the controller caches the
 * kind), and the server's answer or error.
 *
 * @example
 * ```ts
 * const write: ObservedWrite = { verb: "apply", apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "app", dryRun: false };
 * ```
 */
export interface ObservedWrite extends GatedWrite {
  before?: KubeObject;
  answer?: KubeObject;
  error?: unknown;
}

/**
 * How a run ended.
 *
 * @example
 * ```ts
 * const end: ReconcileEnd = { outcome: "done", endedAt: Date.now(), writes: 0, selfTriggered: false, loop: false };
 * ```
 */
export interface ReconcileEnd {
  outcome: "done" | "requeue" | "requeue-after" | "error" | "terminal" | "held";
  endedAt: number;
  requeueAfterMs?: number;
  error?: unknown;
  /** Rate-limited retries of the key, after an error. */
  retries?: number;
  /** Writes the run made through a ResourceClient. */
  writes: number;
  /** Its trigger was the echo of a write of the key's previous run. */
  selfTriggered: boolean;
  /** Self-triggered and writing again, for the fifth run in a row or more (`LOOP_RUNS`): a reconcile loop. */
  loop: boolean;
}

/**
 * Watches a controller's runs (`Controller.observe`). Calls are synchronous, on the
 * reconcile's path: keep them cheap; what they throw is ignored.
 *
 * @example
 * ```ts
 * const observer: ControllerObserver = { ended: (run, end) => console.log(run.key, run.trigger.reason, end.outcome) };
 * ```
 */
export interface ControllerObserver {
  started?(run: ReconcileRun): void;
  wrote?(run: ReconcileRun, write: ObservedWrite): void;
  builderResult?(run: ReconcileRun, owner: KubeObject, result: BuilderResult): void;
  ended?(run: ReconcileRun, end: ReconcileEnd): void;
}
