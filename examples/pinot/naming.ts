/**
 * Names and labels of a Pinot node's objects, and the node types Pinot knows.
 */
import type { Pinot, PinotNode } from "./types.ts";

/** The four Pinot roles and the command that starts each (the apachepinot/pinot image's entry point). */
export const START_COMMANDS: Readonly<Record<string, string>> = {
  controller: "StartController",
  broker: "StartBroker",
  server: "StartServer",
  minion: "StartMinion",
};

/** The label naming the node (within its Pinot) a pod, workload, ConfigMap or Service belongs to. */
export const NODE_LABEL = "pinot.datainfra.io/node";

/** Name of the node's workload and Service: `<pinot>-<node>`. */
export function nodeObjectName(pinot: Pinot, node: PinotNode): string {
  return `${pinot.metadata!.name!}-${node.name}`;
}

/** Name of the node's ConfigMap. */
export function nodeConfigMapName(pinot: Pinot, node: PinotNode): string {
  return `${nodeObjectName(pinot, node)}-config`;
}

/** Name of the claim a Deployment node mounts for one `storageConfig` entry (a StatefulSet gets one per pod from its templates). */
export function nodeClaimName(pinot: Pinot, node: PinotNode, storage: string): string {
  return `${nodeObjectName(pinot, node)}-${storage}`;
}

/** The workload kind a node's `kind` asks for (`Statefulset`, as the CRD spells it, or `Deployment`; any case), or undefined. */
export function workloadKind(node: PinotNode): "StatefulSet" | "Deployment" | undefined {
  const kind = node.kind.toLowerCase();
  return kind === "statefulset" ? "StatefulSet" : kind === "deployment" ? "Deployment" : undefined;
}

/** Labels selecting a node's pods (never change: selectors are immutable). */
export function selectorLabels(pinot: Pinot, node: PinotNode): Record<string, string> {
  return { "app.kubernetes.io/instance": pinot.metadata!.name!, [NODE_LABEL]: node.name };
}

/** Labels of every object of a node. */
export function nodeLabels(pinot: Pinot, node: PinotNode): Record<string, string> {
  return { "app.kubernetes.io/name": "pinot", "app.kubernetes.io/component": node.nodeType, ...selectorLabels(pinot, node) };
}

/** Where a node's config file is mounted, and its file name. */
export function configPath(node: PinotNode): { dir: string; file: string } {
  return { dir: `/var/pinot/${node.nodeType}/config`, file: `pinot-${node.nodeType}.conf` };
}

/** The name of the pod volume holding the node's ConfigMap. */
export const CONFIG_VOLUME = "pinot-config";
