/**
 * The Manager's webhook server: started on start() when something is registered, counted in
 * readiness, serving its registrations, described by webhookManifests(), stopped on stop().
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Manager } from "../../src/manager/manager.ts";
import { silentLogger } from "../../src/log/logger.ts";
import { deny } from "../../src/webhook/admission.ts";
import { greeting, post, review } from "./support.ts";
import { within } from "../support/wait.ts";

const Greeting = { apiVersion: "example.com/v1", kind: "Greeting" };

describe("Manager webhooks", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("serves registered webhooks, and is ready only while the webhook server listens", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: 0, healthHost: "127.0.0.1", logger: silentLogger, webhook: { port: 0 } });
    mgr.webhook(Greeting, { validate: (g) => ((g.spec as { name?: string })?.name ? undefined : deny("spec.name is required")) });
    mgr.conversion(Greeting, { hub: "v1", spokes: { v1alpha1: { toHub: (o) => o, fromHub: (o) => o } } });
    assert.equal(mgr.webhookServer, undefined);
    assert.throws(() => mgr.webhookManifests(), /the webhook server is not running\. Fix: register webhooks .* and await mgr.start\(\) first/);
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      const server = mgr.webhookServer!;
      assert.equal(server.listening, true);
      assert.equal(mgr.ready(), true);
      const readyz = `http://127.0.0.1:${mgr.health!.port}/readyz`;
      assert.equal((await fetch(readyz)).status, 200);

      const denied = await post(`${server.url}/validate-example-com-v1-greeting`, server.caBundle!, review({ object: greeting({}) }));
      assert.equal(denied.body.response.allowed, false);
      assert.equal(denied.body.response.status.message, "spec.name is required");

      const metrics = await (await fetch(`http://127.0.0.1:${mgr.health!.port}/metrics`)).text();
      assert.match(metrics, /operator_runtime_webhook_outcomes_total\{webhook="\/validate-example-com-v1-greeting",type="validating",outcome="denied"\} 1/);
      assert.match(metrics, /operator_runtime_webhook_outcomes_total\{webhook="\/convert",type="conversion",outcome="allowed"\} 0/);

      const manifests = mgr.webhookManifests();
      assert.ok(manifests.some((o) => o.kind === "ValidatingWebhookConfiguration"), JSON.stringify(manifests.map((o) => o.kind)));
      const text = JSON.stringify(manifests);
      assert.ok(text.includes(`${server.url}/validate-example-com-v1-greeting`), text);
      assert.ok(text.includes(server.caBundle!), "the configurations carry the server's CA bundle");

      const regs = mgr.webhookRegistrations();
      assert.deepEqual(regs.admission.map((r) => r.name), ["vgreeting.example.com"]);
      assert.deepEqual(regs.conversion.map((r) => `${r.kind}.${r.group}`), ["Greeting.example.com"]);

      // Registered while running: served at once.
      mgr.webhook({ apiVersion: "example.com/v1", kind: "Farewell" }, { validate: () => deny("no farewells") });
      const late = await post(`${server.url}/validate-example-com-v1-farewell`, server.caBundle!, review({ object: { apiVersion: "example.com/v1", kind: "Farewell", metadata: { name: "bye" } } }));
      assert.equal(late.body.response.status.message, "no farewells");

      await server.stop();
      assert.equal(mgr.ready(), false);
      const notReady = await fetch(readyz);
      assert.equal(notReady.status, 500);
      assert.match(await notReady.text(), /readyz check failed: the webhook server is not listening/);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
  });

  it("refuses duplicate and invalid registrations with the fix", () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger });
    mgr.webhook(Greeting, { validate: () => undefined });
    assert.throws(() => mgr.webhook(Greeting, { validate: () => undefined }), /mgr.webhook\(Greeting\): the path \/validate-example-com-v1-greeting is served already .*Fix: register each kind once/);
    assert.throws(() => mgr.webhook(Greeting, { validate: () => undefined, path: { validate: "/other" } }), /Greeting has a validating webhook already/);
    mgr.webhook(Greeting, { default: () => undefined });
    assert.throws(() => mgr.webhook({ apiVersion: "example.com/v1", kind: "Other" }, { validate: () => undefined, timeoutSeconds: 60 }), /timeoutSeconds must be a whole number of seconds from 1 to 30/);
    mgr.conversion(Greeting, { hub: "v1", spokes: { v1beta1: { toHub: (o) => o, fromHub: (o) => o } } });
    assert.throws(() => mgr.conversion(Greeting, { hub: "v1", spokes: { v1beta1: { toHub: (o) => o, fromHub: (o) => o } } }), /Greeting.example.com has a conversion already/);
    assert.deepEqual(mgr.webhookRegistrations().admission.map((r) => r.type), ["validating", "mutating"]);
  });

  it("runs no webhook server with nothing registered, or with webhook: false", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, webhook: false });
    mgr.webhook(Greeting, { validate: () => undefined });
    await within(mgr.start(), "mgr.start()", 15_000);
    try {
      assert.equal(mgr.webhookServer, undefined);
      assert.equal(mgr.ready(), true);
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
    }
    const bare = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger });
    await within(bare.start(), "bare.start()", 15_000);
    try {
      assert.equal(bare.webhookServer, undefined);
      assert.throws(() => bare.webhook(Greeting, { validate: () => undefined }), /started without webhooks, so it runs no webhook server\. Fix: register webhooks before mgr.start\(\)/);
    } finally {
      await within(bare.stop(), "bare.stop()", 15_000);
    }
  });
});
