/**
 * PodSpec validation shared by Pods and every pod template (Deployment, ReplicaSet, DaemonSet,
 * Job, CronJob): `ValidatePodSpec` and the container checks under it, in kube-apiserver's order.
 * Fields kube-apiserver defaults before validating (restartPolicy, dnsPolicy, imagePullPolicy,
 * terminationMessagePolicy, port protocols, probe thresholds) are only checked when set.
 */
import type { StatusCause } from "../../status.ts";
import { dns1123LabelErrors, dns1123SubdomainErrors } from "../../names.ts";
import { configKeyErrors, qualifiedNameErrors, validateLabels } from "../../metadata-validation.ts";
import {
  duplicate,
  forbidden,
  inclusiveRange,
  invalid,
  list,
  nonNegative,
  notFound,
  notSupported,
  num,
  obj,
  portNumErrors,
  portNameErrors,
  portNumOrNameCauses,
  required,
  str,
} from "./field.ts";
import type { Obj } from "./field.ts";
import { resourceRequirementCauses } from "./resources.ts";

/** Options of a PodSpec validation. */
export interface PodSpecOptions {
  /** The spec is a Pod's own (not a template): images may not carry surrounding spaces. */
  isPod?: boolean;
}

const MAX_INT32 = 2147483647;

/** `ValidateDNS1123Label` on a field. */
function dnsLabel(value: string, field: string): StatusCause[] {
  return dns1123LabelErrors(value).map((m) => invalid(field, value, m));
}

/** `NameIsDNSSubdomain` on a field. */
function dnsSubdomain(value: string, field: string): StatusCause[] {
  return dns1123SubdomainErrors(value).map((m) => invalid(field, value, m));
}

/** `ValidateLocalNonReservedPath`: relative, no `..` element, not starting with `..`. */
function localPathCauses(path: string, field: string): StatusCause[] {
  const causes = localDescendingPathCauses(path, field);
  if (path.startsWith("..") && !path.startsWith("../")) causes.push(invalid(field, path, "must not start with '..'"));
  return causes;
}

/** `validateLocalDescendingPath`: relative, no `..` element. */
function localDescendingPathCauses(path: string, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (path.startsWith("/")) causes.push(invalid(field, path, "must be a relative path"));
  if (path.split("/").includes("..")) causes.push(invalid(field, path, "must not contain '..'"));
  return causes;
}

const FILE_MODE_MSG = "must be a number between 0 and 0777 (octal), both inclusive";

function fileModeCauses(mode: unknown, field: string): StatusCause[] {
  const m = num(mode);
  return m !== undefined && (m < 0 || m > 0o777) ? [invalid(field, m, FILE_MODE_MSG)] : [];
}

function keyToPathCauses(items: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  list(items).forEach((raw, i) => {
    const kp = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    if (!str(kp.key)) causes.push(required(`${at}.key`));
    if (!str(kp.path)) causes.push(required(`${at}.path`));
    causes.push(...localPathCauses(str(kp.path), `${at}.path`), ...fileModeCauses(kp.mode, `${at}.mode`));
  });
  return causes;
}

/**
 * Volume sources in the order `validateVolumeSource` visits them, with the field name its
 * "more than 1 volume type" error uses (`downwarAPI` is kube-apiserver's spelling) and the
 * checks of the common ones.
 */
const VOLUME_SOURCES: { key: string; errName: string; check?: (src: Obj, at: string) => StatusCause[] }[] = [
  { key: "emptyDir", errName: "emptyDir" },
  { key: "hostPath", errName: "hostPath", check: (s, at) => (str(s.path) ? localHostPathCauses(str(s.path), `${at}.path`) : [required(`${at}.path`)]) },
  { key: "gitRepo", errName: "gitRepo", check: (s, at) => [...(str(s.repository) ? [] : [required(`${at}.repository`)]), ...localDescendingPathCauses(str(s.directory), `${at}.directory`)] },
  { key: "gcePersistentDisk", errName: "gcePersistentDisk" },
  { key: "awsElasticBlockStore", errName: "awsElasticBlockStore" },
  {
    key: "secret",
    errName: "secret",
    check: (s, at) => [...(str(s.secretName) ? [] : [required(`${at}.secretName`)]), ...fileModeCauses(s.defaultMode, `${at}.defaultMode`), ...keyToPathCauses(s.items, `${at}.items`)],
  },
  { key: "nfs", errName: "nfs" },
  { key: "iscsi", errName: "iscsi" },
  { key: "glusterfs", errName: "glusterfs" },
  { key: "flocker", errName: "flocker" },
  { key: "persistentVolumeClaim", errName: "persistentVolumeClaim", check: (s, at) => (str(s.claimName) ? [] : [required(`${at}.claimName`)]) },
  { key: "rbd", errName: "rbd" },
  { key: "cinder", errName: "cinder" },
  { key: "cephfs", errName: "cephFS" },
  { key: "quobyte", errName: "quobyte" },
  { key: "downwardAPI", errName: "downwarAPI", check: (s, at) => fileModeCauses(s.defaultMode, `${at}.defaultMode`) },
  { key: "fc", errName: "fc" },
  { key: "flexVolume", errName: "flexVolume", check: (s, at) => (str(s.driver) ? [] : [required(`${at}.driver`)]) },
  {
    key: "configMap",
    errName: "configMap",
    check: (s, at) => [...(str(s.name) ? [] : [required(`${at}.name`)]), ...fileModeCauses(s.defaultMode, `${at}.defaultMode`), ...keyToPathCauses(s.items, `${at}.items`)],
  },
  { key: "azureFile", errName: "azureFile" },
  { key: "vsphereVolume", errName: "vsphereVolume" },
  { key: "photonPersistentDisk", errName: "photonPersistentDisk" },
  { key: "portworxVolume", errName: "portworxVolume" },
  { key: "azureDisk", errName: "azureDisk" },
  { key: "storageos", errName: "storageos" },
  { key: "projected", errName: "projected", check: (s, at) => fileModeCauses(s.defaultMode, `${at}.defaultMode`) },
  { key: "scaleIO", errName: "scaleIO" },
  { key: "csi", errName: "csi", check: (s, at) => (str(s.driver) ? [] : [required(`${at}.driver`)]) },
  { key: "ephemeral", errName: "ephemeral" },
  { key: "image", errName: "image" },
];

function localHostPathCauses(path: string, field: string): StatusCause[] {
  return path.split("/").includes("..") ? [invalid(field, path, "must not contain '..'")] : [];
}

/** `ValidateVolumes`: the causes, and the names of the volumes that passed (what mounts may refer to). */
function volumeCauses(volumes: unknown, field: string): { causes: StatusCause[]; names: Set<string> } {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  list(volumes).forEach((raw, i) => {
    const vol = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const name = str(vol.name);
    const el: StatusCause[] = [];
    let count = 0;
    for (const source of VOLUME_SOURCES) {
      const src = obj(vol[source.key]);
      if (!src) continue;
      if (count > 0) {
        el.push(forbidden(`${at}.${source.errName}`, "may not specify more than 1 volume type"));
        continue;
      }
      count++;
      if (source.check) el.push(...source.check(src, `${at}.${source.key}`));
    }
    if (count === 0) el.push(required(at, "must specify a volume type"));
    if (!name) el.push(required(`${at}.name`));
    else el.push(...dnsLabel(name, `${at}.name`));
    if (names.has(name)) el.push(duplicate(`${at}.name`, name));
    if (el.length === 0) names.add(name);
    else causes.push(...el);
  });
  return { causes, names };
}

const PROTOCOLS = ["SCTP", "TCP", "UDP"];

/** `validateContainerPorts`. */
function containerPortCauses(ports: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  list(ports).forEach((raw, i) => {
    const port = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const name = str(port.name);
    if (name) {
      const msgs = portNameErrors(name);
      if (msgs.length) causes.push(...msgs.map((m) => invalid(`${at}.name`, name, m)));
      else if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
      else names.add(name);
    }
    const containerPort = num(port.containerPort) ?? 0;
    if (containerPort === 0) causes.push(required(`${at}.containerPort`));
    else causes.push(...portNumErrors(containerPort).map((m) => invalid(`${at}.containerPort`, containerPort, m)));
    const hostPort = num(port.hostPort) ?? 0;
    if (hostPort !== 0) causes.push(...portNumErrors(hostPort).map((m) => invalid(`${at}.hostPort`, hostPort, m)));
    if (typeof port.protocol === "string" && port.protocol !== "" && !PROTOCOLS.includes(port.protocol)) {
      causes.push(notSupported(`${at}.protocol`, port.protocol, PROTOCOLS));
    }
  });
  return causes;
}

/** `IsRelaxedEnvVarName` (kube 1.34+): printable ASCII other than `=`. */
function envNameErrors(name: string): string[] {
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c > 0x7e || ch === "=") return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  }
  return [];
}

const ENV_FIELD_PATHS = [
  "metadata.name",
  "metadata.namespace",
  "metadata.uid",
  "spec.nodeName",
  "spec.serviceAccountName",
  "status.hostIP",
  "status.hostIPs",
  "status.podIP",
  "status.podIPs",
];

function keySelectorCauses(sel: Obj, field: string): StatusCause[] {
  const causes = dnsSubdomain(str(sel.name), `${field}.name`);
  if (!str(sel.key)) causes.push(required(`${field}.key`));
  else causes.push(...configKeyErrors(str(sel.key)).map((m) => invalid(`${field}.key`, str(sel.key), m)));
  return causes;
}

function fieldRefCauses(ref: Obj, field: string): StatusCause[] {
  const path = str(ref.fieldPath);
  if (!path) return [required(`${field}.fieldPath`)];
  const sub = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/.exec(path);
  if (sub) {
    const key = sub[1] === "metadata.annotations" ? sub[2]!.toLowerCase() : sub[2]!;
    return qualifiedNameErrors(key).map((m) => invalid(field, key, m));
  }
  if (!ENV_FIELD_PATHS.includes(path)) return [notSupported(`${field}.fieldPath`, path, ENV_FIELD_PATHS)];
  return [];
}

/** `ValidateEnv`. */
function envCauses(env: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  list(env).forEach((raw, i) => {
    const ev = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const name = str(ev.name);
    if (!name) causes.push(required(`${at}.name`));
    else causes.push(...envNameErrors(name).map((m) => invalid(`${at}.name`, name, m)));
    const from = obj(ev.valueFrom);
    if (!from) return;
    const vf = `${at}.valueFrom`;
    let sources = 0;
    if (obj(from.fieldRef)) {
      sources++;
      causes.push(...fieldRefCauses(from.fieldRef, `${vf}.fieldRef`));
    }
    if (obj(from.resourceFieldRef)) {
      sources++;
      if (!str(from.resourceFieldRef.resource)) causes.push(required(`${vf}.resourceFieldRef.resource`));
    }
    if (obj(from.configMapKeyRef)) {
      sources++;
      causes.push(...keySelectorCauses(from.configMapKeyRef, `${vf}.configMapKeyRef`));
    }
    if (obj(from.secretKeyRef)) {
      sources++;
      causes.push(...keySelectorCauses(from.secretKeyRef, `${vf}.secretKeyRef`));
    }
    if (sources === 0) causes.push(invalid(vf, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    else if (str(ev.value)) causes.push(invalid(vf, "", "may not be specified when `value` is not empty"));
    else if (sources > 1) causes.push(invalid(vf, "", "may not have more than one field specified at a time"));
  });
  return causes;
}

/** `ValidateEnvFrom`. */
function envFromCauses(envFrom: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  list(envFrom).forEach((raw, i) => {
    const ev = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix) causes.push(...envNameErrors(prefix).map((m) => invalid(`${at}.prefix`, prefix, m)));
    let sources = 0;
    for (const key of ["configMapRef", "secretRef"]) {
      const ref = obj(ev[key]);
      if (!ref) continue;
      sources++;
      const name = str(ref.name);
      if (!name) causes.push(required(`${at}.${key}.name`));
      else causes.push(...dns1123SubdomainErrors(name.endsWith("-") ? `${name.slice(0, -1)}a` : name).map((m) => invalid(`${at}.${key}.name`, name, m)));
    }
    if (sources === 0) causes.push(invalid(field, "", "must specify one of: `configMapRef` or `secretRef`"));
    else if (sources > 1) causes.push(invalid(field, "", "may not have more than one field specified at a time"));
  });
  return causes;
}

const MOUNT_PROPAGATIONS = ["Bidirectional", "HostToContainer", "None"];

/** `ValidateVolumeMounts` (device overlap aside). */
function volumeMountCauses(mounts: unknown, volumes: Set<string>, container: Obj, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const paths = new Set<string>();
  list(mounts).forEach((raw, i) => {
    const m = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!name) causes.push(required(`${at}.name`));
    if (!volumes.has(name)) causes.push(notFound(`${at}.name`, name));
    if (!mountPath) causes.push(required(`${at}.mountPath`));
    if (paths.has(mountPath)) causes.push(invalid(`${at}.mountPath`, mountPath, "must be unique"));
    paths.add(mountPath);
    const subPath = str(m.subPath);
    const subPathExpr = str(m.subPathExpr);
    if (subPath) causes.push(...localDescendingPathCauses(subPath, `${field}.subPath`));
    if (subPathExpr) {
      if (subPath) causes.push(invalid(`${at}.subPathExpr`, subPathExpr, "subPathExpr and subPath are mutually exclusive"));
      causes.push(...localDescendingPathCauses(subPathExpr, `${field}.subPathExpr`));
    }
    if (typeof m.mountPropagation === "string") {
      if (!MOUNT_PROPAGATIONS.includes(m.mountPropagation)) causes.push(notSupported(`${field}.mountPropagation`, m.mountPropagation, MOUNT_PROPAGATIONS));
      const privileged = obj(container.securityContext)?.privileged === true;
      if (m.mountPropagation === "Bidirectional" && !privileged) {
        causes.push(forbidden(`${field}.mountPropagation`, "Bidirectional mount propagation is available only to privileged containers"));
      }
    }
  });
  return causes;
}

const TERMINATION_MESSAGE_POLICIES = ["File", "FallbackToLogsOnError"];
const PULL_POLICIES = ["Always", "IfNotPresent", "Never"];

/** `validateContainerCommon`. */
function containerCommonCauses(c: Obj, volumes: Set<string>, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = str(c.name);
  if (!name) causes.push(required(`${at}.name`));
  else causes.push(...dnsLabel(name, `${at}.name`));
  if (!str(c.image)) causes.push(required(`${at}.image`));
  if (typeof c.terminationMessagePolicy === "string" && c.terminationMessagePolicy && !TERMINATION_MESSAGE_POLICIES.includes(c.terminationMessagePolicy)) {
    causes.push(notSupported(`${at}.terminationMessagePolicy`, c.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }
  causes.push(...containerPortCauses(c.ports, `${at}.ports`));
  causes.push(...envCauses(c.env, `${at}.env`));
  causes.push(...envFromCauses(c.envFrom, `${at}.envFrom`));
  causes.push(...volumeMountCauses(c.volumeMounts, volumes, c, `${at}.volumeMounts`));
  if (typeof c.imagePullPolicy === "string" && c.imagePullPolicy && !PULL_POLICIES.includes(c.imagePullPolicy)) {
    causes.push(notSupported(`${at}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  }
  causes.push(...resourceRequirementCauses(c.resources, `${at}.resources`));
  return causes;
}

const HANDLERS = ["exec", "httpGet", "tcpSocket", "grpc", "sleep"];

/** `validateHandler` for a probe (no `sleep`) or a lifecycle hook (no `grpc`). */
function handlerCauses(h: Obj, allowed: string[], field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  let count = 0;
  for (const key of HANDLERS) {
    const action = obj(h[key]);
    if (!action || !allowed.includes(key)) continue;
    if (count > 0) {
      causes.push(forbidden(`${field}.${key}`, "may not specify more than 1 handler type"));
      continue;
    }
    count++;
    const at = `${field}.${key}`;
    if (key === "exec" && list(action.command).length === 0) causes.push(required(`${at}.command`));
    if (key === "httpGet") {
      causes.push(...portNumOrNameCauses(action.port, `${at}.port`));
      if (typeof action.scheme === "string" && action.scheme && !["HTTP", "HTTPS"].includes(action.scheme)) {
        causes.push(notSupported(`${at}.scheme`, action.scheme, ["HTTP", "HTTPS"]));
      }
    }
    if (key === "tcpSocket") causes.push(...portNumOrNameCauses(action.port, `${at}.port`));
    if (key === "grpc") causes.push(...portNumOrNameCauses(num(action.port) ?? 0, `${at}.port`));
  }
  if (count === 0) causes.push(required(field, "must specify a handler type"));
  return causes;
}

/** `validateProbe` plus the liveness/startup `successThreshold` rule. */
function probeCauses(probe: unknown, kind: "liveness" | "readiness" | "startup", field: string): StatusCause[] {
  const p = obj(probe);
  if (!p) return [];
  const causes = handlerCauses(p, ["exec", "httpGet", "tcpSocket", "grpc"], field);
  for (const key of ["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"]) {
    causes.push(...nonNegative(p[key], `${field}.${key}`));
  }
  const grace = num(p.terminationGracePeriodSeconds);
  if (grace !== undefined && grace <= 0) causes.push(invalid(`${field}.terminationGracePeriodSeconds`, grace, "must be greater than 0"));
  const success = num(p.successThreshold);
  if (kind !== "readiness" && success !== undefined && success !== 0 && success !== 1) {
    causes.push(invalid(`${field}.successThreshold`, success, "must be 1"));
  }
  if (kind === "readiness" && p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null) {
    causes.push(invalid(`${field}.terminationGracePeriodSeconds`, p.terminationGracePeriodSeconds, "must not be set for readinessProbes"));
  }
  return causes;
}

function lifecycleCauses(lifecycle: unknown, field: string): StatusCause[] {
  const l = obj(lifecycle);
  if (!l) return [];
  const causes: StatusCause[] = [];
  for (const hook of ["postStart", "preStop"]) {
    const h = obj(l[hook]);
    if (h) causes.push(...handlerCauses(h, ["exec", "httpGet", "tcpSocket", "sleep"], `${field}.${hook}`));
  }
  return causes;
}

/**
 * `checkHostPortConflicts` across `containers`, indexed from 0 as kube-apiserver does (it
 * checks each init container alone, so their conflicts are reported at `initContainers[0]`).
 */
function hostPortConflictCauses(containers: Obj[], field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    list(c.ports).forEach((raw, pi) => {
      const p = obj(raw) ?? {};
      const hostPort = num(p.hostPort) ?? 0;
      if (hostPort === 0) return;
      const key = `${str(p.protocol) || "TCP"}/${str(p.hostIP)}/${hostPort}`;
      if (seen.has(key)) causes.push(duplicate(`${field}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return causes;
}

/** `validateContainers`. */
function containersCauses(containers: unknown, volumes: Set<string>, field: string): StatusCause[] {
  const items = list(containers).map((c) => obj(c) ?? {});
  if (items.length === 0) return [required(field)];
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  items.forEach((c, i) => {
    const at = `${field}[${i}]`;
    causes.push(...containerCommonCauses(c, volumes, at));
    const name = str(c.name);
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    else names.add(name);
    causes.push(...lifecycleCauses(c.lifecycle, `${at}.lifecycle`));
    causes.push(...probeCauses(c.livenessProbe, "liveness", `${at}.livenessProbe`));
    causes.push(...probeCauses(c.readinessProbe, "readiness", `${at}.readinessProbe`));
    causes.push(...probeCauses(c.startupProbe, "startup", `${at}.startupProbe`));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) causes.push(forbidden(`${at}.restartPolicy`, "may not be set for non-init containers"));
  });
  causes.push(...hostPortConflictCauses(items, field));
  return causes;
}

const INIT_ONLY_WITHOUT_RESTART = ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"];

/** `validateInitContainers`. */
function initContainersCauses(initContainers: unknown, regular: unknown, volumes: Set<string>, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set(list(regular).map((c) => str(obj(c)?.name)));
  list(initContainers).forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    causes.push(...containerCommonCauses(c, volumes, at));
    let restartAlways = false;
    if (typeof c.restartPolicy === "string") {
      if (c.restartPolicy !== "Always") causes.push(notSupported(`${at}.restartPolicy`, c.restartPolicy, ["Always"]));
      restartAlways = c.restartPolicy === "Always";
    }
    const name = str(c.name);
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    else if (name) names.add(name);
    causes.push(...hostPortConflictCauses([c], field));
    if (restartAlways) {
      causes.push(...lifecycleCauses(c.lifecycle, `${at}.lifecycle`));
      causes.push(...probeCauses(c.livenessProbe, "liveness", `${at}.livenessProbe`));
      causes.push(...probeCauses(c.readinessProbe, "readiness", `${at}.readinessProbe`));
      causes.push(...probeCauses(c.startupProbe, "startup", `${at}.startupProbe`));
    } else {
      for (const key of INIT_ONLY_WITHOUT_RESTART) {
        if (obj(c[key])) causes.push(forbidden(`${at}.${key}`, "may not be set for init containers without restartPolicy=Always"));
      }
    }
  });
  return causes;
}

const RESTART_POLICIES = ["Always", "OnFailure", "Never"];
const DNS_POLICIES = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];

/**
 * Causes of `ValidatePodSpec` for `spec` at `field` (`spec` for a Pod, `spec.template.spec`
 * for a template), in kube-apiserver's order.
 */
export function podSpecCauses(spec: unknown, field: string, opts: PodSpecOptions = {}): StatusCause[] {
  const s = obj(spec) ?? {};
  const { causes, names } = volumeCauses(s.volumes, `${field}.volumes`);
  causes.push(...containersCauses(s.containers, names, `${field}.containers`));
  causes.push(...initContainersCauses(s.initContainers, s.containers, names, `${field}.initContainers`));
  if (typeof s.restartPolicy === "string" && s.restartPolicy && !RESTART_POLICIES.includes(s.restartPolicy)) {
    causes.push(notSupported(`${field}.restartPolicy`, s.restartPolicy, RESTART_POLICIES));
  }
  if (typeof s.dnsPolicy === "string" && s.dnsPolicy && !DNS_POLICIES.includes(s.dnsPolicy)) {
    causes.push(notSupported(`${field}.dnsPolicy`, s.dnsPolicy, DNS_POLICIES));
  }
  causes.push(...validateLabels(s.nodeSelector, `${field}.nodeSelector`));
  if (s.dnsPolicy === "None") {
    const dnsConfig = obj(s.dnsConfig);
    if (!dnsConfig) causes.push(required(`${field}.dnsConfig`, "must provide `dnsConfig` when `dnsPolicy` is None"));
    else if (list(dnsConfig.nameservers).length === 0) {
      causes.push(required(`${field}.dnsConfig.nameservers`, "must provide at least one DNS nameserver when `dnsPolicy` is None"));
    }
  }
  if (str(s.serviceAccountName)) causes.push(...dnsSubdomain(str(s.serviceAccountName), `${field}.serviceAccountName`));
  if (str(s.nodeName)) causes.push(...dnsSubdomain(str(s.nodeName), `${field}.nodeName`));
  const deadline = num(s.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32)) {
    causes.push(invalid(`${field}.activeDeadlineSeconds`, deadline, inclusiveRange(1, MAX_INT32)));
  }
  if (str(s.hostname)) causes.push(...dnsLabel(str(s.hostname), `${field}.hostname`));
  if (str(s.subdomain)) causes.push(...dnsLabel(str(s.subdomain), `${field}.subdomain`));
  if (str(s.priorityClassName)) causes.push(...dnsSubdomain(str(s.priorityClassName), `${field}.priorityClassName`));
  if (opts.isPod) {
    for (const key of ["containers", "initContainers"]) {
      list(s[key]).forEach((raw, i) => {
        const image = str(obj(raw)?.image);
        if (image !== image.trim()) causes.push(invalid(`${field}.${key}[${i}].image`, image, "must not have leading or trailing whitespace"));
      });
    }
  }
  return causes;
}

/** `ValidatePodTemplateSpec` (label and annotation maps are checked in metadata-validation.ts). */
export function podTemplateSpecCauses(template: unknown, field: string): StatusCause[] {
  const t = obj(template) ?? {};
  const causes = podSpecCauses(t.spec, `${field}.spec`);
  if (list(obj(t.spec)?.ephemeralContainers).length > 0) {
    causes.push(forbidden(`${field}.spec.ephemeralContainers`, "ephemeral containers not allowed in pod template"));
  }
  return causes;
}

/** The template's restart policy after kube-apiserver's defaulting (`Always` when unset). */
export function templateRestartPolicy(template: unknown): string {
  return str(obj(obj(template)?.spec)?.restartPolicy) || "Always";
}
