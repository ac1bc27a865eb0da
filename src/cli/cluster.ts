/**
 * `operator-runtime cluster`: a standalone LocalCluster that writes a kubeconfig and serves until
 * SIGINT (Ctrl-C) or SIGTERM stops it. `npm run cluster` runs the same code.
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "./usage-error.ts";

/** `operator-runtime cluster --help`. */
export const CLUSTER_USAGE = `usage: operator-runtime cluster [--port N] [--simulate] [--authorization] [--no-sharded-list-watch] [--kubeconfig PATH]

Starts LocalCluster, an embedded Kubernetes API server on 127.0.0.1, writes a kubeconfig for it
and serves until Ctrl-C (SIGINT) or SIGTERM stops it.

options:
  --port N           port to listen on, 0 to 65535 (default 0: an ephemeral port)
  --simulate         run Pods and report workloads ready, as kubelet and controllers would
  --authorization    serve HTTPS, require bearer tokens and enforce RBAC; the kubeconfig
                     written is the admin's (group system:masters)
  --no-sharded-list-watch
                     ignore KEP-5866 shardSelector on lists and watches, as an API server
                     before v1.36 does (to try a sharded operator's client-side fallback)
  --kubeconfig PATH  where to write the kubeconfig (default ./.tmp/kubeconfig)
  -h, --help         print this help`;

/** What `operator-runtime cluster` was asked to do. */
export interface ClusterCommandOptions {
  /** Port to listen on; undefined for an ephemeral one. */
  port?: number;
  /** Whether Pods run and workloads report ready. */
  simulate: boolean;
  /** Whether requests need a token and RBAC applies (`LocalCluster.start({ authorization: true })`). */
  authorization?: boolean;
  /** Whether KEP-5866 sharded list and watch is off (`LocalCluster.start({ shardedListWatch: false })`). */
  noShardedListWatch?: boolean;
  /** Absolute path the kubeconfig is written to. */
  kubeconfigPath: string;
}

/**
 * Reads `cluster`'s arguments (those after the command name); `undefined` when `--help` asks for
 * the usage instead.
 *
 * @throws {UsageError} for an unknown option, a stray argument or a `--port` that is not an
 *   integer from 0 to 65535.
 * @example
 * ```ts
 * parseClusterArgs(["--port", "6443", "--simulate"]);
 * // { port: 6443, simulate: true, kubeconfigPath: "/current/dir/.tmp/kubeconfig" }
 * ```
 */
export function parseClusterArgs(args: readonly string[]): ClusterCommandOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: "string" },
        kubeconfig: { type: "string" },
        simulate: { type: "boolean", default: false },
        authorization: { type: "boolean", default: false },
        "no-sharded-list-watch": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  if (values.help) return undefined;
  return {
    ...(values.port !== undefined ? { port: parsePort(values.port) } : {}),
    simulate: values.simulate,
    ...(values.authorization ? { authorization: true } : {}),
    ...(values["no-sharded-list-watch"] ? { noShardedListWatch: true } : {}),
    kubeconfigPath: resolve(values.kubeconfig ?? ".tmp/kubeconfig"),
  };
}

/** `--port`'s value as a port number, or a UsageError naming the option. */
function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(port) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`);
  return port;
}

/**
 * Runs a standalone LocalCluster until SIGINT or SIGTERM: starts it, writes the kubeconfig
 * (creating its folder), prints the URL, the kubeconfig path and a `kubectl` line to try, and on
 * the first signal stops the cluster and resolves.
 *
 * LocalCluster listens on `127.0.0.1` only, over plain HTTP, without authentication; with
 * `authorization`, over HTTPS (a self-signed certificate the kubeconfig trusts), with bearer
 * tokens and RBAC, the kubeconfig being the admin's.
 *
 * @param print where the banner goes, one line per call (default `console.log`).
 * @example
 * ```ts
 * const options = parseClusterArgs(process.argv.slice(2));
 * if (options) await runCluster(options);
 * ```
 */
export async function runCluster(options: ClusterCommandOptions, print: (line: string) => void = console.log): Promise<void> {
  // Loaded here, through the testing entry point: the SDK never pulls in LocalCluster, and
  // `--help` does not load it either.
  const { LocalCluster } = await import("../testing/index.ts");
  const { kubeconfigPath } = options;
  await mkdir(dirname(kubeconfigPath), { recursive: true });
  const cluster = await LocalCluster.start({
    kubeconfigPath,
    simulate: options.simulate,
    ...(options.authorization ? { authorization: true } : {}),
    ...(options.noShardedListWatch ? { shardedListWatch: false } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    const onSignal = (received: NodeJS.Signals) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolveSignal(received);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    print(`LocalCluster listening on ${cluster.url} (port ${new URL(cluster.url).port})`);
    print(`kubeconfig: ${kubeconfigPath}`);
    if (options.noShardedListWatch) print("sharded list and watch (KEP-5866): off; shardSelector is ignored, as by API servers before v1.36");
    if (options.authorization) print("authorization: bearer tokens and RBAC; the kubeconfig is the admin (group system:masters)");
    print(`try: kubectl --kubeconfig ${kubeconfigPath} get namespaces`);
    print("Ctrl-C stops it.");
  });
  print(`\n${signal}: stopping LocalCluster`);
  await cluster.stop();
}
