/**
 * webhookManifests (the webhook part of `gen manifests`) on hand-made Managers: the Manager's
 * webhook port and certDir reach the Deployment, `webhook: false` and an ephemeral port are
 * reported, conversions are checked against the exported CRDs' versions and
 * preserveUnknownFields; webhookCaPatchRules names exactly the objects made.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { KubeObject } from "../../src/kinds/kube-object.ts";
import type { Manager } from "../../src/manager/manager.ts";
import type { AdmissionRegistration, ConversionRegistration } from "../../src/webhook/types.ts";
import { DEFAULT_WEBHOOK_CERT_DIR, registrationsOf, webhookCaPatchRules, webhookManifests } from "../../src/cli/gen-manifests-webhooks.ts";
import { GenerateError } from "../../src/cli/operator-module.ts";

type Json = Record<string, any>;

const validating: AdmissionRegistration = {
  type: "validating", name: "vwidget.example.com", path: "/validate-example-com-v1-widget",
  group: "example.com", version: "v1", kind: "Widget", resource: "widgets", operations: ["CREATE", "UPDATE"], options: {},
};
const conversion: ConversionRegistration = {
  group: "example.com", kind: "Widget", resource: "widgets",
  options: { hub: "v1", spokes: { v1alpha1: { toHub: (o) => o, fromHub: (o) => o } } },
};

/** A Manager as gen manifests reads it: registrations and, optionally, its webhook settings. */
function manager(admission: AdmissionRegistration[], conversions: ConversionRegistration[], webhookOptions?: unknown): Manager {
  return { webhookRegistrations: () => ({ admission, conversion: conversions }), ...(webhookOptions !== undefined ? { webhookOptions } : {}) } as unknown as Manager;
}

const labels = { "app.kubernetes.io/name": "w", tier: "operator" };
const deployment = {
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "w", namespace: "ops" },
  spec: { template: { metadata: { labels }, spec: { containers: [{ name: "operator", ports: [{ name: "health", containerPort: 8080 }], env: [{ name: "A", value: "1" }] }] } } },
} as KubeObject;

function crd(versions: string[], more: Json = {}): KubeObject {
  return { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "widgets.example.com" },
    spec: { group: "example.com", versions: versions.map((name) => ({ name })), ...more } } as KubeObject;
}

const options = { name: "w", namespace: "ops", certManager: false };

describe("webhookManifests", () => {
  it("is undefined for a Manager without registrations, or without webhookRegistrations at all (another SDK)", () => {
    assert.equal(webhookManifests(manager([], []), [], deployment, options), undefined);
    assert.deepEqual(registrationsOf({} as Manager), { admission: [], conversion: [] });
    assert.equal(webhookManifests({} as Manager, [], deployment, options), undefined);
  });

  it("defaults: port 9443, the certificate at controller-runtime's directory, named by WEBHOOK_CERT_DIR; the Service selects the pods' labels", () => {
    const out = webhookManifests(manager([validating], []), [], deployment, options)!;
    const container = (out.deployment as Json).spec.template.spec.containers[0];
    assert.deepEqual(container.ports, [{ name: "health", containerPort: 8080 }, { name: "webhook-server", containerPort: 9443, protocol: "TCP" }]);
    assert.deepEqual(container.env, [{ name: "A", value: "1" }, { name: "WEBHOOK_CERT_DIR", value: DEFAULT_WEBHOOK_CERT_DIR }]);
    assert.deepEqual((out.before.at(-1) as Json).spec.selector, labels);
    assert.deepEqual((deployment as Json).spec.template.spec.containers[0].ports.length, 1, "the Deployment given is not changed");
  });

  it("takes the plural from the exported CRD when the guessed one differs (Matrix: matrices, not matrixes)", () => {
    const matrix: AdmissionRegistration = { ...validating, name: "vmatrix.example.com", path: "/validate-example-com-v1-matrix", kind: "Matrix", resource: "matrixes" };
    const matrixCrd = { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "matrices.example.com" },
      spec: { group: "example.com", names: { kind: "Matrix", plural: "matrices" }, versions: [{ name: "v1" }] } } as KubeObject;
    const out = webhookManifests(manager([matrix], []), [matrixCrd], deployment, options)!;
    const config = out.after.find((o) => o.kind === "ValidatingWebhookConfiguration") as Json;
    assert.deepEqual(config.webhooks[0].rules[0].resources, ["matrices"]);
  });

  it("the Manager's webhook.port and webhook.certDir reach the container port and the mount", () => {
    const out = webhookManifests(manager([validating], [], { port: 8443, certDir: "/var/run/certs" }), [], deployment, options)!;
    const pod = (out.deployment as Json).spec.template.spec;
    assert.equal(pod.containers[0].ports[1].containerPort, 8443);
    assert.deepEqual(pod.containers[0].volumeMounts, [{ name: "webhook-cert", mountPath: "/var/run/certs", readOnly: true }]);
    assert.equal(pod.containers[0].env.at(-1).value, "/var/run/certs");
    assert.equal((out.before.at(-1) as Json).spec.ports[0].targetPort, "webhook-server");
  });

  it("an ephemeral webhook port is an error; webhook: false is a note", () => {
    assert.throws(() => webhookManifests(manager([validating], [], { port: 0 }), [], deployment, options),
      (err: Error) => err instanceof GenerateError && /uses an ephemeral port \(webhook\.port: 0\): the Service needs a fixed one; set webhook\.port/.test(err.message));
    const off = webhookManifests(manager([validating], [], false), [], deployment, options)!;
    assert.match(off.notes[0]!, /webhook: false, so the Deployment's pods serve no webhooks/);
  });

  it("sets spec.conversion on the exported CRD, and refuses a conversion naming a version the CRD lacks or a CRD preserving unknown fields", () => {
    const out = webhookManifests(manager([], [conversion]), [crd(["v1", "v1alpha1"])], deployment, options)!;
    assert.equal((out.crds[0] as Json).spec.conversion.strategy, "Webhook");
    assert.deepEqual(out.after, [], "no stub: the CRD is exported");
    assert.throws(() => webhookManifests(manager([], [conversion]), [crd(["v1"])], deployment, options),
      /the conversion of Widget \(mgr\.conversion\) names version v1alpha1, which CRD widgets\.example\.com does not serve \(its versions: v1\); add the version/);
    assert.throws(() => webhookManifests(manager([], [conversion]), [crd(["v1", "v1alpha1"], { preserveUnknownFields: true })], deployment, options),
      /spec\.conversion\.strategy: Invalid value: "Webhook": must be None if spec\.preserveUnknownFields is true\n.*remove spec\.preserveUnknownFields: true/);
  });

  it("turns the configurations' problems into a GenerateError (the CLI prints it and exits 1)", () => {
    assert.throws(() => webhookManifests(manager([{ ...validating, name: "v.widget" }], []), [], deployment, options),
      (err: Error) => err instanceof GenerateError && /webhooks\[0\]\.name: Invalid value: "v\.widget": should be a domain with at least three segments/.test(err.message));
  });
});

describe("webhookCaPatchRules", () => {
  it("names the configurations there are and the converted CRDs", () => {
    assert.deepEqual(webhookCaPatchRules({ admission: [validating], conversion: [] }, "w"), [
      { apiGroups: ["admissionregistration.k8s.io"], resources: ["validatingwebhookconfigurations"], verbs: ["get", "patch", "update"], resourceNames: ["w-validating"] },
    ]);
    assert.deepEqual(webhookCaPatchRules({ admission: [], conversion: [conversion] }, "w"), [
      { apiGroups: ["apiextensions.k8s.io"], resources: ["customresourcedefinitions"], verbs: ["get", "patch", "update"], resourceNames: ["widgets.example.com"] },
    ]);
  });
});
