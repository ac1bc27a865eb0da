/**
 * The `datainfra.io/v1beta1` Pinot custom resource, typed: the parts of the spec this operator
 * reads (which is every field that shapes a node's objects), and the status it writes.
 *
 * The embedded Kubernetes types (env, probes, resources, ports, the Service spec, a claim
 * spec, volumes…) are client-node's models as plain JSON, exactly what the CRD's schema embeds.
 */
import type {
  V1ContainerPort, V1EnvVar, V1PersistentVolumeClaimSpec, V1Probe, V1ResourceRequirements, V1ServiceSpec, V1Toleration,
  V1Volume, V1VolumeMount,
} from "@kubernetes/client-node";
import { defineKind } from "../../src/index.ts";
import type { Condition } from "../../src/index.ts";
import type { ObjectOf, Plain } from "../../src/entries/client.ts";

/** One Pinot node (a group of identical pods): `spec.nodes[]`. */
export interface PinotNode {
  /** Unique within the CR; names the node's objects (`<cr>-<name>`). */
  name: string;
  /** `Statefulset` (the CRD's spelling; `StatefulSet` is accepted too) or `Deployment`. */
  kind: string;
  replicas: number;
  /** `controller`, `broker`, `server` or `minion`: picks the Pinot start command and the rollout slot. */
  nodeType: string;
  /** Name of an entry of `spec.k8sConfig`. */
  k8sConfig: string;
  /** Name of an entry of `spec.pinotNodeConfig`. */
  pinotNodeConfig: string;
}

/** A claim the node's pods mount: `spec.k8sConfig[].storageConfig[]`. */
export interface PinotStorage {
  name: string;
  mountPath: string;
  spec: Plain<V1PersistentVolumeClaimSpec>;
}

/** How a node's pods and Service look: `spec.k8sConfig[]`, shared by the nodes naming it. */
export interface PinotK8sConfig {
  name: string;
  image: string;
  imagePullPolicy?: string;
  serviceAccountName?: string;
  env?: Plain<V1EnvVar>[];
  port: Plain<V1ContainerPort>[];
  /** The node's Service; the operator sets its selector when this leaves it empty. */
  service: Plain<V1ServiceSpec>;
  livenessProbe?: Plain<V1Probe>;
  readinessProbe?: Plain<V1Probe>;
  /** The CRD's spelling of the container's `startupProbe`. */
  startUpProbe?: Plain<V1Probe>;
  resources?: Plain<V1ResourceRequirements>;
  nodeSelector?: Record<string, string>;
  tolerations?: Plain<V1Toleration>[];
  podMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  storageConfig?: PinotStorage[];
  volumes?: Plain<V1Volume>[];
  volumeMount?: Plain<V1VolumeMount>[];
}

/** A node's Pinot configuration: `spec.pinotNodeConfig[]`. */
export interface PinotNodeConfig {
  name: string;
  /** JVM options, passed as `JAVA_OPTS`. */
  java_opts: string;
  /** The node's Pinot properties file. */
  data: string;
}

/** What a Pinot cluster asks for. */
export interface PinotSpec {
  /** Node types in rollout order: a node type rolls only once every earlier one is rolled out. */
  deploymentOrder: string[];
  nodes: PinotNode[];
  k8sConfig: PinotK8sConfig[];
  pinotNodeConfig: PinotNodeConfig[];
  external?: {
    zookeeper: { spec: { zkAddress: string } };
    /** Properties appended to the config of the nodes of a node type. */
    deepStorage?: { spec?: { nodeType?: string; data?: string }[] };
  };
  /** Plugin directories to load (`PLUGINS_INCLUDE`). */
  plugins?: string[];
  /** Used by the upstream operator's table and schema controllers; nodes do not need it. */
  auth?: { type: string; secretRef: { name?: string; namespace?: string } };
}

/** One node as the operator last saw it: `status.nodes[]`. */
export interface PinotNodeStatus {
  name: string;
  nodeType: string;
  /** `StatefulSet` or `Deployment`. */
  workload: string;
  replicas: number;
  readyReplicas: number;
}

/** What the operator reports. */
export interface PinotStatus {
  /** `Progressing` while objects roll out, `Ready`, `Degraded` when an object failed, `Invalid` for a spec it cannot run. */
  phase?: "Progressing" | "Ready" | "Degraded" | "Invalid";
  /** What the ordered rollout waits on, when it waits. */
  waitingOn?: string | null;
  observedGeneration?: number;
  conditions?: Condition[];
  nodes?: PinotNodeStatus[] | null;
}

/** The Pinot custom resource (datainfra.io/v1beta1): the kind handle and its object type. */
export const Pinot = defineKind<PinotSpec, PinotStatus>({ apiVersion: "datainfra.io/v1beta1", kind: "Pinot" });
export type Pinot = ObjectOf<typeof Pinot>;
