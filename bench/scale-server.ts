/**
 * The scale benchmark's API server process: one LocalCluster, driven over IPC by
 * `bench/scale.ts`. It counts every request it serves (by `verb resource`), reports its own
 * CPU, tells the parent when an armed object is written, and checks convergence straight from
 * storage (no HTTP, so the check costs no request).
 */
import { LocalCluster } from "../src/testing/index.ts";
import { cpuMs, emit, epochMs, serve } from "./scale-ipc.ts";

// Bookmarks on quiet watches at kube-apiserver's cadence (about once a minute; argv[2] in ms),
// so the idle window shows what an operator's watches cost on a real server.
const bookmarkIntervalMs = Number(process.argv[2] ?? 60_000);
const cluster = await LocalCluster.start({ bookmarkIntervalMs });
let total = 0;
const byKey: Record<string, number> = {};
/** `resource name` → armed; the next successful write of it is pushed as a `write` event. */
const armed = new Set<string>();
const WRITES = new Set(["create", "update", "patch", "delete"]);
cluster.requests.onRequest((r) => {
  total++;
  const key = `${r.verb} ${r.resource}`;
  byKey[key] = (byKey[key] ?? 0) + 1;
  if (armed.size && WRITES.has(r.verb) && r.code < 300) {
    const k = `${r.resource} ${r.name}`;
    if (armed.delete(k)) emit({ event: "write", key: k, at: epochMs() });
  }
});

interface Counters { cpuMs: number; total: number; byKey: Record<string, number>; rssBytes: number; objects: number; openWatches: number }

serve({
  /** Cumulative CPU and request counts; the parent subtracts two of them. */
  snapshot: (): Counters => ({ cpuMs: cpuMs(), total, byKey: { ...byKey }, rssBytes: process.memoryUsage().rss, objects: cluster.objectCount(), openWatches: cluster.watchCount() }),
  /** Arms `resource name` keys (e.g. `configmaps app-1-config`): their next write is pushed. */
  arm: ({ keys }: { keys: string[] }) => {
    for (const k of keys) armed.add(k);
  },
  /** Owners `${prefix}0 … ${prefix}${owners - 1}`: how many lack a child or a status for their generation. */
  verify: ({ namespace, owners, prefix }: { namespace: string; owners: number; prefix: string }) => {
    let missingChildren = 0;
    let staleStatus = 0;
    for (let i = 0; i < owners; i++) {
      const name = `${prefix}${i}`;
      const app = cluster.peek({ group: "example.com", plural: "dataapps" }, namespace, name);
      const status = app?.status as { observedGeneration?: number } | undefined;
      if (!app || status?.observedGeneration !== app.metadata?.generation) staleStatus++;
      const children = [
        cluster.peek({ plural: "configmaps" }, namespace, `${name}-config`),
        cluster.peek({ plural: "secrets" }, namespace, `${name}-secret`),
        cluster.peek({ group: "apps", plural: "deployments" }, namespace, name),
        cluster.peek({ plural: "services" }, namespace, name),
      ];
      if (children.some((c) => !c)) missingChildren++;
    }
    return { missingChildren, staleStatus };
  },
}, () => cluster.stop());

emit({ event: "ready", url: cluster.url, kubeconfigPath: cluster.kubeconfigPath });
