/**
 * Pod defaults: the PodSpec decode defaults plus `SetDefaults_Pod` on every decode; on create
 * the pod strategy's status and the admission plugins kube-apiserver enables by default —
 * ServiceAccount (service account name and the `kube-api-access-*` token volume),
 * DefaultTolerationSeconds and Priority.
 */
import { StatusError } from "../../status.ts";
import { generateName } from "../../names.ts";
import type { DefaultingContext, KindDefaults, Obj } from "./types.ts";
import { child, itemsAt, objectAt } from "./types.ts";
import { DEFAULT_VOLUME_MODE, podOnlyDefaults, podSpecDefaults, serviceAccountAlias } from "./pod-spec.ts";

/** Where the ServiceAccount admission mounts the API token. */
export const TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

/** The prefix of the token volume's generated name. */
const TOKEN_VOLUME_PREFIX = "kube-api-access-";

/** Pod. */
export const pod: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    podSpecDefaults(spec);
    podOnlyDefaults(spec);
  },
  create(obj, ctx) {
    const spec = child(obj, "spec");
    serviceAccountAdmission(obj, spec, ctx);
    priorityAdmission(obj, spec, ctx);
    defaultTolerationSeconds(spec);
    obj.status = podStatus(spec);
  },
};

/** The status of a new Pod: Pending, its QoS class, and the SchedulingGated condition. */
function podStatus(spec: Obj): Obj {
  const status: Obj = { phase: "Pending" };
  if (itemsAt(spec, "schedulingGates").length > 0) {
    status.conditions = [{
      type: "PodScheduled",
      status: "False",
      lastProbeTime: null,
      lastTransitionTime: null,
      reason: "SchedulingGated",
      message: "Scheduling is blocked due to non-empty scheduling gates",
    }];
  }
  status.qosClass = qosClass(spec);
  return status;
}

/**
 * The QoS class kube-apiserver computes: BestEffort when no container (nor the pod) requests
 * or limits cpu or memory; Guaranteed when cpu and memory are limited everywhere and every
 * request equals its limit; Burstable otherwise.
 */
export function qosClass(spec: Obj): "BestEffort" | "Burstable" | "Guaranteed" {
  const tracked = (r: Obj | undefined): Obj =>
    Object.fromEntries(Object.entries(r ?? {}).filter(([k, v]) => (k === "cpu" || k === "memory") && !isZero(v)));
  const podResources = objectAt(spec, "resources");
  const scopes = podResources && (objectAt(podResources, "requests") || objectAt(podResources, "limits"))
    ? [podResources]
    : [...itemsAt(spec, "initContainers"), ...itemsAt(spec, "containers")].map((c) => objectAt(c, "resources") ?? {});
  let any = false;
  let guaranteed = true;
  for (const r of scopes) {
    const requests = tracked(objectAt(r, "requests"));
    const limits = tracked(objectAt(r, "limits"));
    if (Object.keys(requests).length || Object.keys(limits).length) any = true;
    if (!("cpu" in limits) || !("memory" in limits)) guaranteed = false;
    for (const [k, v] of Object.entries(requests)) if (String(limits[k]) !== String(v)) guaranteed = false;
  }
  if (!any) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

function isZero(q: unknown): boolean {
  return /^[+]?0*(\.0*)?[a-zA-Z]*$/.test(String(q));
}

/**
 * The ServiceAccount admission: the `default` service account when none is named, and —
 * unless the pod or its service account turns automounting off — a projected token volume
 * mounted read-only into every container that has nothing at {@link TOKEN_MOUNT_PATH}. (A
 * real server also rejects a pod whose service account does not exist; LocalCluster has no
 * service account controller to create them, so it does not.)
 */
function serviceAccountAdmission(obj: Obj, spec: Obj, ctx: DefaultingContext): void {
  const meta = objectAt(obj, "metadata") ?? {};
  if (objectAt(meta, "annotations")?.["kubernetes.io/config.mirror"] !== undefined) return;
  if (!spec.serviceAccountName) spec.serviceAccountName = "default";
  serviceAccountAlias(spec);
  const account = ctx.lookup?.("/serviceaccounts", String(meta.namespace ?? ""), String(spec.serviceAccountName)) as Obj | undefined;
  const automount = typeof spec.automountServiceAccountToken === "boolean"
    ? spec.automountServiceAccountToken
    : typeof account?.automountServiceAccountToken === "boolean" ? account.automountServiceAccountToken : true;
  if (!automount) return;
  const volumes = itemsAt(spec, "volumes");
  const existing = volumes.find((v) => typeof v.name === "string" && v.name.startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = (existing?.name as string | undefined) ?? generateName(TOKEN_VOLUME_PREFIX);
  let needsVolume = false;
  for (const c of [...itemsAt(spec, "initContainers"), ...itemsAt(spec, "containers")]) {
    const mounts = itemsAt(c, "volumeMounts");
    if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
    c.volumeMounts = [...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []), { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
    needsVolume = true;
  }
  if (needsVolume && !existing) spec.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), tokenVolume(volumeName)];
}

/**
 * The projected volume the ServiceAccount admission adds: a bound token (3607 s, the
 * warn-only extended expiry), the cluster CA, the namespace, and — as the recorded
 * kube-apiserver v1.36.2 answers show — the service CA bundle.
 */
function tokenVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: DEFAULT_VOLUME_MODE,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
        { configMap: { name: "openshift-service-ca.crt", items: [{ key: "service-ca.crt", path: "service-ca.crt" }] } },
      ],
    },
  };
}

/** The taints DefaultTolerationSeconds tolerates for 300 s unless the pod already does. */
const DEFAULT_TOLERATED_TAINTS = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"];

function defaultTolerationSeconds(spec: Obj): void {
  const tolerations = itemsAt(spec, "tolerations");
  const added = DEFAULT_TOLERATED_TAINTS.filter((key) => !tolerations.some((t) =>
    (t.key === key || !t.key) && (t.effect === "NoExecute" || !t.effect)));
  if (!added.length) return;
  spec.tolerations = [
    ...(Array.isArray(spec.tolerations) ? spec.tolerations : []),
    ...added.map((key) => ({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 })),
  ];
}

/** The PriorityClasses kube-apiserver creates at startup. */
const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  "system-node-critical": 2000001000,
  "system-cluster-critical": 2000000000,
};

/**
 * The Priority admission: the priority (and preemption policy) of the named PriorityClass, of
 * the global default class when none is named, or 0 and PreemptLowerPriority without one.
 */
function priorityAdmission(obj: Obj, spec: Obj, ctx: DefaultingContext): void {
  const className = typeof spec.priorityClassName === "string" ? spec.priorityClassName : "";
  const podName = String(objectAt(obj, "metadata")?.name ?? "");
  let value = 0;
  let policy = "PreemptLowerPriority";
  if (className) {
    const stored = ctx.lookup?.("scheduling.k8s.io/priorityclasses", "", className) as Obj | undefined;
    if (stored) {
      value = Number(stored.value ?? 0);
      if (typeof stored.preemptionPolicy === "string") policy = stored.preemptionPolicy;
    } else if (className in SYSTEM_PRIORITY_CLASSES) {
      value = SYSTEM_PRIORITY_CLASSES[className]!;
    } else if (ctx.lookup) {
      throw new StatusError(403, "Forbidden", `pods "${podName}" is forbidden: no PriorityClass with name ${className} was found`);
    } else {
      return;
    }
  } else {
    const global = ctx.list?.("scheduling.k8s.io/priorityclasses").find((c) => (c as Obj).globalDefault === true) as Obj | undefined;
    if (global) {
      value = Number(global.value ?? 0);
      if (typeof global.preemptionPolicy === "string") policy = global.preemptionPolicy;
      spec.priorityClassName = objectAt(global, "metadata")?.name;
    }
  }
  if (typeof spec.priority === "number" && spec.priority !== value) {
    throw new StatusError(403, "Forbidden",
      `pods "${podName}" is forbidden: the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`);
  }
  spec.priority = value;
  if (spec.preemptionPolicy === undefined || spec.preemptionPolicy === null) spec.preemptionPolicy = policy;
}
