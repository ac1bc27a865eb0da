/**
 * Checks the workload spec shared by Deployments and StatefulSets: replicas, selector, pod template.
 */
import type { KubeObject } from "../src/client/types.ts";
import { isNonNegativeInteger, isRecord, jsonType } from "./json.ts";
import type { JsonRecord } from "./json.ts";
import { checkSelector, checkSelectorMatches } from "./selector.ts";
import type { Problems } from "./validation.ts";
import { checkDnsName, checkLabels, ianaServiceName, portNumber } from "./validation.ts";

const PROTOCOLS = ["TCP", "UDP", "SCTP"];

/**
 * Options of {@link checkWorkloadSpec}.
 *
 * @example
 * ```ts
 * import type { StatefulSet } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const sts: StatefulSet;
 * const p = problemsFor(sts, "StatefulSet");
 * const options: WorkloadSpecOptions = { claimNames: (sts.spec?.volumeClaimTemplates ?? []).map((t) => t.metadata?.name ?? "") };
 * checkWorkloadSpec(p, sts, options);
 * ```
 */
export interface WorkloadSpecOptions {
  /** Names of StatefulSet volume claim templates: mountable, and not to be reused by pod volumes. */
  claimNames?: string[];
}

/**
 * Checks `spec.replicas`, `spec.selector` (present, valid, matching the template labels) and
 * `spec.template` (labels, containers, ports, volumes, mounts) of a workload.
 *
 * @example
 * ```ts
 * import type { Deployment } from "operator-runtime";
 * import { problemsFor } from "./validation.ts";
 *
 * declare const obj: Deployment;
 * const p = problemsFor(obj, "Deployment");
 * checkWorkloadSpec(p, obj);
 * ```
 */
export function checkWorkloadSpec(p: Problems, obj: KubeObject, options: WorkloadSpecOptions = {}): void {
  const spec = obj.spec;
  if (!isRecord(spec)) {
    p.add("spec", spec === undefined ? "is required" : `is ${jsonType(spec)}`, "set spec with selector, template and optionally replicas");
    return;
  }
  if (spec.replicas !== undefined && !isNonNegativeInteger(spec.replicas)) {
    p.add("spec.replicas", `${JSON.stringify(spec.replicas)} is not a non-negative integer`, "set spec.replicas to 0 or more, or omit it for 1");
  }
  const selectorValid = checkSelector(p, "spec.selector", spec.selector);
  const template = spec.template;
  if (!isRecord(template)) {
    p.add("spec.template", template === undefined ? "is required" : `is ${jsonType(template)}`, "set spec.template with metadata.labels and spec.containers");
    return;
  }
  const labels = isRecord(template.metadata) ? template.metadata.labels : undefined;
  if (template.metadata !== undefined && !isRecord(template.metadata)) {
    p.add("spec.template.metadata", `is ${jsonType(template.metadata)}`, "make spec.template.metadata an object with labels");
  }
  checkLabels(p, "spec.template.metadata.labels", labels);
  if (selectorValid && isRecord(spec.selector)) {
    checkSelectorMatches(p, "spec.selector", spec.selector, "spec.template.metadata.labels", isRecord(labels) ? labels : {});
  }
  checkPodSpec(p, "spec.template.spec", template.spec, options.claimNames ?? []);
}

function checkPodSpec(p: Problems, field: string, podSpec: unknown, claimNames: string[]): void {
  if (!isRecord(podSpec)) {
    p.add(field, podSpec === undefined ? "is required" : `is ${jsonType(podSpec)}`, `set ${field}.containers with at least one container`);
    return;
  }
  if (podSpec.restartPolicy !== undefined && podSpec.restartPolicy !== "Always") {
    p.add(`${field}.restartPolicy`, `${JSON.stringify(podSpec.restartPolicy)} is not allowed for a workload's pods`, "omit restartPolicy or set it to Always (use a Job for run-to-completion pods)");
  }
  const mountable = new Set(claimNames);
  for (const [i, volume] of listAt(p, field, podSpec, "volumes").entries()) {
    const at = `${field}.volumes[${i}]`;
    if (!isRecord(volume)) {
      p.add(at, `is ${jsonType(volume)}`, "write the volume as { name, <source> }");
      continue;
    }
    if (!checkDnsName(p, `${at}.name`, volume.name, "label")) continue;
    const name = String(volume.name);
    if (claimNames.includes(name)) {
      p.add(`${at}.name`, `${JSON.stringify(name)} is also the name of a spec.volumeClaimTemplates entry`, "rename the pod volume or the claim template: the StatefulSet adds a volume named after each claim template");
    } else if (mountable.has(name)) {
      p.add(`${at}.name`, `${JSON.stringify(name)} is used by another volume`, "give every volume a unique name");
    }
    mountable.add(name);
  }
  const containers = listAt(p, field, podSpec, "containers");
  if (containers.length === 0 && (podSpec.containers === undefined || Array.isArray(podSpec.containers))) {
    p.add(`${field}.containers`, "has no containers", 'add a container with a name and an image, e.g. { name: "app", image: "nginx:1.27" }');
  }
  const names = new Set<string>();
  for (const group of ["initContainers", "containers"]) {
    for (const [i, container] of listAt(p, field, podSpec, group).entries()) {
      checkContainer(p, `${field}.${group}[${i}]`, container, names, mountable);
    }
  }
}

function listAt(p: Problems, field: string, podSpec: JsonRecord, key: string): unknown[] {
  const value = podSpec[key];
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  p.add(`${field}.${key}`, `is ${jsonType(value)}, not a list`, `make ${key} a list`);
  return [];
}

function checkContainer(p: Problems, at: string, container: unknown, names: Set<string>, mountable: Set<string>): void {
  if (!isRecord(container)) {
    p.add(at, `is ${jsonType(container)}`, "write the container as { name, image }");
    return;
  }
  const label = typeof container.name === "string" ? ` for container ${JSON.stringify(container.name)}` : "";
  if (container.name === undefined) {
    p.add(`${at}.name`, "is required", 'set a DNS-1123 label name, e.g. "app"');
  } else if (checkDnsName(p, `${at}.name`, container.name, "label")) {
    const name = String(container.name);
    if (names.has(name)) p.add(`${at}.name`, `${JSON.stringify(name)} is used by another container`, "give every container and init container a unique name");
    names.add(name);
  }
  if (container.image === undefined || container.image === null || container.image === "") {
    p.add(`${at}.image`, `is missing${label}`, 'set image, e.g. "nginx:1.27"');
  } else if (typeof container.image !== "string") {
    p.add(`${at}.image`, `is ${jsonType(container.image)}${label}, but it must be a string`, 'set image to an image reference string, e.g. "nginx:1.27"');
  } else if (container.image.trim() === "") {
    p.add(`${at}.image`, `is blank${label}`, 'set image, e.g. "nginx:1.27"');
  }
  const portNames = new Set<string>();
  const ports = container.ports === undefined ? [] : container.ports;
  if (!Array.isArray(ports)) {
    p.add(`${at}.ports`, `is ${jsonType(ports)}, not a list`, "make ports a list of { containerPort }");
  } else {
    ports.forEach((port, j) => checkContainerPort(p, `${at}.ports[${j}]`, port, portNames));
  }
  const mounts = container.volumeMounts === undefined ? [] : container.volumeMounts;
  if (!Array.isArray(mounts)) {
    p.add(`${at}.volumeMounts`, `is ${jsonType(mounts)}, not a list`, "make volumeMounts a list of { name, mountPath }");
    return;
  }
  mounts.forEach((mount, j) => {
    const mountAt = `${at}.volumeMounts[${j}]`;
    if (!isRecord(mount)) return p.add(mountAt, `is ${jsonType(mount)}`, "write the mount as { name, mountPath }");
    if (typeof mount.name !== "string" || !mountable.has(mount.name)) {
      p.add(`${mountAt}.name`, `${JSON.stringify(mount.name ?? null)} is not a volume of the pod`, "add a volume with that name to spec.template.spec.volumes (or a claim template), or fix the name");
    }
    if (mount.mountPath === undefined || mount.mountPath === "") {
      p.add(`${mountAt}.mountPath`, "is required", 'set mountPath to an absolute path, e.g. "/data"');
    } else if (typeof mount.mountPath !== "string") {
      p.add(`${mountAt}.mountPath`, `is ${jsonType(mount.mountPath)}, but it must be a string`, 'set mountPath to an absolute path, e.g. "/data"');
    }
  });
}

function checkContainerPort(p: Problems, at: string, port: unknown, portNames: Set<string>): void {
  if (!isRecord(port)) {
    p.add(at, `is ${jsonType(port)}`, "write the port as { containerPort: 8080 }");
    return;
  }
  const why = portNumber(port.containerPort);
  if (why) p.add(`${at}.containerPort`, why, "use a port number from 1 to 65535");
  if (port.hostPort !== undefined && port.hostPort !== 0 && portNumber(port.hostPort)) {
    p.add(`${at}.hostPort`, portNumber(port.hostPort)!, "use a port number from 1 to 65535, or omit hostPort");
  }
  if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol as string)) {
    p.add(`${at}.protocol`, `${JSON.stringify(port.protocol)} is not a protocol`, `use one of ${PROTOCOLS.join(", ")}, or omit it for TCP`);
  }
  if (port.name === undefined) return;
  const nameWhy = typeof port.name === "string" ? ianaServiceName(port.name) : `is ${jsonType(port.name)}`;
  if (nameWhy) {
    p.add(`${at}.name`, `${JSON.stringify(port.name)} is not a valid port name: it ${nameWhy}`, 'use a short name such as "http" or "metrics"');
  } else if (portNames.has(port.name as string)) {
    p.add(`${at}.name`, `${JSON.stringify(port.name)} is used by another port of this container`, "give every port of a container a unique name");
  } else {
    portNames.add(port.name as string);
  }
}
