/**
 * Per-kind rules applied on create and update: defaults a real API server fills in, and the
 * validation of kinds LocalCluster understands (CRDs, CRs, Events, owner references).
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import type { StatusCause } from "./status.ts";
import { badRequest, invalid, invalidValue, requiredValue } from "./status.ts";
import { prepareCustomResource } from "./crd/schema.ts";
import { crdDefaults, validateCrd } from "./crd/crd-validation.ts";
import { setMember } from "./json-value.ts";
import { checkObjectLimits } from "./metadata-validation.ts";
import { updateCauses } from "./immutable-fields.ts";
import { isRbacType, rbacCauses, rbacDefaults } from "./rbac/rbac-validation.ts";

/** Context for kind rules. */
export interface RuleContext {
  now: Date;
  /** fieldValidation query parameter. */
  fieldValidation: "Ignore" | "Warn" | "Strict";
  /** Warnings to send back as `Warning: 299` headers. */
  warnings: string[];
  /** Allocates a Service clusterIP. */
  allocateClusterIP(): string;
  /** The write is a scheduler's binding: a Pod's unset `spec.nodeName` may be set. */
  binding?: boolean;
}

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

/** Validates a new or updated object; throws 422/400 as the API server would. */
export function validateObject(type: ResourceType, obj: KubeObject, old: KubeObject | undefined, ctx: RuleContext): KubeObject {
  const name = obj.metadata?.name ?? "";
  const causes: StatusCause[] = validateOwnerReferences(obj);
  if (causes.length) throw invalid(type.kind, type.group, name, causes);
  checkObjectLimits(type, obj);
  if (!type.builtin && type.schema) {
    const { object, prunedFields } = prepareCustomResource(obj, type.schema, { kind: type.kind, group: type.group, name });
    if (prunedFields.length && ctx.fieldValidation !== "Ignore") {
      const msgs = prunedFields.map((f) => `unknown field "${f}"`);
      if (ctx.fieldValidation === "Strict") throw badRequest(`strict decoding error: ${msgs.join(", ")}`);
      ctx.warnings.push(...msgs);
    }
    return object;
  }
  if (type.kind === "CustomResourceDefinition") validateCrd(obj);
  if (isRbacType(type)) {
    const rbacErrors = rbacCauses(type.kind, obj, old);
    if (rbacErrors.length) throw invalid(type.kind, type.group, name, rbacErrors);
  }
  if (type.kind === "Deployment" || type.kind === "StatefulSet" || type.kind === "ReplicaSet") {
    validateWorkload(type, obj);
  }
  if (old) {
    const updateErrors = updateCauses(type, obj, old, ctx);
    if (updateErrors.length) throw invalid(type.kind, type.group, name, updateErrors);
  }
  return obj;
}

function validateOwnerReferences(obj: KubeObject): StatusCause[] {
  const refs = obj.metadata?.ownerReferences ?? [];
  const causes: StatusCause[] = [];
  refs.forEach((r, i) => {
    const f = `metadata.ownerReferences[${i}]`;
    if (!r.apiVersion) causes.push(requiredValue(`${f}.apiVersion`, "version must not be empty"));
    if (!r.kind) causes.push(requiredValue(`${f}.kind`, "kind must not be empty"));
    if (!r.name) causes.push(requiredValue(`${f}.name`, "name must not be empty"));
    if (!r.uid) causes.push(requiredValue(`${f}.uid`, "uid must not be empty"));
  });
  const controllers = refs.filter((r) => r.controller === true);
  if (controllers.length > 1) {
    causes.push(
      invalidValue(
        "metadata.ownerReferences",
        refs,
        `Only one reference can have Controller set to true. Found "true" in references for ${controllers.map((c) => `${c.kind}/${c.name}`).join(" and ")}`,
      ),
    );
  }
  return causes;
}

function validateWorkload(type: ResourceType, obj: KubeObject): void {
  const spec = (obj.spec ?? {}) as Record<string, any>;
  const name = obj.metadata?.name ?? "";
  const causes: StatusCause[] = [];
  const selector = spec.selector as { matchLabels?: Record<string, string> } | undefined;
  const labels = spec.template?.metadata?.labels as Record<string, string> | undefined;
  if (!selector) causes.push(requiredValue("spec.selector"));
  else if (selector.matchLabels) {
    for (const [k, v] of Object.entries(selector.matchLabels)) {
      if (labels?.[k] !== v) {
        causes.push(invalidValue("spec.template.metadata.labels", labels ?? {}, "`selector` does not match template `labels`"));
        break;
      }
    }
  }
  if (!Array.isArray(spec.template?.spec?.containers) || spec.template.spec.containers.length === 0) {
    causes.push(requiredValue("spec.template.spec.containers"));
  }
  if (causes.length) throw invalid(type.kind, type.group, name, causes);
}
