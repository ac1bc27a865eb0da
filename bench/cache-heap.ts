/**
 * One measurement of `npm run bench -- memory`'s cache section, in a process of its own so the
 * API server's heap is not counted: reads a kubeconfig on stdin, then holds every ConfigMap of
 * namespace `cache` in a Cache with `transform: "none"` (mode `none`) or the default transform
 * (`default`), and prints `{ bytes, objects }`: the heap they add after a full collection.
 */
import { Cache } from "../src/entries/cache.ts";
import { ConfigMap, KubeConfig, ResourceClient } from "../src/index.ts";

const mode = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const heap = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};

let text = "";
for await (const chunk of process.stdin) text += String(chunk);
const kubeConfig = new KubeConfig();
kubeConfig.loadFromString(text);
const client = new ResourceClient({ kubeConfig, fieldManager: "bench-memory" });
await client.resourceFor(ConfigMap); // discovery, cached before the baseline
await client.list(ConfigMap, { namespace: "cache", limit: 1 }); // warm the HTTP path too
const base = heap();
let objects: number;
let keep: unknown;
if (mode === "none" || mode === "default") {
  const cache = new Cache({ client, kubeConfig, ...(mode === "none" ? { transform: "none" as const } : {}) });
  cache.informer(ConfigMap, { namespace: "cache" });
  await cache.start(AbortSignal.timeout(120_000));
  const items = await cache.list(ConfigMap, { namespace: "cache" });
  objects = items.length;
  if ((items[0]?.metadata?.managedFields !== undefined) !== (mode === "none")) throw new Error(`mode ${mode}: managedFields unexpectedly ${mode === "none" ? "missing" : "kept"}`);
  keep = cache;
} else {
  throw new Error(`unknown mode ${mode}`);
}
const bytes = heap() - base;
process.stdout.write(JSON.stringify({ bytes, objects, kept: keep !== undefined }));
process.exit(0);
