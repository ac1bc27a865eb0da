/**
 * LocalCluster validates Mutating/ValidatingWebhookConfigurations as kube-apiserver 1.36 does:
 * one 422 with every cause, in kube-apiserver's order, with its field paths and messages,
 * judged after the v1 defaults; updates relax the rules the stored configuration already broke.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AdmissionregistrationV1Api } from "@kubernetes/client-node";
import type { V1MutatingWebhook, V1ValidatingWebhook } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { within } from "../../support/wait.ts";
import { causeLines, rejection } from "../../support/kube-objects.ts";

const RULE = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] };

const hook = (name: string, extra: Record<string, unknown> = {}): V1ValidatingWebhook =>
  ({ name, clientConfig: { url: "https://hooks.example.com/validate" }, rules: [RULE], sideEffects: "None", admissionReviewVersions: ["v1"], ...extra }) as V1ValidatingWebhook;

describe("LocalCluster webhook configuration validation", () => {
  let cluster: LocalCluster;
  let adm: AdmissionregistrationV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    adm = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
  });
  after(async () => {
    await within(cluster.stop(), "LocalCluster to stop");
  });

  const failure = async (p: Promise<unknown>) => {
    const { code, body } = await rejection(p);
    return { code, body, lines: causeLines(body) };
  };
  const createValidating = (name: string, webhooks: V1ValidatingWebhook[]) => adm.createValidatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });
  const createMutating = (name: string, webhooks: V1MutatingWebhook[]) => adm.createMutatingWebhookConfiguration({ body: { metadata: { name }, webhooks } });

  it("answers one 422 naming the webhook name, side effects, review versions and client config problems in order", async () => {
    const { code, body, lines } = await failure(
      createValidating("bad", [
        { name: "short", clientConfig: {}, rules: [RULE] } as unknown as V1ValidatingWebhook,
        hook("Bad_Name", { clientConfig: { url: "http://user:pw@hooks.example.com/x?a=1#frag" }, admissionReviewVersions: ["v2", "v2"] }),
      ]),
    );
    assert.equal(code, 422);
    assert.equal(body.reason, "Invalid");
    assert.equal(body.details.kind, "ValidatingWebhookConfiguration");
    assert.equal(body.details.group, "admissionregistration.k8s.io");
    assert.deepEqual(lines, [
      'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
      "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
      "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
      "webhooks[1].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "webhooks[1].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'webhooks[1].clientConfig.url: Invalid value: "user:pw": user information is not permitted in the URL',
      'webhooks[1].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
      'webhooks[1].clientConfig.url: Invalid value: "a=1": query parameters are not permitted in the URL',
      'webhooks[1].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[1].admissionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]);
    assert.match(body.message, /^ValidatingWebhookConfiguration\.admissionregistration\.k8s\.io "bad" is invalid: \[webhooks\[0\]\.name: /);
  });

  it("checks rules: operations, wildcards, x/* resource forms and scope", async () => {
    const rules = [
      { operations: ["*", "CREATE"], apiGroups: ["*", "apps"], apiVersions: ["*", ""], resources: ["*", "pods", "deployments/*", "deployments/status"], scope: "Everywhere" },
      { operations: ["PATCH"], apiGroups: [], apiVersions: [], resources: [] },
      { operations: [], apiGroups: [""], apiVersions: ["v1"], resources: ["*/*", "pods"] },
    ];
    const { lines } = await failure(createValidating("rules", [hook("rules.example.com", { rules })]));
    assert.deepEqual(lines, [
      'webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
      'webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other API groups',
      'webhooks[0].rules[0].apiVersions: Invalid value: ["*",""]: if \'*\' is present, must not specify other API versions',
      "webhooks[0].rules[0].apiVersions[1]: Required value",
      'webhooks[0].rules[0].resources[3]: Invalid value: "deployments/status": if \'deployments/*\' is present, must not specify deployments/status',
      'webhooks[0].rules[0].resources: Invalid value: ["*","pods","deployments/*","deployments/status"]: if \'*\' is present, must not specify other resources without subresources',
      'webhooks[0].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      'webhooks[0].rules[1].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      "webhooks[0].rules[1].apiGroups: Required value",
      "webhooks[0].rules[1].apiVersions: Required value",
      "webhooks[0].rules[1].resources: Required value",
      "webhooks[0].rules[2].operations: Required value",
      'webhooks[0].rules[2].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not specify other resources',
    ]);
  });

  it("checks enums, the timeout, selectors, the service reference and match conditions; a mutating webhook's reinvocationPolicy", async () => {
    const extra = {
      failurePolicy: "Sometimes", matchPolicy: "Loose", sideEffects: "Some", timeoutSeconds: 31, reinvocationPolicy: "Always",
      namespaceSelector: { matchLabels: { "bad key!": "x" }, matchExpressions: [{ key: "env", operator: "In" }] },
      objectSelector: { matchExpressions: [{ key: "env", operator: "Exists", values: ["x"] }] },
      clientConfig: { service: { name: "svc", namespace: "", path: "a//B", port: 0 } },
      matchConditions: [{ name: "c", expression: " " }, { name: "c", expression: "true" }, { name: "", expression: "true" }],
    };
    const { lines } = await failure(createMutating("enums", [hook("enums.example.com", extra) as V1MutatingWebhook]));
    assert.deepEqual(lines, [
      'webhooks[0].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
      'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
      "webhooks[0].namespaceSelector.matchLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "webhooks[0].objectSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      "webhooks[0].clientConfig.service.name: Required value: service name is required",
      "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": must start with a \'/\'',
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
      'webhooks[0].clientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
      "webhooks[0].clientConfig.service.path: Invalid value: \"a//B\": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "webhooks[0].matchConditions[0].expression: Required value",
      'webhooks[0].matchConditions[1].name: Duplicate value: "c"',
      "webhooks[0].matchConditions[2].name: Required value",
    ]);
  });

  it("reports duplicate webhook names, an unparsable URL, and accepts a valid configuration with its defaults", async () => {
    const { lines } = await failure(createValidating("dups", [hook("a.example.com"), hook("a.example.com", { clientConfig: { url: "https://[::1" } })]));
    assert.deepEqual(lines, [
      'webhooks[1].clientConfig.url: Required value: url must be a valid URL: parse "https://[::1": missing \']\' in host; desired format: https://host[/path]',
      'webhooks[1].name: Duplicate value: "a.example.com"',
    ]);
    const created = await createValidating("ok", [hook("ok.example.com", { clientConfig: { service: { name: "svc", namespace: "ns", path: "/validate" } } })]);
    const [stored] = created.webhooks!;
    assert.equal(stored!.failurePolicy, "Fail");
    assert.equal(stored!.timeoutSeconds, 10);
    assert.equal(stored!.clientConfig.service!.port, 443);
  });

  it("on update, relaxes what the stored configuration already broke and still checks the rest", async () => {
    await createMutating("upd", [hook("upd.example.com") as V1MutatingWebhook]);
    const current = await adm.readMutatingWebhookConfiguration({ name: "upd" });
    current.webhooks![0]!.timeoutSeconds = 0;
    const { code, lines } = await failure(adm.replaceMutatingWebhookConfiguration({ name: "upd", body: current }));
    assert.equal(code, 422);
    assert.deepEqual(lines, ["webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds"]);
    // Unchanged match conditions are not checked again; new ones are.
    current.webhooks![0]!.timeoutSeconds = 5;
    current.webhooks![0]!.matchConditions = [{ name: "", expression: "" }];
    const again = await failure(adm.replaceMutatingWebhookConfiguration({ name: "upd", body: current }));
    assert.deepEqual(again.lines, ["webhooks[0].matchConditions[0].expression: Required value", "webhooks[0].matchConditions[0].name: Required value"]);
  });
});
