/**
 * Maps a PE to the pod that runs it and the ConfigMap the pod reads (the Streams design notes'
 * ProcessingElementPodSpecBuilder): names, labels, placement as node selector and
 * anti-affinity, the launch annotation.
 */
import { hashObject } from "../../src/entries/builder.ts";
import type { ConfigMap, Pod } from "../../src/index.ts";
import type { ProcessingElement } from "./kinds.ts";
import { JOB_LABEL, LAUNCH_ANNOTATION, LAUNCH_FINALIZER, PE_LABEL, SPEC_HASH_ANNOTATION } from "./kinds.ts";

/** The ConfigMap of a PE: `<pe>-config`. */
export function configMapName(pe: ProcessingElement): string {
  return `${pe.metadata!.name!}-config`;
}

/** What the PE runtime reads from `/etc/streams/pe.json`. */
export function peConfigMap(pe: ProcessingElement): ConfigMap {
  const { jobName, group, channel, operators } = pe.spec;
  return {
    apiVersion: "v1", kind: "ConfigMap",
    metadata: { name: configMapName(pe), labels: { ...pe.metadata?.labels } },
    data: { "pe.json": JSON.stringify({ pe: pe.metadata!.name, job: jobName, group, channel, operators }, null, 2) },
  };
}

/**
 * The pod of one launch of a PE, named as the PE (one PE, one pod). It carries the launch
 * number and the hash of its spec as annotations and the launch-accounting finalizer; its
 * `restartPolicy` is `Never`, so a pod that stops stays stopped and the PE controller decides
 * on (and counts) the next launch.
 */
export function pePod(pe: ProcessingElement, launch: number): Pod {
  const name = pe.metadata!.name!;
  const { placement } = pe.spec;
  const antiAffinity = [
    ...(placement.hostIsolation ? [{ labelSelector: { matchExpressions: [{ key: PE_LABEL, operator: "Exists" }] }, topologyKey: "kubernetes.io/hostname" }] : []),
    ...(placement.hostExlocation ? [{ labelSelector: { matchLabels: { [exlocationLabel(placement.hostExlocation)]: "true" } }, topologyKey: "kubernetes.io/hostname" }] : []),
  ];
  const spec: NonNullable<Pod["spec"]> = {
    restartPolicy: "Never",
    ...(placement.nodeSelector ? { nodeSelector: placement.nodeSelector } : {}),
    ...(antiAffinity.length ? { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: antiAffinity } } } : {}),
    containers: [{
      name: "pe",
      image: pe.spec.image,
      args: ["--pe", name, "--config", "/etc/streams/pe.json"],
      env: [{ name: "STREAMS_JOB", value: pe.spec.jobName }, { name: "STREAMS_PE", value: name }],
      volumeMounts: [{ name: "config", mountPath: "/etc/streams" }],
    }],
    volumes: [{ name: "config", configMap: { name: configMapName(pe) } }],
  };
  return {
    apiVersion: "v1", kind: "Pod",
    metadata: {
      name,
      labels: {
        ...pe.metadata?.labels, [JOB_LABEL]: pe.spec.jobName, [PE_LABEL]: name,
        ...(placement.hostExlocation ? { [exlocationLabel(placement.hostExlocation)]: "true" } : {}),
      },
      annotations: { [LAUNCH_ANNOTATION]: String(launch), [SPEC_HASH_ANNOTATION]: podSpecHash(spec) },
      finalizers: [LAUNCH_FINALIZER],
    },
    spec,
  };
}

/** The hash a pod's spec is recognised by (a pod spec cannot change: a new one means a relaunch). */
export function podSpecHash(spec: NonNullable<Pod["spec"]>): string {
  return hashObject(spec).slice(0, 16);
}

/** The launch a pod belongs to, from its annotation (0 when it has none). */
export function launchOf(pod: Pod): number {
  const n = Number(pod.metadata?.annotations?.[LAUNCH_ANNOTATION]);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

function exlocationLabel(tag: string): string {
  return `exlocation.streams.example.com/${tag}`;
}
