/**
 * webhookConfigurations: the Mutating/ValidatingWebhookConfigurations and CRD conversion stubs
 * made from a Manager's registrations, for every option; the problems kube-apiserver 1.36 would
 * reject named before anything is sent; every field known to the vendored 1.36 OpenAPI; a
 * LocalCluster (real client-node, strict field validation) accepting the output; and a running
 * Manager registered with LocalCluster through them (its URL and CA), called over TLS.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { brotliDecompressSync } from "node:zlib";
import { AdmissionregistrationV1Api, ApiextensionsV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import { Manager, defineKind } from "../../src/index.ts";
import { silentLogger } from "../../src/log/logger.ts";
import type { KubeObject } from "../../src/kinds/kube-object.ts";
import type { AdmissionRegistration, ConversionRegistration, WebhookOptions } from "../../src/webhook/types.ts";
import {
  INJECT_CA_FROM, WebhookConfigurationError, crdConversion, crdName, injectCaFrom, manifestProblems, webhookConfigurations,
} from "../../src/webhook/configurations.ts";
import { generateCertificateAuthority } from "../../src/util/x509.ts";
import { labelKeyProblems } from "../../src/util/label-selector.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

type Json = Record<string, any>;

function admission(type: "mutating" | "validating", options: WebhookOptions = {}, more: Partial<AdmissionRegistration> = {}): AdmissionRegistration {
  const kind = more.kind ?? "Widget";
  return {
    type,
    name: `${type[0]}${kind.toLowerCase()}.example.com`,
    path: `/${type === "mutating" ? "mutate" : "validate"}-example-com-v1-${kind.toLowerCase()}`,
    group: "example.com", version: "v1", kind, resource: `${kind.toLowerCase()}s`,
    operations: ["CREATE", "UPDATE"],
    options,
    ...more,
  };
}

const conversion: ConversionRegistration = {
  group: "example.com", kind: "Widget", resource: "widgets",
  options: { hub: "v1", spokes: { v1alpha1: { toHub: (o) => o, fromHub: (o) => o } } },
};

const SERVICE = { service: { namespace: "ops", name: "widget-webhook" } };
const CA = generateCertificateAuthority({ commonName: "test-ca" });
const CA_BASE64 = Buffer.from(CA.cert).toString("base64");

/** What webhookConfigurations threw, as "field: message" lines. */
function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof WebhookConfigurationError, String(err));
    return err.problems.map((p) => `${p.field}: ${p.message}`);
  }
  assert.fail("no WebhookConfigurationError");
}

describe("webhookConfigurations", () => {
  it("makes one configuration per type, each webhook with its rule, client config and the server's defaults written out", () => {
    const objects = webhookConfigurations({ admission: [admission("mutating"), admission("validating")], conversion: [] }, SERVICE, { name: "widgets" });
    assert.deepEqual(objects.map((o) => `${o.kind} ${o.metadata?.name}`),
      ["MutatingWebhookConfiguration widgets-mutating", "ValidatingWebhookConfiguration widgets-validating"]);
    const [mutating, validating] = objects as Json[];
    assert.deepEqual(mutating!.webhooks, [{
      name: "mwidget.example.com",
      clientConfig: { service: { namespace: "ops", name: "widget-webhook", path: "/mutate-example-com-v1-widget", port: 443 } },
      rules: [{ apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["widgets"], scope: "*" }],
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
      failurePolicy: "Fail",
      matchPolicy: "Equivalent",
      timeoutSeconds: 10,
      reinvocationPolicy: "Never",
    }]);
    assert.equal(validating!.apiVersion, "admissionregistration.k8s.io/v1");
    assert.equal(validating!.webhooks[0].reinvocationPolicy, undefined, "validating webhooks have no reinvocation");
    assert.equal(validating!.webhooks[0].clientConfig.service.path, "/validate-example-com-v1-widget");
  });

  it("carries every option: policies, timeout, selectors, scope, subresources, operations, reinvocation", () => {
    const options: WebhookOptions = {
      failurePolicy: "Ignore", timeoutSeconds: 3, matchPolicy: "Exact", scope: "Namespaced", subresources: ["status", "scale"],
      namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["kube-system"] }] },
      objectSelector: { matchLabels: { "example.com/managed": "true" } },
      reinvocationPolicy: "IfNeeded",
    };
    const [config] = webhookConfigurations({ admission: [admission("mutating", options, { operations: ["CREATE", "UPDATE", "DELETE"] })], conversion: [] }, SERVICE) as Json[];
    assert.equal(config!.metadata.name, "operator-runtime-mutating", "the default name");
    const hook = config!.webhooks[0];
    assert.deepEqual(hook.rules, [{ apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE", "UPDATE", "DELETE"],
      resources: ["widgets", "widgets/status", "widgets/scale"], scope: "Namespaced" }]);
    assert.deepEqual([hook.failurePolicy, hook.timeoutSeconds, hook.matchPolicy, hook.reinvocationPolicy], ["Ignore", 3, "Exact", "IfNeeded"]);
    assert.deepEqual(hook.namespaceSelector, options.namespaceSelector);
    assert.deepEqual(hook.objectSelector, options.objectSelector);
    assert.notEqual(hook.namespaceSelector, options.namespaceSelector, "a copy, not the registration's object");
  });

  it("makes only the configurations it has webhooks for, and a CRD stub per conversion", () => {
    assert.deepEqual(webhookConfigurations({ admission: [], conversion: [] }, SERVICE), []);
    const objects = webhookConfigurations({ admission: [admission("validating")], conversion: [conversion] }, SERVICE, { name: "w" });
    assert.deepEqual(objects.map((o) => `${o.kind} ${o.metadata?.name}`),
      ["ValidatingWebhookConfiguration w-validating", "CustomResourceDefinition widgets.example.com"]);
    assert.deepEqual(objects[1], {
      apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "widgets.example.com" },
      spec: { conversion: { strategy: "Webhook", webhook: {
        clientConfig: { service: { namespace: "ops", name: "widget-webhook", path: "/convert", port: 443 } }, conversionReviewVersions: ["v1"] } } },
    });
    assert.equal(crdName(conversion), "widgets.example.com");
  });

  it("with a URL target: the URL plus each path; a PEM caBundle becomes base64, a base64 one stays", () => {
    const regs = { admission: [admission("validating")], conversion: [conversion] };
    const objects = webhookConfigurations(regs, { url: "https://127.0.0.1:9443/" }, { caBundle: CA.cert }) as Json[];
    assert.deepEqual(objects[0]!.webhooks[0].clientConfig, { url: "https://127.0.0.1:9443/validate-example-com-v1-widget", caBundle: CA_BASE64 });
    assert.deepEqual(objects[1]!.spec.conversion.webhook.clientConfig, { url: "https://127.0.0.1:9443/convert", caBundle: CA_BASE64 });
    const again = webhookConfigurations(regs, { url: "https://host.example" }, { caBundle: CA_BASE64 }) as Json[];
    assert.equal(again[0]!.webhooks[0].clientConfig.caBundle, CA_BASE64);
    assert.equal(again[0]!.webhooks[0].clientConfig.url, "https://host.example/validate-example-com-v1-widget");
  });

  it("a Service target with another port", () => {
    const [config] = webhookConfigurations({ admission: [admission("validating")], conversion: [] },
      { service: { namespace: "ops", name: "w", port: 8443 } }) as Json[];
    assert.equal(config!.webhooks[0].clientConfig.service.port, 8443);
  });

  it("with certManager: the inject-ca-from annotation on every object and no caBundle", () => {
    const objects = webhookConfigurations({ admission: [admission("mutating"), admission("validating")], conversion: [conversion] }, SERVICE,
      { certManager: { certificate: "widget-webhook" }, labels: { "app.kubernetes.io/name": "widgets" } });
    assert.equal(objects.length, 3);
    for (const o of objects as Json[]) {
      assert.deepEqual(o.metadata.annotations, { [INJECT_CA_FROM]: "ops/widget-webhook" }, o.kind);
      assert.deepEqual(o.metadata.labels, { "app.kubernetes.io/name": "widgets" });
      assert.ok(!JSON.stringify(o).includes("caBundle"), o.kind);
    }
    assert.equal(injectCaFrom("certs/c", { url: "https://h" }), "certs/c");
    assert.throws(() => injectCaFrom("c", { url: "https://h" }), /certManager\.certificate: .*needs a namespace with a URL target.*"<namespace>\/<certificate>"/);
    assert.throws(() => webhookConfigurations({ admission: [admission("validating")], conversion: [] }, SERVICE,
      { certManager: { certificate: "c" }, caBundle: CA.cert }), /caBundle: Forbidden: may not be set with certManager.*give one of caBundle and certManager/);
  });

  it("says which argument is wrong when called with the wrong shapes", () => {
    assert.throws(() => webhookConfigurations(undefined as never, SERVICE), /webhookConfigurations\(regs, target, opts\): regs must be \{ admission, conversion \}/);
    assert.throws(() => webhookConfigurations({ admission: [] } as never, SERVICE), /regs must be \{ admission: AdmissionRegistration\[\], conversion: ConversionRegistration\[\] \}.*Pass mgr\.webhookRegistrations\(\)/);
    assert.throws(() => webhookConfigurations({ admission: [], conversion: [] }, { service: { name: "x" } } as never), /target must be \{ url \} or \{ service: \{ namespace, name, port\? \} \}/);
  });

  it("crdConversion: the spec.conversion for a CRD, with a caBundle when given", () => {
    assert.deepEqual(crdConversion({ url: "https://h:9443" }, { caBundle: CA.cert }), {
      strategy: "Webhook", webhook: { clientConfig: { url: "https://h:9443/convert", caBundle: CA_BASE64 }, conversionReviewVersions: ["v1"] },
    });
  });
});

describe("webhookConfigurations refuses what kube-apiserver rejects, naming the field and the fix", () => {
  const one = (reg: AdmissionRegistration, target: Json = SERVICE, opts: Json = {}) =>
    problemsOf(() => webhookConfigurations({ admission: [reg], conversion: [] }, target as never, opts));

  it("a webhook name of fewer than three DNS labels, or not a DNS subdomain", () => {
    assert.deepEqual(one(admission("validating", {}, { name: "vwidget.example" })),
      ["webhooks[0].name: Invalid value: \"vwidget.example\": should be a domain with at least three segments separated by dots"]);
    assert.match(one(admission("validating", {}, { name: "Widget.Example.com" }))[0]!, /^webhooks\[0\]\.name: Invalid value: "Widget.Example.com": a lowercase RFC 1123 subdomain/);
  });

  it("duplicate names in one configuration (a mutating and a validating webhook may share one)", () => {
    const a = admission("validating");
    const b = admission("validating", {}, { kind: "Gadget", name: a.name });
    assert.deepEqual(problemsOf(() => webhookConfigurations({ admission: [a, b], conversion: [] }, SERVICE)),
      ["webhooks[1].name: Duplicate value: \"vwidget.example.com\""]);
    assert.equal(webhookConfigurations({ admission: [a, admission("mutating", {}, { name: a.name })], conversion: [] }, SERVICE).length, 2);
  });

  it("paths: must start with '/', and on a Service have DNS-1123 segments", () => {
    assert.deepEqual(one(admission("validating", {}, { path: "validate-widget" })),
      ["webhooks[0].clientConfig.service.path: Invalid value: \"validate-widget\": must start with a '/'"]);
    assert.match(one(admission("validating", {}, { path: "/Validate_Widget" }))[0]!,
      /^webhooks\[0\]\.clientConfig\.service\.path: Invalid value: "\/Validate_Widget": segment\[0\]: a lowercase RFC 1123 subdomain/);
    assert.deepEqual(one(admission("validating", {}, { path: "/a//b" })),
      ["webhooks[0].clientConfig.service.path: Invalid value: \"/a//b\": segment[1] may not be empty"]);
  });

  it("timeoutSeconds outside 1..30 or not whole", () => {
    for (const t of [0, 31, 1.5]) {
      assert.deepEqual(one(admission("validating", { timeoutSeconds: t })),
        [`webhooks[0].timeoutSeconds: Invalid value: ${t}: the timeout value must be between 1 and 30 seconds`]);
    }
    for (const t of [1, 30]) assert.equal(webhookConfigurations({ admission: [admission("validating", { timeoutSeconds: t })], conversion: [] }, SERVICE).length, 1);
  });

  it("policies, operations and scope outside what the server supports", () => {
    const problems = one(admission("mutating", {
      failurePolicy: "Sometimes" as never, matchPolicy: "Loose" as never, reinvocationPolicy: "Always" as never, scope: "Global" as never,
    }, { operations: ["CREATE", "PATCH" as never] }));
    assert.ok(problems.some((p) => p.startsWith("webhooks[0].rules[0].operations[1]: Unsupported value: \"PATCH\"")), problems.join("\n"));
    assert.ok(problems.some((p) => p.startsWith("webhooks[0].failurePolicy: Unsupported value: \"Sometimes\": supported values: \"Fail\", \"Ignore\"")));
    assert.ok(problems.some((p) => p.startsWith("webhooks[0].matchPolicy: Unsupported value: \"Loose\"")));
    assert.ok(problems.some((p) => p.startsWith("webhooks[0].reinvocationPolicy: Unsupported value: \"Always\"")));
    assert.ok(problems.some((p) => p.startsWith("webhooks[0].rules[0].scope: Unsupported value: \"Global\"")));
    assert.deepEqual(one(admission("validating", {}, { operations: [] })), ["webhooks[0].rules[0].operations: Required value"]);
    assert.deepEqual(one(admission("validating", {}, { operations: ["*", "CREATE"] as never })),
      ["webhooks[0].rules[0].operations: Invalid value: [\"*\",\"CREATE\"]: if '*' is present, must not specify other operations"]);
  });

  it("label selectors kube-apiserver rejects", () => {
    assert.deepEqual(one(admission("validating", {
      namespaceSelector: { matchExpressions: [{ key: "team", operator: "In", values: [] }, { key: "x", operator: "Exists", values: ["y"] }] },
      objectSelector: { matchLabels: { "bad key!": "v" } },
    })), [
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "webhooks[0].namespaceSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ...labelKeyProblems("bad key!").map((m) => `webhooks[0].objectSelector.matchLabels: Invalid value: "bad key!": ${m}`),
    ]);
  });

  it("URL targets that are not https, or carry a user, a query or a fragment", () => {
    assert.deepEqual(one(admission("validating"), { url: "http://h" }),
      ["webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"]);
    assert.deepEqual(one(admission("validating"), { url: "https://u:p@h/x?y=1#z" }).map((l) => l.split(": ").slice(0, 2).join(": ")), [
      "webhooks[0].clientConfig.url: Invalid value", "webhooks[0].clientConfig.url: Invalid value", "webhooks[0].clientConfig.url: Invalid value",
    ]);
  });

  it("a caBundle that holds no certificate", () => {
    assert.deepEqual(one(admission("validating"), SERVICE, { caBundle: "not base64!" }),
      ["webhooks[0].clientConfig.caBundle: Invalid value: \"<bundle>\": must be the base64 of a PEM bundle (illegal base64 data)"]);
    assert.deepEqual(one(admission("validating"), SERVICE, { caBundle: CA.key }),
      ["webhooks[0].clientConfig.caBundle: Invalid value: \"<bundle>\": unable to load root certificates: unable to parse bytes as PEM block"]);
    assert.equal(webhookConfigurations({ admission: [admission("validating")], conversion: [] }, SERVICE, { caBundle: `${CA.key}${CA.cert}` }).length, 1,
      "other blocks beside a certificate are skipped, as client-go does");
  });

  it("a name option that is not a DNS subdomain", () => {
    assert.match(one(admission("validating"), SERVICE, { name: "My_Operator" })[0]!, /^metadata\.name: Invalid value: "My_Operator-validating": a lowercase RFC 1123 subdomain/);
  });

  it("lists every problem at once, each with its object, source and fix", () => {
    try {
      webhookConfigurations({ admission: [admission("validating", { timeoutSeconds: 60 }, { name: "v.example" }), admission("mutating", {}, { path: "mutate" })], conversion: [] }, SERVICE, { name: "w" });
      assert.fail("no error");
    } catch (err) {
      assert.ok(err instanceof WebhookConfigurationError);
      assert.equal(err.problems.length, 3);
      assert.match(err.message, /MutatingWebhookConfiguration "w-mutating": webhooks\[0\]\.clientConfig\.service\.path: Invalid value: "mutate": must start with a '\/' \(from webhook "mwidget\.example\.com" \(mutating Widget, mgr\.webhook\): give path \(options\.path\) starting with '\/'/);
      assert.match(err.message, /ValidatingWebhookConfiguration "w-validating": webhooks\[0\]\.name: .*at least three segments.*\(from webhook "v\.example".*name the webhook with at least three lowercase DNS labels/);
      assert.match(err.message, /webhooks\[0\]\.timeoutSeconds: Invalid value: 60: the timeout value must be between 1 and 30 seconds \(from .*: set timeoutSeconds to a whole number from 1 to 30\)/);
    }
  });

  it("conversion stubs: their path and caBundle are checked too; a CRD with preserveUnknownFields cannot convert by webhook", () => {
    assert.deepEqual(problemsOf(() => webhookConfigurations({ admission: [], conversion: [{ ...conversion, path: "convert" } as ConversionRegistration] }, SERVICE)),
      ["spec.conversion.webhookClientConfig.service.path: Invalid value: \"convert\": must start with a '/'"]);
    const crd = { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "widgets.example.com" },
      spec: { preserveUnknownFields: true, conversion: crdConversion(SERVICE) } } as KubeObject;
    assert.deepEqual(manifestProblems(crd), ["spec.conversion.strategy: Invalid value: \"Webhook\": must be None if spec.preserveUnknownFields is true"]
      .map((l) => ({ field: l.split(": ")[0]!, message: l.slice(l.indexOf(": ") + 2) })));
  });
});

/** The vendored OpenAPI v3 of kube-apiserver 1.36 for one group version. */
function schemas(file: string): Json {
  return JSON.parse(brotliDecompressSync(readFileSync(new URL(`../../src/testing/openapi/kube-openapi-1.36/v3/${file}.json.br`, import.meta.url))).toString()).components.schemas;
}

/** Fields of `value` the schema does not know, required fields it lacks, and type mismatches. */
function schemaProblems(value: unknown, schema: Json, all: Json, at: string): string[] {
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  if (ref) return schemaProblems(value, all[ref.replace("#/components/schemas/", "")], all, at);
  const out: string[] = [];
  const type = schema.type;
  if (type === "object" || schema.properties) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: not an object`];
    for (const r of schema.required ?? []) if (!(r in value)) out.push(`${at}.${r}: required`);
    for (const [k, v] of Object.entries(value)) {
      const sub = schema.properties?.[k] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      if (!sub) out.push(`${at}.${k}: unknown field`);
      else out.push(...schemaProblems(v, sub, all, `${at}.${k}`));
    }
  } else if (type === "array") {
    if (!Array.isArray(value)) return [`${at}: not an array`];
    value.forEach((v, i) => out.push(...schemaProblems(v, schema.items, all, `${at}[${i}]`)));
  } else if (type === "string" && typeof value !== "string") out.push(`${at}: not a string`);
  else if (type === "integer" && !Number.isInteger(value)) out.push(`${at}: not an integer`);
  else if (type === "boolean" && typeof value !== "boolean") out.push(`${at}: not a boolean`);
  return out;
}

describe("the output against kube-apiserver 1.36's OpenAPI and a LocalCluster", () => {
  const everything = (target: Json, opts: Json = {}) => webhookConfigurations({
    admission: [
      admission("mutating", { namespaceSelector: { matchLabels: { team: "a" } }, objectSelector: { matchExpressions: [{ key: "k", operator: "Exists" }] }, subresources: ["status"] }),
      admission("validating", { failurePolicy: "Ignore", timeoutSeconds: 5, scope: "Namespaced" }, { operations: ["CREATE", "UPDATE", "DELETE"] }),
    ],
    conversion: [conversion],
  }, target as never, opts);

  it("every field is one the 1.36 OpenAPI knows, every required one is there", () => {
    const admissionSchemas = schemas("apis__admissionregistration.k8s.io__v1");
    const crdSchemas = schemas("apis__apiextensions.k8s.io__v1");
    for (const [target, opts] of [[SERVICE, { caBundle: CA.cert }], [{ url: "https://h:9443" }, { certManager: { certificate: "ops/c" } }]] as const) {
      for (const o of everything(target, opts) as Json[]) {
        const problems = o.kind === "CustomResourceDefinition"
          ? schemaProblems(o.spec.conversion, crdSchemas["io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceConversion"], crdSchemas, "spec.conversion")
          : schemaProblems(o, admissionSchemas[`io.k8s.api.admissionregistration.v1.${o.kind}`], admissionSchemas, o.kind);
        assert.deepEqual(problems, [], o.kind);
      }
    }
  });

  describe("LocalCluster", () => {
    let cluster: LocalCluster;
    before(async () => {
      cluster = await LocalCluster.start();
    });
    after(() => within(cluster.stop(), "cluster.stop()"));

    it("creates the configurations with strict field validation and through client-node, keeping every field", async () => {
      const [mutating, validating] = everything(SERVICE, { caBundle: CA.cert, name: "widgets" }) as Json[];
      for (const [o, plural] of [[mutating!, "mutatingwebhookconfigurations"], [validating!, "validatingwebhookconfigurations"]] as const) {
        const strict = await raw(cluster.url, "POST", `/apis/admissionregistration.k8s.io/v1/${plural}?fieldValidation=Strict&dryRun=All`, o);
        assert.equal(strict.code, 201, strict.text);
      }
      const api = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
      const m = await api.createMutatingWebhookConfiguration({ body: mutating as never });
      const v = await api.createValidatingWebhookConfiguration({ body: validating as never });
      const got = await api.readMutatingWebhookConfiguration({ name: "widgets-mutating" });
      assert.equal(got.webhooks?.[0]?.name, "mwidget.example.com");
      assert.deepEqual(got.webhooks?.[0]?.rules?.[0]?.resources, ["widgets", "widgets/status"]);
      assert.equal(Buffer.from(String(got.webhooks?.[0]?.clientConfig.caBundle), "base64").toString(), CA.cert);
      assert.equal(m.webhooks?.[0]?.reinvocationPolicy, "Never");
      assert.deepEqual([v.webhooks?.[0]?.failurePolicy, v.webhooks?.[0]?.timeoutSeconds, v.webhooks?.[0]?.rules?.[0]?.scope], ["Ignore", 5, "Namespaced"]);
    });

    it("merges a conversion stub into an installed CRD (server-side apply forcing the defaulted strategy, and merge patch)", async () => {
      const ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
      const schema = { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", x_kubernetes_preserve_unknown_fields: true } } } };
      await ext.createCustomResourceDefinition({ body: {
        metadata: { name: "widgets.example.com" },
        spec: { group: "example.com", scope: "Namespaced", names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
          versions: [{ name: "v1", served: true, storage: true, schema }, { name: "v1alpha1", served: true, storage: false, schema }] },
      } as never });
      const stub = everything(SERVICE, { certManager: { certificate: "widget-webhook" } }).find((o) => o.kind === "CustomResourceDefinition")!;
      const path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com?fieldManager=widgets-webhook&fieldValidation=Strict";
      const unforced = await raw(cluster.url, "PATCH", path, JSON.stringify(stub), "application/apply-patch+yaml");
      assert.equal(unforced.code, 409, "the creator owns the defaulted strategy None: kubectl apply --server-side --force-conflicts");
      const applied = await raw(cluster.url, "PATCH", `${path}&force=true`, JSON.stringify(stub), "application/apply-patch+yaml");
      assert.equal(applied.code, 200, applied.text);
      let crd = await ext.readCustomResourceDefinition({ name: "widgets.example.com" });
      assert.equal(crd.spec.conversion?.strategy, "Webhook");
      assert.deepEqual({ ...crd.spec.conversion?.webhook?.clientConfig?.service }, { namespace: "ops", name: "widget-webhook", path: "/convert", port: 443 });
      assert.equal(crd.metadata?.annotations?.[INJECT_CA_FROM], "ops/widget-webhook");
      assert.equal(crd.spec.versions.length, 2, "the rest of the CRD is kept");

      const withCa = everything({ url: "https://127.0.0.1:9443" }, { caBundle: CA.cert }).find((o) => o.kind === "CustomResourceDefinition")!;
      // A merge patch keeps the service reference unless it is nulled: url and service together
      // are refused, as kube-apiserver refuses them.
      const clientConfig = ((withCa["spec"] as { conversion: { webhook: { clientConfig: Record<string, unknown> } } }).conversion.webhook.clientConfig);
      const both = await raw(cluster.url, "PATCH", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com", JSON.stringify(withCa), "application/merge-patch+json");
      assert.equal(both.code, 422);
      assert.match(both.body.message, /spec\.conversion\.webhookClientConfig: Required value: exactly one of url or service is required/);
      clientConfig["service"] = null;
      crd = await ext.patchCustomResourceDefinition({ name: "widgets.example.com", body: withCa },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
      assert.equal(crd.spec.conversion?.webhook?.clientConfig?.url, "https://127.0.0.1:9443/convert");
    });

    it("registers a running Manager: its server's URL and CA make configurations LocalCluster calls over TLS; another CA fails the call", async () => {
      const kc = cluster.kubeConfig;
      const schema = { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } } };
      await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: {
        metadata: { name: "gizmos.e2e.example.com" },
        spec: { group: "e2e.example.com", scope: "Namespaced", names: { plural: "gizmos", singular: "gizmo", kind: "Gizmo", listKind: "GizmoList" },
          versions: [{ name: "v1", served: true, storage: true, schema }] },
      } as never });
      const Gizmo = defineKind<{ size?: number }>({ apiVersion: "e2e.example.com/v1", kind: "Gizmo" });
      const mgr = new Manager({ kubeConfig: kc, healthPort: false, recorder: false, logger: silentLogger, webhook: { port: 0 } });
      mgr.webhook(Gizmo, {
        default: (g) => ({ ...g, spec: { size: 1, ...g.spec } }),
        validate: (g) => (g.spec?.size !== undefined && g.spec.size > 10 ? { allowed: false, message: "too big" } : undefined),
      });
      await mgr.start();
      try {
        const server = mgr.webhookServer!;
        const api = KubernetesObjectApi.makeApiClient(kc);
        const wrongCa = webhookConfigurations(mgr.webhookRegistrations(), { url: server.url }, { name: "gizmos", caBundle: generateCertificateAuthority().cert });
        for (const o of wrongCa) await api.create(o as never);
        const gizmo = (name: string, size?: number) => ({ apiVersion: "e2e.example.com/v1", kind: "Gizmo", metadata: { name, namespace: "default" }, spec: size === undefined ? {} : { size } });
        await assert.rejects(api.create(gizmo("untrusted") as never), (err: { body?: string }) => /failed calling webhook \\"mgizmo\.e2e\.example\.com\\"/.test(String(err.body)));
        for (const o of webhookConfigurations(mgr.webhookRegistrations(), { url: server.url }, { name: "gizmos", caBundle: server.caBundle! })) {
          await api.replace({ ...o, metadata: { ...o.metadata, resourceVersion: (await api.read(o as never)).metadata?.resourceVersion } } as never);
        }
        const small = await api.create(gizmo("small") as never) as { spec: { size: number } };
        assert.deepEqual(small.spec, { size: 1 }, "defaulted by the mutating webhook");
        await assert.rejects(api.create(gizmo("big", 20) as never),
          (err: { body?: string }) => /admission webhook \\"vgizmo\.e2e\.example\.com\\" denied the request: too big/.test(String(err.body)));
      } finally {
        await within(mgr.stop(), "mgr.stop()");
      }
    });
  });
});
