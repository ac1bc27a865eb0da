import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, BuilderValidationErrors, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const NS = "owned";

/** A cluster-scoped owner kind: Tenant (example.com/v1). */
const tenantCrd = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "tenants.example.com" },
  spec: {
    group: "example.com", scope: "Cluster", names: { plural: "tenants", singular: "tenant", kind: "Tenant" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
  },
};

const cm = (name: string, namespace?: string): KubeObject =>
  ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...(namespace ? { namespace } : {}) }, data: { a: "1" } });

/** The validation errors of a rejected pass, as `object field`. */
async function rejected(pass: Promise<unknown>): Promise<BuilderValidationErrors> {
  try {
    await pass;
  } catch (err) {
    assert.ok(err instanceof BuilderValidationErrors, String(err));
    return err;
  }
  assert.fail("the pass did not reject");
}

/** Lets LocalCluster's garbage collector run its passes (it runs on the next turns of the event loop). */
const gcSettles = () => new Promise((r) => setTimeout(r, 100));

describe("where a Builder's children may live (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  let tenant: any;
  const status = async (path: string) => (await raw(cluster.url, "GET", path)).code;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", tenantCrd);
    await waitFor(async () => (await raw(cluster.url, "GET", "/apis/example.com/v1/tenants")).code === 200, "Tenant served");
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "ownership-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: "elsewhere" } });
    tenant = (await raw(cluster.url, "POST", "/apis/example.com/v1/tenants", { apiVersion: "example.com/v1", kind: "Tenant", metadata: { name: "acme" } })).body;
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => cluster.requests.clear());

  it("refuses a child in another namespace than its namespaced owner, before any request", async () => {
    const err = await rejected(new Builder({ client, owner }).configMap({ metadata: { name: "x", namespace: "elsewhere" } }).reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["ConfigMap/x metadata.namespace"]);
    assert.match(err.message, /is "elsewhere", but the owner DataApp owned\/demo is in namespace "owned"/);
    assert.match(err.errors[0]!.fix, /leave metadata\.namespace out or set it to "owned"/);
    assert.match(err.errors[0]!.fix, /cluster-scoped owner/);
    assert.equal(cluster.requests.count(), 0);
    assert.equal(await status("/api/v1/namespaces/elsewhere/configmaps/x"), 404);
  });

  it("refuses the namespace option naming another namespace than the owner's, before any request", async () => {
    const err = await rejected(new Builder({ client, owner, namespace: "elsewhere" }).configMap({ metadata: { name: "x" } }).plan());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["Builder namespace"]);
    assert.match(err.message, /is "elsewhere", but the owner DataApp owned\/demo is in namespace "owned"/);
    assert.match(err.errors[0]!.fix, /leave the namespace option out/);
    assert.equal(cluster.requests.count(), 0);
  });

  it("refuses an invalid namespace option", async () => {
    const err = await rejected(new Builder({ client, owner: tenant, namespace: "Not_A_Namespace" }).configMap({ metadata: { name: "x" } }).reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["Builder namespace"]);
    assert.equal(cluster.requests.count(), 0);
  });

  it("reports every misplaced child together with the other problems, and writes nothing", async () => {
    const err = await rejected(new Builder({ client, owner })
      .configMap({ metadata: { name: "a", namespace: "elsewhere" } })
      .object(cm("b", "elsewhere"))
      .service({ metadata: { name: "Bad_Name" }, spec: { ports: [{ port: 80 }] } })
      .reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["ConfigMap/a metadata.namespace", "ConfigMap/b metadata.namespace", "Service/Bad_Name metadata.name"]);
    assert.equal(cluster.requests.count(), 0);
  });

  it("refuses a cluster-scoped kind under a namespaced owner once discovery tells its scope, before any write", async () => {
    const err = await rejected(new Builder({ client, owner })
      .configMap(cm("fine"))
      .object({ apiVersion: "v1", kind: "Namespace", metadata: { name: "tenant-ns" } })
      .reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["Namespace/tenant-ns kind"]);
    assert.match(err.message, /Namespace is cluster-scoped, but the owner DataApp owned\/demo is namespaced/);
    assert.match(err.errors[0]!.fix, /owner is cluster-scoped, or write them with client\.apply\(\)/);
    assert.equal(cluster.requests.writes(), 0, JSON.stringify(cluster.requests.summary()));
    assert.equal(await status("/api/v1/namespaces/tenant-ns"), 404);
    assert.equal(await status(`/api/v1/namespaces/${NS}/configmaps/fine`), 404, "nothing is half-written");
  });

  it("keeps a child in its namespaced owner's namespace, given or defaulted, and the garbage collector leaves it", async () => {
    const pass = () => new Builder({ client, owner, prune: false }).configMap(cm("same")).configMap(cm("explicit", NS)).reconcile();
    const first = await pass();
    assert.equal(first.ok, true, first.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(first.objects.map((o) => `${o.action} ${o.namespace}/${o.name}`), [`created ${NS}/same`, `created ${NS}/explicit`]);
    await gcSettles();
    const second = await pass();
    assert.deepEqual(second.objects.map((o) => o.action), ["unchanged", "unchanged"]);
    assert.equal(cluster.requests.writes(), 2, "only the first pass wrote");
  });

  it("lets a cluster-scoped owner own namespaced children in any namespace and cluster-scoped ones", async () => {
    const pass = () => new Builder({ client, owner: tenant, namespace: NS })
      .configMap(cm("defaulted"))
      .configMap(cm("placed", "elsewhere"))
      .object({ apiVersion: "v1", kind: "Namespace", metadata: { name: "acme-ns" } })
      .reconcile();
    const first = await pass();
    assert.equal(first.ok, true, first.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(first.objects.map((o) => `${o.action} ${o.kind}/${o.namespace ?? "-"}/${o.name}`),
      [`created ConfigMap/${NS}/defaulted`, "created ConfigMap/elsewhere/placed", "created Namespace/-/acme-ns"]);
    await gcSettles();
    const second = await pass();
    assert.deepEqual(second.objects.filter((o) => o.action !== "unchanged"), []);
    const placed = (await raw(cluster.url, "GET", "/api/v1/namespaces/elsewhere/configmaps/placed")).body;
    assert.equal(placed.metadata.ownerReferences[0].uid, tenant.metadata.uid);
  });

  it("prunes a cluster-scoped owner's children in every namespace, whatever its namespace option", async () => {
    const owner = (await raw(cluster.url, "POST", "/apis/example.com/v1/tenants", { apiVersion: "example.com/v1", kind: "Tenant", metadata: { name: "spread" } })).body;
    const first = await new Builder({ client, owner, namespace: NS }).configMap(cm("home")).configMap(cm("away", "elsewhere")).reconcile();
    assert.equal(first.ok, true, first.errors.map((e) => e.message).join("\n"));
    const second = await new Builder({ client, owner, namespace: NS }).configMap(cm("home")).reconcile();
    assert.deepEqual(second.objects.map((o) => `${o.action} ${o.namespace}/${o.name}`), [`unchanged ${NS}/home`, "deleted elsewhere/away"]);
    assert.equal(await status("/api/v1/namespaces/elsewhere/configmaps/away"), 404);
  });

  it("asks a cluster-scoped owner's namespaced children for a namespace", async () => {
    const err = await rejected(new Builder({ client, owner: tenant }).configMap(cm("nowhere")).reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["ConfigMap/nowhere metadata.namespace"]);
    assert.match(err.message, /is required: ConfigMap is namespaced and the owner Tenant acme is cluster-scoped/);
    assert.equal(cluster.requests.count(), 0);
  });
});
