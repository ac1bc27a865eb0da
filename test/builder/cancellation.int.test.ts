import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ConfigMap, ResourceClient } from "../../src/index.ts";
import { within } from "../support/wait.ts";

describe("a Builder given an AbortSignal", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: ConfigMap;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "test" });
    owner = await client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "owner", namespace: "default" } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("sends nothing once its signal is aborted, and says why per object", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("reconcile timed out"));
    const before = cluster.requests.count();
    const result = await new Builder({ client, owner, signal: aborted.signal })
      .configMap({ metadata: { name: "child" }, data: { a: "1" } })
      .reconcile();
    assert.equal(cluster.requests.count(), before, "no request reached the server");
    assert.equal(result.ok, false);
    assert.equal(result.objects[0]?.action, "failed");
    assert.match(result.objects[0]?.error?.message ?? "", /reconcile timed out/);
  });

  it("works as usual while its signal is not aborted", async () => {
    const result = await new Builder({ client, owner, signal: new AbortController().signal })
      .configMap({ metadata: { name: "child" }, data: { a: "1" } })
      .reconcile();
    assert.deepEqual(result.objects.map((o) => o.action), ["created"]);
  });
});
