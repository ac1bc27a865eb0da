/**
 * Defaulting of built-in kinds, as kube-apiserver's code (not its schemas) does it: what a new
 * object gets on create ({@link createDefaults}) and what every decoded body gets
 * ({@link fieldDefaults}).
 */
import type { KubeObject, ResourceType } from "../resource-type.ts";
import type { RuleContext } from "../kind-rules.ts";
import { crdDefaults } from "../crd/crd-validation.ts";
import { setMember } from "../json-value.ts";
import { isRbacType, rbacDefaults } from "../rbac/rbac-validation.ts";

/** Fills server-side defaults of a new object (after metadata is set). */
export function createDefaults(type: ResourceType, obj: KubeObject, ctx: RuleContext): void {
  if (!type.builtin) return;
  const spec = (obj.spec ??= {}) as Record<string, unknown>;
  switch (type.kind) {
    case "Namespace":
      spec.finalizers = ["kubernetes"];
      obj.status = { phase: "Active" };
      obj.metadata!.labels = { ...obj.metadata!.labels, "kubernetes.io/metadata.name": obj.metadata!.name! };
      break;
    case "Pod":
      obj.status = { phase: "Pending", qosClass: "BestEffort" };
      spec.serviceAccountName ??= "default";
      break;
    case "Service":
      spec.type ??= "ClusterIP";
      if (spec.clusterIP === undefined && spec.type !== "ExternalName") {
        spec.clusterIP = ctx.allocateClusterIP();
        spec.clusterIPs = [spec.clusterIP];
      }
      break;
    case "PersistentVolumeClaim":
      obj.status = { phase: "Pending" };
      break;
    case "CustomResourceDefinition":
      Object.assign(obj, crdDefaults(obj, ctx.now));
      break;
  }
  if (Object.keys(spec).length === 0) delete obj.spec;
  fieldDefaults(type, obj);
}

/**
 * Field defaults of built-in kinds that kube-apiserver applies whenever it decodes a body —
 * on create, update and the result of a patch (server-side apply included) — so a PUT or an
 * apply that leaves a defaulted field out keeps it.
 */
export function fieldDefaults(type: ResourceType, obj: KubeObject): void {
  if (!type.builtin) return;
  if (isRbacType(type)) rbacDefaults(type.kind, obj);
  const spec = obj.spec as Record<string, any> | undefined;
  switch (type.kind) {
    case "Namespace":
      // kube-apiserver's namespace strategy keeps this label equal to the name on every write.
      if (obj.metadata?.name) obj.metadata.labels = { ...obj.metadata.labels, "kubernetes.io/metadata.name": obj.metadata.name };
      break;
    case "Secret": {
      obj.type ??= "Opaque";
      const stringData = obj.stringData as Record<string, unknown> | undefined;
      if (stringData !== undefined) {
        const data = (obj.data ??= {}) as Record<string, string>;
        for (const [k, v] of Object.entries(stringData)) setMember(data, k, Buffer.from(String(v), "utf8").toString("base64"));
        delete obj.stringData;
      }
      break;
    }
    case "Pod":
      if (spec) podSpecDefaults(spec);
      break;
    case "Service":
      if (!spec) break;
      spec.type ??= "ClusterIP";
      spec.sessionAffinity ??= "None";
      for (const p of (spec.ports as Record<string, unknown>[] | undefined) ?? []) {
        p.protocol ??= "TCP";
        p.targetPort ??= p.port;
      }
      break;
    case "Deployment":
    case "StatefulSet":
    case "ReplicaSet":
      if (!spec) break;
      spec.replicas ??= 1;
      if (type.kind === "Deployment") spec.strategy ??= { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } };
      if (type.kind === "StatefulSet") {
        spec.podManagementPolicy ??= "OrderedReady";
        spec.updateStrategy ??= { type: "RollingUpdate", rollingUpdate: { partition: 0 } };
      }
      if (spec.template?.spec) podSpecDefaults(spec.template.spec);
      break;
  }
}

/**
 * Defaults of list-map key fields (`protocol` of container and Service ports), for a server-side
 * apply configuration: structured-merge-diff names list items by their keys with these
 * defaults filled in, so an applied port without `protocol` is the live `TCP` port.
 */
export function keyFieldDefaults(type: ResourceType, obj: KubeObject): void {
  if (!type.builtin) return;
  const spec = obj.spec as Record<string, any> | undefined;
  if (!spec) return;
  if (type.kind === "Service") {
    for (const p of (spec.ports ?? []) as Record<string, unknown>[]) if (p && typeof p === "object") p.protocol ??= "TCP";
  } else if (type.kind === "Pod") {
    containerPortDefaults(spec);
  } else if (spec.template?.spec) {
    containerPortDefaults(spec.template.spec);
  }
}

function containerPortDefaults(spec: Record<string, any>): void {
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])] as Record<string, any>[]) {
    for (const p of (c?.ports ?? []) as Record<string, unknown>[]) if (p && typeof p === "object") p.protocol ??= "TCP";
  }
}

/** PodSpec defaults (also in workload templates): restart policy, scheduler, container port protocols. */
function podSpecDefaults(spec: Record<string, any>): void {
  spec.restartPolicy ??= "Always";
  spec.schedulerName ??= "default-scheduler";
  containerPortDefaults(spec);
}

