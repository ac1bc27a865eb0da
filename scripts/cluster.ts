/**
 * `npm run cluster`: starts a standalone LocalCluster, writes a kubeconfig and waits for
 * Ctrl-C (SIGINT) or SIGTERM to stop it cleanly.
 *
 * Options: `--port N` (default ephemeral), `--kubeconfig PATH` (default ./.tmp/kubeconfig),
 * `--simulate` (Pods run and workloads report ready).
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { LocalCluster } from "../src/testing/index.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    kubeconfig: { type: "string" },
    simulate: { type: "boolean", default: false },
  },
});
const kubeconfigPath = resolve(values.kubeconfig ?? ".tmp/kubeconfig");
await mkdir(dirname(kubeconfigPath), { recursive: true });
const cluster = await LocalCluster.start({
  kubeconfigPath,
  simulate: values.simulate,
  ...(values.port ? { port: Number(values.port) } : {}),
});
const port = new URL(cluster.url).port;
console.log(`LocalCluster listening on ${cluster.url} (port ${port})`);
console.log(`kubeconfig: ${kubeconfigPath}`);
console.log(`try: kubectl --kubeconfig ${kubeconfigPath} get namespaces`);
console.log("Ctrl-C stops it.");

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping LocalCluster`);
  await cluster.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
