/**
 * What the streams tests share: a LocalCluster with the Streams CRDs (and the simulator
 * running pods), a client, readers of a Job's PEs, pods and ConfigMaps, and a kubelet's way to
 * end a pod.
 */
import { ConfigMap, Pod, ResourceClient } from "../../../src/index.ts";
import type { KubeObject } from "../../../src/index.ts";
import { LocalCluster } from "../../../src/testing/index.ts";
import { installCrds } from "../../../examples/example.ts";
import { JOB_LABEL, Job, ProcessingElement, operator } from "../../../examples/streams/operator.ts";
import type { JobSpec } from "../../../examples/streams/operator.ts";

/** A started cluster with the CRDs installed. */
export async function startCluster(): Promise<{ cluster: LocalCluster; client: ResourceClient }> {
  const cluster = await LocalCluster.start({ simulate: { readyDelayMs: 5 } });
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test" });
  await installCrds(client, operator.crds);
  return { cluster, client };
}

/** The seed's sample application with a chosen name, work width and restart policy. */
export function parallelJob(name: string, opts: { width?: number; restartPolicy?: JobSpec["restartPolicy"] } = {}): Job {
  const sample = operator.samples.find((s) => s.kind === "Job") as Job;
  const operators = sample.spec.application.operators.map((op) => (op.name === "work" && opts.width ? { ...op, width: opts.width } : op));
  return {
    ...Job, metadata: { name, namespace: "default" },
    spec: { ...sample.spec, ...(opts.restartPolicy ? { restartPolicy: opts.restartPolicy } : {}), application: { operators } },
  };
}

const names = (items: KubeObject[]) => items.map((o) => o.metadata!.name!).sort();

/** What exists for a Job, by label: PE, pod and ConfigMap names, sorted. */
export async function childrenOf(client: ResourceClient, job: string) {
  const labelSelector = `${JOB_LABEL}=${job}`;
  const [pes, pods, cms] = await Promise.all([
    client.list(ProcessingElement, { namespace: "default", labelSelector }),
    client.list(Pod, { namespace: "default", labelSelector }),
    client.list(ConfigMap, { namespace: "default", labelSelector }),
  ]);
  return { pes: pes.items, pods: pods.items, cms: cms.items, peNames: names(pes.items), podNames: names(pods.items), cmNames: names(cms.items) };
}

/** PE names of the sample at a work width, sorted. */
export function expectedPes(job: string, width: number): string[] {
  return [`${job}-ingest-0`, `${job}-sink-0`, ...[...Array(width).keys()].map((c) => `${job}-work-${c}`)].sort();
}

/** Ends a pod as the kubelet would: through the status subresource. */
export async function endPod(client: ResourceClient, name: string, phase: "Failed" | "Succeeded"): Promise<void> {
  const exitCode = phase === "Failed" ? 1 : 0;
  await client.patchStatus({ ...Pod, name, namespace: "default" }, {
    status: {
      phase,
      conditions: [{ type: "Ready", status: "False", reason: "PodCompleted" }],
      containerStatuses: [{ name: "pe", image: "streams/runtime:1.0", imageID: "", ready: false, restartCount: 0, started: false,
        state: { terminated: { exitCode, reason: phase === "Failed" ? "Error" : "Completed" } } }],
    },
  }, "merge");
}
