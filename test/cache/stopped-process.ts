/**
 * Child process of cache.int.test.ts: runs a cache (one informer syncing, one stuck in list
 * backoff), stops it and the cluster, and must then exit by itself — proof that no timer or
 * socket of the cache keeps a stopped process alive.
 */
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import { waitFor } from "../support/wait.ts";

const cluster = await LocalCluster.start();
const client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
// A leaked backoff timer would hold the process for a minute.
const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: { initialBackoffMs: 60_000, maxBackoffMs: 60_000 } });
cache.informer({ apiVersion: "v1", kind: "ConfigMap" });
await cache.start(AbortSignal.timeout(10_000));
cluster.inject({ verb: "list", resource: "secrets", code: 500, times: Infinity });
const failing = cache.informer({ apiVersion: "v1", kind: "Secret" });
await waitFor(() => failing.stats.listFailures > 0, "the Secret informer's first list to fail", 10_000);
await cache.stop();
const watches = cluster.watchCount();
await cluster.stop();
console.log(JSON.stringify({ stopped: true, watches }));
