/**
 * `npm run example -- <name> [--kubeconfig PATH]`: runs one example operator
 * against a cluster, as a user runs an operator: it installs the example's CRDs when missing,
 * starts a Manager with the example's controllers, and runs until Ctrl-C (SIGINT) or SIGTERM.
 *
 * Without `--kubeconfig`, the kubeconfig is found as kubectl finds it (`KUBECONFIG`, then
 * `~/.kube/config`, then in-cluster). Try it on LocalCluster: `npm run cluster` in one terminal,
 * then `npm run example -- greeting --kubeconfig .tmp/kubeconfig`.
 */
import { parseArgs } from "node:util";
import { readdirSync, statSync } from "node:fs";
import { KubeConfig, Manager, ResourceClient } from "../src/index.ts";
import type { ExampleOperator } from "./example.ts";
import { installCrds } from "./example.ts";

const examplesDir = new URL("./", import.meta.url);
const names = readdirSync(examplesDir).filter((d) => {
  try {
    return statSync(new URL(`./${d}/operator.ts`, examplesDir)).isFile();
  } catch {
    return false;
  }
}).sort();

const usage = `usage: npm run example -- <${names.join("|")}> [--kubeconfig PATH]`;
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { kubeconfig: { type: "string" }, help: { type: "boolean", short: "h" } } });
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
const name = parsed.positionals[0];
if (parsed.positionals.length !== 1 || name === undefined || !names.includes(name)) {
  console.error(name === undefined ? usage : `unknown example "${name}"\n${usage}`);
  process.exit(2);
}

const { operator } = (await import(`./${name}/operator.ts`)) as { operator: ExampleOperator };
const kubeConfig = new KubeConfig();
if (parsed.values.kubeconfig) kubeConfig.loadFromFile(parsed.values.kubeconfig);
else kubeConfig.loadFromDefault();

const fieldManager = `${operator.name}-operator`;
const client = new ResourceClient({ kubeConfig, fieldManager });
await installCrds(client, operator.crds);
const mgr = new Manager({ kubeConfig, fieldManager, healthPort: false });
operator.register(mgr);
mgr.logger.info(`running the ${operator.name} example operator: ${operator.description}; Ctrl-C stops it`);
process.exitCode = await mgr.runUntilSignal();
