/**
 * `npm run cluster`: the `operator-runtime cluster` command run from the sources — a standalone
 * LocalCluster that writes a kubeconfig and stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
 *
 * Options: `--port N` (default ephemeral), `--kubeconfig PATH` (default ./.tmp/kubeconfig),
 * `--simulate` (Pods run and workloads report ready), `--help`.
 */
import { CLUSTER_USAGE, parseClusterArgs, runCluster } from "../src/cli/cluster.ts";
import { UsageError } from "../src/cli/usage-error.ts";

try {
  const options = parseClusterArgs(process.argv.slice(2));
  if (!options) console.log(CLUSTER_USAGE);
  else await runCluster(options);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  console.error(`cluster: ${err.message}\n\n${CLUSTER_USAGE}`);
  process.exitCode = 2;
}
