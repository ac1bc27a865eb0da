/**
 * Runs a Greeting operator on a fresh LocalCluster: what the mutator starts by default and the
 * tests start for each scenario.
 */
import { Manager, ResourceClient } from "../../src/index.ts";
import { silentLogger } from "../../src/entries/client.ts";
import type { Logger } from "../../src/index.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import type { ExampleOperator } from "../example.ts";
import { installCrds } from "../example.ts";

/** A LocalCluster with the operator's CRDs and a running Manager. */
export interface LocalOperator {
  cluster: LocalCluster;
  /** The Manager running the operator (a new one after {@link LocalOperator.restart}). */
  readonly mgr: Manager;
  /**
   * Stops the Manager, runs `meanwhile` (if given) while no operator runs, then starts a new
   * Manager with the operator: a restarted operator process.
   */
  restart(meanwhile?: () => Promise<void>): Promise<Manager>;
  /** Stops the Manager (draining its controllers), then the cluster. */
  stop(): Promise<void>;
}

/**
 * Starts a LocalCluster, installs `operator`'s CRDs and starts a Manager running it; resolves
 * once its caches have synced. No health server; a silent logger unless one is given.
 *
 * @example
 * ```ts
 * const local = await startLocalOperator(operator);
 * await local.mgr.client.create({ apiVersion: "greeting.example.com/v1", kind: "Greeting", metadata: { name: "hi", namespace: "default" }, spec: { name: "Ada" } });
 * await local.stop();
 * ```
 */
export async function startLocalOperator(operator: ExampleOperator, options: { logger?: Logger } = {}): Promise<LocalOperator> {
  const cluster = await LocalCluster.start();
  const startManager = async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: `${operator.name}-operator`, healthPort: false, logger: options.logger ?? silentLogger });
    operator.register(mgr);
    try {
      await mgr.start();
    } catch (err) {
      await mgr.stop();
      throw err;
    }
    return mgr;
  };
  let mgr: Manager;
  try {
    await installCrds(new ResourceClient({ kubeConfig: cluster.kubeConfig }), operator.crds);
    mgr = await startManager();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return {
    cluster,
    get mgr() {
      return mgr;
    },
    async restart(meanwhile) {
      await mgr.stop();
      await meanwhile?.();
      mgr = await startManager();
      return mgr;
    },
    async stop() {
      await mgr.stop();
      await cluster.stop();
    },
  };
}
