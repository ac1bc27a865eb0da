import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { ResourceClient } from "../../src/client/index.ts";
import type { KubeObject } from "../../src/client/index.ts";
import { ApiError, NotFoundError, OperatorRuntimeError } from "../../src/errors.ts";
import { configMap, deployment, widgetCrd } from "./fixtures.ts";
import { within } from "../support/wait.ts";

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const widgetKind = { apiVersion: "example.com/v1", kind: "Widget" };

describe("ResourceClient CRUD against LocalCluster", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("creates, reads, lists, replaces, patches and deletes a ConfigMap", async () => {
    const created = await client.create(configMap("round-trip"));
    assert.equal(created.metadata?.name, "round-trip");
    assert.match(created.metadata?.uid ?? "", /^[0-9a-f-]{36}$/);
    const ref = { ...cmKind, namespace: "default", name: "round-trip" };
    const read = await client.get(ref);
    assert.deepEqual(read.data, { a: "1" });

    const page = await client.list(cmKind, { namespace: "default" });
    const listed = page.items.find((i) => i.metadata?.name === "round-trip");
    assert.equal(listed?.apiVersion, "v1", "list items get apiVersion filled in");
    assert.equal(listed?.kind, "ConfigMap", "list items get kind filled in");
    assert.match(page.resourceVersion, /^\d+$/);

    const replaced = await client.replace({ ...read, data: { a: "2" } });
    assert.deepEqual(replaced.data, { a: "2" });
    assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);

    const merged = await client.patch(ref, { data: { b: "3" } }, "merge");
    assert.deepEqual(merged.data, { a: "2", b: "3" });
    const jsonPatched = await client.patch(ref, [{ op: "remove", path: "/data/a" }], "json");
    assert.deepEqual(jsonPatched.data, { b: "3" });
    const strategic = await client.patch(ref, { metadata: { labels: { tier: "web" } } }, "strategic");
    assert.deepEqual(strategic.metadata?.labels, { tier: "web" });

    assert.equal(await client.delete(ref), undefined, "a Status Success answer becomes undefined");
    await assert.rejects(client.get(ref), NotFoundError);
  });

  it("round-trips a Deployment and merges containers by name with a strategic patch", async () => {
    const ref = { apiVersion: "apps/v1", kind: "Deployment", namespace: "default", name: "web" };
    const created = await client.create(deployment("web"));
    assert.equal(created.metadata?.generation, 1);
    const patched = await client.patch<KubeObject & { spec: any }>(ref,
      { spec: { template: { spec: { containers: [{ name: "web", image: "nginx:1.28" }] } } } }, "strategic");
    assert.equal(patched.spec.template.spec.containers.length, 1);
    assert.equal(patched.spec.template.spec.containers[0].image, "nginx:1.28");
    assert.equal(patched.metadata?.generation, 2);
    const byLabel = await client.list({ apiVersion: "apps/v1", kind: "Deployment" }, { labelSelector: "app=web" });
    assert.deepEqual(byLabel.items.map((d) => `${d.kind}/${d.metadata?.name}`), ["Deployment/web"]);
    const live = await client.get(ref);
    const replaced = await client.replace<KubeObject & { spec: any }>({ ...live, spec: { ...(live.spec as object), replicas: 3 } });
    assert.equal(replaced.spec.replicas, 3);
    await client.delete(ref, { propagationPolicy: "Foreground" });
    await assert.rejects(client.get(ref), NotFoundError);
  });

  it("creates a CRD through the client with its schema default intact, then round-trips a custom resource", async () => {
    const crd: KubeObject & { spec?: any } = await client.create(widgetCrd());
    const schemaSpec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    assert.equal(schemaSpec.properties.color.default, "red", "JSONSchemaProps default survives (no serializer loss)");
    assert.deepEqual(schemaSpec.properties.color.enum, ["red", "blue"]);
    const stored = cluster.peek({ group: "apiextensions.k8s.io", plural: "customresourcedefinitions" }, "", "widgets.example.com") as any;
    assert.equal(stored.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color.default, "red");

    const ref = { ...widgetKind, namespace: "default", name: "w1" };
    const w = await client.create<KubeObject & { spec: any }>({ ...widgetKind, metadata: { name: "w1", namespace: "default" }, spec: { size: 2 } });
    assert.equal(w.spec.color, "red", "the CRD default was applied by the server");
    const replaced = await client.replace<KubeObject & { spec: any }>({ ...w, spec: { size: 3, color: "blue" } });
    assert.equal(replaced.spec.color, "blue");
    const merged = await client.patch<KubeObject & { spec: any }>(ref, { spec: { size: 4 } }, "merge");
    assert.deepEqual(merged.spec, { size: 4, color: "blue" });
    const strategic = await client.patch(ref, { spec: { size: 5 } }, "strategic").catch((e: unknown) => e);
    assert.ok(strategic instanceof ApiError && strategic.code === 415, "strategic merge on a custom resource is 415");
    const deleted = await client.delete(ref);
    assert.equal(deleted, undefined, "custom resources answer delete with a Status, as kube-apiserver does");
    await assert.rejects(client.get(ref), NotFoundError);
  });

  it("pages a list with limit and continue, and listAll follows every page", async () => {
    for (let i = 0; i < 5; i++) await client.create(configMap(`page-${i}`, { i: String(i) }, "kube-public"));
    const first = await client.list(cmKind, { namespace: "kube-public", limit: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.continue, "a continue token when more items follow");
    const all = await client.listAll(cmKind, { namespace: "kube-public", limit: 2 });
    assert.deepEqual(all.items.map((i) => i.metadata?.name).sort(), ["page-0", "page-1", "page-2", "page-3", "page-4"]);
    assert.ok(all.items.every((i) => i.kind === "ConfigMap"));
    assert.equal(client.requests.count({ verb: "list", namespace: "kube-public" }), 1 + 3);
  });

  it("refuses a namespaced kind without a namespace before sending the object request", async () => {
    client.requests.clear();
    const noNs = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "lost" }, data: {} };
    await assert.rejects(client.create(noNs), (err: unknown) => {
      assert.ok(err instanceof OperatorRuntimeError);
      assert.match(err.message, /ConfigMap "lost".*namespaced/);
      assert.match(err.message, /set metadata\.namespace/);
      return true;
    });
    await assert.rejects(client.get({ ...cmKind, name: "lost" }), /namespaced but no namespace/);
    assert.equal(client.requests.count({ resource: "configmaps" }), 0, "no object request was sent");
  });

  it("handles cluster-scoped kinds, generateName and dry runs", async () => {
    const ns = await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "team-a" } });
    assert.equal(ns.metadata?.namespace, undefined);
    const generated = await client.create({ ...configMap(""), metadata: { generateName: "gen-", namespace: "team-a" } });
    assert.match(generated.metadata?.name ?? "", /^gen-[a-z0-9]{5}$/);
    const dry = await client.create(configMap("dry", { a: "1" }, "team-a"), { dryRun: true });
    assert.equal(dry.metadata?.name, "dry");
    await assert.rejects(client.get({ ...cmKind, namespace: "team-a", name: "dry" }), NotFoundError);
    const names = (await client.listAll(cmKind, { namespace: "team-a" })).items.map((i) => i.metadata?.name);
    assert.deepEqual(names, [generated.metadata?.name]);
  });

  it("URL-encodes names and reads through an ObjectReader that answers undefined for missing objects", async () => {
    const reader = client.reader();
    assert.equal(await reader.get({ ...cmKind, namespace: "default", name: "missing" }), undefined);
    await client.create(configMap("with.dots", { x: "y" }));
    const found = await reader.get({ ...cmKind, namespace: "default", name: "with.dots" });
    assert.deepEqual(found?.data, { x: "y" });
    const listed = await reader.list(cmKind, { namespace: "default", fieldSelector: "metadata.name=with.dots" });
    assert.deepEqual(listed.map((o) => o.metadata?.name), ["with.dots"]);
    await assert.rejects(client.get({ ...cmKind, namespace: "default", name: "a b?x#" }), (err: unknown) =>
      err instanceof NotFoundError && err.status.details?.name === "a b?x#");
    await assert.rejects(client.get({ ...cmKind, namespace: "default", name: "a/b" }), (err: unknown) =>
      err instanceof ApiError && err.code === 400, "a slash stays inside the name segment");
  });
});
