/**
 * What the CRD's schema cannot say: the checks a Pinot spec must pass before the operator builds
 * anything. Each problem names the field and what to do; the operator reports them all at once
 * (status `Invalid`, condition `Ready=False` reason `InvalidSpec`, one Warning event) and waits
 * for the spec to change.
 */
import { CONFIG_VOLUME, START_COMMANDS, nodeObjectName, workloadKind } from "./naming.ts";
import type { Pinot } from "./types.ts";

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** A StatefulSet's name leaves room for `-<ordinal>` pod names and the 10-character revision hash in a 63-character label. */
const MAX_OBJECT_NAME = 52;

/**
 * Every problem of `pinot`'s spec, as `field: what is wrong; fix` lines (empty when it can run).
 *
 * @example
 * ```ts
 * validatePinot(pinot); // ['spec.nodes[1].k8sConfig: "brokr" names no spec.k8sConfig entry; use one of controller, broker']
 * ```
 */
export function validatePinot(pinot: Pinot): string[] {
  const problems: string[] = [];
  const spec = pinot.spec;
  const k8sConfigs = spec.k8sConfig ?? [];
  const nodeConfigs = spec.pinotNodeConfig ?? [];
  duplicates(k8sConfigs.map((c) => c.name)).forEach((n) => problems.push(`spec.k8sConfig: "${n}" is defined twice; give every entry its own name`));
  duplicates(nodeConfigs.map((c) => c.name)).forEach((n) => problems.push(`spec.pinotNodeConfig: "${n}" is defined twice; give every entry its own name`));
  duplicates((spec.nodes ?? []).map((n) => n.name)).forEach((n) => problems.push(`spec.nodes: "${n}" is defined twice; node names must be unique`));
  if ((spec.nodes ?? []).length === 0) problems.push("spec.nodes: is empty; add at least one node");

  (spec.nodes ?? []).forEach((node, i) => {
    const at = `spec.nodes[${i}]`;
    if (!DNS_LABEL.test(node.name)) problems.push(`${at}.name: "${node.name}" is not a DNS label; use lower-case letters, digits and '-'`);
    const objectName = nodeObjectName(pinot, node);
    if (!DNS_1035_LABEL.test(objectName) || objectName.length > MAX_OBJECT_NAME) {
      problems.push(`${at}.name: the node's objects would be named "${objectName}", which is not a DNS-1035 label of at most ${MAX_OBJECT_NAME} characters; shorten the Pinot or node name`);
    }
    if (!workloadKind(node)) problems.push(`${at}.kind: "${node.kind}" is not a workload kind; use Statefulset or Deployment`);
    if (!Number.isInteger(node.replicas) || node.replicas < 0) problems.push(`${at}.replicas: ${node.replicas} must be a whole number, 0 or more`);
    if (!(node.nodeType in START_COMMANDS)) {
      problems.push(`${at}.nodeType: "${node.nodeType}" is not a Pinot node type; use one of ${Object.keys(START_COMMANDS).join(", ")}`);
    }
    if (!nodeConfigs.some((c) => c.name === node.pinotNodeConfig)) {
      problems.push(`${at}.pinotNodeConfig: "${node.pinotNodeConfig}" names no spec.pinotNodeConfig entry; use one of ${names(nodeConfigs)}`);
    }
    const k8s = k8sConfigs.find((c) => c.name === node.k8sConfig);
    if (!k8s) {
      problems.push(`${at}.k8sConfig: "${node.k8sConfig}" names no spec.k8sConfig entry; use one of ${names(k8sConfigs)}`);
    }
  });

  k8sConfigs.forEach((k8s, i) => {
    const at = `spec.k8sConfig[${i}]`;
    const storage = k8s.storageConfig ?? [];
    storage.forEach((s, j) => {
      if (!DNS_LABEL.test(s.name)) problems.push(`${at}.storageConfig[${j}].name: "${s.name}" is not a DNS label; use lower-case letters, digits and '-'`);
    });
    const volumeNames = [CONFIG_VOLUME, ...storage.map((s) => s.name), ...(k8s.volumes ?? []).map((v) => v.name)];
    duplicates(volumeNames).forEach((n) => problems.push(
      `${at}: volume name "${n}" is used more than once (by storageConfig, volumes, or the operator's own "${CONFIG_VOLUME}"); rename one`,
    ));
    duplicates([...(k8s.env ?? []).map((e) => e.name)]).forEach((n) => problems.push(`${at}.env: "${n}" is set twice; keep one`));
    duplicates((k8s.port ?? []).flatMap((p) => (p.name ? [p.name] : []))).forEach((n) => problems.push(`${at}.port: name "${n}" is used twice; port names must be unique`));
  });
  return problems;
}

function duplicates(values: readonly string[]): string[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

function names(entries: readonly { name: string }[]): string {
  return entries.length ? entries.map((e) => e.name).join(", ") : "(none defined)";
}
