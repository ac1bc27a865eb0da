/**
 * PodSpec defaults shared by Pods and every pod template (Deployment, StatefulSet, DaemonSet,
 * ReplicaSet, ReplicationController, Job, CronJob, PodTemplate): kube-apiserver's core/v1
 * `SetDefaults_PodSpec`, `SetDefaults_Container`, probe, volume and field-selector defaults,
 * plus the `serviceAccount` alias the v1 conversion keeps equal to `serviceAccountName`.
 */
import { setMember } from "../../json-value.ts";
import type { Obj } from "./types.ts";
import { child, itemsAt, objectAt, orDefault, orDefaultString } from "./types.ts";
import { pvcSpecDefaults } from "./pvc.ts";

/** The file mode kube-apiserver defaults volume projections to (0644). */
export const DEFAULT_VOLUME_MODE = 420;

/** Decode-time defaults of a PodSpec (in a Pod or a template). */
export function podSpecDefaults(spec: Obj): void {
  orDefaultString(spec, "dnsPolicy", "ClusterFirst");
  orDefaultString(spec, "restartPolicy", "Always");
  orDefault(spec, "securityContext", {});
  orDefault(spec, "terminationGracePeriodSeconds", 30);
  orDefaultString(spec, "schedulerName", "default-scheduler");
  for (const c of allContainers(spec)) containerDefaults(c);
  if (spec.hostNetwork === true) {
    // With the host's network, a container port is a host port.
    for (const c of [...itemsAt(spec, "initContainers"), ...itemsAt(spec, "containers")]) {
      for (const p of itemsAt(c, "ports")) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
  for (const v of itemsAt(spec, "volumes")) volumeDefaults(v);
  serviceAccountAlias(spec);
}

/**
 * `spec.serviceAccount` is the deprecated name of `spec.serviceAccountName`: the v1 conversion
 * reads the old name when the new one is empty and always writes both.
 */
export function serviceAccountAlias(spec: Obj): void {
  if (!spec.serviceAccountName && typeof spec.serviceAccount === "string" && spec.serviceAccount) {
    spec.serviceAccountName = spec.serviceAccount;
  }
  if (typeof spec.serviceAccountName === "string" && spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
}

/** Init, regular and ephemeral containers of a PodSpec. */
export function allContainers(spec: Obj): Obj[] {
  return [...itemsAt(spec, "initContainers"), ...itemsAt(spec, "containers"), ...itemsAt(spec, "ephemeralContainers")];
}

/** `SetDefaults_Container` and the defaults of what a container holds. */
function containerDefaults(c: Obj): void {
  orDefaultString(c, "imagePullPolicy", imageTag(typeof c.image === "string" ? c.image : "") === "latest" ? "Always" : "IfNotPresent");
  orDefaultString(c, "terminationMessagePath", "/dev/termination-log");
  orDefaultString(c, "terminationMessagePolicy", "File");
  // `resources` is a struct, not a pointer: the v1 encoding always shows it.
  orDefault(c, "resources", {});
  for (const p of itemsAt(c, "ports")) orDefaultString(p, "protocol", "TCP");
  for (const key of ["livenessProbe", "readinessProbe", "startupProbe"]) {
    const probe = objectAt(c, key);
    if (probe) probeDefaults(probe);
  }
  const lifecycle = objectAt(c, "lifecycle");
  for (const key of ["postStart", "preStop"]) handlerDefaults(objectAt(lifecycle, key));
  for (const e of itemsAt(c, "env")) {
    const from = objectAt(e, "valueFrom");
    fieldRefDefaults(objectAt(from, "fieldRef"));
    resourceFieldRefDefaults(objectAt(from, "resourceFieldRef"));
  }
}

/**
 * The tag `ParseImageName` finds in an image reference: "latest" when there is neither tag
 * nor digest, "" when there is only a digest (or the reference is empty).
 */
export function imageTag(image: string): string {
  if (!image) return "";
  const at = image.indexOf("@");
  const name = at >= 0 ? image.slice(0, at) : image;
  const slash = name.lastIndexOf("/");
  const colon = name.lastIndexOf(":");
  if (colon > slash) return name.slice(colon + 1);
  return at >= 0 ? "" : "latest";
}

function probeDefaults(probe: Obj): void {
  orDefault(probe, "timeoutSeconds", 1);
  orDefault(probe, "periodSeconds", 10);
  orDefault(probe, "successThreshold", 1);
  orDefault(probe, "failureThreshold", 3);
  handlerDefaults(probe);
}

function handlerDefaults(handler: Obj | undefined): void {
  const get = objectAt(handler, "httpGet");
  if (!get) return;
  orDefaultString(get, "path", "/");
  orDefaultString(get, "scheme", "HTTP");
}

function fieldRefDefaults(ref: Obj | undefined): void {
  if (ref) orDefaultString(ref, "apiVersion", "v1");
}

function resourceFieldRefDefaults(ref: Obj | undefined): void {
  // `divisor` is a Quantity struct: its zero value encodes as "0".
  if (ref) orDefault(ref, "divisor", "0");
}

/** The keys of a Volume that are not a volume source. */
const NOT_A_SOURCE = new Set(["name"]);

/** `SetDefaults_Volume` and the defaults of each volume source. */
export function volumeDefaults(v: Obj): void {
  if (!Object.keys(v).some((k) => !NOT_A_SOURCE.has(k) && v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  for (const [key, defaults] of Object.entries(VOLUME_SOURCE_DEFAULTS)) {
    const source = objectAt(v, key);
    if (!source) continue;
    for (const [field, value] of Object.entries(defaults)) orDefaultString(source, field, value as string);
  }
  for (const key of ["secret", "configMap", "downwardAPI", "projected"]) {
    const source = objectAt(v, key);
    if (source) orDefault(source, "defaultMode", DEFAULT_VOLUME_MODE);
  }
  downwardItemsDefaults(objectAt(v, "downwardAPI"));
  for (const s of itemsAt(objectAt(v, "projected"), "sources")) {
    const token = objectAt(s, "serviceAccountToken");
    if (token) orDefault(token, "expirationSeconds", 3600);
    downwardItemsDefaults(objectAt(s, "downwardAPI"));
  }
  const azureDisk = objectAt(v, "azureDisk");
  if (azureDisk) orDefault(azureDisk, "readOnly", false);
  const hostPath = objectAt(v, "hostPath");
  if (hostPath) orDefault(hostPath, "type", "");
  const claim = objectAt(objectAt(v, "ephemeral"), "volumeClaimTemplate");
  if (claim) pvcSpecDefaults(child(claim, "spec"));
}

/** String defaults of volume sources (`SetDefaults_ISCSIVolumeSource`, `…RBD…`, `…AzureDisk…`, `…ScaleIO…`). */
const VOLUME_SOURCE_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  iscsi: { iscsiInterface: "default" },
  rbd: { pool: "rbd", user: "admin", keyring: "/etc/ceph/keyring" },
  azureDisk: { cachingMode: "ReadWrite", fsType: "ext4", kind: "Shared" },
  scaleIO: { storageMode: "ThinProvisioned", fsType: "xfs" },
};

function downwardItemsDefaults(source: Obj | undefined): void {
  for (const item of itemsAt(source, "items")) {
    fieldRefDefaults(objectAt(item, "fieldRef"));
    resourceFieldRefDefaults(objectAt(item, "resourceFieldRef"));
  }
}

/**
 * `SetDefaults_Pod` (Pods only, not templates): service links on, and every resource a
 * container (or the pod) limits but does not request is requested at its limit.
 */
export function podOnlyDefaults(spec: Obj): void {
  orDefault(spec, "enableServiceLinks", true);
  for (const c of [...itemsAt(spec, "initContainers"), ...itemsAt(spec, "containers")]) requestsFromLimits(objectAt(c, "resources"));
  requestsFromLimits(objectAt(spec, "resources"));
}

function requestsFromLimits(resources: Obj | undefined): void {
  const limits = objectAt(resources, "limits");
  if (!resources || !limits || Object.keys(limits).length === 0) return;
  const requests = child(resources, "requests");
  for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) setMember(requests, k, v);
}

/** Decode-time defaults of a pod template (`PodTemplateSpec`): those of its spec. */
export function podTemplateDefaults(template: Obj | undefined): void {
  const spec = objectAt(template, "spec");
  if (spec) podSpecDefaults(spec);
}

/**
 * A template's `metadata` is a struct in the v1 types: the encoding always shows it, `{}` when
 * empty. (It is not in managedFields: kube-apiserver adds it when writing the response.)
 */
export function templateMetadata(template: Obj | undefined): void {
  if (template) orDefault(template, "metadata", {});
}
