/**
 * Runs a Greeting operator on a fresh LocalCluster: what the mutator starts by default and the
 * tests start for each scenario.
 */
import { Manager, silentLogger } from "../../src/index.ts";
import type { Logger } from "../../src/index.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import type { ExampleOperator } from "../example.ts";
import { installCrds } from "../example.ts";

/** A LocalCluster with the operator's CRDs and a running Manager. */
export interface LocalOperator {
  cluster: LocalCluster;
  mgr: Manager;
  /** Stops the Manager (draining its controllers), then the cluster. */
  stop(): Promise<void>;
}

/**
 * Starts a LocalCluster, installs `operator`'s CRDs and starts a Manager running it; resolves
 * once its caches have synced. No health server; a silent logger unless one is given.
 *
 * @example
 * ```ts
 * const { cluster, mgr, stop } = await startLocalOperator(operator);
 * await mgr.client.create({ apiVersion: "greeting.example.com/v1", kind: "Greeting", metadata: { name: "hi", namespace: "default" }, spec: { name: "Ada" } });
 * await stop();
 * ```
 */
export async function startLocalOperator(operator: ExampleOperator, options: { logger?: Logger } = {}): Promise<LocalOperator> {
  const cluster = await LocalCluster.start();
  try {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: `${operator.name}-operator`, healthPort: false, logger: options.logger ?? silentLogger });
    await installCrds(mgr.client, operator.crds);
    operator.register(mgr);
    await mgr.start();
    return {
      cluster, mgr,
      async stop() {
        await mgr.stop();
        await cluster.stop();
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
