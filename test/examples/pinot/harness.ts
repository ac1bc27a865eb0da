/**
 * The pinot example's test harness: LocalCluster with the workload simulator, the example's CRD
 * installed, and a Manager running only the pinot operator.
 */
import { LocalCluster } from "../../../src/testing/index.ts";
import { Manager, ResourceClient } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import type { KubeObject } from "../../../src/index.ts";
import { installCrds, loadYamlFile } from "../../../examples/example.ts";
import { Pinot, operator } from "../../../examples/pinot/operator.ts";
import { raw, waitFor, within } from "../../support/wait.ts";

/** A running cluster and operator. */
export interface Harness {
  cluster: LocalCluster;
  client: ResourceClient;
  mgr: Manager;
  stop(): Promise<void>;
}

/** Starts LocalCluster (simulated workloads), installs the Pinot CRD and runs the operator. */
export async function startHarness(): Promise<Harness> {
  const cluster = await LocalCluster.start({ simulate: { readyDelayMs: 5 } });
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "pinot-test" });
  await installCrds(client, operator.crds);
  const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "examples", healthPort: false, logger: silentLogger });
  operator.register(mgr);
  await within(mgr.start(), "mgr.start()", 15_000);
  return {
    cluster, client, mgr,
    async stop() {
      await within(mgr.stop(), "mgr.stop()", 15_000);
      await within(cluster.stop(), "cluster.stop()", 15_000);
    },
  };
}

/** Creates a namespace. */
export async function namespace(h: Harness, name: string): Promise<void> {
  const r = await raw(h.cluster.url, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  if (r.code !== 201) throw new Error(`namespace ${name}: ${r.code} ${r.text}`);
}

/** A test CR from `test/examples/pinot/crs/`. */
export function testCr(file: string): Pinot {
  return loadYamlFile(new URL(`./crs/${file}`, import.meta.url))[0] as Pinot;
}

/** The sample CR (`examples/pinot/samples/pinot-basic.yaml`). */
export function sampleCr(): Pinot {
  return structuredClone(operator.samples[0]) as Pinot;
}

/** Reads a Pinot. */
export function getPinot(h: Harness, ns: string, name: string): Promise<Pinot> {
  return h.client.get({ ...Pinot, name, namespace: ns });
}

/** Waits until the Pinot reports `phase` for its current generation; returns it. */
export function waitForPhase(h: Harness, ns: string, name: string, phase: string, timeoutMs = 20_000): Promise<Pinot> {
  return waitFor(async () => {
    const p = await getPinot(h, ns, name);
    return p.status?.phase === phase && p.status.observedGeneration === p.metadata?.generation ? p : undefined;
  }, `Pinot ${ns}/${name} to be ${phase}`, timeoutMs);
}

/** Raw GET of a path; the body, or undefined on 404. */
export async function get(h: Harness, path: string): Promise<any> {
  const r = await raw(h.cluster.url, "GET", path);
  if (r.code === 404) return undefined;
  if (r.code !== 200) throw new Error(`GET ${path}: ${r.code} ${r.text}`);
  return r.body;
}

/** Items of a list path. */
export async function list(h: Harness, path: string): Promise<KubeObject[]> {
  return ((await get(h, path))?.items ?? []) as KubeObject[];
}

/** How many reconciles of the pinot controller have finished (any result), from the Manager's metrics. */
export async function reconciles(h: Harness): Promise<number> {
  const text = await h.mgr.metrics.text();
  let total = 0;
  for (const m of text.matchAll(/^controller_runtime_reconcile_total\{controller="pinot",result="[a-z_]+"\} (\d+)$/gm)) total += Number(m[1]);
  return total;
}

/** The kinds a Pinot owns, as request-log resources. */
export const CHILD_RESOURCES = ["configmaps", "statefulsets", "deployments", "services", "persistentvolumeclaims"];
