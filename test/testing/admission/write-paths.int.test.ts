import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdmissionregistrationV1Api, CoreV1Api, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import type { V1MutatingWebhook, V1ValidatingWebhook } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { raw, within } from "../../support/wait.ts";
import { FakeWebhook, jsonPatch } from "./fake-webhook.ts";

const widgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com", scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [
      { name: "v1", served: true, storage: true, subresources: { status: {}, scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" } },
        schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" }, color: { type: "string", default: "red" } } }, status: { type: "object", properties: { size: { type: "integer" } } } } } } },
      { name: "v1beta1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } },
    ],
  },
};

describe("LocalCluster admission webhooks on every write path", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let adm: AdmissionregistrationV1Api;
  let hook: FakeWebhook;
  before(async () => {
    hook = await FakeWebhook.start();
    cluster = await LocalCluster.start({
      webhookServices: (svc) => (svc.namespace === "hooks" && svc.name === "svc" && svc.port === 8443 ? hook.url : undefined),
    });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    adm = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd)).code, 201);
  });
  after(async () => {
    await within(cluster.stop(), "LocalCluster to stop");
    await hook.stop();
  });
  afterEach(async () => {
    await adm.deleteCollectionValidatingWebhookConfiguration({});
    await adm.deleteCollectionMutatingWebhookConfiguration({});
    hook.calls.length = 0;
    hook.handlers.clear();
  });

  const base = (name: string, path: string, rules: V1ValidatingWebhook["rules"]) => ({
    name, clientConfig: { url: hook.url + path, caBundle: hook.caBundle }, rules, sideEffects: "None", admissionReviewVersions: ["v1"],
  });
  const registerValidating = (name: string, webhooks: V1ValidatingWebhook[]) => adm.createValidatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });
  const registerMutating = (name: string, webhooks: V1MutatingWebhook[]) => adm.createMutatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });
  const cmRule = (ops: string[]) => [{ operations: ops, apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }];

  it("PUT, merge PATCH and server-side apply are UPDATEs (apply of a new object a CREATE) with the old object", async () => {
    hook.handlers.set("/m", (req) => (req.object.data?.stamp ? { allowed: true } : jsonPatch([{ op: "add", path: "/data/stamp", value: req.operation }])));
    await registerMutating("m", [base("m.example.com", "/m", cmRule(["CREATE", "UPDATE"]))]);
    const created = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "w" }, data: { a: "1" } } });
    assert.equal(created.data?.stamp, "CREATE");
    const put = await core.replaceNamespacedConfigMap({ namespace: "default", name: "w", body: { metadata: { name: "w" }, data: { a: "2" } } });
    assert.equal(put.data?.stamp, "UPDATE");
    assert.equal(hook.to("/m")[1]!.oldObject.data.a, "1");
    const patched = await core.patchNamespacedConfigMap({ namespace: "default", name: "w", body: { data: { a: "3", stamp: null } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    assert.equal(patched.data?.stamp, "UPDATE");
    assert.equal(hook.to("/m")[2]!.object.data.a, "3");
    const applied = await raw(cluster.url, "PATCH", "/api/v1/namespaces/default/configmaps/applied?fieldManager=tester",
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "applied" }, data: { b: "1" } }, "application/apply-patch+yaml");
    assert.equal(applied.code, 201);
    assert.equal(applied.body.data.stamp, "CREATE");
    const last = hook.to("/m").at(-1)!;
    assert.deepEqual(last.options, { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", fieldManager: "tester" });
    assert.deepEqual(cluster.peek({ plural: "configmaps" }, "default", "applied")?.data, { b: "1", stamp: "CREATE" });
  });

  it("mutating webhooks get a built-in object decoded and defaulted, as kube-apiserver decodes it", async () => {
    const podRule = [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }];
    hook.handlers.set("/pod", () => jsonPatch([{ op: "replace", path: "/spec/restartPolicy", value: "Never" }]));
    await registerMutating("pod", [base("pod.example.com", "/pod", podRule)]);
    const pod = await core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "busybox" }] } } });
    assert.equal(pod.spec?.restartPolicy, "Never", "the replace found the defaulted field");
    assert.equal(hook.to("/pod")[0]!.object.spec.dnsPolicy, "ClusterFirst");
  });

  it("matchPolicy Equivalent calls a webhook for v1 with the object converted from v1beta1; Exact does not", async () => {
    const v1Rule = [{ operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"] }];
    hook.handlers.set("/eq", () => jsonPatch([{ op: "add", path: "/spec/size", value: 7 }]));
    await registerMutating("eq", [base("eq.example.com", "/eq", v1Rule)]);
    await registerValidating("exact", [{ ...base("exact.example.com", "/exact", v1Rule), matchPolicy: "Exact" }]);
    const r = await raw(cluster.url, "POST", "/apis/example.com/v1beta1/namespaces/default/widgets",
      { apiVersion: "example.com/v1beta1", kind: "Widget", metadata: { name: "eq" }, spec: {} });
    assert.equal(r.code, 201);
    assert.equal(r.body.apiVersion, "example.com/v1beta1");
    assert.equal(r.body.spec.size, 7);
    const req = hook.to("/eq")[0]!;
    assert.deepEqual(req.kind, { group: "example.com", version: "v1", kind: "Widget" });
    assert.deepEqual(req.resource, { group: "example.com", version: "v1", resource: "widgets" });
    assert.deepEqual(req.requestKind, { group: "example.com", version: "v1beta1", kind: "Widget" });
    assert.deepEqual(req.requestResource, { group: "example.com", version: "v1beta1", resource: "widgets" });
    assert.equal(req.object.apiVersion, "example.com/v1");
    assert.equal(hook.to("/exact").length, 0);
    await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/widgets",
      { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "exact" }, spec: {} });
    assert.equal(hook.to("/exact").length, 1);
    assert.equal(hook.to("/exact")[0]!.object.spec.color, "red", "validating webhooks see schema defaults");
  });

  it("the scale subresource sends autoscaling/v1 Scale objects", async () => {
    await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/widgets",
      { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "scaled" }, spec: { size: 1 } });
    const scaleRule = [{ operations: ["UPDATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets/scale"] }];
    hook.handlers.set("/scale", (req) => ({ allowed: req.object.spec.replicas <= 5, status: { message: "at most 5" } }));
    await registerValidating("scale", [base("scale.example.com", "/scale", scaleRule)]);
    const path = "/apis/example.com/v1/namespaces/default/widgets/scaled/scale";
    const ok = await raw(cluster.url, "PATCH", path, { spec: { replicas: 3 } }, "application/merge-patch+json");
    assert.equal(ok.code, 200);
    const req = hook.to("/scale")[0]!;
    assert.deepEqual(req.kind, { group: "autoscaling", version: "v1", kind: "Scale" });
    assert.equal(req.subResource, "scale");
    assert.equal(req.oldObject.spec.replicas, 1);
    const refused = await raw(cluster.url, "PATCH", path, { spec: { replicas: 9 } }, "application/merge-patch+json");
    assert.equal(refused.code, 400);
    assert.equal(refused.body.message, 'admission webhook "scale.example.com" denied the request: at most 5');
    assert.equal((cluster.peek({ group: "example.com", plural: "widgets" }, "default", "scaled") as any).spec.size, 3);
  });

  it("reaches a service reference through the webhookServices option; an unknown service fails the call", async () => {
    const rules = cmRule(["CREATE"]);
    await registerValidating("svc", [{ ...base("svc.example.com", "", rules), clientConfig: { service: { namespace: "hooks", name: "svc", port: 8443, path: "/via-service" }, caBundle: hook.caBundle } }]);
    // The certificate is for 127.0.0.1/localhost, not svc.hooks.svc: a real API server refuses it too.
    const r = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "via-svc" } });
    assert.equal(r.code, 500);
    assert.match(r.body.message, /Post "https:\/\/svc\.hooks\.svc:8443\/via-service\?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for localhost, not svc\.hooks\.svc$/);
    await adm.deleteValidatingWebhookConfiguration({ name: "svc" });
    await registerValidating("nosvc", [{ ...base("nosvc.example.com", "", rules), clientConfig: { service: { namespace: "hooks", name: "other" }, caBundle: hook.caBundle } }]);
    const missing = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "via-svc" } });
    assert.equal(missing.code, 500);
    assert.match(missing.body.message, /failed calling webhook "nosvc.example.com": failed to call webhook: service "other" in namespace "hooks"/);
  });

  it("a PATCH whose object changed while webhooks were called is applied again to the new object; a PUT answers 409", async () => {
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "raced" }, data: { n: "0" } } });
    let race: (() => Promise<unknown>) | undefined;
    hook.handlers.set("/race", async () => {
      const write = race;
      race = undefined;
      await write?.();
      return { allowed: true };
    });
    await registerValidating("race", [base("race.example.com", "/race", cmRule(["UPDATE"]))]);
    race = () => core.patchNamespacedConfigMap({ namespace: "default", name: "raced", body: { data: { other: "1" } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    const patched = await core.patchNamespacedConfigMap({ namespace: "default", name: "raced", body: { data: { n: "1" } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    assert.deepEqual(patched.data, { n: "1", other: "1" });
    assert.equal(hook.to("/race").length, 3, "the patch, the racing patch, the patch again");

    const current = await core.readNamespacedConfigMap({ namespace: "default", name: "raced" });
    race = () => core.patchNamespacedConfigMap({ namespace: "default", name: "raced", body: { data: { other: "2" } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    const put = await raw(cluster.url, "PUT", "/api/v1/namespaces/default/configmaps/raced", { ...current, data: { n: "2" } });
    assert.equal(put.code, 409);
    assert.equal(put.body.message, 'Operation cannot be fulfilled on configmaps "raced": the object has been modified; please apply your changes to the latest version and try again');
  });

  it("a Namespace's own requests match namespaceSelector on its labels", async () => {
    const nsRule = [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["namespaces"] }];
    await registerValidating("ns", [{ ...base("ns.example.com", "/ns", nsRule), namespaceSelector: { matchLabels: { watch: "yes" } } }]);
    await core.createNamespace({ body: { metadata: { name: "plain" } } });
    await core.createNamespace({ body: { metadata: { name: "watched", labels: { watch: "yes" } } } });
    const calls = hook.to("/ns");
    assert.deepEqual(calls.map((c) => c.name), ["watched"]);
    assert.equal(calls[0]!.namespace, "watched", "a Namespace's request namespace is its own name");
  });
});
