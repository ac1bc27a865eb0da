/**
 * The simulator's Deployment controller: one ReplicaSet per Pod template, rolled surge-first
 * (the new ReplicaSet scales up, old ones scale to zero once it is ready), and a status that
 * rollout gates such as `kubectl rollout status` understand.
 */
import type { ApiContext } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { Json, SimulatedTypes, SimulatorWrites } from "./simulator-objects.ts";
import { controllerRef, isActive, nonZero, now, ownedBy, templateHash } from "./simulator-objects.ts";

const HASH_LABEL = "pod-template-hash";
const REVISION = "deployment.kubernetes.io/revision";

/**
 * Brings the Deployment's ReplicaSets in line with its spec, then writes the status.
 *
 * Expected flow: a new template gets a ReplicaSet `<deployment>-<hash>` scaled to
 * `spec.replicas`; once all its Pods are ready, older ReplicaSets go to zero (their Pods are
 * deleted). With `strategy.type: Recreate`, old ReplicaSets go to zero first and the new one
 * scales up when their Pods are gone. `spec.paused` stops scaling but not status reporting.
 *
 * Caveats: no `maxSurge`/`maxUnavailable` pacing, no `progressDeadlineSeconds`, no
 * `revisionHistoryLimit` clean-up, no adoption of orphaned ReplicaSets; a name collision is
 * retried, never resolved with `collisionCount`.
 */
export function syncDeployment(ctx: ApiContext, types: SimulatedTypes, writes: SimulatorWrites, stored: StoredObject): void {
  if (stored.deleting) return;
  const deploy = stored.object();
  const spec = (deploy.spec ?? {}) as Json;
  const desired = Number(spec.replicas ?? 1);
  const hash = templateHash(spec.template ?? {});
  const owned = ownedBy(ctx, types.replicaSet, stored).filter(isActive);
  let current = owned.find((o) => o.labels?.[HASH_LABEL] === hash);
  const olds = owned.filter((o) => o !== current);
  if (!spec.paused) {
    const recreate = spec.strategy?.type === "Recreate";
    const oldRunning = olds.some((o) => specReplicas(o) > 0 || statusOf(o).replicas > 0);
    const target = recreate && oldRunning ? 0 : desired;
    if (!current && !(recreate && oldRunning)) current = createReplicaSet(types, writes, stored, spec, hash, owned);
    else if (current && specReplicas(current) !== target) scale(types, writes, current, target);
    const newReady = current !== undefined && isCaughtUp(current) && statusOf(current).availableReplicas >= desired;
    if (recreate || newReady) for (const old of olds) if (specReplicas(old) > 0) scale(types, writes, old, 0);
  }
  writes.status(types.deployment, stored, deploymentStatus(ctx, types, stored, deploy.status as Json | undefined, desired, hash, spec));
}

function createReplicaSet(types: SimulatedTypes, writes: SimulatorWrites, deploy: StoredObject, spec: Json, hash: string,
  owned: StoredObject[]): StoredObject | undefined {
  const template = structuredClone((spec.template ?? {}) as Json);
  const labels = { ...template.metadata?.labels, [HASH_LABEL]: hash };
  template.metadata = { ...template.metadata, labels };
  const revision = Math.max(0, ...owned.map((o) => Number(o.object().metadata?.annotations?.[REVISION] ?? 0))) + 1;
  return writes.create(types.replicaSet, deploy.namespace, {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name: `${deploy.name}-${hash}`,
      namespace: deploy.namespace,
      labels,
      annotations: { [REVISION]: String(revision) },
      ownerReferences: [controllerRef(types.deployment, deploy)],
    },
    spec: {
      replicas: Number(spec.replicas ?? 1),
      ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
      selector: { ...spec.selector, matchLabels: { ...spec.selector?.matchLabels, [HASH_LABEL]: hash } },
      template,
    },
  });
}

function scale(types: SimulatedTypes, writes: SimulatorWrites, rs: StoredObject, replicas: number): void {
  writes.update(types.replicaSet, rs, (obj) => {
    (obj.spec as Json).replicas = replicas;
  });
}

function deploymentStatus(ctx: ApiContext, types: SimulatedTypes, stored: StoredObject, previous: Json | undefined,
  desired: number, hash: string, spec: Json): Json {
  const sets = ownedBy(ctx, types.replicaSet, stored).filter(isActive);
  const current = sets.find((o) => o.labels?.[HASH_LABEL] === hash);
  const sum = (f: (o: StoredObject) => number): number => sets.reduce((n, o) => n + f(o), 0);
  const replicas = sum((o) => statusOf(o).replicas);
  const updated = current ? statusOf(current).replicas : 0;
  const ready = sum((o) => statusOf(o).readyReplicas);
  const available = sum((o) => statusOf(o).availableReplicas);
  const unavailable = Math.max(0, sum(specReplicas) - available);
  const rsName = current?.name ?? `${stored.name}-${hash}`;
  const complete = updated === desired && replicas === desired && available === desired && (!current || isCaughtUp(current));
  const conditions = previous?.conditions as Json[] | undefined;
  return {
    observedGeneration: stored.object().metadata?.generation ?? 1,
    ...nonZero({ replicas, updatedReplicas: updated, readyReplicas: ready, availableReplicas: available, unavailableReplicas: unavailable }),
    conditions: [
      condition(conditions, available >= desired - maxUnavailable(spec, desired)
        ? { type: "Available", status: "True", reason: "MinimumReplicasAvailable", message: "Deployment has minimum availability." }
        : { type: "Available", status: "False", reason: "MinimumReplicasUnavailable", message: "Deployment does not have minimum availability." }),
      condition(conditions, spec.paused
        ? { type: "Progressing", status: "Unknown", reason: "DeploymentPaused", message: "Deployment is paused" }
        : complete
          ? { type: "Progressing", status: "True", reason: "NewReplicaSetAvailable", message: `ReplicaSet "${rsName}" has successfully progressed.` }
          : { type: "Progressing", status: "True", reason: "ReplicaSetUpdated", message: `ReplicaSet "${rsName}" is progressing.` }),
    ],
  };
}

/**
 * A Deployment condition that keeps the previous `lastTransitionTime` while its status holds
 * and `lastUpdateTime` while nothing about it changes, so repeated syncs write nothing.
 */
function condition(previous: Json[] | undefined, next: { type: string; status: string; reason: string; message: string }): Json {
  const old = previous?.find((c) => c.type === next.type);
  const time = now();
  const same = old !== undefined && old.status === next.status && old.reason === next.reason && old.message === next.message;
  return {
    type: next.type,
    status: next.status,
    lastUpdateTime: same ? old.lastUpdateTime ?? time : time,
    lastTransitionTime: old?.status === next.status ? old.lastTransitionTime ?? time : time,
    reason: next.reason,
    message: next.message,
  };
}

/** `rollingUpdate.maxUnavailable` resolved against `desired` (rounded down); 0 for Recreate. */
function maxUnavailable(spec: Json, desired: number): number {
  if (spec.strategy?.type === "Recreate") return 0;
  const v: unknown = spec.strategy?.rollingUpdate?.maxUnavailable ?? "25%";
  if (typeof v === "number") return v;
  const m = /^(\d+)%$/.exec(String(v));
  return m ? Math.floor((desired * Number(m[1])) / 100) : Number(v) || 0;
}

function specReplicas(rs: StoredObject): number {
  return Number((rs.object().spec as Json | undefined)?.replicas ?? 1);
}

/** The ReplicaSet's status counts (0 when absent). */
function statusOf(rs: StoredObject): { replicas: number; readyReplicas: number; availableReplicas: number } {
  const s = (rs.object().status ?? {}) as Json;
  return { replicas: Number(s.replicas ?? 0), readyReplicas: Number(s.readyReplicas ?? 0), availableReplicas: Number(s.availableReplicas ?? 0) };
}

/** Whether the ReplicaSet's status describes its current spec. */
function isCaughtUp(rs: StoredObject): boolean {
  const o = rs.object();
  return (o.status as Json | undefined)?.observedGeneration === o.metadata?.generation;
}
