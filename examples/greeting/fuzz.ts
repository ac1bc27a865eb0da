/**
 * `npm run fuzz -- [--seed N] [--steps M] [--concurrency C] [--kubeconfig PATH] [--settle-ms MS]`: runs the
 * Greeting mutator (see `mutator.ts`). By default it starts its own LocalCluster with the
 * advanced operator; with `--kubeconfig` it mutates a namespace of a cluster where the operator
 * already runs. `--settle-ms` bounds the wait for the invariants after the last step (default
 * 30 000). A random seed is used (and printed) without `--seed`. Exits 0 when every invariant holds, 1 (printing the broken invariants and the
 * action log that reproduces them) when one does not, 2 on bad arguments.
 *
 * `--break` runs a deliberately wrong operator instead (family greetings forget a member), to
 * see what a failure looks like.
 */
import { parseArgs } from "node:util";
import { KubeConfig } from "../../src/index.ts";
import { brokenOperator, formatReport, runMutator } from "./mutator.ts";

const usage = "usage: npm run fuzz -- [--seed N] [--steps M] [--concurrency C] [--kubeconfig PATH] [--settle-ms MS] [--break]";
let values;
try {
  ({ values } = parseArgs({
    options: {
      seed: { type: "string" }, steps: { type: "string", default: "50" }, concurrency: { type: "string", default: "4" },
      "settle-ms": { type: "string", default: "30000" },
      kubeconfig: { type: "string" }, break: { type: "boolean", default: false }, help: { type: "boolean", short: "h" },
    },
  }));
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const steps = Number(values.steps);
const concurrency = Number(values.concurrency);
const settleTimeoutMs = Number(values["settle-ms"]);
if (![seed, steps, concurrency, settleTimeoutMs].every((n) => Number.isSafeInteger(n) && n >= 0) || concurrency < 1) {
  console.error(`--seed, --steps, --concurrency and --settle-ms take whole numbers (concurrency at least 1)\n${usage}`);
  process.exit(2);
}
if (values.break && values.kubeconfig) {
  console.error(`--break runs its own LocalCluster; it cannot be combined with --kubeconfig\n${usage}`);
  process.exit(2);
}

let kubeConfig: KubeConfig | undefined;
if (values.kubeconfig) {
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(values.kubeconfig);
}
const result = await runMutator({ seed, steps, concurrency, settleTimeoutMs, ...(kubeConfig ? { kubeConfig } : {}), ...(values.break ? { operator: brokenOperator } : {}) });
const replayFlags = [
  concurrency !== 4 ? `--concurrency ${concurrency}` : "",
  values.kubeconfig ? `--kubeconfig ${values.kubeconfig}` : "",
  values.break ? "--break" : "",
].filter(Boolean).join(" ");
(result.ok ? console.log : console.error)(formatReport(result, { replayFlags }));
process.exitCode = result.ok ? 0 : 1;
