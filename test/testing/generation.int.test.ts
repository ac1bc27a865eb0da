import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { conformanceDeployment } from "../support/kube-objects.ts";

const MERGE = "application/merge-patch+json";

describe("metadata.generation as kube-apiserver v1.36.2 moves it", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a Deployment: labels and status leave it, annotations and spec raise it", async () => {
    const path = "/apis/apps/v1/namespaces/default/deployments";
    const created = await raw(cluster.url, "POST", path, conformanceDeployment("web"));
    assert.equal(created.code, 201, created.text);
    const generations = [created.body.metadata.generation];
    for (const [sub, patch] of [
      ["", { metadata: { labels: { x: "1" } } }],
      ["", { metadata: { annotations: { a: "1" } } }],
      ["", { spec: { replicas: 3 } }],
      ["/status", { status: { replicas: 7, observedGeneration: 2 } }],
    ] as const) {
      const r = await raw(cluster.url, "PATCH", `${path}/web${sub}`, patch, MERGE);
      assert.equal(r.code, 200, r.text);
      generations.push(r.body.metadata.generation);
    }
    assert.deepEqual(generations, [1, 1, 2, 3, 3]);
  });

  it("a StatefulSet's annotations leave it", async () => {
    const path = "/apis/apps/v1/namespaces/default/statefulsets";
    const sts = { ...conformanceDeployment("db", { serviceName: "db" }), kind: "StatefulSet" };
    assert.equal((await raw(cluster.url, "POST", path, sts)).code, 201);
    const r = await raw(cluster.url, "PATCH", `${path}/db`, { metadata: { annotations: { a: "1" } } }, MERGE);
    assert.equal(r.body.metadata.generation, 1);
  });
});
