import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdmissionregistrationV1Api, CoreV1Api } from "@kubernetes/client-node";
import type { V1MutatingWebhook, V1ValidatingWebhook } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { costProbe } from "../../../src/testing/cost-probe.ts";
import { selfSignedCertificate } from "../../../src/testing/auth/self-signed.ts";
import { raw, within } from "../../support/wait.ts";
import { FakeWebhook, jsonPatch } from "./fake-webhook.ts";
import { rejection } from "../../support/kube-objects.ts";

const CM_RULE = { operations: ["CREATE", "UPDATE", "DELETE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] };

describe("LocalCluster admission webhooks", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let adm: AdmissionregistrationV1Api;
  let hook: FakeWebhook;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    adm = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    hook = await FakeWebhook.start();
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
    cluster.clearFaults();
  });

  const validating = (name: string, path: string, extra: Partial<V1ValidatingWebhook> = {}): V1ValidatingWebhook => ({
    name, clientConfig: { url: hook.url + path, caBundle: hook.caBundle }, rules: [CM_RULE], sideEffects: "None", admissionReviewVersions: ["v1"], ...extra,
  });
  const mutating = (name: string, path: string, extra: Partial<V1MutatingWebhook> = {}): V1MutatingWebhook => ({
    name, clientConfig: { url: hook.url + path, caBundle: hook.caBundle }, rules: [CM_RULE], sideEffects: "None", admissionReviewVersions: ["v1"], ...extra,
  });
  const registerValidating = (name: string, webhooks: V1ValidatingWebhook[]) => adm.createValidatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });
  const registerMutating = (name: string, webhooks: V1MutatingWebhook[]) => adm.createMutatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });
  const failure = rejection;

  it("answers a denial with kube-apiserver's Status: code, reason, message and causes from the webhook", async () => {
    hook.handlers.set("/deny", () => ({ allowed: false, status: { code: 422, reason: "Invalid", message: "data.size: must be small",
      details: { causes: [{ reason: "FieldValueInvalid", field: "data.size", message: "must be small" }] } } }));
    await registerValidating("deny", [validating("deny.example.com", "/deny")]);
    const { code, body } = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "denied" }, data: { size: "big" } } }));
    assert.equal(code, 422);
    assert.equal(body.message, 'admission webhook "deny.example.com" denied the request: data.size: must be small');
    assert.equal(body.reason, "Invalid");
    assert.deepEqual(body.details.causes, [{ reason: "FieldValueInvalid", field: "data.size", message: "must be small" }]);
    assert.equal(cluster.peek({ plural: "configmaps" }, "default", "denied"), undefined);
    // A denial without a code is a 400; without a message, "without explanation".
    hook.handlers.set("/deny", () => ({ allowed: false }));
    const bare = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "denied" } } }));
    assert.equal(bare.code, 400);
    assert.equal(bare.body.message, 'admission webhook "deny.example.com" denied the request without explanation');
  });

  it("sends an AdmissionReview v1 with the request's facts, the user and CreateOptions; the timeout rides on the URL", async () => {
    await registerValidating("seen", [validating("seen.example.com", "/seen")]);
    await core.createNamespacedConfigMap({ namespace: "default", fieldManager: "tester", body: { metadata: { name: "seen" } } });
    const [call] = hook.calls;
    assert.equal(call!.query, "?timeout=10s");
    const req = call!.request;
    assert.deepEqual(req.kind, { group: "", version: "v1", kind: "ConfigMap" });
    assert.deepEqual(req.resource, { group: "", version: "v1", resource: "configmaps" });
    assert.deepEqual(req.requestKind, req.kind);
    assert.deepEqual(req.requestResource, req.resource);
    assert.equal(req.operation, "CREATE");
    assert.equal(req.name, "seen");
    assert.equal(req.namespace, "default");
    assert.equal(req.dryRun, false);
    assert.equal(req.oldObject, null);
    assert.deepEqual(req.options, { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1", fieldManager: "tester" });
    assert.deepEqual(req.userInfo, { username: "localcluster-admin", groups: ["system:masters", "system:authenticated"] });
    assert.match(req.uid, /^[0-9a-f-]{36}$/);
  });

  it("stores what a mutating webhook's JSON patch made, and validating webhooks see the object as stored", async () => {
    hook.handlers.set("/mutate", () => jsonPatch([{ op: "add", path: "/metadata/labels", value: { stamped: "yes" } }]));
    await registerMutating("stamp", [mutating("stamp.example.com", "/mutate")]);
    await registerValidating("check", [validating("check.example.com", "/check")]);
    const created = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { generateName: "gen-" } } });
    assert.deepEqual(created.metadata?.labels, { stamped: "yes" });
    const stored = cluster.peek({ plural: "configmaps" }, "default", created.metadata!.name!);
    assert.deepEqual(stored?.metadata?.labels, { stamped: "yes" });
    const seen = hook.to("/check")[0]!;
    assert.equal(seen.name, undefined, "a generateName create has no name in the request");
    assert.equal(seen.object.metadata.name, created.metadata!.name, "the generated name");
    assert.equal(seen.object.metadata.uid, created.metadata!.uid, "the uid that was stored");
    assert.deepEqual(seen.object.metadata.labels, { stamped: "yes" });
    assert.equal(hook.to("/mutate")[0]!.object.metadata.uid, undefined, "mutating webhooks run before the uid is set");
  });

  it("validating webhooks see defaults (a Service's type and clusterIP)", async () => {
    const rule = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["services"] };
    await registerValidating("svc", [validating("svc.example.com", "/svc", { rules: [rule] })]);
    await core.createNamespacedService({ namespace: "default", body: { metadata: { name: "web" }, spec: { ports: [{ port: 80 }] } } });
    const obj = hook.to("/svc")[0]!.object;
    assert.equal(obj.spec.type, "ClusterIP");
    assert.match(obj.spec.clusterIP, /^10\.96\./);
    assert.equal(obj.spec.ports[0].protocol, "TCP");
  });

  it("reinvokes an IfNeeded mutating webhook once when a later webhook changed the object", async () => {
    hook.handlers.set("/a", (req) => (req.object.metadata.labels?.a ? { allowed: true } : jsonPatch([{ op: "add", path: "/metadata/labels", value: { ...req.object.metadata.labels, a: "1" } }])));
    hook.handlers.set("/b", (req) => jsonPatch([{ op: "add", path: "/metadata/labels/b", value: "1" }]));
    await registerMutating("m1", [mutating("a.example.com", "/a", { reinvocationPolicy: "IfNeeded" })]);
    await registerMutating("m2", [mutating("b.example.com", "/b")]);
    const created = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "reinvoked" } } });
    assert.deepEqual(created.metadata?.labels, { a: "1", b: "1" });
    assert.equal(hook.to("/a").length, 2, "a, b, then a again");
    assert.equal(hook.to("/b").length, 1);
  });

  it("failurePolicy Fail answers kube-apiserver's 500 when the webhook is down; Ignore lets the write through", async () => {
    const closed = "https://127.0.0.1:1/down";
    await registerValidating("down", [validating("down.example.com", "/down", { clientConfig: { url: closed, caBundle: hook.caBundle } })]);
    const { code, body } = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "down" } } }));
    assert.equal(code, 500);
    assert.equal(body.reason, "InternalError");
    const msg = 'failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:1/down?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused';
    assert.equal(body.message, `Internal error occurred: ${msg}`);
    assert.deepEqual(body.details.causes, [{ message: msg }]);
    await adm.patchValidatingWebhookConfiguration({ name: "down", body: [{ op: "replace", path: "/webhooks/0/failurePolicy", value: "Ignore" }] });
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "down" } } });
    assert.ok(cluster.peek({ plural: "configmaps" }, "default", "down"));
  });

  it("an answer for another request uid is an invalid response, under failurePolicy", async () => {
    hook.handlers.set("/uid", () => ({ uid: "not-the-request", allowed: true }));
    await registerValidating("uid", [validating("uid.example.com", "/uid")]);
    const { code, body } = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "uid" } } }));
    assert.equal(code, 500);
    assert.match(body.message, /^Internal error occurred: failed calling webhook "uid.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-request"$/);
  });

  it("a validating webhook answering a patch, or a mutating one a patch without patchType, is an invalid response", async () => {
    hook.handlers.set("/vpatch", () => jsonPatch([{ op: "add", path: "/data", value: { x: "1" } }]));
    await registerValidating("vpatch", [validating("vpatch.example.com", "/vpatch")]);
    const v = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "vpatch" } } }));
    assert.equal(v.code, 500);
    assert.match(v.body.message, /failed calling webhook "vpatch.example.com": received invalid webhook response: validating webhook may not return response.patch$/);
    await adm.deleteValidatingWebhookConfiguration({ name: "vpatch" });
    hook.handlers.set("/mpatch", () => ({ allowed: true, patch: jsonPatch([]).patch }));
    await registerMutating("mpatch", [mutating("mpatch.example.com", "/mpatch")]);
    const m = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "mpatch" } } }));
    assert.match(m.body.message, /received invalid webhook response: webhook returned response.patch but not response.patchType$/);
    await adm.deleteMutatingWebhookConfiguration({ name: "mpatch" });
  });

  it("a webhook that speaks only admission.k8s.io/v1beta1 gets a v1beta1 review; its patch without patchType is a JSON Patch", async () => {
    hook.handlers.set("/beta", () => ({ allowed: true, patch: jsonPatch([{ op: "add", path: "/data", value: { beta: "1" } }]).patch }));
    await registerMutating("beta", [mutating("beta.example.com", "/beta", { admissionReviewVersions: ["v1beta1"] })]);
    const created = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "beta" } } });
    assert.deepEqual(created.data, { beta: "1" });
    assert.equal(hook.to("/beta").length, 1);
  });

  it("a webhook served with a certificate the caBundle did not sign fails the call", async () => {
    const other = Buffer.from(selfSignedCertificate().cert).toString("base64");
    await registerValidating("badca", [validating("badca.example.com", "/x", { clientConfig: { url: `${hook.url}/x`, caBundle: other } })]);
    const { code, body } = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "badca" } } }));
    assert.equal(code, 500);
    assert.match(body.message, /failed to call webhook: Post ".*\/x\?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority$/);
    assert.equal(hook.calls.length, 0);
  });

  it("times out after timeoutSeconds", async () => {
    hook.handlers.set("/slow", () => "hold");
    await registerValidating("slow", [validating("slow.example.com", "/slow", { timeoutSeconds: 1 })]);
    const { code, body } = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "slow" } } }));
    assert.equal(code, 500);
    assert.match(body.message, /failed calling webhook "slow.example.com": failed to call webhook: Post ".*\/slow\?timeout=1s": context deadline exceeded$/);
  });

  it("injected webhook faults: down, HTTP 500, slow past the timeout, then calls go through again", async () => {
    await registerValidating("faulty", [validating("faulty.example.com", "/f", { timeoutSeconds: 1 })]);
    const create = (name: string) => core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name } } });
    const down = cluster.injectWebhookFault({ name: "faulty.example.com", down: true });
    assert.match((await failure(create("f1"))).body.message, /connect: connection refused$/);
    assert.equal(down.hits, 1);
    cluster.injectWebhookFault({ code: 500, message: "boom" });
    assert.match((await failure(create("f1"))).body.message, /failed to call webhook: an error on the server \("boom"\) has prevented the request from succeeding$/);
    cluster.injectWebhookFault({ latencyMs: 5_000 });
    assert.match((await failure(create("f1"))).body.message, /context deadline exceeded$/);
    assert.equal(hook.calls.length, 0, "faults answer without calling the webhook");
    await create("f1");
    assert.equal(hook.calls.length, 1);
    assert.throws(() => cluster.injectWebhookFault({ code: 200 } as never), /code 200 is not an HTTP error code/);
  });

  it("dryRun=All calls the webhooks with dryRun: true and stores nothing; a webhook with side effects cannot be registered", async () => {
    hook.handlers.set("/mutate", () => jsonPatch([{ op: "add", path: "/data", value: { added: "1" } }]));
    await registerMutating("dry", [mutating("dry.example.com", "/mutate")]);
    const answered = await core.createNamespacedConfigMap({ namespace: "default", dryRun: "All", body: { metadata: { name: "dry" } } });
    assert.deepEqual(answered.data, { added: "1" });
    assert.equal(hook.to("/mutate")[0]!.dryRun, true);
    assert.deepEqual(hook.to("/mutate")[0]!.options.dryRun, ["All"]);
    assert.equal(cluster.peek({ plural: "configmaps" }, "default", "dry"), undefined);
    // A webhook with side effects cannot be registered through admissionregistration/v1 (only
    // None and NoneOnDryRun are valid), so the "does not support dry run" answer is unreachable.
    const { code, body } = await failure(registerValidating("effects", [validating("effects.example.com", "/e", { sideEffects: "Some" })]));
    assert.equal(code, 422);
    assert.match(body.message, /webhooks\[0\]\.sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"/);
  });

  it("sends webhook warnings as Warning headers, on success and on a denial", async () => {
    hook.handlers.set("/warn", (req) => ({ allowed: req.object.metadata.name !== "refused", warnings: ["data.x is deprecated"] }));
    await registerValidating("warn", [validating("warn.example.com", "/warn")]);
    const ok = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "warned" } });
    assert.equal(ok.code, 201);
    assert.equal(ok.headers.get("warning"), '299 - "data.x is deprecated"');
    const refused = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "refused" } });
    assert.equal(refused.code, 400);
    assert.equal(refused.headers.get("warning"), '299 - "data.x is deprecated"');
  });

  it("calls DELETE with oldObject and DeleteOptions; a denial keeps the object", async () => {
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "doomed" } } });
    hook.handlers.set("/del", (req) => ({ allowed: req.oldObject.metadata.labels?.keep !== "true" }));
    await registerValidating("del", [validating("del.example.com", "/del", { rules: [{ ...CM_RULE, operations: ["DELETE"] }] })]);
    await core.deleteNamespacedConfigMap({ namespace: "default", name: "doomed", propagationPolicy: "Background" });
    const req = hook.to("/del")[0]!;
    assert.equal(req.operation, "DELETE");
    assert.equal(req.object, null);
    assert.equal(req.oldObject.metadata.name, "doomed");
    assert.deepEqual(req.options, { kind: "DeleteOptions", apiVersion: "meta.k8s.io/v1", propagationPolicy: "Background" });
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "kept", labels: { keep: "true" } } } });
    assert.equal((await failure(core.deleteNamespacedConfigMap({ namespace: "default", name: "kept" }))).code, 400);
    assert.ok(cluster.peek({ plural: "configmaps" }, "default", "kept"));
    // A collection delete admits each object.
    hook.calls.length = 0;
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "c1", labels: { batch: "x" } } } });
    await core.deleteCollectionNamespacedConfigMap({ namespace: "default", labelSelector: "batch=x" });
    assert.deepEqual(hook.to("/del").map((r) => r.name), ["c1"]);
  });

  it("rules: a pods/status rule is called for status updates only; a Namespaced rule skips cluster-scoped objects", async () => {
    const statusRule = { operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/status"] };
    await registerValidating("status", [validating("status.example.com", "/status", { rules: [statusRule] })]);
    await core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "busybox" }] } } });
    const pod = await core.patchNamespacedPod({ namespace: "default", name: "p", body: [{ op: "add", path: "/metadata/labels", value: { x: "1" } }] });
    assert.equal(hook.calls.length, 0);
    await core.replaceNamespacedPodStatus({ namespace: "default", name: "p", body: { ...pod, status: { phase: "Running" } } });
    const req = hook.to("/status")[0]!;
    assert.equal(req.subResource, "status");
    assert.equal(req.object.status.phase, "Running");
    assert.equal(req.oldObject.status?.phase, "Pending");

    const everything = { operations: ["CREATE"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], scope: "Namespaced" };
    await registerValidating("scoped", [validating("scoped.example.com", "/scoped", { rules: [everything] })]);
    await core.createNamespace({ body: { metadata: { name: "scoped-ns" } } });
    await core.createNamespacedConfigMap({ namespace: "scoped-ns", body: { metadata: { name: "in" } } });
    assert.deepEqual(hook.to("/scoped").map((r) => r.kind.kind), ["ConfigMap"]);
  });

  it("namespaceSelector and objectSelector pick the requests", async () => {
    await core.createNamespace({ body: { metadata: { name: "watched", labels: { admission: "on" } } } });
    await registerValidating("sel", [
      validating("ns.example.com", "/ns", { namespaceSelector: { matchLabels: { admission: "on" } } }),
      validating("obj.example.com", "/obj", { objectSelector: { matchExpressions: [{ key: "team", operator: "In", values: ["a"] }] } }),
    ]);
    await core.createNamespacedConfigMap({ namespace: "watched", body: { metadata: { name: "one" } } });
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "two", labels: { team: "a" } } } });
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "three" } } });
    assert.deepEqual(hook.to("/ns").map((r) => r.name), ["one"]);
    assert.deepEqual(hook.to("/obj").map((r) => r.name), ["two"]);
  });

  it("a create in a missing namespace is a 404 before any webhook is called (NamespaceLifecycle comes first)", async () => {
    await registerValidating("any", [validating("any.example.com", "/any")]);
    const { code, body } = await failure(core.createNamespacedConfigMap({ namespace: "nowhere", body: { metadata: { name: "x" } } }));
    assert.equal(code, 404);
    assert.equal(body.message, 'namespaces "nowhere" not found');
    assert.equal(hook.calls.length, 0);
  });

  it("registerWebhooks creates or replaces the configurations a manifest source lists", async () => {
    const source = { webhookManifests: () => [
      { apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingWebhookConfiguration", metadata: { name: "from-source" }, webhooks: [validating("src.example.com", "/src")] },
      { apiVersion: "v1", kind: "Service", metadata: { name: "ignored", namespace: "default" } },
    ] };
    await cluster.registerWebhooks(source);
    await cluster.registerWebhooks(source);
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "registered" } } });
    assert.equal(hook.to("/src").length, 1);
    const stored = await adm.readValidatingWebhookConfiguration({ name: "from-source" });
    assert.equal(stored.webhooks?.[0]?.failurePolicy, "Fail", "defaulted as any configuration");
  });

  it("registerWebhooks merges a CRD stub's spec.conversion onto the stored CRD, and names a missing CRD", async () => {
    const crd = {
      apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "gadgets.example.com" },
      spec: { group: "example.com", scope: "Namespaced", names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
        versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }] },
    };
    assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).code, 201);
    const conversion = { strategy: "Webhook", webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: `${hook.url}/convert`, caBundle: hook.caBundle } } };
    const stub = (name: string) => ({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name }, spec: { conversion } });
    await cluster.registerWebhooks({ webhookManifests: () => [stub("gadgets.example.com")] });
    const stored = (await raw(cluster.url, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com")).body;
    assert.deepEqual(stored.spec.conversion, conversion);
    assert.equal(stored.spec.names.kind, "Gadget", "the rest of the CRD is kept");
    await assert.rejects(cluster.registerWebhooks({ webhookManifests: () => [stub("missing.example.com")] }),
      /CustomResourceDefinition "missing.example.com" is not in the cluster; create the CRD before registering its conversion webhook/);
  });

  it("webhook configurations themselves are never sent to webhooks", async () => {
    const all = { operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] };
    await registerValidating("all", [validating("all.example.com", "/all", { rules: [all] })]);
    await registerValidating("second", [validating("second.example.com", "/second", { rules: [CM_RULE] })]);
    assert.equal(hook.calls.length, 0);
  });

  it("the fast path: without matching webhooks, a write costs what it did (no webhook call, no extra list)", async () => {
    const probe = costProbe(cluster);
    const before = probe.listed;
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "fast-1" } } });
    await core.replaceNamespacedConfigMap({ namespace: "default", name: "fast-1", body: { metadata: { name: "fast-1" }, data: { a: "1" } } });
    assert.equal(probe.listed - before, 0);
    const rule = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["secrets"] };
    await registerValidating("elsewhere", [validating("elsewhere.example.com", "/elsewhere", { rules: [rule] })]);
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "fast-2" } } });
    const afterFirst = probe.listed;
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "fast-3" } } });
    assert.equal(probe.listed - afterFirst, 0, "configurations are read again only after they change");
    assert.equal(hook.calls.length, 0);
  });
});
