/**
 * Table printers for built-in kinds: a small imitation of kube-apiserver's printers, so
 * `kubectl get` against LocalCluster shows familiar columns. Cells are produced for every
 * column, `priority > 0` ones included (kubectl shows those only with `-o wide`).
 */
import type { KubeObject } from "../resource-type.ts";
import { eventsV1ToCore } from "./events.ts";

/** One entry of a Table's `columnDefinitions`. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** Columns and the row function for one built-in kind. */
export interface BuiltinPrinter {
  columns: TableColumnDefinition[];
  /** One cell per column, in column order. */
  cells(obj: KubeObject, now: Date): unknown[];
}

/**
 * An elapsed time the way CRD `date` columns show it (apimachinery's `ShortHumanDuration`):
 * "45s", "12m", "5h", "3d", "2y"; "<invalid>" when more than a second in the future.
 *
 * @example
 * ```ts
 * shortHumanDuration(90_000); // → "1m"
 * ```
 */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * An elapsed time the way built-in Age columns show it (apimachinery's `HumanDuration`,
 * 2–3 significant figures): "90s", "5m30s", "3h20m", "2d4h", "400d", "3y45d".
 *
 * @example
 * ```ts
 * humanDuration(330_000); // → "5m30s"
 * ```
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  const pair = (big: number, unit: string, small: number, smallUnit: string) =>
    small === 0 ? `${big}${unit}` : `${big}${unit}${small}${smallUnit}`;
  if (minutes < 10) return pair(minutes, "m", seconds % 60, "s");
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return pair(hours, "h", minutes % 60, "m");
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return pair(days, "d", hours % 24, "h");
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return pair(years, "y", days % 365, "d");
  return `${years}y`;
}

function col(name: string, type: string, description: string, priority = 0, format = ""): TableColumnDefinition {
  return { name, type, format, description, priority };
}

/** ObjectMeta's `name` description (Go `metav1.ObjectMeta{}.SwaggerDoc()["name"]`): the Name columns'. */
export const OBJECT_META_NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a " +
  "client to request the generation of an appropriate name automatically. Name is primarily intended for creation " +
  "idempotence and configuration definition. Cannot be updated. More info: " +
  "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/** ObjectMeta's `creationTimestamp` description: the Age columns'. */
export const OBJECT_META_CREATION_TIMESTAMP_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed " +
  "to be set in happens-before order across separate operations. Clients may not set this value. It is represented " +
  "in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: " +
  "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const NAME = col("Name", "string", OBJECT_META_NAME_DESCRIPTION, 0, "name");
const AGE = col("Age", "string", OBJECT_META_CREATION_TIMESTAMP_DESCRIPTION);

/** Reads a nested field; `undefined` when any step is missing. */
function at(obj: unknown, ...keys: Array<string | number>): unknown {
  let v: unknown = obj;
  for (const k of keys) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

function num(v: unknown): number {
  return typeof v === "number" ? v : 0;
}

function str(v: unknown, fallback = ""): string {
  return typeof v === "string" && v !== "" ? v : fallback;
}

function list(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? (v as Array<Record<string, unknown>>) : [];
}

function keyCount(v: unknown): number {
  return typeof v === "object" && v !== null ? Object.keys(v).length : 0;
}

/** Age of a timestamp field, built-in style; "<unknown>" when absent. */
function since(value: unknown, now: Date): string {
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? "<unknown>" : humanDuration(now.getTime() - ms);
}

function age(obj: KubeObject, now: Date): string {
  return since(obj.metadata?.creationTimestamp, now);
}

const CREATED_AT = col("Created At", "date", "The time this object was created.");

/** A Role or ClusterRole: its name and creation time (RFC 3339). */
const rolePrinter: BuiltinPrinter = {
  columns: [NAME, CREATED_AT],
  cells: (o) => [o.metadata?.name ?? "", str(o.metadata?.creationTimestamp, "<unknown>")],
};

/** A RoleBinding or ClusterRoleBinding: `Kind/name` of its role; with `-o wide`, its subjects by kind. */
const bindingPrinter: BuiltinPrinter = {
  columns: [
    NAME,
    col("Role", "string", "The role the binding grants."),
    AGE,
    col("Users", "string", "Users in the binding.", 1),
    col("Groups", "string", "Groups in the binding.", 1),
    col("ServiceAccounts", "string", "ServiceAccounts in the binding.", 1),
  ],
  cells: (o, now) => {
    const subjects = list(o.subjects);
    const names = (kind: string) => subjects.filter((s) => s.kind === kind)
      .map((s) => (kind === "ServiceAccount" ? `${str(s.namespace)}/${str(s.name)}` : str(s.name))).join(", ");
    return [o.metadata?.name ?? "", `${str(at(o, "roleRef", "kind"))}/${str(at(o, "roleRef", "name"))}`, age(o, now),
      names("User"), names("Group"), names("ServiceAccount")];
  },
};

function podStatus(pod: KubeObject): string {
  let reason = str(at(pod, "status", "reason"), str(at(pod, "status", "phase"), "Pending"));
  let running = false;
  for (const cs of list(at(pod, "status", "containerStatuses"))) {
    const waiting = str(at(cs, "state", "waiting", "reason"));
    const terminated = at(cs, "state", "terminated");
    if (waiting) reason = waiting;
    else if (terminated) reason = str(at(terminated, "reason"), `ExitCode:${num(at(terminated, "exitCode"))}`);
    else if (at(cs, "ready") === true && at(cs, "state", "running")) running = true;
  }
  if (reason === "Completed" && running) reason = "Running";
  if (pod.metadata?.deletionTimestamp) reason = reason === "NodeLost" ? "Unknown" : "Terminating";
  return reason;
}

function serviceExternalIp(svc: KubeObject): string {
  const type = str(at(svc, "spec", "type"), "ClusterIP");
  const external = list(at(svc, "spec", "externalIPs")).map(String);
  if (type === "ExternalName") return str(at(svc, "spec", "externalName"), "<none>");
  if (type === "LoadBalancer") {
    const ingress = list(at(svc, "status", "loadBalancer", "ingress")).map((i) => str(i.ip, str(i.hostname)));
    const all = [...ingress.filter((s) => s !== ""), ...external];
    return all.length > 0 ? all.join(",") : "<pending>";
  }
  return external.length > 0 ? external.join(",") : "<none>";
}

function servicePorts(svc: KubeObject): string {
  const ports = list(at(svc, "spec", "ports")).map(
    (p) => `${num(p.port)}${p.nodePort ? `:${num(p.nodePort)}` : ""}/${str(p.protocol, "TCP")}`,
  );
  return ports.length > 0 ? ports.join(",") : "<none>";
}

/** Comma-joined container names and images of a pod template (kube's `layoutContainerCells`). */
function containerCells(template: unknown): [string, string] {
  const containers = list(at(template, "spec", "containers"));
  return [containers.map((c) => str(c.name)).join(","), containers.map((c) => str(c.image)).join(",")];
}

/** A LabelSelector the way `metav1.FormatLabelSelector` prints it: `a=b,c in (d,e)`; `<none>` if empty. */
function formatLabelSelector(selector: unknown): string {
  if (typeof selector !== "object" || selector === null) return "<none>";
  const reqs: Array<[string, string]> = [];
  for (const [k, v] of Object.entries((at(selector, "matchLabels") ?? {}) as Record<string, unknown>)) reqs.push([k, `${k}=${String(v)}`]);
  for (const e of list(at(selector, "matchExpressions"))) {
    const key = str(e.key);
    const values = (Array.isArray(e.values) ? e.values.map(String) : []).sort().join(",");
    switch (e.operator) {
      case "In": reqs.push([key, `${key} in (${values})`]); break;
      case "NotIn": reqs.push([key, `${key} notin (${values})`]); break;
      case "Exists": reqs.push([key, key]); break;
      case "DoesNotExist": reqs.push([key, `!${key}`]); break;
      default: return "<error>";
    }
  }
  reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return reqs.length > 0 ? reqs.map((r) => r[1]).join(",") : "<none>";
}

const ACCESS_MODES: Array<[string, string]> = [
  ["ReadWriteOnce", "RWO"], ["ReadOnlyMany", "ROX"], ["ReadWriteMany", "RWX"], ["ReadWriteOncePod", "RWOP"],
];

function pvcCells(o: KubeObject, now: Date): unknown[] {
  const volumeName = str(at(o, "spec", "volumeName"));
  const modes = list(at(o, "status", "accessModes")).map(String);
  const bound = volumeName !== "";
  const phase = o.metadata?.deletionTimestamp ? "Terminating" : str(at(o, "status", "phase"));
  const storageClass = str(at(o, "spec", "storageClassName"), str(o.metadata?.annotations?.["volume.beta.kubernetes.io/storage-class"]));
  return [
    o.metadata?.name ?? "",
    phase,
    volumeName,
    bound ? str(at(o, "status", "capacity", "storage")) : "",
    bound ? ACCESS_MODES.filter(([m]) => modes.includes(m)).map(([, short]) => short).join(",") : "",
    storageClass,
    str(at(o, "spec", "volumeAttributesClassName"), "<unset>"),
    age(o, now),
    str(at(o, "spec", "volumeMode"), "<unset>"),
  ];
}

function eventCells(obj: KubeObject, now: Date): unknown[] {
  const ev = obj.apiVersion === "events.k8s.io/v1" ? eventsV1ToCore(obj) : obj;
  const first = ev.firstTimestamp ? since(ev.firstTimestamp, now) : since(ev.eventTime, now);
  let last = ev.lastTimestamp ? since(ev.lastTimestamp, now) : first;
  const series = ev.series as { count?: number; lastObservedTime?: string } | undefined;
  if (series) last = since(series.lastObservedTime, now);
  const count = series ? num(series.count) : num(ev.count) || 1;
  const kind = str(at(ev, "involvedObject", "kind")).toLowerCase();
  const name = str(at(ev, "involvedObject", "name"));
  const component = str(at(ev, "source", "component"), str(ev.reportingComponent));
  const host = str(at(ev, "source", "host"), str(ev.reportingInstance));
  return [
    last,
    str(ev.type),
    str(ev.reason),
    name ? `${kind}/${name}` : kind,
    str(at(ev, "involvedObject", "fieldPath")),
    host ? `${component}, ${host}` : component,
    str(ev.message).trim(),
    first,
    count,
    ev.metadata?.name ?? "",
  ];
}

/** The built-in printers, by kind. */
export const printers: Readonly<Record<string, BuiltinPrinter>> = {
  ConfigMap: {
    columns: [NAME, col("Data", "string", "Number of keys in data and binaryData."), AGE],
    cells: (o, now) => [o.metadata?.name ?? "", keyCount(o.data) + keyCount(o.binaryData), age(o, now)],
  },
  Secret: {
    columns: [NAME, col("Type", "string", "The type of the secret."), col("Data", "string", "Number of keys."), AGE],
    cells: (o, now) => [o.metadata?.name ?? "", str(o.type, "Opaque"), keyCount(o.data), age(o, now)],
  },
  Deployment: {
    columns: [
      NAME,
      col("Ready", "string", "Number of ready pods out of the desired number."),
      col("Up-to-date", "string", "Total number of pods with the desired template."),
      col("Available", "string", "Total number of available pods."),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata?.name ?? "",
      `${num(at(o, "status", "readyReplicas"))}/${num(at(o, "spec", "replicas"))}`,
      num(at(o, "status", "updatedReplicas")),
      num(at(o, "status", "availableReplicas")),
      age(o, now),
    ],
  },
  StatefulSet: {
    columns: [NAME, col("Ready", "string", "Number of ready pods out of the desired number."), AGE],
    cells: (o, now) => [
      o.metadata?.name ?? "",
      `${num(at(o, "status", "readyReplicas"))}/${num(at(o, "spec", "replicas"))}`,
      age(o, now),
    ],
  },
  Pod: {
    columns: [
      NAME,
      col("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
      col("Status", "string", "The aggregate status of the containers in this pod."),
      col("Restarts", "string", "The number of times the containers in this pod have been restarted."),
      AGE,
    ],
    cells: (o, now) => {
      const statuses = list(at(o, "status", "containerStatuses"));
      const ready = statuses.filter((s) => s.ready === true).length;
      const restarts = statuses.reduce((sum, s) => sum + num(s.restartCount), 0);
      const total = list(at(o, "spec", "containers")).length;
      return [o.metadata?.name ?? "", `${ready}/${total}`, podStatus(o), restarts, age(o, now)];
    },
  },
  Service: {
    columns: [
      NAME,
      col("Type", "string", "How the service is exposed."),
      col("Cluster-IP", "string", "The IP address of the service."),
      col("External-IP", "string", "External IP addresses or the load balancer's ingress."),
      col("Port(s)", "string", "The ports the service exposes."),
      AGE,
    ],
    cells: (o, now) => [
      o.metadata?.name ?? "",
      str(at(o, "spec", "type"), "ClusterIP"),
      str(at(o, "spec", "clusterIP"), "<none>"),
      serviceExternalIp(o),
      servicePorts(o),
      age(o, now),
    ],
  },
  Namespace: {
    columns: [NAME, col("Status", "string", "The status of the namespace."), AGE],
    cells: (o, now) => [o.metadata?.name ?? "", str(at(o, "status", "phase"), "Active"), age(o, now)],
  },
  Event: {
    columns: [
      col("Last Seen", "string", "When the event was last seen."),
      col("Type", "string", "Normal or Warning."),
      col("Reason", "string", "Why the event happened, in CamelCase."),
      col("Object", "string", "The object the event is about."),
      col("Subobject", "string", "The field of the object the event is about.", 1),
      col("Source", "string", "The component that reported the event.", 1),
      col("Message", "string", "A human-readable description."),
      col("First Seen", "string", "When the event was first seen.", 1),
      col("Count", "string", "How many times the event happened.", 1),
      col("Name", "string", OBJECT_META_NAME_DESCRIPTION, 1, "name"),
    ],
    cells: eventCells,
  },
  ReplicaSet: {
    columns: [
      NAME,
      col("Desired", "integer", "Replicas is the number of desired pods."),
      col("Current", "integer", "Replicas is the most recently observed number of replicas."),
      col("Ready", "integer", "The number of pods targeted by this ReplicaSet with a Ready Condition."),
      AGE,
      col("Containers", "string", "Names of each container in the template.", 1),
      col("Images", "string", "Images referenced by each container in the template.", 1),
      col("Selector", "string", "A label query over pods that should match the replica count.", 1),
    ],
    cells: (o, now) => [
      o.metadata?.name ?? "",
      num(at(o, "spec", "replicas")),
      num(at(o, "status", "replicas")),
      num(at(o, "status", "readyReplicas")),
      age(o, now),
      ...containerCells(at(o, "spec", "template")),
      formatLabelSelector(at(o, "spec", "selector")),
    ],
  },
  ServiceAccount: {
    columns: [NAME, col("Secrets", "string", "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use."), AGE],
    cells: (o, now) => [o.metadata?.name ?? "", list(o.secrets).length, age(o, now)],
  },
  PersistentVolumeClaim: {
    columns: [
      NAME,
      col("Status", "string", "The current phase of the claim."),
      col("Volume", "string", "The binding reference to the PersistentVolume backing this claim."),
      col("Capacity", "string", "The actual resources of the underlying volume."),
      col("Access Modes", "string", "The actual access modes the volume backing the PVC has."),
      col("StorageClass", "string", "StorageClass of the pvc"),
      col("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc"),
      AGE,
      col("VolumeMode", "string", "Whether the volume is a formatted filesystem or a raw block device.", 1),
    ],
    cells: pvcCells,
  },
  Lease: {
    columns: [NAME, col("Holder", "string", "The holder of the lease."), AGE],
    cells: (o, now) => [o.metadata?.name ?? "", str(at(o, "spec", "holderIdentity")), age(o, now)],
  },
  Role: rolePrinter,
  ClusterRole: rolePrinter,
  RoleBinding: bindingPrinter,
  ClusterRoleBinding: bindingPrinter,
  CustomResourceDefinition: {
    columns: [NAME, CREATED_AT],
    cells: (o) => [o.metadata?.name ?? "", str(o.metadata?.creationTimestamp, "0001-01-01T00:00:00Z")],
  },
};
