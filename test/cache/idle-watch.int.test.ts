/**
 * Idle watches live for their `timeoutSeconds`; a stalled stream is still found, by silence
 * clearly longer than the server's bookmark interval, and that is what gets a warning.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import type { Server, Socket } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import { Cache } from "../../src/cache/index.ts";
import { openWatch } from "../../src/cache/watch-stream.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { CONFIGMAP, FAST, cm, namespace as createNamespace } from "./fixtures.ts";
import { waitFor, within } from "../support/wait.ts";

/**
 * A TCP proxy to `target` whose server → client direction can be frozen: bytes of the
 * connections open at that moment are swallowed from then on (a half-open connection, or a proxy
 * that stops passing a stream on), while new connections pass.
 */
class FreezingProxy {
  readonly #server: Server;
  readonly #open = new Set<{ client: Socket; upstream: Socket; frozen: boolean }>();
  /** Every byte the server sent through the proxy so far, as text. */
  seen = "";

  constructor(target: URL) {
    this.#server = createServer((client) => {
      const upstream = new (client.constructor as typeof Socket)();
      const pair = { client, upstream, frozen: false };
      this.#open.add(pair);
      upstream.connect(Number(target.port), target.hostname);
      client.on("data", (chunk) => upstream.write(chunk));
      upstream.on("data", (chunk: Buffer) => {
        if (pair.frozen) return;
        this.seen += chunk.toString("latin1");
        client.write(chunk);
      });
      const end = () => {
        this.#open.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on("close", end).on("error", end);
      upstream.on("close", end).on("error", end);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return (this.#server.address() as { port: number }).port;
  }

  /** Swallows from now on what the server sends on the connections open now. */
  freeze(): number {
    for (const p of this.#open) p.frozen = true;
    return this.#open.size;
  }

  async close(): Promise<void> {
    for (const p of this.#open) {
      p.client.destroy();
      p.upstream.destroy();
    }
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** A kubeconfig like `base`'s, pointing at `server` instead. */
function kubeConfigFor(base: KubeConfig, server: string): KubeConfig {
  const kc = new KubeConfig();
  const cluster = base.getCurrentCluster()!;
  kc.loadFromOptions({
    clusters: [{ ...cluster, name: "via-proxy", server }],
    users: base.users, contexts: [{ name: "via-proxy", cluster: "via-proxy", user: base.getCurrentUser()!.name }],
    currentContext: "via-proxy",
  });
  return kc;
}

const watchesOf = (cluster: LocalCluster, namespace: string) =>
  cluster.requests.count({ verb: "watch", resource: "configmaps", namespace });

describe("an idle watch of a server that bookmarks once a minute, as kube-apiserver does", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start({ bookmarkIntervalMs: 60_000 });
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("stays open past client-node's 30 s inactivity limit: one watch request, no reopening, no warning", async () => {
    const namespace = "idle-quiet";
    await createNamespace(client, namespace);
    const records: LogRecord[] = [];
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig, timings: FAST, logger: createLogger({ level: "debug", sink: (r) => records.push(r) }) });
    const informer = cache.informer(CONFIGMAP, { namespace });
    await cache.start(AbortSignal.timeout(10_000));
    try {
      await waitFor(() => cluster.watchCount() > 0, "the informer's watch to be open");
      // Longer than client-node's 30 s inactivity abort, shorter than the first bookmark (60 s):
      // the behaviour under test is the passing of time itself.
      await new Promise((resolve) => setTimeout(resolve, 33_000));
      assert.equal(informer.stats.watches, 1, "the quiet watch was reopened");
      assert.equal(watchesOf(cluster, namespace), 1);
      assert.deepEqual(records.filter((r) => /watch/.test(r.msg) && r.level !== "debug").map((r) => r.msg), []);
      assert.deepEqual(records.filter((r) => /silent|stalled|closed; resuming/.test(r.msg)).map((r) => r.msg), []);

      // The watch that stayed open still delivers.
      await client.create(cm(namespace, "after-the-quiet"));
      await waitFor(async () => (await cache.get({ ...CONFIGMAP, namespace, name: "after-the-quiet" })) !== undefined, "the change after 33 s of quiet to reach the cache");
      assert.equal(watchesOf(cluster, namespace), 1);
    } finally {
      await cache.stop();
    }
  });
});

describe("a stalled watch stream", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let proxy: FreezingProxy;
  let viaProxy: KubeConfig;
  before(async () => {
    cluster = await LocalCluster.start({ bookmarkIntervalMs: 100 });
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
    proxy = new FreezingProxy(new URL(cluster.kubeConfig.getCurrentCluster()!.server));
    viaProxy = kubeConfigFor(cluster.kubeConfig, `http://127.0.0.1:${await proxy.listen()}`);
  });
  after(async () => {
    await proxy.close();
    await within(cluster.stop(), "cluster.stop()");
  });

  it("is found by silence longer than the stall limit once the server is known to bookmark, warned about once, and reopened; a quiet but bookmarked watch is left alone", async () => {
    const namespace = "idle-stalled";
    await createNamespace(client, namespace);
    const records: LogRecord[] = [];
    const proxied = new ResourceClient({ kubeConfig: viaProxy });
    const cache = new Cache({
      client: proxied, kubeConfig: viaProxy, timings: { ...FAST, watchStallMs: 1_000 },
      logger: createLogger({ level: "debug", sink: (r) => records.push(r) }),
    });
    const informer = cache.informer(CONFIGMAP, { namespace });
    await cache.start(AbortSignal.timeout(10_000));
    try {
      // Bookmarks every 100 ms keep a quiet watch alive well past its 1 s stall limit.
      await waitFor(() => (proxy.seen.match(/"BOOKMARK"/g)?.length ?? 0) >= 25, "25 bookmarks (2.5 s of a quiet watch)", 10_000);
      assert.equal(informer.stats.watches, 1, "a quiet watch whose server bookmarks was reopened");
      assert.deepEqual(records.filter((r) => r.level === "warn"), []);

      const frozenAt = performance.now();
      assert.ok(proxy.freeze() > 0);
      await client.create(cm(namespace, "during-the-stall"));
      await waitFor(() => records.find((r) => r.level === "warn" && /watch stalled/.test(r.msg)), "the stall warning", 10_000);
      const detectedAfterMs = performance.now() - frozenAt;
      assert.ok(detectedAfterMs >= 900, `found after ${Math.round(detectedAfterMs)} ms, before the 1 s stall limit`);
      // The reopened watch (a new connection through the proxy) resumes from the last
      // resourceVersion and delivers the change the frozen stream swallowed.
      await waitFor(async () => (await cache.get({ ...CONFIGMAP, namespace, name: "during-the-stall" })) !== undefined, "the swallowed change after the reopen", 10_000);
      assert.equal(informer.stats.watches, 2);
      assert.equal(informer.stats.relists, 0, "a stall resumes; it does not relist");
      assert.equal(records.filter((r) => r.level === "warn").length, 1, JSON.stringify(records.filter((r) => r.level === "warn")));
    } finally {
      await cache.stop();
    }
  });
});

describe("a server that accepts the connection but never answers the watch", () => {
  it("fails the attempt after the connect limit, not after the watch's idle limit", async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromOptions({
        clusters: [{ name: "mute", server: `http://127.0.0.1:${(server.address() as { port: number }).port}`, skipTLSVerify: true }],
        users: [{ name: "u" }], contexts: [{ name: "c", cluster: "mute", user: "u" }], currentContext: "c",
      });
      const started = performance.now();
      // A 600 s watch whose idle limit would be 600 s + the stall margin: the wait for the
      // headers keeps its own limit.
      const w = openWatch({
        kubeConfig, path: "/api/v1/configmaps", query: { timeoutSeconds: 600, allowWatchBookmarks: true },
        onEvent: () => undefined, now: () => performance.now(), connectTimeoutMs: 300,
      });
      const outcome = await within(w.done, "the outcome of a watch the server never answers", 10_000);
      const tookMs = performance.now() - started;
      assert.equal(outcome.type, "error", JSON.stringify(outcome));
      assert.ok(tookMs >= 250 && tookMs < 5_000, `failed after ${Math.round(tookMs)} ms`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
