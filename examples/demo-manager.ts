/**
 * The demo's Manager: every example operator in one Manager, with its webhooks and the dev
 * dashboard, on a LocalCluster with workload simulation. `npm run demo` walks through it; the
 * dashboard's browser tests and `npm run screenshots` start the same one.
 */
import { LocalCluster } from "../src/testing/index.ts";
import { Manager, ResourceClient } from "../src/index.ts";
import { silentLogger } from "../src/entries/client.ts";
import type { KubeObject, Logger } from "../src/index.ts";
import type { ExampleOperator } from "./example.ts";
import { installCrds } from "./example.ts";
import { operator as greeting } from "./greeting/operator.ts";
import { Greeting } from "./greeting/kinds.ts";
import { operator as streams, Job } from "./streams/operator.ts";
import { operator as pinot, Pinot } from "./pinot/operator.ts";
import { operator as replicaset, PodSet } from "./replicaset/operator.ts";
import { registerGreetingWebhook } from "./greeting/webhook.ts";
import { registerPodSetConversion } from "./replicaset/conversion.ts";

/** The example operators the demo runs, in the order it applies their samples. */
export const DEMO_EXAMPLES: readonly ExampleOperator[] = [greeting, streams, pinot, replicaset];

/** The namespace of the demo's samples. */
export const DEMO_NAMESPACE = "default";

/** A running demo: its cluster, a client of its own, the Manager, and how to stop both. */
export interface DemoManager {
  cluster: LocalCluster;
  client: ResourceClient;
  mgr: Manager;
  stop(): Promise<void>;
}

/**
 * Starts a LocalCluster (simulating workloads), installs the examples' CRDs, and starts one
 * Manager running every example operator with the Greeting webhook, the PodSet conversion and
 * the dashboard on `dashboardPort` (default 0: a free port).
 */
export async function startDemoManager(options: { dashboardPort?: number; kubeconfigPath?: string; logger?: Logger } = {}): Promise<DemoManager> {
  const cluster = await LocalCluster.start({ simulate: { readyDelayMs: 50 }, ...(options.kubeconfigPath ? { kubeconfigPath: options.kubeconfigPath } : {}) });
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "demo" });
  // The webhook server (on a free port, with a development certificate) serves the Greeting
  // validating webhook and the PodSet conversion; LocalCluster calls them over HTTPS.
  const mgr = new Manager({
    kubeConfig: cluster.kubeConfig, healthPort: false, logger: options.logger ?? silentLogger, webhook: { port: 0 },
    dashboard: { port: options.dashboardPort ?? 0 },
  });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    await mgr.stop();
    await cluster.stop();
  })());
  try {
    for (const e of DEMO_EXAMPLES) await installCrds(client, e.crds);
    for (const e of DEMO_EXAMPLES) e.register(mgr);
    registerGreetingWebhook(mgr);
    registerPodSetConversion(mgr);
    await mgr.start();
    await cluster.registerWebhooks(mgr);
  } catch (err) {
    await stop();
    throw err;
  }
  return { cluster, client, mgr, stop };
}

/** Applies every example's samples (in the demo's namespace unless they name one); tells `applied` of each. */
export async function applyDemoSamples(client: ResourceClient, applied: (example: ExampleOperator, obj: KubeObject) => void = () => undefined): Promise<void> {
  for (const e of DEMO_EXAMPLES) {
    for (const sample of e.samples) {
      const obj = { ...sample, metadata: { ...sample.metadata, namespace: sample.metadata?.namespace ?? DEMO_NAMESPACE } };
      await client.apply(obj);
      applied(e, obj);
    }
  }
}

/**
 * What the demo waits for before its walkthrough, each with a check: the greetings say hello,
 * the streams Job runs, the Pinot cluster is Ready, the PodSets have their replicas.
 */
export const DEMO_CONVERGED: readonly { what: string; check: (client: ResourceClient) => Promise<boolean> }[] = [
  { what: "the greetings to say hello", check: async (c) => (await c.list(Greeting, { namespace: DEMO_NAMESPACE })).items.every((g) => g.status?.message) },
  { what: "the streams Job to run", check: async (c) => (await c.list(Job, { namespace: DEMO_NAMESPACE })).items.every((j) => j.status?.phase === "Running") },
  { what: "the Pinot cluster to be Ready", check: async (c) => (await c.list(Pinot, { namespace: DEMO_NAMESPACE })).items.every((p) => p.status?.phase === "Ready") },
  { what: "the PodSets to be ready", check: async (c) => (await c.list(PodSet, { namespace: DEMO_NAMESPACE })).items.every((p) => p.status?.readyReplicas === p.spec.replicas) },
];

/** Resolves once every {@link DEMO_CONVERGED} check passes (polling every 50 ms), or rejects after `timeoutMs` naming what did not happen. */
export async function demoConverged(client: ResourceClient, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const { what, check } of DEMO_CONVERGED) {
    while (!(await check(client))) {
      if (Date.now() > deadline) throw new Error(`the demo did not converge within ${timeoutMs} ms: waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
