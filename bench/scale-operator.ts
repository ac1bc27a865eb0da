/**
 * The scale benchmark's operator process: a Manager-based DataApp operator as one would ship
 * it (the Builder reading live objects from the Manager's cache, four children per owner, a
 * status with `observedGeneration`), driven over IPC by `bench/scale.ts`.
 *
 * It measures itself: RSS before and after importing the SDK, RSS and heap once the Manager is
 * started with empty caches (the baseline), heap after one warm-up owner (so code compiled on
 * first use does not count as cache), CPU and reconciles from `expect` to convergence, and the
 * heap and cached objects after convergence.
 *
 * Args: `<kubeconfig path> <workers> [v8-defaults]`.
 */
import { getHeapStatistics } from "node:v8";
import { cpuMs, emit, epochMs, serve } from "./scale-ipc.ts";

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
/**
 * Live heap and RSS: collected, then one turn of the event loop so FinalizationRegistry
 * callbacks run (undici registers every response body; what they release is garbage that a
 * second collection in the same turn would still count), then collected again.
 */
const memory = async () => {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const m = process.memoryUsage();
  return { rssBytes: m.rss, heapBytes: m.heapUsed, heapTotalBytes: m.heapTotal, externalBytes: m.external, arrayBuffersBytes: m.arrayBuffers };
};

/**
 * The largest `heapUsed` seen since the last reset, sampled every 10 ms (garbage included: what
 * the process needed room for). A lower bound: a sample cannot run during synchronous work.
 */
let peakHeapBytes = 0;
const peakSampler = setInterval(() => {
  peakHeapBytes = Math.max(peakHeapBytes, getHeapStatistics().used_heap_size);
}, 10);
peakSampler.unref();
const beforeImport = await memory();
const { Builder, Manager, Action, createLogger, generationChanged, writeStatus } = await import("../src/index.ts");
const { DataApp } = await import("../examples/dataapp/dataapp.ts");
const { KubeConfig } = await import("@kubernetes/client-node");
const afterImport = await memory();

const [kubeconfigPath, workersArg] = process.argv.slice(2);
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath!);
const ConfigMap = { apiVersion: "v1", kind: "ConfigMap" };
const Secret = { apiVersion: "v1", kind: "Secret" };
const Service = { apiVersion: "v1", kind: "Service" };
const Deployment = { apiVersion: "apps/v1", kind: "Deployment" };

// `--v8-defaults` (third argument "v8-defaults"): V8's own heap sizing, without the Manager's heapGrowingPercent (and, from the parent, without gen manifests' NODE_OPTIONS).
const v8Defaults = process.argv[4] === "v8-defaults";
const mgr = new Manager({
  kubeConfig, fieldManager: "dataapp-operator", healthPort: false, recorder: false, logger: createLogger({ level: "error" }),
  ...(v8Defaults ? { heapGrowingPercent: false as const } : {}),
});
const apps = mgr.cache.informer(DataApp);

/** Owners whose status records the generation their children were built from. */
const done = new Set<string>();
let reconciles = 0;
let failures = 0;
let inFlight = 0;
let lastEndAt = 0;
let lastError = "";

const controller = mgr.controller("dataapp")
  .for(DataApp, { predicates: [generationChanged] })
  .owns(ConfigMap).owns(Secret).owns(Deployment).owns(Service)
  .maxConcurrentReconciles(Number(workersArg ?? 4))
  .reconcile(async (req) => {
    reconciles++;
    inFlight++;
    try {
      const app = apps.get(req.name, req.namespace);
      if (!app) return Action.done();
      const name = app.metadata!.name!;
      const labels = { "app.kubernetes.io/name": "dataapp", "app.kubernetes.io/instance": name };
      const port = app.spec.port ?? 8080;
      const result = await new Builder({ client: mgr.client, owner: app, labels, reader: mgr.cache })
        .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-config` }, data: app.spec.config })
        .secret({ apiVersion: "v1", kind: "Secret", metadata: { name: `${name}-secret` }, stringData: { token: `token-${name}` } })
        .deployment({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name }, spec: {
          replicas: app.spec.replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: {
            containers: [{ name: "app", image: app.spec.image, ports: [{ name: "http", containerPort: port }],
              envFrom: [{ configMapRef: { name: `${name}-config` } }, { secretRef: { name: `${name}-secret` } }] }] } } } })
        .service({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: labels, ports: [{ name: "http", port, targetPort: port }] } })
        .reconcile();
      if (!result.ok) throw new AggregateError(result.errors, `${name}: ${result.errors.map((e) => e.message).join("; ")}`);
      await writeStatus(mgr.client, app, { phase: "Ready", objects: result.objects.length });
      done.add(name);
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
const baseline = await memory();
/** Heap once one warm-up owner has been reconciled: code compiled on first use is not counted per object. */
let warmHeapBytes = baseline.heapBytes;
let warmObjects = 0;

function cached(): { objects: number; jsonBytes: number } {
  let objects = 0;
  let jsonBytes = 0;
  for (const kind of [DataApp, ConfigMap, Secret, Deployment, Service]) {
    for (const o of mgr.cache.informer(kind).list()) {
      objects++;
      jsonBytes += JSON.stringify(o).length;
    }
  }
  return { objects, jsonBytes };
}

let target = 0;
let cpuAtExpect = 0;
let reconcilesAtExpect = 0;
let watcher: NodeJS.Timeout | undefined;
const idle = () => inFlight === 0 && controller.queue.len() === 0;

serve({
  /** Starts counting: converged once `owners` owners are done and the queue stayed empty for `quietMs`. */
  expect: ({ owners, quietMs }: { owners: number; quietMs: number }) => {
    target = owners;
    peakHeapBytes = 0;
    cpuAtExpect = cpuMs();
    reconcilesAtExpect = reconciles;
    clearInterval(watcher);
    watcher = setInterval(() => {
      if (done.size < target || !idle() || epochMs() - lastEndAt < quietMs) return;
      clearInterval(watcher);
      emit({ event: "converged", lastEndAt, reconciles: reconciles - reconcilesAtExpect, cpuMs: cpuMs() - cpuAtExpect, failures });
    }, 20);
  },
  progress: () => ({ done: done.size, target, reconciles, failures, inFlight, queued: controller.queue.len(), lastError, idleForMs: idle() ? epochMs() - lastEndAt : 0 }),
  /** Cumulative CPU and reconciles, for a window the parent measures. */
  mark: () => ({ cpuMs: cpuMs(), reconciles }),
  /** After the warm-up owner converged: the heap every later cached object is counted from. */
  warmed: async () => {
    warmHeapBytes = (await memory()).heapBytes;
    warmObjects = cached().objects;
  },
  memory: async () => ({
    ...(await memory()), ...cached(), warmHeapBytes, warmObjects, baseline, beforeImport, afterImport, peakHeapBytes,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  }),
}, () => mgr.stop());

emit({ event: "ready" });
