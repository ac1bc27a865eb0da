/**
 * The dashboard benchmark's operator process: a Manager-based DataApp operator (a ConfigMap and
 * a Deployment per owner through the Builder with the cache reader, and a status), with the
 * dashboard off or on, driven over IPC by `bench/dashboard.ts`.
 *
 * Reconciles are counted in the reconciler itself, not with a controller observer: an observer
 * is what the dashboard adds, so the "off" process must have none.
 *
 * Args: `<kubeconfig path> <off|on> <workers>`.
 */
import { cpuMs, emit, epochMs, serve } from "./scale-ipc.ts";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
/** Live heap and RSS: collected, one turn of the event loop (FinalizationRegistry callbacks), collected again. */
const memory = async () => {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const m = process.memoryUsage();
  return { rssBytes: m.rss, heapBytes: m.heapUsed };
};

const { Builder, Manager, Action, createLogger, generationChanged, writeStatus } = await import("../src/index.ts");
const { DataApp } = await import("../examples/dataapp/dataapp.ts");
const { KubeConfig } = await import("@kubernetes/client-node");

const [kubeconfigPath, mode, workersArg] = process.argv.slice(2);
if (mode !== "off" && mode !== "on") throw new Error(`dashboard-operator: mode must be "off" or "on", got ${JSON.stringify(mode)}`);
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath!);
const ConfigMap = { apiVersion: "v1", kind: "ConfigMap" };
const Deployment = { apiVersion: "apps/v1", kind: "Deployment" };

const mgr = new Manager({ kubeConfig, fieldManager: "dataapp-operator", healthPort: false, recorder: false, logger: createLogger({ level: "error" }) });
if (mode === "on") mgr.dashboard({ port: 0 });
const apps = mgr.cache.informer(DataApp);

/** Owner name → the `rev` of the spec its last successful reconcile built from. */
const doneRev = new Map<string, number>();
let reconciles = 0;
let failures = 0;
let inFlight = 0;
let lastEndAt = 0;
let lastError = "";

const controller = mgr.controller("dataapp")
  .for(DataApp, { predicates: [generationChanged] })
  .owns(ConfigMap).owns(Deployment)
  .maxConcurrentReconciles(Number(workersArg ?? 4))
  .reconcile(async (req) => {
    reconciles++;
    inFlight++;
    try {
      const app = apps.get(req.name, req.namespace);
      if (!app) return Action.done();
      const name = app.metadata!.name!;
      const labels = { "app.kubernetes.io/name": "dataapp", "app.kubernetes.io/instance": name };
      const result = await new Builder({ client: mgr.client, owner: app, labels, reader: mgr.cache })
        .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-config` }, data: app.spec.config })
        .deployment({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name }, spec: {
          replicas: app.spec.replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: {
            containers: [{ name: "app", image: app.spec.image, envFrom: [{ configMapRef: { name: `${name}-config` } }] }] } } } })
        .reconcile();
      if (!result.ok) throw new AggregateError(result.errors, `${name}: ${result.errors.map((e) => e.message).join("; ")}`);
      await writeStatus(mgr.client, app, { phase: "Ready", objects: result.objects.length });
      doneRev.set(name, Number(app.spec.config["rev"] ?? 0));
      return Action.done();
    } catch (err) {
      failures++;
      lastError = (err as Error)?.message ?? String(err);
      throw err;
    } finally {
      inFlight--;
      lastEndAt = epochMs();
    }
  });

await mgr.start();

let watcher: NodeJS.Timeout | undefined;
const idle = () => inFlight === 0 && controller.queue.len() === 0;
const atRev = (rev: number) => {
  let n = 0;
  for (const r of doneRev.values()) if (r >= rev) n++;
  return n;
};

serve({
  /**
   * Starts a measured window: `converged` is pushed once `owners` owners were reconciled from a
   * spec at `rev` or later and the queue stayed empty for `quietMs`, with the CPU and reconciles
   * of the window.
   */
  expect: ({ owners, rev, quietMs }: { owners: number; rev: number; quietMs: number }) => {
    const cpu0 = cpuMs();
    const reconciles0 = reconciles;
    const t0 = epochMs();
    clearInterval(watcher);
    watcher = setInterval(() => {
      if (atRev(rev) < owners || !idle() || epochMs() - lastEndAt < quietMs) return;
      clearInterval(watcher);
      emit({ event: "converged", startedAt: t0, lastEndAt, reconciles: reconciles - reconciles0, cpuMs: cpuMs() - cpu0, failures });
    }, 10);
  },
  /** Cumulative CPU and reconciles now (for a window that ends before convergence). */
  mark: () => ({ cpuMs: cpuMs(), reconciles, at: epochMs() }),
  progress: () => ({ done: doneRev.size, reconciles, failures, inFlight, queued: controller.queue.len(), lastError }),
  /** The dashboard's URL ("" when off). */
  url: () => mgr.dashboardUrl ?? "",
  /** Heap and RSS after a full collection, and (dashboard on) how many records the timeline holds and their JSON size. */
  memory: async () => {
    // Measured first: fetching the timeline makes garbage (its JSON) that RSS would keep.
    const measured = await memory();
    let timeline = { records: 0, jsonBytes: 0 };
    if (mgr.dashboardUrl) {
      const body = await (await fetch(`${mgr.dashboardUrl}api/timeline?limit=100000`)).text();
      timeline = { records: (JSON.parse(body) as { records: unknown[] }).records.length, jsonBytes: Buffer.byteLength(body) };
    }
    return { ...measured, timeline, reconciles };
  },
}, () => mgr.stop());

emit({ event: "ready", url: mgr.dashboardUrl ?? "" });
