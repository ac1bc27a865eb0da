/**
 * Service defaults: core/v1 `SetDefaults_Service` on decode; on create what the service REST
 * storage allocates — cluster IPs, IP families, node ports (30000-32767, unique in the
 * cluster) — and the status the v1 encoding shows.
 */
import { invalid, invalidValue } from "../../status.ts";
import type { DefaultingContext, KindDefaults, Obj } from "./types.ts";
import { child, itemsAt, objectAt, orDefault, orDefaultString } from "./types.ts";

/** The node port range of a default kube-apiserver (`--service-node-port-range`). */
export const NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;

/** Service. */
export const service: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    orDefaultString(spec, "sessionAffinity", "None");
    if (spec.sessionAffinity === "None") delete spec.sessionAffinityConfig;
    if (spec.sessionAffinity === "ClientIP" && typeof objectAt(objectAt(spec, "sessionAffinityConfig"), "clientIP")?.timeoutSeconds !== "number") {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
    }
    orDefaultString(spec, "type", "ClusterIP");
    for (const p of itemsAt(spec, "ports")) {
      orDefaultString(p, "protocol", "TCP");
      if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === "") p.targetPort = p.port;
    }
    if (externallyAccessible(spec)) orDefaultString(spec, "externalTrafficPolicy", "Cluster");
    if (["ClusterIP", "NodePort", "LoadBalancer"].includes(spec.type)) orDefault(spec, "internalTrafficPolicy", "Cluster");
    if (spec.type === "LoadBalancer") {
      orDefault(spec, "allocateLoadBalancerNodePorts", true);
      for (const ingress of itemsAt(objectAt(objectAt(obj, "status"), "loadBalancer"), "ingress")) {
        if (ingress.ip) orDefault(ingress, "ipMode", "VIP");
      }
    }
  },
  create(obj, ctx) {
    const spec = child(obj, "spec");
    if (spec.type !== "ExternalName") allocateIPs(spec, ctx);
    allocateNodePorts(obj, spec, ctx);
    obj.status = { loadBalancer: {} };
  },
};

function externallyAccessible(spec: Obj): boolean {
  return spec.type === "LoadBalancer" || spec.type === "NodePort" ||
    (spec.type === "ClusterIP" && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
}

/** Cluster IPs and IP families of a new Service, for a single-stack IPv4 cluster. */
function allocateIPs(spec: Obj, ctx: DefaultingContext): void {
  const clusterIPs: unknown[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  if (!spec.clusterIP && typeof clusterIPs[0] === "string" && clusterIPs[0]) spec.clusterIP = clusterIPs[0];
  if (!spec.clusterIP) spec.clusterIP = ctx.allocateClusterIP();
  if (clusterIPs.length === 0) spec.clusterIPs = [spec.clusterIP];
  const headless = spec.clusterIP === "None";
  const selector = objectAt(spec, "selector");
  const headlessWithoutSelector = headless && (!selector || Object.keys(selector).length === 0);
  orDefault(spec, "ipFamilyPolicy", headlessWithoutSelector ? "RequireDualStack" : "SingleStack");
  if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) {
    spec.ipFamilies = [!headless && String(spec.clusterIP).includes(":") ? "IPv6" : "IPv4"];
  }
}

/**
 * Node ports of a NodePort Service, or a LoadBalancer that allocates them: each port without
 * one gets a free one; a requested one must be free. A LoadBalancer with the `Local` external
 * traffic policy also gets a health check node port.
 */
function allocateNodePorts(obj: Obj, spec: Obj, ctx: DefaultingContext): void {
  const wantsNodePorts = spec.type === "NodePort" || (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
  const wantsHealthCheck = spec.type === "LoadBalancer" && spec.externalTrafficPolicy === "Local";
  if (!wantsNodePorts && !wantsHealthCheck) return;
  const used = ctx.usedNodePorts?.() ?? new Set<number>();
  const taken = new Set<number>();
  const name = String(objectAt(obj, "metadata")?.name ?? "");
  const ports = itemsAt(spec, "ports");
  if (wantsNodePorts) {
    ports.forEach((p, i) => {
      if (typeof p.nodePort !== "number" || p.nodePort === 0) return;
      if (used.has(p.nodePort)) {
        throw invalid("Service", "", name, [invalidValue(`spec.ports[${i}].nodePort`, p.nodePort, "provided port is already allocated")]);
      }
      taken.add(p.nodePort);
    });
  }
  const pick = (): number => {
    const port = randomFreeNodePort(new Set([...used, ...taken]));
    taken.add(port);
    return port;
  };
  if (wantsNodePorts) for (const p of ports) if (typeof p.nodePort !== "number" || p.nodePort === 0) p.nodePort = pick();
  if (wantsHealthCheck && (typeof spec.healthCheckNodePort !== "number" || spec.healthCheckNodePort === 0)) spec.healthCheckNodePort = pick();
}

function firstFree(taken: ReadonlySet<number>): number {
  for (let p = NODE_PORT_RANGE.min; p <= NODE_PORT_RANGE.max; p++) if (!taken.has(p)) return p;
  return NODE_PORT_RANGE.min;
}

/** The node ports a stored Service holds (its ports' and its health check's). */
export function nodePortsOf(svc: Obj): number[] {
  const spec = objectAt(svc, "spec");
  const ports = itemsAt(spec, "ports").map((p) => p.nodePort).filter((n): n is number => typeof n === "number" && n > 0);
  if (typeof spec?.healthCheckNodePort === "number" && spec.healthCheckNodePort > 0) ports.push(spec.healthCheckNodePort);
  return ports;
}

/** A random free node port (random like kube-apiserver's allocator), scanning when the random picks collide. */
export function randomFreeNodePort(taken: ReadonlySet<number>): number {
  const size = NODE_PORT_RANGE.max - NODE_PORT_RANGE.min + 1;
  for (let i = 0; i < 32; i++) {
    const p = NODE_PORT_RANGE.min + Math.floor(Math.random() * size);
    if (!taken.has(p)) return p;
  }
  return firstFree(taken);
}
