/**
 * The DataApp defaulting webhook (examples/dataapp/webhook.ts): defaults a schema cannot express,
 * applied by LocalCluster through the Manager's webhook server on create and update, and
 * visible to a dry run.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Manager, ResourceClient } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import { LocalCluster } from "../../../src/testing/index.ts";
import { DataApp, dataAppCrd } from "../../../examples/dataapp/dataapp.ts";
import { IMAGE_TAG_LABEL, imageTag, registerDataAppWebhook } from "../../../examples/dataapp/webhook.ts";
import { within } from "../../support/wait.ts";

describe("dataapp example: the defaulting webhook", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let mgr: Manager;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-test" });
    await client.create(dataAppCrd);
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, webhook: { port: 0 } });
    registerDataAppWebhook(mgr);
    await within(mgr.start(), "the manager to start");
    await cluster.registerWebhooks(mgr);
  });
  after(async () => {
    await within(mgr.stop(), "mgr.stop()");
    await within(cluster.stop(), "cluster.stop()");
  });

  it("reads an image's tag", () => {
    assert.equal(imageTag("nginx:1.27"), "1.27");
    assert.equal(imageTag("registry.example.com:5000/team/app"), "latest");
    assert.equal(imageTag("registry.example.com:5000/team/app:2.0"), "2.0");
    assert.equal(imageTag("app@sha256:0123"), "digest");
  });

  it("fills log.level and the image-tag label on create, keeps what the user set, and follows an image change", async () => {
    const app = await client.create({ ...DataApp, metadata: { name: "orders", namespace: "default" },
      spec: { image: "example/dataapp:1.0", replicas: 1, config: { "app.properties": "threads=4" } } });
    assert.deepEqual(app.spec.config, { "log.level": "info", "app.properties": "threads=4" });
    assert.equal(app.metadata?.labels?.[IMAGE_TAG_LABEL], "1.0");
    assert.equal(app.spec.port, 8080, "the schema's own defaults still apply after the webhook's");

    const kept = await client.create({ ...DataApp, metadata: { name: "debug", namespace: "default" },
      spec: { image: "example/dataapp", replicas: 1, config: { "log.level": "debug" } } });
    assert.equal(kept.spec.config["log.level"], "debug");
    assert.equal(kept.metadata?.labels?.[IMAGE_TAG_LABEL], "latest");

    const updated = await client.patch({ ...DataApp, name: "orders", namespace: "default" }, { spec: { image: "example/dataapp:1.1" } }, "merge");
    assert.equal(updated.metadata?.labels?.[IMAGE_TAG_LABEL], "1.1");
  });

  it("a dry run shows the defaults and stores nothing", async () => {
    const preview = await client.create({ ...DataApp, metadata: { name: "preview", namespace: "default" },
      spec: { image: "example/dataapp:3", replicas: 1, config: {} } }, { dryRun: true });
    assert.equal(preview.spec.config["log.level"], "info");
    await assert.rejects(client.get({ ...DataApp, name: "preview", namespace: "default" }), /NotFound|404/);
  });
});
