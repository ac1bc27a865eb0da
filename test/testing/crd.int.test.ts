import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, ApiextensionsV1Api, KubernetesObjectApi } from "@kubernetes/client-node";
import type { KubernetesObject } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { FIXTURES, fixture } from "./crd/fixtures.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

const widgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
    versions: [
      {
        name: "v1", served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" } },
        additionalPrinterColumns: [{ name: "Size", type: "integer", jsonPath: ".spec.size" }],
        schema: { openAPIV3Schema: { type: "object", properties: {
          spec: { type: "object", required: ["size"], properties: {
            size: { type: "integer", minimum: 1 },
            color: { type: "string", enum: ["red", "blue"], default: "red" },
            extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            port: { "x-kubernetes-int-or-string": true },
          } },
          status: { type: "object", properties: { size: { type: "integer" }, phase: { type: "string" } } },
        } } },
      },
      { name: "v1beta1", served: true, storage: false,
        schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
    ],
  },
};

describe("LocalCluster CustomResourceDefinitions", () => {
  let cluster: LocalCluster;
  let objects: KubernetesObjectApi;
  let ext: ApiextensionsV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
    ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("establishes a CRD at once and serves its kind through KubernetesObjectApi", async () => {
    // Sent as raw JSON: client-node's serializer (typed APIs and KubernetesObjectApi alike)
    // drops JSONSchemaProps `default` and `enum` unless they are spelled `_default`/`_enum`.
    assert.equal((await raw(cluster.url, "POST", crdPath, widgetCrd)).code, 201);
    const crd = await ext.readCustomResourceDefinition({ name: "widgets.example.com" });
    const conds = crd.status!.conditions!.map((c) => `${c.type}=${c.status}`);
    assert.ok(conds.includes("Established=True") && conds.includes("NamesAccepted=True"));
    const w = await objects.create({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1", namespace: "default" }, spec: { size: 2, junk: 1 } } as KubernetesObject);
    const spec = (w as any).spec;
    assert.equal(spec.color, "red", "default applied");
    assert.equal(spec.junk, undefined, "unknown field pruned");
    assert.equal(w.metadata?.generation, 1);
    const disc = await raw(cluster.url, "GET", "/apis/example.com/v1");
    assert.deepEqual(disc.body.resources.map((r: any) => r.name), ["widgets", "widgets/status", "widgets/scale"]);
  });

  it("validates CRs with 422 and field paths", async () => {
    const r = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/widgets",
      { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "bad" }, spec: { size: "big", color: "green" } });
    assert.equal(r.code, 422);
    const fields = r.body.details.causes.map((c: any) => c.field).sort();
    // .spec.size is also the scale subresource's specReplicasPath: "big" fails its integer accessor too.
    assert.deepEqual(fields, [".spec.size", "spec.color", "spec.size"]);
    assert.match(r.body.message, /^Widget.example.com "bad" is invalid/);
    const missing = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/widgets",
      { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "bad" }, spec: {} });
    assert.equal(missing.code, 422);
    assert.equal(missing.body.details.causes[0].field, "spec.size");
    const both = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/widgets",
      { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "ok-types" }, spec: { size: 1, port: "http", extra: { any: { thing: 1 } } } });
    assert.equal(both.code, 201);
    assert.deepEqual(both.body.spec.extra, { any: { thing: 1 } });
  });

  it("keeps status on the main endpoint and everything else on /status; generation follows spec", async () => {
    const base = "/apis/example.com/v1/namespaces/default/widgets/w1";
    const st = await raw(cluster.url, "PATCH", `${base}/status`, { status: { size: 2, phase: "Ready" }, spec: { size: 9 } }, "application/merge-patch+json");
    assert.equal(st.code, 200);
    assert.equal(st.body.status.phase, "Ready");
    assert.equal(st.body.spec.size, 2, "/status ignores spec");
    assert.equal(st.body.metadata.generation, 1);
    const main = await raw(cluster.url, "PATCH", base, { status: { phase: "Hacked" }, spec: { size: 3 } }, "application/merge-patch+json");
    assert.equal(main.body.status.phase, "Ready", "main endpoint ignores status");
    assert.equal(main.body.metadata.generation, 2);
    const smp = await raw(cluster.url, "PATCH", base, { spec: { size: 4 } }, "application/strategic-merge-patch+json");
    assert.equal(smp.code, 415);
    const put = await raw(cluster.url, "PUT", base, { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w1" }, spec: { size: 5 } });
    assert.equal(put.code, 422, "PUT without resourceVersion is refused for CRs");
  });

  it("serves the scale subresource", async () => {
    const scale = await raw(cluster.url, "GET", "/apis/example.com/v1/namespaces/default/widgets/w1/scale");
    assert.equal(scale.body.kind, "Scale");
    assert.equal(scale.body.spec.replicas, 3);
    const up = await raw(cluster.url, "PATCH", "/apis/example.com/v1/namespaces/default/widgets/w1/scale", { spec: { replicas: 7 } }, "application/merge-patch+json");
    assert.equal(up.code, 200);
    assert.equal(up.body.spec.replicas, 7);
    const w = await raw(cluster.url, "GET", "/apis/example.com/v1/namespaces/default/widgets/w1");
    assert.equal(w.body.spec.size, 7);
  });

  it("serves every served version from one storage", async () => {
    const beta = await raw(cluster.url, "GET", "/apis/example.com/v1beta1/namespaces/default/widgets/w1");
    assert.equal(beta.code, 200);
    assert.equal(beta.body.apiVersion, "example.com/v1beta1");
    const group = await raw(cluster.url, "GET", "/apis/example.com");
    assert.equal(group.body.preferredVersion.version, "v1");
  });

  it("accepts the real prometheus-operator and Pinot CRDs and the Pinot CR unchanged", async () => {
    for (const f of [FIXTURES.podMonitors, FIXTURES.prometheusRules, FIXTURES.pinots]) {
      const crd = fixture(f);
      const created = await raw(cluster.url, "POST", crdPath, crd);
      assert.equal(created.code, 201, f);
      assert.equal(created.body.metadata.name, crd.metadata?.name);
    }
    const pinot = fixture(FIXTURES.pinotBasic);
    pinot.metadata!.namespace ??= "default";
    const created = await objects.create(pinot as KubernetesObject);
    assert.equal(created.metadata?.name, pinot.metadata!.name);
    const read = await objects.read({ apiVersion: pinot.apiVersion!, kind: pinot.kind!, metadata: { name: pinot.metadata!.name!, namespace: pinot.metadata!.namespace! } });
    assert.deepEqual((read as any).spec.deploymentOrder, (pinot as any).spec.deploymentOrder);
    const pm = await raw(cluster.url, "POST", "/apis/monitoring.coreos.com/v1/namespaces/default/podmonitors",
      { apiVersion: "monitoring.coreos.com/v1", kind: "PodMonitor", metadata: { name: "pm" }, spec: { selector: {}, podMetricsEndpoints: [{ port: "web", scheme: "gopher" }] } });
    assert.equal(pm.code, 422, "enum violation in a real schema");
  });

  it("deleting a CRD removes its instances and its discovery entry", async () => {
    await ext.deleteCustomResourceDefinition({ name: "widgets.example.com" });
    await waitFor(async () => (await raw(cluster.url, "GET", "/apis/example.com/v1")).code === 404, "discovery gone");
    const list = await raw(cluster.url, "GET", "/apis/example.com/v1/namespaces/default/widgets");
    assert.equal(list.code, 404);
    assert.equal((await raw(cluster.url, "POST", crdPath, widgetCrd)).code, 201);
    const again = await raw(cluster.url, "GET", "/apis/example.com/v1/namespaces/default/widgets");
    assert.deepEqual(again.body.items, [], "re-created CRD starts empty");
  });

  it("rejects invalid CRDs with 422", async () => {
    const err = await ext.createCustomResourceDefinition({ body: { ...widgetCrd, metadata: { name: "wrong.example.com" } } as never }).catch((e) => e);
    assert.ok(err instanceof ApiException);
    assert.equal(err.code, 422);
  });
});
