/**
 * A custom resource reaches mutating webhooks as kube-apiserver decoded it: pruned and defaulted
 * by the requested version's schema (kube-apiserver's CRD codec does both when it reads the
 * body, before admission).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdmissionregistrationV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { raw, within } from "../../support/wait.ts";
import { FakeWebhook, jsonPatch } from "./fake-webhook.ts";

describe("LocalCluster: custom resources through mutating webhooks", () => {
  let cluster: LocalCluster;
  let hook: FakeWebhook;
  before(async () => {
    cluster = await LocalCluster.start();
    hook = await FakeWebhook.start();
    // Raw JSON: client-node's typed models would drop the schema's `default` (its field is `_default`).
    await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
      metadata: { name: "gadgets.example.com" },
      spec: { group: "example.com", scope: "Namespaced", names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: {
          spec: { type: "object", properties: { size: { type: "integer" }, tier: { type: "string", default: "premium" }, label: { type: "string" } } },
        } } } }] },
    });
    hook.handlers.set("/m", () => jsonPatch([{ op: "add", path: "/spec/label", value: "set-by-webhook" }]));
    await cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api).createMutatingWebhookConfiguration({ body: {
      metadata: { name: "gadgets" },
      webhooks: [{ name: "m.gadgets.example.com", clientConfig: { url: `${hook.url}/m`, caBundle: hook.caBundle }, sideEffects: "None", admissionReviewVersions: ["v1"],
        rules: [{ operations: ["CREATE", "UPDATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["gadgets"] }] }],
    } });
  });
  after(async () => {
    await within(cluster.stop(), "LocalCluster to stop");
    await hook.stop();
  });

  it("the webhook sees schema defaults and no unknown fields; the unknown field is still warned about", async () => {
    const created = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/gadgets",
      { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "g" }, spec: { size: 3, unknown: 1 } });
    assert.equal(created.code, 201, created.text);
    assert.deepEqual(hook.to("/m")[0]!.object.spec, { size: 3, tier: "premium" });
    assert.deepEqual(created.body.spec, { size: 3, tier: "premium", label: "set-by-webhook" });
    assert.match(created.headers.get("warning") ?? "", /unknown field \\"spec.unknown\\"/);
    const strict = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/gadgets?fieldValidation=Strict",
      { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "s" }, spec: { unknown: 1 } });
    assert.equal(strict.code, 400);
    assert.match(strict.body.message, /strict decoding error: unknown field "spec.unknown"/);
  });

  it("what a webhook adds that the schema does not know is dropped silently, even under fieldValidation=Strict", async () => {
    hook.handlers.set("/m", () => jsonPatch([{ op: "add", path: "/spec/extra", value: "from-webhook" }]));
    const created = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/gadgets?fieldValidation=Strict",
      { apiVersion: "example.com/v1", kind: "Gadget", metadata: { name: "strict-ok" }, spec: { size: 1 } });
    assert.equal(created.code, 201, created.text);
    assert.deepEqual(created.body.spec, { size: 1, tier: "premium" });
    assert.equal(created.headers.get("warning"), null);
  });
});
