/**
 * The simulator's StatefulSet controller: Pods with stable ordinal names, one claim per
 * volumeClaimTemplate and ordinal, ordered scaling and highest-ordinal-first rolling updates.
 */
import type { ApiContext } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { KubeObject } from "./resource-type.ts";
import type { Json, SimulatedTypes, SimulatorWrites } from "./simulator-objects.ts";
import { controllerRef, isActive, isPodReady, nonZero, ownedBy, templateHash } from "./simulator-objects.ts";

const REVISION_LABEL = "controller-revision-hash";

/**
 * Brings the StatefulSet's Pods and claims in line with its spec, then writes the status.
 *
 * Expected flow: Pod `<sts>-<i>` is created for each missing ordinal below `spec.replicas`
 * (with `podManagementPolicy: OrderedReady`, the default, only once every lower ordinal is
 * Running and Ready; `Parallel` creates them all), after the claims
 * `<template>-<sts>-<i>` of its volumeClaimTemplates. Ordinals at or above `spec.replicas` are
 * deleted highest first (one at a time unless Parallel). When the template changes, Pods whose
 * `controller-revision-hash` differs are deleted one at a time, highest ordinal first down to
 * `rollingUpdate.partition`, each once all Pods are ready; the next sync recreates them.
 * `updateStrategy.type: OnDelete` leaves old Pods alone.
 *
 * Caveats: no ControllerRevision objects (the revision is a hash of the template), claims are
 * never deleted (as with the default retention policy), `minReadySeconds` is ignored.
 */
export function syncStatefulSet(ctx: ApiContext, types: SimulatedTypes, writes: SimulatorWrites, stored: StoredObject): void {
  if (stored.deleting) return;
  const sts = stored.object();
  const spec = (sts.spec ?? {}) as Json;
  const desired = Number(spec.replicas ?? 1);
  const revision = `${stored.name}-${templateHash(spec.template ?? {})}`;
  const parallel = spec.podManagementPolicy === "Parallel";
  const pods = podsByOrdinal(ctx, types, stored);

  for (let i = 0; i < desired; i++) {
    const pod = pods.get(i);
    if (!pod) {
      for (const claim of claimsFor(stored, spec, i)) {
        if (!ctx.store.get(types.claim.storageKey, stored.namespace, claim.metadata!.name!)) writes.create(types.claim, stored.namespace, claim);
      }
      const created = writes.create(types.pod, stored.namespace, podFor(types, stored, spec, i, revision));
      if (created) pods.set(i, created);
      if (!parallel) break;
    } else if (!parallel && (pod.deleting || !isPodReady(pod.object()))) {
      break;
    }
  }

  const surplus = [...pods].filter(([i]) => i >= desired).sort(([a], [b]) => b - a);
  const terminating = [...pods.values()].some((o) => o.deleting);
  for (const [, pod] of surplus) {
    if (pod.deleting) continue;
    if (!parallel && terminating) break;
    writes.delete(types.pod, pod);
    if (!parallel) break;
  }

  if (spec.updateStrategy?.type !== "OnDelete" && surplus.length === 0) {
    const partition = Number(spec.updateStrategy?.rollingUpdate?.partition ?? 0);
    const all = [...Array(desired).keys()].map((i) => pods.get(i));
    const allReady = all.every((o) => o !== undefined && !o.deleting && isPodReady(o.object()));
    const outdated = all.findLast((o, i) => i >= partition && o !== undefined && o.labels?.[REVISION_LABEL] !== revision);
    if (allReady && outdated) writes.delete(types.pod, outdated);
  }

  writes.status(types.statefulSet, stored, statefulSetStatus(ctx, types, stored, sts, desired, revision));
}

/** Owned Pods by ordinal (Pods being deleted included: their names are still taken). */
function podsByOrdinal(ctx: ApiContext, types: SimulatedTypes, sts: StoredObject): Map<number, StoredObject> {
  const out = new Map<number, StoredObject>();
  const prefix = `${sts.name}-`;
  for (const o of ownedBy(ctx, types.pod, sts)) {
    const rest = o.name.slice(prefix.length);
    if (o.name.startsWith(prefix) && /^(0|[1-9]\d*)$/.test(rest)) out.set(Number(rest), o);
  }
  return out;
}

/** The claims of ordinal `i`: `<template>-<sts>-<i>`, labelled with the selector's labels, no owner. */
function claimsFor(sts: StoredObject, spec: Json, i: number): KubeObject[] {
  return ((spec.volumeClaimTemplates ?? []) as Json[]).map((t) => {
    const labels = { ...t.metadata?.labels, ...spec.selector?.matchLabels };
    return {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: {
        name: `${t.metadata?.name}-${sts.name}-${i}`,
        namespace: sts.namespace,
        ...(Object.keys(labels).length ? { labels } : {}),
        ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
      },
      spec: structuredClone(t.spec ?? {}),
    };
  });
}

/** Pod `<sts>-<i>` from the template, with the identity labels and claim volumes a real StatefulSet adds. */
function podFor(types: SimulatedTypes, sts: StoredObject, spec: Json, i: number, revision: string): KubeObject {
  const template = structuredClone((spec.template ?? {}) as Json);
  const name = `${sts.name}-${i}`;
  const podSpec = (template.spec ?? {}) as Json;
  const claimVolumes = ((spec.volumeClaimTemplates ?? []) as Json[]).map((t) => ({
    name: t.metadata?.name,
    persistentVolumeClaim: { claimName: `${t.metadata?.name}-${sts.name}-${i}` },
  }));
  const volumes = [...((podSpec.volumes ?? []) as Json[]).filter((v) => !claimVolumes.some((c) => c.name === v.name)), ...claimVolumes];
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: sts.namespace,
      labels: {
        ...template.metadata?.labels,
        "apps.kubernetes.io/pod-index": String(i),
        [REVISION_LABEL]: revision,
        "statefulset.kubernetes.io/pod-name": name,
      },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [controllerRef(types.statefulSet, sts)],
    },
    spec: {
      ...podSpec,
      hostname: name,
      ...(spec.serviceName ? { subdomain: spec.serviceName } : {}),
      ...(volumes.length ? { volumes } : {}),
    },
  };
}

/**
 * The status: `currentRevision` stays on the old template until every Pod runs the new one and
 * is ready, as in Kubernetes.
 */
function statefulSetStatus(ctx: ApiContext, types: SimulatedTypes, stored: StoredObject, sts: KubeObject, desired: number,
  revision: string): Json {
  const pods = ownedBy(ctx, types.pod, stored).filter(isActive).map((o) => o.object());
  const previous = (sts.status ?? {}) as Json;
  const count = (f: (p: KubeObject) => boolean): number => pods.filter(f).length;
  const ready = count(isPodReady);
  const updated = count((p) => p.metadata?.labels?.[REVISION_LABEL] === revision);
  const done = updated === desired && pods.length === desired && ready === desired;
  const currentRevision = done ? revision : String(previous.currentRevision ?? revision);
  const current = count((p) => p.metadata?.labels?.[REVISION_LABEL] === currentRevision);
  return {
    observedGeneration: sts.metadata?.generation ?? 1,
    replicas: pods.length,
    ...nonZero({ readyReplicas: ready, currentReplicas: current, updatedReplicas: updated }),
    availableReplicas: ready,
    currentRevision,
    updateRevision: revision,
    collisionCount: 0,
  };
}
