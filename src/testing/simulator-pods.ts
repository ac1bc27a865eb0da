/**
 * The simulator's kubelet and volume binder: Pending Pods start on the one fake node, Pending
 * PersistentVolumeClaims bind to a made-up volume.
 */
import { randomBytes } from "node:crypto";
import type { ApiContext } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { KubeObject } from "./resource-type.ts";
import type { Json, SimulatedTypes, SimulatorWrites } from "./simulator-objects.ts";
import { now } from "./simulator-objects.ts";

/** The node every simulated Pod runs on. */
export const NODE_NAME = "localcluster-node";
const HOST_IP = "172.18.0.2";

/** Hands out Pod IPs from 10.244.0.0/16, skipping network and broadcast-looking addresses. */
export class PodIPs {
  #next = 0;

  /** The next unused address. */
  allocate(): string {
    const n = this.#next++;
    return `10.244.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
  }
}

/** The claims a Pod's volumes mount, by name. */
export function claimNames(pod: KubeObject): string[] {
  const volumes = ((pod.spec as Json | undefined)?.volumes ?? []) as Json[];
  return volumes.map((v) => v.persistentVolumeClaim?.claimName).filter((n): n is string => typeof n === "string");
}

/**
 * Starts a Pending Pod: binds it to {@link NODE_NAME} (a main-resource update, as the scheduler's
 * binding does), then reports it Running and Ready with container statuses.
 *
 * A Pod that mounts a claim stays Pending until the claim is Bound; the simulator retries it
 * when the claim binds.
 */
export function startPod(ctx: ApiContext, types: SimulatedTypes, writes: SimulatorWrites, ips: PodIPs, stored: StoredObject): void {
  if (stored.deleting) return;
  const pod = stored.object();
  const status = (pod.status ?? {}) as Json;
  if (status.phase !== undefined && status.phase !== "Pending") return;
  for (const claim of claimNames(pod)) {
    const pvc = ctx.store.get(types.claim.storageKey, stored.namespace, claim)?.object();
    if ((pvc?.status as Json | undefined)?.phase !== "Bound") return;
  }
  const bound = writes.update(types.pod, stored, (obj) => {
    const spec = (obj.spec ??= {}) as Json;
    spec.nodeName ??= NODE_NAME;
  }, { binding: true });
  if (!bound) return;
  const spec = (bound.object().spec ?? {}) as Json;
  const time = now();
  const podIP = ips.allocate();
  const ready = (type: string): Json => ({ type, status: "True", lastProbeTime: null, lastTransitionTime: time });
  const completed = { terminated: { exitCode: 0, reason: "Completed", startedAt: time, finishedAt: time } };
  writes.status(types.pod, bound, {
    ...status,
    phase: "Running",
    conditions: ["PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"].map(ready),
    hostIP: HOST_IP,
    hostIPs: [{ ip: HOST_IP }],
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: time,
    ...(spec.initContainers?.length
      ? { initContainerStatuses: (spec.initContainers as Json[]).map((c) => containerStatus(c, completed, true, false)) }
      : {}),
    containerStatuses: ((spec.containers ?? []) as Json[]).map((c) => containerStatus(c, { running: { startedAt: time } }, true, true)),
  });
}

/** A container's status; a completed init container is ready but no longer started. */
function containerStatus(container: Json, state: Json, ready: boolean, started: boolean): Json {
  const image = String(container.image ?? "");
  return {
    name: container.name,
    image,
    imageID: `${image.split(":")[0]}@sha256:${randomBytes(32).toString("hex")}`,
    containerID: `containerd://${randomBytes(32).toString("hex")}`,
    ready,
    started,
    restartCount: 0,
    state,
  };
}

/**
 * Binds a Pending claim: sets `spec.volumeName` (a main-resource update), then reports it Bound
 * with the requested capacity and access modes.
 */
export function bindClaim(types: SimulatedTypes, writes: SimulatorWrites, stored: StoredObject): void {
  if (stored.deleting) return;
  const status = (stored.object().status ?? {}) as Json;
  if (status.phase !== undefined && status.phase !== "Pending") return;
  const bound = writes.update(types.claim, stored, (obj) => {
    const spec = (obj.spec ??= {}) as Json;
    spec.volumeName ??= `pvc-${stored.uid}`;
  });
  if (!bound) return;
  const spec = (bound.object().spec ?? {}) as Json;
  const storage = spec.resources?.requests?.storage;
  writes.status(types.claim, bound, {
    ...status,
    phase: "Bound",
    accessModes: spec.accessModes ?? ["ReadWriteOnce"],
    ...(storage !== undefined ? { capacity: { storage } } : {}),
  });
}
