/** NetworkPolicy validation: `ValidateNetworkPolicySpec`, in kube-apiserver's order (CIDR syntax aside). */
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { forbidden, invalid, list, notSupported, num, obj, portNameErrors, portNumErrors, required } from "./field.ts";
import { fullSelectorCauses } from "./pdb.ts";

const PROTOCOLS = ["SCTP", "TCP", "UDP"];
const POLICY_TYPES = ["Egress", "Ingress"];

function portCauses(raw: unknown, at: string): StatusCause[] {
  const p = obj(raw) ?? {};
  const causes: StatusCause[] = [];
  if (typeof p.protocol === "string" && !PROTOCOLS.includes(p.protocol)) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  const endPort = num(p.endPort);
  if (typeof p.port === "number") {
    causes.push(...portNumErrors(p.port).map((m) => invalid(`${at}.port`, p.port, m)));
    if (endPort !== undefined) {
      if (p.port > endPort) causes.push(invalid(`${at}.endPort`, endPort, "must be greater than or equal to `port`"));
      causes.push(...portNumErrors(endPort).map((m) => invalid(`${at}.endPort`, endPort, m)));
    }
  } else if (typeof p.port === "string") {
    if (endPort !== undefined) causes.push(forbidden(`${at}.endPort`, "may not be specified when `port` is non-numeric"));
    causes.push(...portNameErrors(p.port).map((m) => invalid(`${at}.port`, p.port, m)));
  } else if (endPort !== undefined) {
    causes.push(forbidden(`${at}.endPort`, "may not be specified when `port` is not specified"));
  }
  return causes;
}

function peerCauses(raw: unknown, at: string): StatusCause[] {
  const peer = obj(raw) ?? {};
  const causes: StatusCause[] = [];
  let peers = 0;
  if (obj(peer.podSelector)) {
    peers++;
    causes.push(...fullSelectorCauses(peer.podSelector, `${at}.podSelector`));
  }
  if (obj(peer.namespaceSelector)) {
    peers++;
    causes.push(...fullSelectorCauses(peer.namespaceSelector, `${at}.namespaceSelector`));
  }
  const ipBlock = obj(peer.ipBlock);
  if (ipBlock) {
    peers++;
    if (!ipBlock.cidr) causes.push(required(`${at}.ipBlock.cidr`));
  }
  if (peers === 0) causes.push(required(at, "must specify a peer"));
  else if (ipBlock && peers > 1) causes.push(forbidden(at, "may not specify both ipBlock and another peer"));
  return causes;
}

/** Every cause of a NetworkPolicy's spec. */
export function networkPolicyCauses(o: KubeObject): StatusCause[] {
  const spec = obj(o.spec) ?? {};
  const causes = fullSelectorCauses(spec.podSelector, "spec.podSelector");
  for (const [rules, peersKey] of [["ingress", "from"], ["egress", "to"]] as const) {
    list(spec[rules]).forEach((rawRule, i) => {
      const rule = obj(rawRule) ?? {};
      const at = `spec.${rules}[${i}]`;
      list(rule.ports).forEach((p, j) => causes.push(...portCauses(p, `${at}.ports[${j}]`)));
      list(rule[peersKey]).forEach((p, j) => causes.push(...peerCauses(p, `${at}.${peersKey}[${j}]`)));
    });
  }
  const types = list(spec.policyTypes);
  types.forEach((t, i) => {
    if (typeof t !== "string" || !POLICY_TYPES.includes(t)) causes.push(notSupported(`spec.policyTypes[${i}]`, t, ["Ingress", "Egress"]));
  });
  if (types.length > 2) causes.push(invalid("spec.policyTypes", types, "may not specify more than two policyTypes"));
  return causes;
}
