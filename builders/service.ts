/**
 * Builder rules for Services: name, type and ports, and the cluster IP that cannot change in place.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules } from "./kind-rules.ts";
import { at, isRecord, jsonType } from "./json.ts";
import type { JsonRecord } from "./json.ts";
import type { Problems } from "./validation.ts";
import { checkDnsName, checkKind, checkLabels, checkMetadata, ianaServiceName, portNumber, problemsFor } from "./validation.ts";
import { nameRuleOf } from "../src/util/name-rules.ts";

const TYPES = ["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"];
const PROTOCOLS = ["TCP", "UDP", "SCTP"];

/** The rule kube-apiserver applies to the name (see `nameRuleOf`). */
const NAME_RULE = nameRuleOf("", "Service");

/**
 * Rules for `v1` Services, reconciled in the `service` phase (after the workloads they expose).
 *
 * Validation: `metadata.name` a DNS-1035 label (it becomes a DNS name, so it starts with a
 * letter: `9cache` is refused, as kube-apiserver refuses it); `spec.type` one of
 * ClusterIP, NodePort, LoadBalancer, ExternalName; an ExternalName service has a DNS-1123
 * subdomain `externalName`; at least one port unless the service is headless
 * (`clusterIP: None`) or ExternalName; each port 1–65535 with protocol TCP, UDP or SCTP; with
 * more than one port every port has a unique DNS-1123 label name; no two ports share
 * port and protocol; `targetPort` a port number or a port name; `nodePort` only for NodePort
 * and LoadBalancer; selector labels valid.
 *
 * Immutable changes: `spec.clusterIP` when both sides set it and differ (a desired object
 * that omits it accepts the allocated IP); `spec.ipFamilies` when both sides set it and the
 * primary (first) family differs — adding or dropping a secondary family is allowed.
 *
 * @example
 * ```ts
 * serviceRules.validate({
 *   apiVersion: "v1", kind: "Service", metadata: { name: "web" },
 *   spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }] },
 * }); // []
 * ```
 */
export const serviceRules: KindRules = {
  apiVersion: "v1",
  kind: "Service",
  phase: "service",
  validate(obj: KubeObject): BuilderValidationError[] {
    const p = problemsFor(obj, "Service");
    checkKind(p, obj, "v1", "Service");
    checkMetadata(p, obj, NAME_RULE);
    const spec = obj.spec;
    if (!isRecord(spec)) {
      p.add("spec", spec === undefined ? "is required" : `is ${jsonType(spec)}`, "set spec with ports and a selector");
      return p.list;
    }
    const type = spec.type ?? "ClusterIP";
    if (!TYPES.includes(type as string)) {
      p.add("spec.type", `${JSON.stringify(type)} is not a Service type`, `use one of ${TYPES.join(", ")}, or omit it for ClusterIP`);
    }
    if (type === "ExternalName") {
      if (spec.externalName === undefined) p.add("spec.externalName", "is required for type ExternalName", 'set the DNS name to alias, e.g. "db.example.com"');
      else checkDnsName(p, "spec.externalName", spec.externalName, "subdomain");
    }
    checkLabels(p, "spec.selector", spec.selector);
    checkPorts(p, spec, type === "ExternalName" || spec.clusterIP === "None", type === "NodePort" || type === "LoadBalancer");
    return p.list;
  },
  immutableChanges(live: KubeObject, desired: KubeObject): string[] {
    const changed: string[] = [];
    const ipBefore = at(live, "spec", "clusterIP");
    const ipAfter = at(desired, "spec", "clusterIP");
    if (typeof ipBefore === "string" && ipBefore !== "" && typeof ipAfter === "string" && ipAfter !== "" && ipBefore !== ipAfter) {
      changed.push("spec.clusterIP");
    }
    const familiesBefore = at(live, "spec", "ipFamilies");
    const familiesAfter = at(desired, "spec", "ipFamilies");
    if (Array.isArray(familiesBefore) && familiesBefore.length > 0 && Array.isArray(familiesAfter) && familiesAfter.length > 0) {
      if (familiesBefore[0] !== familiesAfter[0]) changed.push("spec.ipFamilies");
    }
    return changed;
  },
};

function checkPorts(p: Problems, spec: JsonRecord, portsOptional: boolean, nodePortsAllowed: boolean): void {
  const ports = spec.ports;
  if (ports !== undefined && !Array.isArray(ports)) {
    p.add("spec.ports", `is ${jsonType(ports)}, not a list`, "make ports a list of { name, port, targetPort }");
    return;
  }
  const list = ports ?? [];
  if (list.length === 0 && !portsOptional) {
    p.add("spec.ports", "has no ports", 'add a port, e.g. { name: "http", port: 80, targetPort: 8080 }, or set clusterIP: None for a headless service');
  }
  const names = new Set<string>();
  const pairs = new Set<string>();
  list.forEach((port, i) => {
    const field = `spec.ports[${i}]`;
    if (!isRecord(port)) return p.add(field, `is ${jsonType(port)}`, "write the port as { name, port, targetPort }");
    const why = portNumber(port.port);
    if (why) p.add(`${field}.port`, why, "use a port number from 1 to 65535");
    const protocol = port.protocol ?? "TCP";
    if (!PROTOCOLS.includes(protocol as string)) {
      p.add(`${field}.protocol`, `${JSON.stringify(protocol)} is not a protocol`, `use one of ${PROTOCOLS.join(", ")}, or omit it for TCP`);
    }
    const pair = `${String(port.port)}/${String(protocol)}`;
    if (pairs.has(pair)) p.add(`${field}.port`, `${pair} is used by another port`, "give each port a distinct port number or protocol");
    pairs.add(pair);
    if (port.name === undefined || port.name === "") {
      if (list.length > 1) p.add(`${field}.name`, "is required when a Service has more than one port", 'name every port, e.g. "http", "metrics"');
    } else if (checkDnsName(p, `${field}.name`, port.name, "label")) {
      if (names.has(port.name as string)) p.add(`${field}.name`, `${JSON.stringify(port.name)} is used by another port`, "give every port a unique name");
      names.add(port.name as string);
    }
    checkTargetPort(p, `${field}.targetPort`, port.targetPort);
    if (port.nodePort === undefined) return;
    if (!nodePortsAllowed) {
      p.add(`${field}.nodePort`, `is only allowed for type NodePort or LoadBalancer, this Service is ${String(spec.type ?? "ClusterIP")}`, "remove nodePort, or set spec.type: NodePort");
    } else if (portNumber(port.nodePort)) {
      p.add(`${field}.nodePort`, portNumber(port.nodePort)!, "use a port in the cluster's node port range (default 30000-32767), or omit it to get one allocated");
    }
  });
}

function checkTargetPort(p: Problems, field: string, target: unknown): void {
  if (target === undefined) return;
  if (typeof target === "number") {
    const why = portNumber(target);
    if (why) p.add(field, why, "use a container port number from 1 to 65535, or a container port name");
    return;
  }
  const why = typeof target === "string" ? ianaServiceName(target) : `is ${jsonType(target)}`;
  if (why) p.add(field, `${JSON.stringify(target)} is neither a port number nor a valid port name: it ${why}`, 'use a container port number such as 8080 or its name such as "http"');
}
