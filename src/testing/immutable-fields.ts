/**
 * The update rules of built-in kinds: which fields an update (PUT, any PATCH, server-side
 * apply) may not change, with kube-apiserver's field paths and messages (its
 * `pkg/apis/{core,apps}/validation` and the Service REST storage).
 *
 * | Kind | Rule |
 * | --- | --- |
 * | Pod | only images, `activeDeadlineSeconds`, toleration additions, gate removals… (see `pod-update.ts`) |
 * | Service | `clusterIP`/`clusterIPs` may not change once set; a body without them keeps them |
 * | Deployment, ReplicaSet | `spec.selector` is immutable (apps/v1) |
 * | StatefulSet | only `replicas`, `ordinals`, `template`, `updateStrategy`, `revisionHistoryLimit`, `persistentVolumeClaimRetentionPolicy`, `minReadySeconds` may change |
 * | PersistentVolumeClaim | spec immutable except `volumeName` and `storageClassName` once, and `resources.requests` / `volumeAttributesClassName` of a bound claim; storage may not shrink to `status.capacity` |
 * | ConfigMap, Secret | with `immutable: true`, the data and the flag are frozen; a Secret's `type` always is |
 *
 * Metadata and status are not checked here: labels, annotations, finalizers and owner references
 * stay mutable, and `/status` writes never reach these rules.
 *
 * @module
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import type { StatusCause } from "./status.ts";
import { forbidden, formatValue } from "./status.ts";
import { podSpecUpdateCauses } from "./pod-update.ts";
import { quantityAmount, semanticEqual, shareDefaults } from "./semantic-equal.ts";
import { unifiedDiff } from "./text-diff.ts";

type Json = Record<string, any>;

/** What the update rules need from the write. */
export interface UpdateRuleContext {
  /** Allocates a Service clusterIP (for a Service turning from ExternalName into one that needs an IP). */
  allocateClusterIP(): string;
  /** The write is a scheduler's binding: a Pod's unset `spec.nodeName` may be set. */
  binding?: boolean;
}

/**
 * Applies the update rules of a built-in kind to `obj`, the object about to replace `old`.
 *
 * First fills in what kube-apiserver's REST storage carries forward for clients that leave it
 * out (a Service's `clusterIP`/`clusterIPs`, so a PUT or apply of the original manifest keeps
 * working), then returns one cause per forbidden change (empty when the update is allowed).
 *
 * @example
 * ```ts
 * import type { KubeObject, ResourceType } from "./resource-type.ts";
 * import { invalid } from "./status.ts";
 *
 * declare const type: ResourceType, next: KubeObject, old: KubeObject;
 * const causes = updateCauses(type, next, old, { allocateClusterIP: () => "10.96.0.10" });
 * if (causes.length) throw invalid(type.kind, type.group, next.metadata?.name ?? "", causes);
 * ```
 */
export function updateCauses(type: ResourceType, obj: KubeObject, old: KubeObject, ctx: UpdateRuleContext): StatusCause[] {
  if (!type.builtin) return [];
  const spec = obj.spec as Json | undefined;
  const oldSpec = old.spec as Json | undefined;
  switch (type.kind) {
    case "Pod":
      return podSpecUpdateCauses(spec, oldSpec, { binding: ctx.binding ?? false });
    case "Service":
      carryServiceIPs(obj, old, ctx);
      return serviceCauses(obj.spec as Json | undefined, oldSpec);
    case "Deployment":
    case "ReplicaSet":
      return semanticEqual(spec?.selector, oldSpec?.selector, ["spec", "selector"])
        ? []
        : [{ reason: "FieldValueInvalid", field: "spec.selector", message: `Invalid value: ${goLabelSelector(spec?.selector)}: field is immutable` }];
    case "StatefulSet":
      return statefulSetCauses(spec, oldSpec);
    case "PersistentVolumeClaim":
      return claimCauses(spec, oldSpec, old.status as Json | undefined, old.metadata?.annotations?.["volume.beta.kubernetes.io/storage-class"] !== undefined);
    case "ConfigMap":
      return frozenDataCauses(obj, old, ["data", "binaryData"]);
    case "Secret":
      return [...frozenDataCauses(obj, old, ["data"]), ...immutableField(obj.type, old.type, "type")];
    default:
      return [];
  }
}

function immutableField(value: unknown, oldValue: unknown, field: string): StatusCause[] {
  if (semanticEqual(value, oldValue)) return [];
  return [{ reason: "FieldValueInvalid", field, message: `Invalid value: ${formatValue(value)}: field is immutable` }];
}

// --- Service -------------------------------------------------------------------------------

const needsClusterIP = (spec: Json | undefined) => spec?.type !== "ExternalName";

/**
 * What the Service REST storage does before validating an update: keep the allocated IPs a
 * body leaves out, keep `clusterIPs` in step with a changed `clusterIP`, drop the IPs of a
 * Service turning into ExternalName and allocate one for a Service leaving it.
 */
function carryServiceIPs(obj: KubeObject, old: KubeObject, ctx: UpdateRuleContext): void {
  const spec = (obj.spec ??= {}) as Json;
  const prev = (old.spec ?? {}) as Json;
  const prevIPs = clusterIPsOf(prev);
  const sameIPs = () => semanticEqual(spec.clusterIPs, prevIPs);
  if (needsClusterIP(prev) && needsClusterIP(spec)) {
    if (!spec.clusterIP) spec.clusterIP = prev.clusterIP;
    if (!spec.clusterIPs?.length && prevIPs.length) spec.clusterIPs = structuredClone(prevIPs);
    if (spec.clusterIP !== prev.clusterIP && sameIPs()) spec.clusterIPs = [spec.clusterIP];
  } else if (needsClusterIP(prev) && !needsClusterIP(spec)) {
    if (spec.clusterIP === prev.clusterIP && (!spec.clusterIPs || sameIPs())) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
  } else if (!needsClusterIP(prev) && needsClusterIP(spec) && !spec.clusterIP) {
    spec.clusterIP = ctx.allocateClusterIP();
    spec.clusterIPs = [spec.clusterIP];
  }
}

/** `spec.clusterIPs`, or `[clusterIP]` for a Service stored with only the singular field. */
function clusterIPsOf(spec: Json | undefined): string[] {
  if (Array.isArray(spec?.clusterIPs) && spec.clusterIPs.length) return spec.clusterIPs;
  return typeof spec?.clusterIP === "string" && spec.clusterIP !== "" ? [spec.clusterIP] : [];
}

/** `validateUpgradeDowngradeClusterIPs`, plus `loadBalancerClass` and `healthCheckNodePort`. */
function serviceCauses(spec: Json | undefined, prev: Json | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!needsClusterIP(spec) || !needsClusterIP(prev)) return causes;
  const now = clusterIPsOf(spec);
  const before = clusterIPsOf(prev);
  const headless = (ips: string[]) => ips.length === 1 && ips[0] === "None";
  // v1.36 names the changed IP itself; an unset primary shows the (empty) list.
  const changed = (index: number, detail: string): StatusCause => ({
    reason: "FieldValueInvalid",
    field: `spec.clusterIPs[${index}]`,
    message: `Invalid value: ${now[index] === undefined ? goStrings(now) : formatValue(now[index])}: ${detail}`,
  });
  if (!(headless(now) && headless(before))) {
    if (now.length === before.length) {
      before.forEach((ip, i) => {
        if (ip !== now[i]) causes.push(changed(i, "may not change once set"));
      });
    } else if (now.length < before.length) {
      if (now.length === 0) causes.push(changed(0, "primary clusterIP can not be unset"));
      else if (now[0] !== before[0]) causes.push(changed(0, "may not change once set"));
    } else if (before.length > 0 && now[0] !== before[0]) {
      causes.push(changed(0, "may not change once set"));
    }
  }
  if (spec?.type === "LoadBalancer" && prev?.type === "LoadBalancer" && (spec.loadBalancerClass ?? null) !== (prev.loadBalancerClass ?? null)) {
    causes.push({
      reason: "FieldValueInvalid",
      field: "spec.loadBalancerClass",
      message: `Invalid value: ${formatValue(spec.loadBalancerClass)}: may not change once set`,
    });
  }
  if (prev?.healthCheckNodePort && spec?.healthCheckNodePort && spec.healthCheckNodePort !== prev.healthCheckNodePort) {
    causes.push(forbidden("spec.healthCheckNodePort", "field is immutable"));
  }
  return causes;
}

// --- StatefulSet ---------------------------------------------------------------------------

const STATEFUL_SET_MUTABLE = [
  "replicas", "ordinals", "template", "updateStrategy", "revisionHistoryLimit", "persistentVolumeClaimRetentionPolicy", "minReadySeconds",
];

function statefulSetCauses(spec: Json | undefined, prev: Json | undefined): StatusCause[] {
  const strip = (s: Json | undefined): Json => structuredClone(Object.fromEntries(Object.entries(s ?? {}).filter(([k]) => !STATEFUL_SET_MUTABLE.includes(k))));
  const next = strip(spec);
  const before = strip(prev);
  // Defaults kube-apiserver stores and LocalCluster does not: sending them is no change.
  const templates = (s: Json): Json[] => (Array.isArray(s.volumeClaimTemplates) ? s.volumeClaimTemplates : []);
  templates(next).forEach((t, i) => {
    const other = templates(before)[i];
    shareDefaults(t, other, { apiVersion: "v1", kind: "PersistentVolumeClaim" });
    shareDefaults(t?.spec, other?.spec, { volumeMode: "Filesystem" });
    for (const side of [t, other]) if (side) delete side.status;
  });
  if (semanticEqual(next, before, ["spec"])) return [];
  return [
    forbidden(
      "spec",
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

// --- PersistentVolumeClaim -----------------------------------------------------------------

function claimCauses(spec: Json | undefined, prev: Json | undefined, status: Json | undefined, hasBetaClass: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const next: Json = structuredClone(spec ?? {});
  const before: Json = structuredClone(prev ?? {});
  shareDefaults(next, before, { volumeMode: "Filesystem" });
  // The volume controller binds a claim by setting volumeName once.
  if (!before.volumeName) setOrDelete(before, "volumeName", next.volumeName);
  // A claim without a class may get one (a default class installed later, set retroactively).
  if (before.storageClassName == null && typeof next.storageClassName === "string" && next.storageClassName !== "" && !hasBetaClass) {
    before.storageClassName = next.storageClassName;
  }
  // A bound claim may be resized and given another volume attributes class (not unset).
  if (status?.phase === "Bound") {
    if (next.resources?.requests) {
      next.resources = { ...next.resources, requests: { ...next.resources.requests } };
      setOrDelete(next.resources.requests, "storage", before.resources?.requests?.storage);
    }
    if (next.volumeAttributesClassName != null) setOrDelete(next, "volumeAttributesClassName", before.volumeAttributesClassName);
  }
  if (!semanticEqual(next, before, ["spec"])) {
    causes.push(
      forbidden("spec", `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${unifiedDiff(claimSpecDump(before), claimSpecDump(next))}`),
    );
  }
  const size = quantityAmount(spec?.resources?.requests?.storage) ?? 0;
  const oldSize = quantityAmount(prev?.resources?.requests?.storage) ?? 0;
  const capacity = quantityAmount(status?.capacity?.storage) ?? 0;
  // RecoverVolumeExpansionFailure (on by default): a claim may shrink back, but not to its capacity.
  if (size < oldSize && size <= capacity) {
    causes.push(forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"));
  }
  if ((next.volumeMode ?? null) !== (before.volumeMode ?? null)) {
    causes.push({ reason: "FieldValueInvalid", field: "volumeMode", message: `Invalid value: ${formatValue(next.volumeMode)}: field is immutable` });
  }
  return causes;
}

/**
 * A claim spec as kube-apiserver prints it in the diff of its `Forbidden` message: the internal
 * Go struct as indented JSON, Go field names and order, every field present (`null`, `""`), map
 * keys sorted.
 */
function claimSpecDump(spec: Json): string[] {
  const sorted = (m: unknown) => (m && typeof m === "object" ? Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : null);
  const ref = (r: Json | undefined, namespaced: boolean) =>
    r ? { APIGroup: r.apiGroup ?? null, Kind: r.kind ?? "", Name: r.name ?? "", ...(namespaced ? { Namespace: r.namespace ?? null } : {}) } : null;
  const dump = {
    AccessModes: spec.accessModes ?? null,
    Selector: spec.selector ?? null,
    Resources: { Limits: sorted(spec.resources?.limits), Requests: sorted(spec.resources?.requests) },
    VolumeName: spec.volumeName ?? "",
    StorageClassName: spec.storageClassName ?? null,
    VolumeMode: spec.volumeMode ?? "Filesystem",
    DataSource: ref(spec.dataSource, false),
    DataSourceRef: ref(spec.dataSourceRef, true),
    VolumeAttributesClassName: spec.volumeAttributesClassName ?? null,
  };
  return JSON.stringify(dump, null, 2).split("\n");
}

// --- ConfigMap and Secret ------------------------------------------------------------------

function frozenDataCauses(obj: KubeObject, old: KubeObject, fields: string[]): StatusCause[] {
  if (old.immutable !== true) return [];
  const detail = "field is immutable when `immutable` is set";
  const causes: StatusCause[] = [];
  if (obj.immutable !== true) causes.push(forbidden("immutable", detail));
  for (const f of fields) if (!semanticEqual(obj[f], old[f])) causes.push(forbidden(f, detail));
  return causes;
}

// --- Go renderings of values in messages ---------------------------------------------------

/** A `[]string` as Go's `%#v` prints it: `[]string{"10.96.0.1"}`. */
function goStrings(values: readonly unknown[] | undefined): string {
  if (!values) return "[]string(nil)";
  return `[]string{${values.map((v) => JSON.stringify(String(v))).join(", ")}}`;
}

/** A label selector as Go's `%#v` prints `v1.LabelSelector` in `field is immutable` messages. */
function goLabelSelector(selector: Json | undefined): string {
  if (!selector) return "null";
  const labels = selector.matchLabels as Record<string, string> | undefined;
  const labelText = labels && Object.keys(labels).length
    ? `map[string]string{${Object.keys(labels).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(labels[k]))}`).join(", ")}}`
    : "map[string]string(nil)";
  const exprs = selector.matchExpressions as Json[] | undefined;
  const exprText = exprs?.length
    ? `[]v1.LabelSelectorRequirement{${exprs
        .map((e) => `v1.LabelSelectorRequirement{Key:${JSON.stringify(String(e?.key ?? ""))}, Operator:${JSON.stringify(String(e?.operator ?? ""))}, Values:${goStrings(e?.values)}}`)
        .join(", ")}}`
    : "[]v1.LabelSelectorRequirement(nil)";
  return `v1.LabelSelector{MatchLabels:${labelText}, MatchExpressions:${exprText}}`;
}

function setOrDelete(obj: Json, key: string, value: unknown): void {
  if (value === undefined) delete obj[key];
  else obj[key] = structuredClone(value);
}
