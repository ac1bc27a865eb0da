import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { openWatch } from "../../src/cache/watch-stream.ts";
import { waitFor, within } from "../support/wait.ts";

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("watch outcomes that make the reflector relist", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start({ resourceVersionWaitMs: 50 });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a resume from a resourceVersion the server never reached ends as gone (504 Too large resource version)", async () => {
    let established = false;
    const w = openWatch({
      kubeConfig: cluster.kubeConfig, path: "/api/v1/namespaces/default/configmaps",
      query: { resourceVersion: String(cluster.resourceVersion + 100), allowWatchBookmarks: true },
      onEvent: () => undefined, onEstablished: () => (established = true), now: () => performance.now(),
    });
    const outcome = await within(w.done, "the watch outcome");
    assert.equal(outcome.type, "gone");
    assert.equal(established, false, "the server never accepted the watch");
  });

  it("reports an accepted watch as established and a refused connection as refused", async () => {
    let established = false;
    const ok = openWatch({
      kubeConfig: cluster.kubeConfig, path: "/api/v1/namespaces/default/configmaps", query: { resourceVersion: String(cluster.resourceVersion) },
      onEvent: () => undefined, onEstablished: () => (established = true), now: () => performance.now(),
    });
    await waitFor(() => established, "the watch to be accepted");
    ok.stop();
    assert.deepEqual(await ok.done, { type: "stopped" });

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: "gone", server: `http://127.0.0.1:${await freePort()}`, skipTLSVerify: true }], users: [{ name: "u" }],
      contexts: [{ name: "c", cluster: "gone", user: "u" }], currentContext: "c",
    });
    const refused = await within(openWatch({
      kubeConfig, path: "/api/v1/configmaps", query: {}, onEvent: () => undefined, now: () => performance.now(),
    }).done, "the refused watch's outcome");
    assert.equal(refused.type, "error", JSON.stringify(refused));
    assert.equal(refused.type === "error" && refused.refused, true, String((refused as any).error?.cause ?? (refused as any).error));
  });
});
