/**
 * Typed kinds end to end against LocalCluster: a custom resource (defineKind) and built-in
 * Deployments through the client, the Builder, the cache and a Manager controller — with no
 * casts anywhere in this file; reads are plain JSON (timestamps are strings).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { V1ConfigMap, V1Deployment } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ConfigMap, Deployment, Manager, ResourceClient, Action, createLogger, writeStatus } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { MANAGED_BY_LABEL, OWNER_UID_LABEL } from "../../src/entries/builder.ts";
import { waitFor } from "../support/wait.ts";
import { Card, Greeting, installKinds } from "./fixtures.ts";

describe("typed kinds against LocalCluster", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator" });
    await installKinds(client);
  });
  after(() => cluster.stop());

  const namespace = async (name: string) => {
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
    return name;
  };

  const webDeployment = (ns: string): V1Deployment => {
    const d = new V1Deployment();
    d.apiVersion = "apps/v1";
    d.kind = "Deployment";
    // Set by the server; a model read through client-node carries it as a Date.
    d.metadata = { name: "web", namespace: ns, creationTimestamp: new Date(0) };
    d.spec = {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "example/web:1" }] } },
    };
    return d;
  };

  it("creates, gets, lists and patches the status of a typed custom resource through the client", async () => {
    const ns = await namespace("typed-client");
    const created = await client.create<Greeting>({
      apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "hello", namespace: ns }, spec: { name: "Ada", excitement: 2 },
    });
    assert.equal(created.spec.name, "Ada");

    const got = await client.get({ ...Greeting, name: "hello", namespace: ns });
    assert.deepEqual(got.spec, { name: "Ada", excitement: 2 });
    assert.equal(typeof got.metadata?.creationTimestamp, "string", "timestamps are read as on the wire");

    const page = await client.list(Greeting, { namespace: ns });
    assert.deepEqual(page.items.map((g) => [g.kind, g.metadata?.name, g.spec.name]), [["Greeting", "hello", "Ada"]]);

    const patched = await client.patchStatus({ ...Greeting, name: "hello", namespace: ns }, { status: { message: "Hello, Ada!!" } }, "merge");
    assert.equal(patched.status?.message, "Hello, Ada!!");
  });

  it("applies a client-node V1Deployment and reads Deployments back as plain JSON", async () => {
    const ns = await namespace("typed-model");
    const applied = await client.apply(webDeployment(ns));
    assert.equal(applied.spec?.replicas, 2);
    assert.equal(typeof applied.metadata?.creationTimestamp, "string");
    assert.notEqual(applied.metadata?.creationTimestamp, new Date(0).toISOString(), "the server sets creationTimestamp");

    const listed = await client.list(Deployment, { namespace: ns });
    assert.deepEqual(listed.items.map((d) => [d.metadata?.name, d.spec?.template.spec?.containers[0]?.image]), [["web", "example/web:1"]]);
  });

  it("the Builder reconciles a Deployment literal, a V1ConfigMap object and a typed custom child of a Greeting", async () => {
    const ns = await namespace("typed-builder");
    const owner = await client.create<Greeting>({
      apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "hello", namespace: ns }, spec: { name: "Grace" },
    });
    const text = Object.assign(new V1ConfigMap(), { metadata: { name: "greeting-text" }, data: { text: `Hello, ${owner.spec.name}` } });
    const build = () => new Builder({ client, owner })
      .configMap(text)
      .deployment({
        metadata: { name: "greeter" },
        spec: {
          selector: { matchLabels: { app: "greeter" } },
          template: {
            metadata: { labels: { app: "greeter" } },
            spec: { containers: [{ name: "greeter", image: "example/greeter:1", envFrom: [{ configMapRef: { name: "greeting-text" } }] }] },
          },
        },
      })
      .object<Card>({ apiVersion: "example.com/v1", kind: "Card", metadata: { name: "card" }, spec: { text: `Hello, ${owner.spec.name}` } });

    const first = await build().reconcile();
    assert.deepEqual(first.objects.map((o) => `${o.kind}/${o.name} ${o.action}`), ["ConfigMap/greeting-text created", "Deployment/greeter created", "Card/card created"]);
    const again = await build().reconcile();
    assert.deepEqual(again.objects.map((o) => o.action), ["unchanged", "unchanged", "unchanged"], "model objects hash like plain JSON");

    const card = await client.get({ ...Card, name: "card", namespace: ns });
    assert.equal(card.spec.text, "Hello, Grace");
    assert.equal(card.metadata?.ownerReferences?.[0]?.uid, owner.metadata?.uid);
    const greeter = await client.get({ ...Deployment, name: "greeter", namespace: ns });
    const env = greeter.spec?.template.spec?.containers[0]?.env ?? [];
    assert.ok(env.some((e) => e.name.startsWith("CONFIGMAP_GREETING_TEXT")), "the ConfigMap's hash is in the pod template");
    const cm = await client.get({ ...ConfigMap, name: "greeting-text", namespace: ns });
    assert.deepEqual(cm.data, { text: "Hello, Grace" });
  });

  it("a kind earlier passes applied is pruned when a pass adds none; manages: [Card] covers Cards this process never applied", async () => {
    const ns = await namespace("typed-manages");
    const owner = await client.create<Greeting>({
      apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "cards", namespace: ns }, spec: { name: "Ada" },
    });
    const card = (name: string) => ({ apiVersion: "example.com/v1", kind: "Card", metadata: { name }, spec: { text: name } });
    const cardNames = async () => (await client.list(Card, { namespace: ns })).items.map((c) => c.metadata?.name).sort();

    assert.ok((await new Builder({ client, owner }).object<Card>(card("a")).object<Card>(card("b")).reconcile()).ok);
    const fewer = await new Builder({ client, owner }).object<Card>(card("a")).reconcile();
    assert.deepEqual(fewer.objects.map((o) => `${o.name} ${o.action}`), ["a unchanged", "b deleted"], "a kind added in the pass is pruned");
    const none = await new Builder({ client, owner }).reconcile();
    assert.deepEqual(none.objects.map((o) => `${o.kind}/${o.name} ${o.action}`), ["Card/a deleted"], "a kind an earlier pass applied is remembered");
    assert.deepEqual(await cardNames(), []);

    // A Card a Builder wrote before this process started (as after a restart): only `manages` finds it.
    const restarted = await client.create<Greeting>({
      apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "restarted", namespace: ns }, spec: { name: "Grace" },
    });
    await client.create<Card>({
      apiVersion: "example.com/v1", kind: "Card",
      metadata: {
        name: "old", namespace: ns, labels: { [MANAGED_BY_LABEL]: client.fieldManager, [OWNER_UID_LABEL]: restarted.metadata!.uid! },
        ownerReferences: [{ apiVersion: "example.com/v1", kind: "Greeting", name: "restarted", uid: restarted.metadata!.uid!, controller: true }],
      },
      spec: { text: "old" },
    });
    const withoutManages = await new Builder({ client, owner: restarted }).reconcile();
    assert.deepEqual(withoutManages.objects, [], "no Card added or remembered: nothing pruned");
    assert.deepEqual(await cardNames(), ["old"]);
    const withManages = await new Builder({ client, owner: restarted, manages: [Card] }).reconcile();
    assert.deepEqual(withManages.objects.map((o) => `${o.kind}/${o.name} ${o.action}`), ["Card/old deleted"]);
    assert.deepEqual(await cardNames(), []);
  });

  it("the cache serves typed Greetings, Cards and Deployments", async () => {
    const ns = await namespace("typed-cache");
    await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "cached", namespace: ns }, spec: { name: "Linus" } });
    await client.create<Card>({ apiVersion: "example.com/v1", kind: "Card", metadata: { name: "cached", namespace: ns }, spec: { text: "hi" } });
    await client.apply(webDeployment(ns));
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    const greetings = cache.informer(Greeting, { namespace: ns });
    await cache.start(AbortSignal.timeout(10_000));
    try {
      assert.equal(greetings.get("cached", ns)?.spec.name, "Linus");
      assert.equal((await cache.get({ ...Card, name: "cached", namespace: ns }))?.spec.text, "hi");
      const deployments = await cache.list(Deployment, { namespace: ns });
      assert.deepEqual(deployments.map((d) => d.spec?.selector.matchLabels), [{ app: "web" }]);
    } finally {
      await cache.stop();
    }
  });

  it("a Manager controller for(Greeting).owns(Card) gets typed Greetings from the cache and writes their status", async () => {
    const ns = await namespace("typed-manager");
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "greeting-operator", healthPort: false, logger: createLogger({ level: "error" }) });
    mgr.controller("greeting")
      .for(Greeting, { namespace: ns })
      .owns(Card, { namespace: ns })
      .reconcile(async (req) => {
        const greeting = mgr.cache.informer(Greeting, { namespace: ns }).get(req.name, req.namespace);
        if (!greeting) return Action.done();
        const message = `Hello, ${greeting.spec.name}${"!".repeat(greeting.spec.excitement ?? 0)}`;
        const result = await new Builder({ client: mgr.client, owner: greeting, reader: mgr.cache })
          .object<Card>({ apiVersion: "example.com/v1", kind: "Card", metadata: { name: `${req.name}-card` }, spec: { text: message } })
          .reconcile();
        if (!result.ok) throw new AggregateError(result.errors);
        await writeStatus(mgr.client, greeting, { message });
        return Action.done();
      });
    await mgr.start();
    try {
      await client.create<Greeting>({ apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "world", namespace: ns }, spec: { name: "World", excitement: 1 } });
      const ref = { ...Greeting, name: "world", namespace: ns };
      await waitFor(async () => (await client.get(ref)).status?.message === "Hello, World!", "status written from the typed spec");
      assert.equal((await client.get({ ...Card, name: "world-card", namespace: ns })).spec.text, "Hello, World!");

      await client.patch(ref, { spec: { name: "Everyone", excitement: 3 } }, "merge");
      await waitFor(async () => (await client.get(ref)).status?.message === "Hello, Everyone!!!", "status follows the spec");
      assert.equal((await client.get({ ...Card, name: "world-card", namespace: ns })).spec.text, "Hello, Everyone!!!");
    } finally {
      await mgr.stop();
    }
  });
});
