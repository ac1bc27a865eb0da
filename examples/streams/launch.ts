/**
 * The PE restart policy as a pure decision: given a PE (its `status.launchCount`, its restart
 * policy) and the pod the cluster holds for it, what the PE controller does next.
 */
import type { Pod } from "../../src/index.ts";
import type { PePhase, ProcessingElement } from "./kinds.ts";
import { SPEC_HASH_ANNOTATION } from "./kinds.ts";
import { launchOf } from "./pe-pod.ts";

/** Why a PE's pod is launched again. */
export type RelaunchReason = "PodFailed" | "PodCompleted" | "PodDeleted" | "SpecChanged";

/** The next step for one PE. */
export type LaunchStep =
  /** No pod: create the pod of launch `launch`; when `count` is set, record that launch in the PE status first. */
  | { step: "launch"; launch: number; count: boolean }
  /** The pod of the current launch ended (or must change): record launch `launch` in the status, then retire the pod. */
  | { step: "relaunch"; launch: number; reason: RelaunchReason; podPhase?: string }
  /** A pod of an earlier launch (already counted): delete it and release its finalizer, then launch. */
  | { step: "retire" }
  /** The current launch's pod ended for good under the policy: write the phase, and release the pod if it is being deleted. */
  | { step: "finish"; phase: "Completed" | "Failed" }
  /** Nothing to launch: the pod runs (or waits to), or the PE already finished. */
  | { step: "keep"; phase: PePhase; repair?: number };

/**
 * Decides the next step of a PE.
 *
 * The count: `status.launchCount` N is the number of launches so far, the current one
 * included; the pod of launch N carries the annotation `launch: N`. A launch is recorded in the
 * status (conflict-checked) before its pod is created, and a pod's end is recorded before its
 * finalizer is released, so a crash at any point leaves either "launch N recorded, pod N
 * missing" (→ create it, no new count) or "launch N recorded, pod N-1 still there" (→ retire
 * it, no new count): nothing is counted twice or lost.
 *
 * The policy, with the pod the PE controller never restarts in place (`restartPolicy: Never`):
 *
 * | the pod of the current launch | Always | OnFailure | Never |
 * | --- | --- | --- | --- |
 * | Failed | relaunch | relaunch | PE Failed |
 * | Succeeded | relaunch | PE Completed | PE Completed |
 * | deleted while running | relaunch | relaunch | relaunch |
 * | its spec no longer matches the PE | relaunch | relaunch | relaunch |
 *
 * A finished PE (Completed or Failed) keeps its ended pod as a record; deleting that pod does
 * not launch again.
 */
export function decideLaunch(pe: ProcessingElement, pod: Pod | undefined, desiredSpecHash: string): LaunchStep {
  const launched = pe.status?.launchCount ?? 0;
  const policy = pe.spec.restartPolicy ?? "Always";
  const finished = pe.status?.phase === "Completed" || pe.status?.phase === "Failed";
  if (!pod) {
    if (launched === 0) return { step: "launch", launch: 1, count: true };
    if (finished) return { step: "keep", phase: pe.status!.phase! };
    return { step: "launch", launch: launched, count: false };
  }
  const launch = launchOf(pod);
  if (launch < launched) return { step: "retire" };
  const repair = launch > launched ? launch : undefined;
  const podPhase = pod.status?.phase;
  const ended: "Completed" | "Failed" | undefined = podPhase === "Succeeded" ? "Completed" : podPhase === "Failed" ? "Failed" : undefined;
  const relaunch = (reason: RelaunchReason): LaunchStep => ({ step: "relaunch", launch: launch + 1, reason, ...(podPhase ? { podPhase } : {}) });
  if (ended === "Failed") return policy === "Never" ? { step: "finish", phase: "Failed" } : relaunch("PodFailed");
  if (ended === "Completed") return policy === "Always" ? relaunch("PodCompleted") : { step: "finish", phase: "Completed" };
  if (pod.metadata?.deletionTimestamp) return finished ? { step: "finish", phase: pe.status!.phase as "Completed" | "Failed" } : relaunch("PodDeleted");
  if (pod.metadata?.annotations?.[SPEC_HASH_ANNOTATION] !== desiredSpecHash) return relaunch("SpecChanged");
  const phase: PePhase = podPhase === "Running" ? "Running" : "Pending";
  return { step: "keep", phase, ...(repair !== undefined ? { repair } : {}) };
}
