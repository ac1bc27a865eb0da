/** What a replica process (`replica.ts`) is configured with, logs and reports. Types only. */
import type { LogLevel } from "../../../src/entries/client.ts";

/** The replica's configuration, passed as JSON in argv[2]. */
export interface ReplicaConfig {
  /** Path of a kubeconfig file. */
  kubeconfig: string;
  /** The ring member's identity (unique among live replicas). */
  identity: string;
  ring: string;
  /** Namespace of the ring's Leases. */
  leaseNamespace: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** The shared reconcile log (JSON lines, appended). */
  log: string;
  /** 1: a ConfigMap per owner; 4: also a Secret, a Service and a Deployment. */
  children: 1 | 4;
  /** maxConcurrentReconciles (default 4). */
  workers?: number;
  /** Each reconcile waits this long (through its signal) before writing: widens the window a handover must drain. */
  reconcileDelayMs?: number;
  logLevel?: LogLevel;
}

/** A line of the shared reconcile log: `begin` when a reconcile starts, `end` when it ends. */
export type LogLine =
  | { t: "begin"; replica: string; key: string; start: number }
  | { t: "end"; replica: string; key: string; start: number; end: number; ok: boolean; gen?: number; bucket?: number };

/** Pushed by a replica whenever what its ring says changes. */
export interface RingEvent {
  event: "ring";
  /** Date.now() when the change was seen (polled every 20 ms). */
  at: number;
  served: number[];
  members: string[];
  /** Owner of each bucket by this replica's view (null: none). */
  assignment: (string | null)[];
  joined: boolean;
}

/** One informer of a replica's cache. */
export interface InformerStats {
  name: string;
  kind: string;
  objects: number;
  events: number;
  shardFiltering: "server" | "unconfirmed" | "client" | null;
  shardSelector: string | null;
  labelSelector: string | null;
}

/** A replica's answer to `stats`: cumulative since the process started. */
export interface ReplicaStats {
  identity: string;
  cpuMs: number;
  /** Of `cpuMs`, time in the kernel. */
  systemCpuMs: number;
  /** Context switches (voluntary: it waited; involuntary: it was preempted). */
  contextSwitches: number;
  /** Page faults (minor and major): mostly memory the process touched for the first time. */
  pageFaults: number;
  /** Main-thread garbage-collection pauses, in ms. */
  gcPauseMs: number;
  heapBytes: number;
  rssBytes: number;
  /** Sum of `eventsReceived` over every informer the cache held (replaced ones included): listed items plus watch events. */
  eventsReceived: number;
  /** Objects in the cache's informers. */
  cachedObjects: number;
  /** The cache's informers now. */
  informers: InformerStats[];
  /** Informers the cache held before and no longer does (replaced when the buckets changed). */
  informersReplaced: number;
  reconciles: number;
  failures: number;
  served: number[];
}
