/** Service validation: `ValidateService`, in kube-apiserver's order (cluster-IP allocation aside). */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { dns1123LabelErrors, dns1123SubdomainErrors } from "../../names.ts";
import { qualifiedNameErrors } from "../../metadata-validation.ts";
import { duplicate, forbidden, invalid, list, notSupported, num, obj, portNumErrors, portNumOrNameCauses, required, str } from "./field.ts";
import type { Obj } from "./field.ts";

const PROTOCOLS = ["SCTP", "TCP", "UDP"];
const TYPES = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
const AFFINITIES = ["ClientIP", "None"];

function isHeadless(spec: Obj): boolean {
  const ips = list(spec.clusterIPs);
  return ips.length > 0 ? ips[0] === "None" : spec.clusterIP === "None";
}

/** `validateServicePort`. */
function portCauses(p: Obj, requireName: boolean, names: Set<string>, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = str(p.name);
  if (requireName && !name) causes.push(required(`${at}.name`));
  else if (name) {
    causes.push(...dns1123LabelErrors(name).map((m) => invalid(`${at}.name`, name, m)));
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    else names.add(name);
  }
  const port = num(p.port) ?? 0;
  causes.push(...portNumErrors(port).map((m) => invalid(`${at}.port`, port, m)));
  if (typeof p.protocol === "string" && p.protocol && !PROTOCOLS.includes(p.protocol)) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  causes.push(...portNumOrNameCauses(p.targetPort ?? port, `${at}.targetPort`));
  if (typeof p.appProtocol === "string") causes.push(...qualifiedNameErrors(p.appProtocol).map((m) => invalid(`${at}.appProtocol`, p.appProtocol, m)));
  return causes;
}

/** The internal `core.ServicePort` key kube-apiserver prints for a duplicate port. */
function portKey(protocol: string, port: number): Obj {
  return { Name: "", Protocol: protocol, AppProtocol: null, Port: port, TargetPort: 0, NodePort: 0 };
}

/** Every cause of a Service's spec. */
export function serviceCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const type = str(spec.type) || "ClusterIP";
  const ports = list(spec.ports).map((p) => obj(p) ?? {});
  const causes: StatusCause[] = [];
  if (ports.length === 0 && !isHeadless(spec) && type !== "ExternalName") causes.push(required("spec.ports"));
  if ((type === "LoadBalancer" || type === "NodePort") && isHeadless(spec)) {
    causes.push(invalid("spec.clusterIPs[0]", "None", `may not be set to 'None' for ${type} services`));
  }
  if (type === "ExternalName") {
    const cname = str(spec.externalName).replace(/\.$/, "");
    if (cname) causes.push(...dns1123SubdomainErrors(cname).map((m) => invalid("spec.externalName", cname, m)));
    else causes.push(required("spec.externalName"));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => causes.push(...portCauses(p, ports.length > 1, names, `spec.ports[${i}]`)));
  const affinity = str(spec.sessionAffinity) || "None";
  if (!AFFINITIES.includes(affinity)) causes.push(notSupported("spec.sessionAffinity", affinity, AFFINITIES));
  if (affinity === "None" && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    causes.push(forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
  }
  if (!TYPES.includes(type)) causes.push(notSupported("spec.type", type, TYPES));
  if (type === "ClusterIP") {
    ports.forEach((p, i) => {
      if ((num(p.nodePort) ?? 0) !== 0) causes.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const nodePort = num(p.nodePort) ?? 0;
    if (nodePort === 0) return;
    const key = `${str(p.protocol) || "TCP"}/${nodePort}`;
    if (nodePorts.has(key)) causes.push(duplicate(`spec.ports[${i}].nodePort`, nodePort));
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const protocol = str(p.protocol) || "TCP";
    const port = num(p.port) ?? 0;
    const key = `${protocol}/${port}`;
    if (seen.has(key)) causes.push(duplicate(`spec.ports[${i}]`, portKey(protocol, port)));
    seen.add(key);
  });
  if (list(spec.loadBalancerSourceRanges).length > 0 && type !== "LoadBalancer") {
    causes.push(forbidden("spec.LoadBalancerSourceRanges", "may only be used when `type` is 'LoadBalancer'"));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && type !== "LoadBalancer") {
    causes.push(forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"));
  }
  return causes;
}
