import { after, afterEach, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdmissionregistrationV1Api, AppsV1Api, CoreV1Api } from "@kubernetes/client-node";
import type { V1ValidatingAdmissionPolicySpec, V1ValidatingAdmissionPolicyBindingSpec, V1ValidatingWebhook } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { raw, within } from "../../support/wait.ts";
import { conformanceDeployment, rejection } from "../../support/kube-objects.ts";
import { FakeWebhook } from "./fake-webhook.ts";

const DEPLOYMENTS = { operations: ["CREATE", "UPDATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"] };
const MAX_FIVE: V1ValidatingAdmissionPolicySpec = {
  matchConstraints: { resourceRules: [DEPLOYMENTS] },
  validations: [{ expression: "object.spec.replicas <= 5", message: "replicas must be at most 5" }],
};

describe("LocalCluster ValidatingAdmissionPolicies", () => {
  let cluster: LocalCluster;
  let apps: AppsV1Api;
  let core: CoreV1Api;
  let adm: AdmissionregistrationV1Api;
  let hook: FakeWebhook;
  before(async () => {
    cluster = await LocalCluster.start();
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    adm = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    hook = await FakeWebhook.start();
    await core.createNamespace({ body: { metadata: { name: "vap-test", labels: { env: "test" } } } });
    await core.createNamespace({ body: { metadata: { name: "vap-prod", labels: { env: "prod" } } } });
  });
  after(async () => {
    await within(cluster.stop(), "LocalCluster to stop");
    await hook.stop();
  });
  afterEach(async () => {
    await adm.deleteCollectionValidatingAdmissionPolicyBinding({});
    await adm.deleteCollectionValidatingAdmissionPolicy({});
    await adm.deleteCollectionValidatingWebhookConfiguration({});
    await apps.deleteCollectionNamespacedDeployment({ namespace: "vap-test" });
    await apps.deleteCollectionNamespacedDeployment({ namespace: "vap-prod" });
    hook.calls.length = 0;
    hook.handlers.clear();
  });

  const policy = async (name: string, spec: V1ValidatingAdmissionPolicySpec, binding: Partial<V1ValidatingAdmissionPolicyBindingSpec> = {}) => {
    await adm.createValidatingAdmissionPolicy({ body: { metadata: { name }, spec } });
    await adm.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: `${name}-binding` }, spec: { policyName: name, validationActions: ["Deny"], ...binding } } });
  };
  const create = (namespace: string, name: string, replicas: number, dryRun?: string) =>
    apps.createNamespacedDeployment({ namespace, body: conformanceDeployment(name, { replicas }), ...(dryRun ? { dryRun } : {}) });
  const rawCreate = (namespace: string, name: string, replicas: number) =>
    raw(cluster.url, "POST", `/apis/apps/v1/namespaces/${namespace}/deployments`, conformanceDeployment(name, { replicas }));

  it("denies a Deployment with more than 5 replicas in namespaces labelled env=test, with kube-apiserver's Status", async () => {
    await policy("max-replicas", MAX_FIVE, { matchResources: { namespaceSelector: { matchLabels: { env: "test" } } } });
    const { code, body } = await rejection(create("vap-test", "big", 6));
    assert.equal(code, 422);
    assert.equal(body.reason, "Invalid");
    const message = "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: replicas must be at most 5";
    assert.equal(body.message, `deployments.apps "big" is forbidden: ${message}`);
    assert.deepEqual(body.details, { name: "big", group: "apps", kind: "deployments", causes: [{ message }] });
    assert.equal(cluster.peek({ group: "apps", plural: "deployments" }, "vap-test", "big"), undefined);
    await create("vap-test", "small", 5);
    await create("vap-prod", "big", 6);
    // Updates are checked too: scaling the small one past 5 is refused.
    const scaled = await rejection(apps.patchNamespacedDeployment({ namespace: "vap-test", name: "small", body: [{ op: "replace", path: "/spec/replicas", value: 9 }] }));
    assert.equal(scaled.code, 422);
  });

  it("answers with the validation's reason and its code (Forbidden → 403)", async () => {
    await policy("forbidden", { ...MAX_FIVE, validations: [{ expression: "object.spec.replicas <= 5", reason: "Forbidden" }] });
    const { code, body } = await rejection(create("vap-test", "big", 6));
    assert.equal(code, 403);
    assert.equal(body.reason, "Forbidden");
    assert.match(body.message, /denied request: failed expression: object\.spec\.replicas <= 5$/);
  });

  it("sends a Warning header for the Warn action, and accepts the object for Warn and Audit", async () => {
    await policy("warned", MAX_FIVE, { validationActions: ["Warn", "Audit"] });
    const res = await rawCreate("vap-test", "warned", 7);
    assert.equal(res.code, 201);
    assert.equal(res.headers.get("warning"), `299 - "Validation failed for ValidatingAdmissionPolicy 'warned' with binding 'warned-binding': replicas must be at most 5"`);
    assert.ok(cluster.peek({ group: "apps", plural: "deployments" }, "vap-test", "warned"));
  });

  it("accepts the object for the Audit action alone, without a warning", async () => {
    await policy("audited", MAX_FIVE, { validationActions: ["Audit"] });
    const res = await rawCreate("vap-test", "audited", 7);
    assert.equal(res.code, 201);
    assert.equal(res.headers.get("warning"), null);
  });

  it("words the refusal with messageExpression, over variables", async () => {
    await policy("computed", {
      matchConstraints: { resourceRules: [DEPLOYMENTS] },
      variables: [{ name: "replicas", expression: "object.spec.replicas" }, { name: "limit", expression: "namespaceObject.metadata.labels.env == 'test' ? 3 : 10" }],
      validations: [{ expression: "variables.replicas <= variables.limit", messageExpression: "'replicas ' + string(variables.replicas) + ' > ' + string(variables.limit) + ' in ' + request.namespace" }],
    });
    const { body } = await rejection(create("vap-test", "four", 4));
    assert.match(body.message, /denied request: replicas 4 > 3 in vap-test$/);
    await create("vap-prod", "four", 4);
  });

  it("skips a policy whose matchConditions are not all true", async () => {
    await policy("conditional", { ...MAX_FIVE, matchConditions: [{ name: "not-exempt", expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)" }] });
    await apps.createNamespacedDeployment({ namespace: "vap-test", body: { ...conformanceDeployment("exempt", { replicas: 8 }), metadata: { name: "exempt", labels: { app: "exempt", exempt: "yes" } } } });
    const { code } = await rejection(create("vap-test", "not-exempt", 8));
    assert.equal(code, 422);
  });

  it("stores a policy with a type error (kube-apiserver reports it in status.typeChecking) and refuses requests under failurePolicy: Fail", async () => {
    await policy("mistyped", { ...MAX_FIVE, validations: [{ expression: "object.spec.replicas <= 'five'" }] });
    const { code, body } = await rejection(create("vap-test", "any", 1));
    assert.equal(code, 422);
    assert.equal(body.message, `deployments.apps "any" is forbidden: ValidatingAdmissionPolicy 'mistyped' with binding 'mistyped-binding' denied request: expression 'object.spec.replicas <= 'five'' resulted in error: no such overload`);
    await adm.patchValidatingAdmissionPolicy({ name: "mistyped", body: [{ op: "add", path: "/spec/failurePolicy", value: "Ignore" }] });
    await create("vap-test", "any", 1);
  });

  it("refuses on a dry run too, and stores nothing on an allowed one", async () => {
    await policy("dry", MAX_FIVE);
    const { code } = await rejection(create("vap-test", "dry-big", 6, "All"));
    assert.equal(code, 422);
    await create("vap-test", "dry-small", 2, "All");
    assert.equal(cluster.peek({ group: "apps", plural: "deployments" }, "vap-test", "dry-small"), undefined);
  });

  it("takes effect as soon as the policy and binding are stored, and stops when the binding is deleted", async () => {
    await policy("live", MAX_FIVE);
    await rejection(create("vap-test", "live", 6));
    await adm.deleteValidatingAdmissionPolicyBinding({ name: "live-binding" });
    await create("vap-test", "live", 6);
  });

  it("reads params from the binding's paramRef (a ConfigMap here), and refuses when its paramKind is not served", async () => {
    await core.createNamespacedConfigMap({ namespace: "vap-test", body: { metadata: { name: "limits" }, data: { max: "2" } } });
    await policy("param", {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      matchConstraints: { resourceRules: [DEPLOYMENTS] },
      validations: [{ expression: "object.spec.replicas <= int(params.data.max)", messageExpression: "'at most ' + params.data.max + ' replicas'" }],
    }, { paramRef: { name: "limits", parameterNotFoundAction: "Deny" } });
    const { body } = await rejection(create("vap-test", "three", 3));
    assert.match(body.message, /with binding 'param-binding' denied request: at most 2 replicas$/);
    const missing = await rejection(create("vap-prod", "three", 3));
    assert.match(missing.body.message, /denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);
    await adm.createValidatingAdmissionPolicy({ body: { metadata: { name: "unserved" }, spec: { ...MAX_FIVE, paramKind: { apiVersion: "example.com/v1", kind: "Limits" } } } });
    await adm.createValidatingAdmissionPolicyBinding({ body: { metadata: { name: "unserved-binding" }, spec: { policyName: "unserved", validationActions: ["Deny"], paramRef: { name: "x" } } } });
    const unserved = await rejection(create("vap-test", "one", 1));
    assert.equal(unserved.body.message, `deployments.apps "one" is forbidden: ValidatingAdmissionPolicy 'unserved' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limits'`);
  });

  describe("webhook matchConditions", () => {
    const webhook = (name: string, path: string, extra: Partial<V1ValidatingWebhook> = {}): V1ValidatingWebhook => ({
      name, clientConfig: { url: hook.url + path, caBundle: hook.caBundle }, sideEffects: "None", admissionReviewVersions: ["v1"],
      rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }], ...extra,
    });

    it("call the webhook only when every condition holds", async () => {
      hook.handlers.set("/v", () => ({ allowed: false, status: { message: "no" } }));
      await adm.createValidatingWebhookConfiguration({ body: { metadata: { name: "conditional" }, webhooks: [webhook("conditional.example.com", "/v", {
        matchConditions: [{ name: "checked", expression: "object.metadata.name.startsWith('checked-')" }, { name: "creates", expression: "request.operation == 'CREATE'" }],
      })] } });
      await core.createNamespacedConfigMap({ namespace: "vap-test", body: { metadata: { name: "free" } } });
      assert.equal(hook.to("/v").length, 0);
      const { body } = await rejection(core.createNamespacedConfigMap({ namespace: "vap-test", body: { metadata: { name: "checked-one" } } }));
      assert.equal(body.message, 'admission webhook "conditional.example.com" denied the request: no');
      assert.equal(hook.to("/v").length, 1);
    });

    it("refuse with 403 when a condition fails to evaluate under Fail, and skip the webhook under Ignore", async () => {
      await adm.createValidatingWebhookConfiguration({ body: { metadata: { name: "erroring" }, webhooks: [webhook("erroring.example.com", "/e", {
        matchConditions: [{ name: "bad", expression: "object.data.missing == 'x'" }],
      })] } });
      const { code, body } = await rejection(core.createNamespacedConfigMap({ namespace: "vap-test", body: { metadata: { name: "err" }, data: { other: "1" } } }));
      assert.equal(code, 403);
      assert.equal(body.reason, "Forbidden");
      assert.equal(body.message, `configmaps "err" is forbidden: expression 'object.data.missing == 'x'' resulted in error: no such key: missing`);
      assert.equal(hook.to("/e").length, 0);
      await adm.patchValidatingWebhookConfiguration({ name: "erroring", body: [{ op: "replace", path: "/webhooks/0/failurePolicy", value: "Ignore" }] });
      await core.createNamespacedConfigMap({ namespace: "vap-test", body: { metadata: { name: "err" }, data: { other: "1" } } });
      assert.equal(hook.to("/e").length, 0);
    });

    it("refuse an expression naming authorizer, which LocalCluster does not implement, when the configuration is created", async () => {
      const { code, body } = await rejection(adm.createValidatingWebhookConfiguration({ body: { metadata: { name: "authz" }, webhooks: [webhook("authz.example.com", "/a", {
        matchConditions: [{ name: "authz", expression: "authorizer.group('').resource('configmaps').check('create').allowed()" }],
      })] } }));
      assert.equal(code, 422);
      assert.match(body.message, /webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: .*compilation failed: ERROR: <input>:1:1: LocalCluster cannot evaluate the variable 'authorizer'/);
    });
  });
});
