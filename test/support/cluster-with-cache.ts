/**
 * A LocalCluster with a client and a started informer Cache: the setup of the controller tests
 * that run Controllers directly, and its teardown.
 */
import { Cache } from "../../src/cache/cache.ts";
import { ResourceClient } from "../../src/client/resource-client.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "./wait.ts";

/** What {@link startClusterWithCache} gives. */
export interface ClusterWithCache {
  cluster: LocalCluster;
  client: ResourceClient;
  cache: Cache;
  /** Aborted by stop(): hand it to the Controllers a test starts. */
  signal: AbortSignal;
  /** Aborts the signal, stops the cache, then the cluster. */
  stop(): Promise<void>;
}

/** Starts a LocalCluster, a client for it and a Cache over that client. */
export async function startClusterWithCache(): Promise<ClusterWithCache> {
  const cluster = await LocalCluster.start();
  const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  const cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
  const abort = new AbortController();
  await within(cache.start(abort.signal), "the cache to start");
  return {
    cluster, client, cache, signal: abort.signal,
    async stop() {
      abort.abort();
      await within(cache.stop(), "cache.stop()");
      await within(cluster.stop(), "cluster.stop()");
    },
  };
}
