/**
 * The streams example operator as its own process, for the restart-safety tests: it runs the
 * operator (as `npm run example -- streams` does) against the given kubeconfig, logs warnings
 * and errors to stderr, and prints `{"event":"started"}` on stdout once its caches synced.
 *
 * Usage: node operator-process.ts <kubeconfig>
 */
import { KubeConfig, Manager, createLogger } from "../../../src/index.ts";
import { FIELD_MANAGER, operator } from "../../../examples/streams/operator.ts";

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.argv[2]!);
const mgr = new Manager({ kubeConfig, fieldManager: FIELD_MANAGER, healthPort: false, logger: createLogger({ level: "error" }) });
operator.register(mgr);
await mgr.start();
process.stdout.write(`${JSON.stringify({ event: "started" })}\n`);
process.exitCode = await mgr.runUntilSignal();
