/**
 * The objects of one Pinot node, from its `k8sConfig` and `pinotNodeConfig`: a ConfigMap with
 * the node's properties file, a StatefulSet or Deployment running the Pinot role, a Service, and
 * (for a Deployment with storage) its PersistentVolumeClaims. Pure functions of the CR: no I/O.
 */
import type { ConfigMap, Deployment, PersistentVolumeClaim, Service, StatefulSet } from "../../src/index.ts";
import type { V1Container, V1PodTemplateSpec } from "@kubernetes/client-node";
import type { Plain } from "../../src/entries/client.ts";
import {
  CONFIG_VOLUME, START_COMMANDS, configPath, nodeClaimName, nodeConfigMapName, nodeLabels, nodeObjectName, selectorLabels, workloadKind,
} from "./naming.ts";
import type { Pinot, PinotK8sConfig, PinotNode, PinotNodeConfig } from "./types.ts";

/** Everything one node owns, ready for the Builder. */
export interface NodeObjects {
  node: PinotNode;
  configMap: ConfigMap;
  /** Claims of a Deployment node's `storageConfig` (a StatefulSet has volumeClaimTemplates instead). */
  claims: PersistentVolumeClaim[];
  workload: { kind: "StatefulSet"; object: StatefulSet } | { kind: "Deployment"; object: Deployment };
  service: Service;
}

/**
 * The nodes of a valid Pinot (see `validatePinot`) in rollout order: by the position of their
 * node type in `spec.deploymentOrder`, node types it does not list last; nodes of one type in
 * spec order.
 */
export function orderedNodes(pinot: Pinot): PinotNode[] {
  const order = pinot.spec.deploymentOrder ?? [];
  const rank = (n: PinotNode) => {
    const i = order.indexOf(n.nodeType);
    return i < 0 ? order.length : i;
  };
  return pinot.spec.nodes.map((node, index) => ({ node, index }))
    .sort((a, b) => rank(a.node) - rank(b.node) || a.index - b.index)
    .map((x) => x.node);
}

/** The objects of every node, in rollout order. */
export function desiredObjects(pinot: Pinot): NodeObjects[] {
  return orderedNodes(pinot).map((node) => nodeObjects(pinot, node));
}

/** The objects of one node of a valid Pinot. */
export function nodeObjects(pinot: Pinot, node: PinotNode): NodeObjects {
  const k8s = pinot.spec.k8sConfig.find((c) => c.name === node.k8sConfig)!;
  const config = pinot.spec.pinotNodeConfig.find((c) => c.name === node.pinotNodeConfig)!;
  const name = nodeObjectName(pinot, node);
  const labels = nodeLabels(pinot, node);
  const kind = workloadKind(node) ?? "StatefulSet";
  const storage = k8s.storageConfig ?? [];
  const claims: PersistentVolumeClaim[] = kind === "Deployment"
    ? storage.map((s) => ({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: nodeClaimName(pinot, node, s.name), labels }, spec: s.spec }))
    : [];
  const template = podTemplate(pinot, node, k8s, config, claims);
  const selector = { matchLabels: selectorLabels(pinot, node) };
  const workload: NodeObjects["workload"] = kind === "StatefulSet"
    ? {
      kind,
      object: {
        apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name, labels },
        spec: {
          replicas: node.replicas, serviceName: name, selector, template,
          ...(storage.length ? { volumeClaimTemplates: storage.map((s) => ({ metadata: { name: s.name }, spec: s.spec })) } : {}),
        },
      },
    }
    : { kind, object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name, labels }, spec: { replicas: node.replicas, selector, template } } };
  return {
    node,
    configMap: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: nodeConfigMapName(pinot, node), labels }, data: { [configPath(node).file]: nodeProperties(pinot, node, config) } },
    claims,
    workload,
    service: {
      apiVersion: "v1", kind: "Service", metadata: { name, labels },
      spec: { ...k8s.service, selector: k8s.service.selector && Object.keys(k8s.service.selector).length ? k8s.service.selector : selectorLabels(pinot, node) },
    },
  };
}

/** The node's properties file: its `pinotNodeConfig.data`, then the deep storage settings of its node type. */
function nodeProperties(pinot: Pinot, node: PinotNode, config: PinotNodeConfig): string {
  const deep = (pinot.spec.external?.deepStorage?.spec ?? []).filter((d) => d.nodeType === node.nodeType && d.data);
  return [config.data, ...deep.map((d) => d.data!)].join("\n");
}

function podTemplate(pinot: Pinot, node: PinotNode, k8s: PinotK8sConfig, config: PinotNodeConfig, claims: PersistentVolumeClaim[]): Plain<V1PodTemplateSpec> {
  const { dir, file } = configPath(node);
  const zk = pinot.spec.external?.zookeeper?.spec?.zkAddress;
  const storage = k8s.storageConfig ?? [];
  const ours = [
    { name: "JAVA_OPTS", value: config.java_opts },
    ...(pinot.spec.plugins?.length ? [{ name: "PLUGINS_INCLUDE", value: pinot.spec.plugins.join(",") }] : []),
  ];
  const userEnv = k8s.env ?? [];
  const container: Plain<V1Container> = {
    name: node.nodeType,
    image: k8s.image,
    ...(k8s.imagePullPolicy ? { imagePullPolicy: k8s.imagePullPolicy } : {}),
    args: [START_COMMANDS[node.nodeType]!, "-clusterName", pinot.metadata!.name!, ...(zk ? ["-zkAddress", zk] : []), "-configFileName", `${dir}/${file}`],
    // The user's env wins over ours (JAVA_OPTS can be overridden there).
    env: [...ours.filter((e) => !userEnv.some((u) => u.name === e.name)), ...userEnv],
    ports: k8s.port,
    ...(k8s.livenessProbe ? { livenessProbe: k8s.livenessProbe } : {}),
    ...(k8s.readinessProbe ? { readinessProbe: k8s.readinessProbe } : {}),
    ...(k8s.startUpProbe ? { startupProbe: k8s.startUpProbe } : {}),
    ...(k8s.resources ? { resources: k8s.resources } : {}),
    volumeMounts: [
      { name: CONFIG_VOLUME, mountPath: dir },
      ...storage.map((s) => ({ name: s.name, mountPath: s.mountPath })),
      ...(k8s.volumeMount ?? []),
    ],
  };
  return {
    metadata: {
      labels: { ...k8s.podMetadata?.labels, ...nodeLabels(pinot, node) },
      ...(k8s.podMetadata?.annotations ? { annotations: k8s.podMetadata.annotations } : {}),
    },
    spec: {
      ...(k8s.serviceAccountName ? { serviceAccountName: k8s.serviceAccountName } : {}),
      ...(k8s.nodeSelector ? { nodeSelector: k8s.nodeSelector } : {}),
      ...(k8s.tolerations ? { tolerations: k8s.tolerations } : {}),
      containers: [container],
      volumes: [
        { name: CONFIG_VOLUME, configMap: { name: nodeConfigMapName(pinot, node) } },
        ...claims.map((c, i) => ({ name: storage[i]!.name, persistentVolumeClaim: { claimName: c.metadata!.name! } })),
        ...(k8s.volumes ?? []),
      ],
    },
  };
}
