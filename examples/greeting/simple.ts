/**
 * The simple Greeting operator, the "hello world" of operator-runtime: a Greeting's
 * `spec.name` becomes `status.message = "Hello, <name>"`. It ignores `spec.surname` (the
 * advanced operator in `operator.ts` greets families).
 *
 * Both operators own the same Greeting kind, so run one of them per cluster, never both. Run this
 * one with `node examples/greeting/simple.ts` (kubeconfig as kubectl finds it).
 */
import { KubeConfig, Manager, Action, writeStatus } from "../../src/index.ts";
import type { ExampleOperator } from "../example.ts";
import { installCrds } from "../example.ts";
import { Greeting, crds, samples } from "./kinds.ts";

/**
 * The simple operator: one controller, `greeting-simple`, on Greetings.
 *
 * Guarantees: `writeStatus` compares with the cached status first, so a Greeting whose message
 * is already right costs no request (a resync, a restart, our own status write).
 *
 * @example
 * ```ts
 * const mgr = new Manager({ kubeConfig, fieldManager: "greeting-operator" });
 * simpleOperator.register(mgr);
 * await mgr.runUntilSignal();
 * ```
 */
export const simpleOperator: ExampleOperator = {
  name: "greeting-simple",
  description: "says hello: a Greeting's spec.name becomes status.message",
  crds,
  samples,
  register(mgr) {
    mgr.controller("greeting-simple").for(Greeting).reconcile(async (req) => {
      const greeting = mgr.cache.informer(Greeting).get(req.name, req.namespace);
      if (!greeting?.spec.name) return Action.done();
      await writeStatus(mgr.client, greeting, { message: `Hello, ${greeting.spec.name}` });
      return Action.done();
    });
  },
};

if (import.meta.main) {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const mgr = new Manager({ kubeConfig, fieldManager: "greeting-operator", healthPort: false });
  await installCrds(mgr.client, crds);
  simpleOperator.register(mgr);
  process.exitCode = await mgr.runUntilSignal();
}
