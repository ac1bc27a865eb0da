/**
 * The Streams custom resources (`streams.example.com/v1`): a Job holds an application, its
 * processing elements (PEs) are what the job controller computes from it, and the labels and
 * annotations that tie Jobs, PEs and Pods together.
 */
import { defineKind } from "../../src/index.ts";
import type { ObjectOf } from "../../src/entries/client.ts";

/** Where a PE's pod may run. Every field narrows it; the most restrictive PEs are created first. */
export interface Placement {
  /** Node labels the pod needs (a Streams host pool), as a pod's `nodeSelector`. */
  nodeSelector?: Record<string, string>;
  /** No other PE pod on the same node (Streams' host isolation): a pod anti-affinity. */
  hostIsolation?: boolean;
  /** PEs with the same tag never share a node (Streams' host exlocation): a pod anti-affinity. */
  hostExlocation?: string;
}

/** One operator of the application graph. */
export interface OperatorSpec {
  /** Unique in the application; a DNS-1123 label (it becomes part of PE names). */
  name: string;
  /** What it does (`Beacon`, `Functor`, `FileSink`…); carried to the PE's configuration. */
  kind?: string;
  /** Parallel width: the operator runs as this many channels (default 1). */
  width?: number;
  /** The operators whose output it reads. */
  inputs?: string[];
  /** Operators with the same partition tag are fused into one PE (Streams' partition colocation). */
  partition?: string;
  placement?: Placement;
  /** Operator parameters, carried to the PE's configuration. */
  params?: Record<string, string>;
}

/** How a PE's pod is relaunched when it stops (PE-level; the pod itself never restarts in place). */
export type RestartPolicy = "Always" | "OnFailure" | "Never";

/** What a user submits. */
export interface JobSpec {
  /** The PE runtime image (default `streams/runtime:1.0`). */
  image?: string;
  /** Default `Always`. */
  restartPolicy?: RestartPolicy;
  application: { operators: OperatorSpec[] };
}

/** Lifecycle of a Job. */
export type JobPhase = "Submitting" | "Submitted" | "Running" | "Completed" | "Failed";

/** What the job controller reports. */
export interface JobStatus {
  phase?: JobPhase;
  /** PE names, most restrictive placement first (the order they were created in). */
  processingElements?: string[];
  peCount?: number;
  runningPEs?: number;
  message?: string;
  observedGeneration?: number;
}

/** One operator channel inside a PE. */
export interface PeOperator {
  name: string;
  kind: string;
  /** This channel's index in the operator's parallel region, and the region's width. */
  channel: number;
  width: number;
  /** Upstream PEs this operator reads from. */
  inputs: string[];
  params: Record<string, string>;
}

/** A processing element: fused operator channels that run as one pod. */
export interface ProcessingElementSpec {
  jobName: string;
  /** The fusion group (a partition tag or an operator name) and the channel it runs. */
  group: string;
  channel: number;
  image: string;
  restartPolicy: RestartPolicy;
  placement: Placement;
  operators: PeOperator[];
}

/** Lifecycle of a PE. */
export type PePhase = "Pending" | "Running" | "Restarting" | "Completed" | "Failed";

/** What the PE controller reports. */
export interface ProcessingElementStatus {
  phase?: PePhase;
  /**
   * Launches of this PE's pod, counting the one running now. Written (conflict-checked) before
   * the pod of that launch is created, so a crash can neither lose nor repeat a launch.
   */
  launchCount?: number;
  /** Why the last relaunch happened: PodFailed, PodCompleted, PodDeleted, SpecChanged. */
  lastRelaunchReason?: string;
  podName?: string;
  message?: string;
  observedGeneration?: number;
}

/** The Job custom resource: the handle and its object type. */
export const Job = defineKind<JobSpec, JobStatus>({ apiVersion: "streams.example.com/v1", kind: "Job" });
export type Job = ObjectOf<typeof Job>;

/** The ProcessingElement custom resource: the handle and its object type. */
export const ProcessingElement = defineKind<ProcessingElementSpec, ProcessingElementStatus>({ apiVersion: "streams.example.com/v1", kind: "ProcessingElement" });
export type ProcessingElement = ObjectOf<typeof ProcessingElement>;

/** Field manager (and managed-by label) of everything the streams operator writes. */
export const FIELD_MANAGER = "streams-operator";
/** On PEs and their pods: the Job. */
export const JOB_LABEL = "streams.example.com/job";
/** On PEs and their pods: the PE. */
export const PE_LABEL = "streams.example.com/pe";
/** On a PE's pod: the launch it belongs to (the PE's `status.launchCount` when it was created). */
export const LAUNCH_ANNOTATION = "streams.example.com/launch";
/** On a PE's pod: the hash of its spec, so a changed PE relaunches its pod (a pod spec is immutable). */
export const SPEC_HASH_ANNOTATION = "streams.example.com/pod-spec-hash";
/**
 * On a PE's pod: held until the PE controller has counted the pod's end, so a pod deleted while
 * the operator is down is still seen and counted.
 */
export const LAUNCH_FINALIZER = "streams.example.com/launch-accounting";
/** Default PE runtime image. */
export const DEFAULT_IMAGE = "streams/runtime:1.0";
