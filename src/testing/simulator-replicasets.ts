/**
 * The simulator's ReplicaSet controller: keeps `spec.replicas` Pods from the template and
 * reports how many are ready.
 */
import type { ApiContext } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { KubeObject } from "./resource-type.ts";
import type { Json, SimulatedTypes, SimulatorWrites } from "./simulator-objects.ts";
import { controllerRef, isActive, isPodReady, nonZero, ownedBy } from "./simulator-objects.ts";

/**
 * Creates or deletes owned Pods to match `spec.replicas`, then writes the status.
 *
 * Caveats: Pods are owned by controller reference only (matching orphans are not adopted);
 * surplus Pods go not-ready first, then newest first; `minReadySeconds` is ignored.
 */
export function syncReplicaSet(ctx: ApiContext, types: SimulatedTypes, writes: SimulatorWrites, stored: StoredObject): void {
  if (stored.deleting) return;
  const rs = stored.object();
  const spec = (rs.spec ?? {}) as Json;
  const desired = Number(spec.replicas ?? 1);
  const pods = ownedBy(ctx, types.pod, stored).filter(isActive);
  if (pods.length < desired) {
    const template = (spec.template ?? {}) as Json;
    for (let i = pods.length; i < desired; i++) {
      writes.create(types.pod, stored.namespace, {
        apiVersion: "v1",
        kind: "Pod",
        metadata: {
          generateName: `${stored.name}-`,
          namespace: stored.namespace,
          ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
          ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
          ownerReferences: [controllerRef(types.replicaSet, stored)],
        },
        spec: structuredClone(template.spec ?? {}),
      });
    }
  } else if (pods.length > desired) {
    const surplus = pods
      .map((o) => ({ o, pod: o.object() }))
      .sort((a, b) => deletionRank(a.pod) - deletionRank(b.pod) || newerFirst(a.pod, b.pod));
    for (const { o } of surplus.slice(0, pods.length - desired)) writes.delete(types.pod, o);
  }
  const current = ownedBy(ctx, types.pod, stored).filter(isActive).map((o) => o.object());
  const ready = current.filter(isPodReady).length;
  const labelled = current.filter((p) => matchesLabels(p, spec.selector?.matchLabels)).length;
  writes.status(types.replicaSet, stored, {
    replicas: current.length,
    ...nonZero({ fullyLabeledReplicas: labelled, readyReplicas: ready, availableReplicas: ready }),
    observedGeneration: rs.metadata?.generation ?? 1,
  });
}

/** Lower goes first: unscheduled, then not ready, then ready Pods. */
function deletionRank(pod: KubeObject): number {
  if ((pod.status as Json | undefined)?.phase === "Pending") return 0;
  return isPodReady(pod) ? 2 : 1;
}

function newerFirst(a: KubeObject, b: KubeObject): number {
  const ta = a.metadata?.creationTimestamp ?? "";
  const tb = b.metadata?.creationTimestamp ?? "";
  return ta === tb ? 0 : ta < tb ? 1 : -1;
}

function matchesLabels(pod: KubeObject, matchLabels: Record<string, string> | undefined): boolean {
  return Object.entries(matchLabels ?? {}).every(([k, v]) => pod.metadata?.labels?.[k] === v);
}
