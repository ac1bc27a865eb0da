/**
 * The opt-in workload simulator: stands in for the kubelet, the scheduler, the volume binder
 * and the ReplicaSet, Deployment and StatefulSet controllers, so that rollout gates and demos
 * against LocalCluster make progress.
 *
 * Turn it on with `LocalCluster.start({ simulate: true })` or
 * `LocalCluster.start({ simulate: { readyDelayMs: 10 } })`.
 */
import type { ApiContext } from "./api-context.ts";
import type { Change, StoredObject } from "./object-store.ts";
import { StatusError } from "./status.ts";
import type { Json, SimulatedTypes } from "./simulator-objects.ts";
import { controllerOf, simulatedTypes, SimulatorWrites } from "./simulator-objects.ts";
import { bindClaim, claimNames, PodIPs, startPod } from "./simulator-pods.ts";
import { syncReplicaSet } from "./simulator-replicasets.ts";
import { syncDeployment } from "./simulator-deployments.ts";
import { syncStatefulSet } from "./simulator-statefulsets.ts";

/**
 * Options of the workload simulator (`LocalCluster.start({ simulate: options })`).
 *
 * @example
 * ```ts
 * import { LocalCluster, type SimulationOptions } from "operator-runtime/testing";
 *
 * const simulate: SimulationOptions = { readyDelayMs: 10 };
 * const cluster = await LocalCluster.start({ simulate });
 * await cluster.stop();
 * ```
 */
export interface SimulationOptions {
  /** Delay before a workload/pod reports progress (default 50 ms). */
  readyDelayMs?: number;
}

/** What one timer syncs. */
type TaskKind = "pod" | "claim" | "replicaSet" | "deployment" | "statefulSet";

/** Conflicts (409) are retried this many times, then the task waits for the next change. */
const MAX_CONFLICT_RETRIES = 5;

/**
 * Reacts to stored changes the way a cluster's controllers and kubelet would, writing through
 * the same `Writer` as API requests (field manager `localcluster-simulator`).
 *
 * Expected flow:
 * - a Pending Pod is bound to node `localcluster-node` and, `readyDelayMs` later, reports
 *   Running and Ready (conditions, IPs, container statuses); one that mounts a claim waits for
 *   the claim to be Bound;
 * - a Pending PersistentVolumeClaim binds `readyDelayMs` after it is created;
 * - ReplicaSets keep `spec.replicas` Pods (`<rs>-<5 chars>`) and count the ready ones;
 * - Deployments own one ReplicaSet per Pod template (`<deployment>-<hash>`, label
 *   `pod-template-hash`) and roll to a new template surge-first;
 * - StatefulSets own Pods `<sts>-0…` and claims `<template>-<sts>-<i>`, scale in order and roll
 *   highest ordinal first.
 *
 * Guarantees: nothing is written inside a change notification; every sync re-reads the latest
 * stored object, and writes that would store nothing new are skipped, so the simulator settles
 * once the cluster matches the specs. Workload statuses carry `observedGeneration`.
 *
 * Caveats: controllers react on the next turn of the event loop, only Pods and claims wait
 * `readyDelayMs`; Pods never fail, restart or finish; probes, `minReadySeconds`, resource
 * requests and node selection are ignored; zero counts are left out of statuses, as a real API
 * server does. Conflicts are retried a few times; other failed writes (say, the namespace is
 * being deleted) are dropped until the object changes again.
 */
export class Simulator {
  readonly #ctx: ApiContext;
  readonly #types: SimulatedTypes;
  readonly #writes: SimulatorWrites;
  readonly #ips = new PodIPs();
  readonly #delayMs: number;
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #conflicts = new Map<string, number>();
  #stopped = false;

  constructor(ctx: ApiContext, options: SimulationOptions) {
    const delay = options.readyDelayMs ?? 50;
    if (!Number.isFinite(delay) || delay < 0) {
      throw new RangeError(`simulate.readyDelayMs must be a finite number >= 0, got ${delay}`);
    }
    this.#ctx = ctx;
    this.#types = simulatedTypes(ctx);
    this.#writes = new SimulatorWrites(ctx);
    this.#delayMs = delay;
    ctx.store.onChange((c) => this.#onChange(c));
    // Objects stored before the simulator started are treated as just created.
    for (const t of Object.values(this.#types)) {
      for (const o of ctx.store.list(t.storageKey)) this.#onChange({ rv: o.rv, type: "ADDED", object: o, previous: undefined });
    }
  }

  /** Cancels every pending sync; later changes are ignored. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#conflicts.clear();
  }

  #onChange(c: Change): void {
    if (this.#stopped) return;
    const o = c.object;
    const t = this.#types;
    const live = c.type !== "DELETED" && !o.deleting;
    switch (o.storageKey) {
      case t.pod.storageKey:
        if (live && phaseOf(o) === "Pending") this.#schedule("pod", o.namespace, o.name, this.#delayMs);
        this.#scheduleOwner(o);
        break;
      case t.claim.storageKey:
        if (!live) break;
        if (phaseOf(o) === "Pending") this.#schedule("claim", o.namespace, o.name, this.#delayMs);
        else if (phaseOf(o) === "Bound" && (!c.previous || phaseOf(c.previous) !== "Bound")) this.#wakePodsOf(o);
        break;
      case t.replicaSet.storageKey:
        if (c.type !== "DELETED") this.#schedule("replicaSet", o.namespace, o.name, 0);
        this.#scheduleOwner(o);
        break;
      case t.deployment.storageKey:
        if (c.type !== "DELETED") this.#schedule("deployment", o.namespace, o.name, 0);
        break;
      case t.statefulSet.storageKey:
        if (c.type !== "DELETED") this.#schedule("statefulSet", o.namespace, o.name, 0);
        break;
    }
  }

  /** Syncs the workload controlling `o`, if it is one the simulator runs. */
  #scheduleOwner(o: StoredObject): void {
    const ref = controllerOf(o);
    if (ref?.apiVersion !== "apps/v1") return;
    if (ref.kind === "ReplicaSet") this.#schedule("replicaSet", o.namespace, ref.name, 0);
    else if (ref.kind === "Deployment") this.#schedule("deployment", o.namespace, ref.name, 0);
    else if (ref.kind === "StatefulSet") this.#schedule("statefulSet", o.namespace, ref.name, 0);
  }

  /** Retries Pending Pods that mount a claim that just became Bound. */
  #wakePodsOf(claim: StoredObject): void {
    for (const pod of this.#ctx.store.list(this.#types.pod.storageKey, claim.namespace)) {
      if (pod.deleting) continue;
      const obj = pod.object();
      if ((obj.status as Json | undefined)?.phase === "Pending" && claimNames(obj).includes(claim.name)) {
        this.#schedule("pod", pod.namespace, pod.name, 0);
      }
    }
  }

  /** Schedules one sync of an object; a sync already pending for it covers this request. */
  #schedule(kind: TaskKind, namespace: string, name: string, delayMs: number): void {
    if (this.#stopped) return;
    const key = `${kind}\0${namespace}\0${name}`;
    if (this.#timers.has(key)) return;
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.#run(kind, namespace, name, key);
    }, delayMs);
    timer.unref();
    this.#timers.set(key, timer);
  }

  #run(kind: TaskKind, namespace: string, name: string, key: string): void {
    if (this.#stopped) return;
    const { store } = this.#ctx;
    const stored = store.get(this.#types[kind].storageKey, namespace, name);
    if (!stored) {
      this.#conflicts.delete(key);
      return;
    }
    try {
      this.#sync(kind, stored);
      this.#conflicts.delete(key);
    } catch (err) {
      if (err instanceof StatusError) {
        const attempts = (this.#conflicts.get(key) ?? 0) + 1;
        if (err.code === 409 && attempts <= MAX_CONFLICT_RETRIES) {
          this.#conflicts.set(key, attempts);
          this.#schedule(kind, namespace, name, Math.max(this.#delayMs, 10) * attempts);
        } else {
          this.#conflicts.delete(key);
        }
        return;
      }
      process.emitWarning(`LocalCluster simulator: syncing ${kind} ${namespace}/${name} failed: ${(err as Error)?.stack ?? err}`);
    }
  }

  #sync(kind: TaskKind, stored: StoredObject): void {
    const ctx = this.#ctx;
    const types = this.#types;
    const writes = this.#writes;
    switch (kind) {
      case "pod":
        return startPod(ctx, types, writes, this.#ips, stored);
      case "claim":
        return bindClaim(types, writes, stored);
      case "replicaSet":
        return syncReplicaSet(ctx, types, writes, stored);
      case "deployment":
        return syncDeployment(ctx, types, writes, stored);
      case "statefulSet":
        return syncStatefulSet(ctx, types, writes, stored);
    }
  }
}

function phaseOf(o: StoredObject): unknown {
  return (o.object().status as Json | undefined)?.phase;
}
