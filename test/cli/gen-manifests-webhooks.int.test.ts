/**
 * `operator-runtime gen manifests` and `gen rbac` for a Manager with webhooks and conversions
 * (test/cli/fixtures/webhook-operator.ts), run for real: the Service, the configurations, the
 * CRDs' conversion, the Deployment's webhook port and certificate volume, with --cert-manager
 * (Issuer, Certificate, inject-ca-from) and without (a Secret the user provides, --ca-bundle);
 * kubectl applies the output to a LocalCluster; gen rbac adds nothing unless --webhook-ca-patch.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAll } from "js-yaml";
import { LocalCluster } from "../../src/testing/index.ts";
import { generateCertificateAuthority } from "../../src/util/x509.ts";
import { complete } from "../support/cli.ts";
import { KUBECTL } from "../support/kubectl.ts";
import { within } from "../support/wait.ts";

type Json = Record<string, any>;
const MODULE = "test/cli/fixtures/webhook-operator.ts";
const CERT_DIR = "/tmp/k8s-webhook-server/serving-certs";

async function gen(args: string[]): Promise<{ yaml: string; docs: Json[]; stderr: string }> {
  const r = await complete(["gen", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return { yaml: r.stdout, docs: loadAll(r.stdout) as Json[], stderr: r.stderr };
}

const names = (docs: Json[]) => docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ""}/${d.metadata.name}`);
const find = (docs: Json[], kind: string, name?: string) => {
  const doc = docs.find((d) => d.kind === kind && (name === undefined || d.metadata.name === name));
  assert.ok(doc, `no ${kind} ${name ?? ""}`);
  return doc;
};
const hooks = (docs: Json[]) => [...find(docs, "MutatingWebhookConfiguration").webhooks, ...find(docs, "ValidatingWebhookConfiguration").webhooks];
const conversions = (docs: Json[]) => docs.filter((d) => d.kind === "CustomResourceDefinition").map((d) => d.spec.conversion);

async function kubectl(kubeconfig: string, args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  assert.ok(KUBECTL, "no kubectl found (set KUBECTL or put kubectl on PATH)");
  try {
    const { stdout, stderr } = await promisify(execFile)(KUBECTL, ["--kubeconfig", kubeconfig, ...args]);
    return { status: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? String(err) };
  }
}

describe("gen manifests for a Manager with webhooks", () => {
  let dir: string;
  let caFile: string;
  const ca = generateCertificateAuthority({ commonName: "widgets-webhook-ca" });
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "manifests-webhooks-"));
    caFile = join(dir, "ca.crt");
    await writeFile(caFile, ca.cert);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("without --cert-manager: Service, configurations, CRD conversion, the Deployment's port and Secret volume; a note says what to provide", async () => {
    const { docs, stderr } = await gen(["manifests", MODULE, "--image", "x/widgets:1", "--namespace", "ops"]);
    assert.deepEqual(names(docs), [
      "CustomResourceDefinition /widgets.example.com",
      "ServiceAccount ops/widgets", "ClusterRole /widgets", "ClusterRoleBinding /widgets", "Role ops/widgets", "RoleBinding ops/widgets",
      "Service ops/widgets-webhook", "Deployment ops/widgets",
      "MutatingWebhookConfiguration /widgets-mutating", "ValidatingWebhookConfiguration /widgets-validating",
      "CustomResourceDefinition /gadgets.example.com",
    ]);
    const deployment = find(docs, "Deployment");
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const service = find(docs, "Service");
    assert.deepEqual(service.spec, { selector: deployment.spec.template.metadata.labels, publishNotReadyAddresses: true,
      ports: [{ name: "webhook", port: 443, targetPort: "webhook-server", protocol: "TCP" }] });
    assert.deepEqual(container.ports.map((p: Json) => [p.name, p.containerPort]), [["health", 8080], ["webhook-server", 9443]]);
    assert.deepEqual(container.readinessProbe.httpGet, { path: "/readyz", port: "health" }, "readiness unchanged: /readyz waits for the webhook server");
    assert.deepEqual(container.volumeMounts, [{ name: "webhook-cert", mountPath: CERT_DIR, readOnly: true }]);
    assert.deepEqual(pod.volumes, [{ name: "webhook-cert", secret: { secretName: "widgets-webhook-cert" } }]);
    assert.deepEqual(container.env.find((e: Json) => e.name === "WEBHOOK_CERT_DIR"), { name: "WEBHOOK_CERT_DIR", value: CERT_DIR });

    const [mutating, validating] = hooks(docs);
    assert.deepEqual(mutating.clientConfig, { service: { namespace: "ops", name: "widgets-webhook", path: "/mutate-example-com-v1-widget", port: 443 } });
    assert.equal(validating.clientConfig.service.path, "/validate-example-com-v1-widget");
    for (const hook of [mutating, validating]) {
      assert.deepEqual([hook.sideEffects, hook.admissionReviewVersions, hook.failurePolicy, hook.timeoutSeconds, hook.matchPolicy],
        ["None", ["v1"], "Ignore", 5, "Equivalent"]);
      assert.deepEqual(hook.namespaceSelector, { matchLabels: { "example.com/webhooks": "on" } });
      assert.deepEqual(hook.rules, [{ apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE", "UPDATE"], resources: ["widgets"], scope: "*" }]);
    }
    const widgets = find(docs, "CustomResourceDefinition", "widgets.example.com");
    assert.equal(widgets.spec.versions.length, 2, "the exported CRD, whole");
    for (const conversion of conversions(docs)) {
      assert.deepEqual(conversion, { strategy: "Webhook", webhook: {
        clientConfig: { service: { namespace: "ops", name: "widgets-webhook", path: "/convert", port: 443 } }, conversionReviewVersions: ["v1"] } });
    }
    assert.deepEqual(Object.keys(find(docs, "CustomResourceDefinition", "gadgets.example.com").spec), ["conversion"], "a stub: the module exports no Gadget CRD");
    assert.ok(!JSON.stringify(docs).includes("caBundle"));
    const note = stderr.replace(/\s+/g, " ");
    assert.match(note, /Secret ops\/widgets-webhook-cert, which you provide \(type kubernetes\.io\/tls, keys tls\.crt and tls\.key, for DNS names widgets-webhook\.ops\.svc and widgets-webhook\.ops\.svc\.cluster\.local\)/);
    assert.match(note, /set caBundle .* or run again with --ca-bundle FILE \(or --cert-manager\)/);
    assert.match(note, /does not export the CRD gadgets\.example\.com .*\(kubectl apply --server-side --force-conflicts\)/);
  });

  it("--ca-bundle FILE fills every caBundle (webhooks and conversions) with the file's CA", async () => {
    const { docs, stderr } = await gen(["manifests", MODULE, "--image", "x/widgets:1", "--namespace", "ops", "--ca-bundle", caFile]);
    const bundles = [...hooks(docs).map((h) => h.clientConfig.caBundle), ...conversions(docs).map((c) => c.webhook.clientConfig.caBundle)];
    assert.equal(bundles.length, 4);
    for (const b of bundles) assert.equal(Buffer.from(b, "base64").toString(), ca.cert);
    assert.doesNotMatch(stderr, /set caBundle/);
    assert.match(stderr, /which you provide/);
  });

  it("--cert-manager: a self-signed Issuer, a Certificate for the Service's names into the mounted Secret, inject-ca-from on everything with a caBundle", async () => {
    const { docs, stderr } = await gen(["manifests", MODULE, "--image", "x/widgets:1", "--namespace", "ops", "--cert-manager"]);
    assert.deepEqual(names(docs).slice(6, 10), ["Issuer ops/widgets-selfsigned", "Certificate ops/widgets-webhook", "Service ops/widgets-webhook", "Deployment ops/widgets"]);
    assert.deepEqual(find(docs, "Issuer").spec, { selfSigned: {} });
    assert.deepEqual(find(docs, "Certificate").spec, {
      secretName: "widgets-webhook-cert",
      dnsNames: ["widgets-webhook.ops.svc", "widgets-webhook.ops.svc.cluster.local"],
      issuerRef: { kind: "Issuer", name: "widgets-selfsigned" },
    });
    assert.equal(find(docs, "Certificate").apiVersion, "cert-manager.io/v1");
    for (const d of docs.filter((d) => /WebhookConfiguration$|CustomResourceDefinition/.test(d.kind))) {
      assert.deepEqual(d.metadata.annotations, { "cert-manager.io/inject-ca-from": "ops/widgets-webhook" }, `${d.kind} ${d.metadata.name}`);
    }
    assert.ok(!JSON.stringify(docs).includes("caBundle"));
    assert.deepEqual(find(docs, "Deployment").spec.template.spec.volumes, [{ name: "webhook-cert", secret: { secretName: "widgets-webhook-cert" } }]);
    assert.doesNotMatch(stderr, /which you provide/);
  });

  it("kubectl applies the output to a LocalCluster (the converted CRD installed first for the stub)", async () => {
    const cluster = await LocalCluster.start();
    try {
      const { yaml, docs } = await gen(["manifests", MODULE, "--image", "x/widgets:1", "--namespace", "ops", "--ca-bundle", caFile]);
      const file = join(dir, "all.yaml");
      await writeFile(file, yaml);
      const gadgets = join(dir, "gadgets.json");
      await writeFile(gadgets, JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "gadgets.example.com" },
        spec: { group: "example.com", scope: "Namespaced", names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
          versions: ["v1", "v1beta1"].map((name, i) => ({ name, served: true, storage: i === 0, schema: { openAPIV3Schema: { type: "object" } } })) } }));
      for (const args of [["create", "namespace", "ops"], ["create", "-f", gadgets]]) {
        const r = await kubectl(cluster.kubeconfigPath, args);
        assert.equal(r.status, 0, r.stderr);
      }
      const applied = await kubectl(cluster.kubeconfigPath, ["apply", "--server-side", "--force-conflicts", "--field-manager", "widgets-manifests", "-f", file]);
      assert.equal(applied.status, 0, applied.stderr);
      assert.equal(applied.stdout.trim().split("\n").length, docs.length, applied.stdout);
      const got = await kubectl(cluster.kubeconfigPath, ["get", "crd/gadgets.example.com", "-o", "jsonpath={.spec.conversion.strategy} {.spec.versions[*].name}"]);
      assert.equal(got.stdout, "Webhook v1 v1beta1", "the stub merged into the installed CRD");
      const hook = await kubectl(cluster.kubeconfigPath, ["get", "validatingwebhookconfiguration/widgets-validating", "-o", "jsonpath={.webhooks[0].clientConfig.service.name}"]);
      assert.equal(hook.stdout, "widgets-webhook");
    } finally {
      await within(cluster.stop(), "cluster.stop()");
    }
  });

  it("a module without webhooks: the output is what it was; --cert-manager is noted as having no effect", async () => {
    const plain = await gen(["manifests", "test/cli/fixtures/sharded-operator.ts", "--image", "x/w:1"]);
    const flagged = await gen(["manifests", "test/cli/fixtures/sharded-operator.ts", "--image", "x/w:1", "--cert-manager"]);
    assert.equal(flagged.yaml, plain.yaml);
    assert.equal(plain.stderr, "");
    assert.match(flagged.stderr, /--cert-manager has no effect: the Manager registers no webhooks or conversions/);
    assert.ok(!plain.yaml.includes("webhook"));
  });

  for (const [args, code, message] of [
    [["--cert-manager", "--ca-bundle", "ca.crt"], 2, /--ca-bundle and --cert-manager exclude each other/],
    [["--ca-bundle", "/nonexistent/ca.crt"], 1, /--ca-bundle \/nonexistent\/ca\.crt: cannot read it/],
    [["--name", "a.b"], 1, /the webhook Service would be named "a\.b-webhook", which kube-apiserver rejects .*pass --name NAME/],
  ] as const) {
    it(`exits ${code} for ${args.join(" ")}`, async () => {
      const r = await complete(["gen", "manifests", MODULE, "--image", "x/w:1", ...args]);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "");
    });
  }

  it("exits 1 when --ca-bundle holds no certificate", async () => {
    const keyFile = join(dir, "key.pem");
    await writeFile(keyFile, ca.key);
    const r = await complete(["gen", "manifests", MODULE, "--image", "x/w:1", "--ca-bundle", keyFile]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /holds no PEM certificate/);
  });
});

describe("gen rbac for a Manager with webhooks", () => {
  const rules = (docs: Json[]) => docs.filter((d) => d.kind === "ClusterRole").flatMap((d) => d.rules)
    .map((r: Json) => `${r.apiGroups.join(",")}/${r.resources.join(",")}${r.resourceNames ? `[${r.resourceNames.join(",")}]` : ""}: ${r.verbs.join(",")}`);

  it("adds nothing for webhooks and conversions: the API server calls them", async () => {
    const { docs, stderr } = await gen(["rbac", MODULE]);
    assert.equal(stderr, "");
    assert.deepEqual(rules(docs), ["/configmaps: get,list,watch"]);
  });

  it("--webhook-ca-patch: get, patch and update on its own configurations and converted CRDs, by name", async () => {
    const { docs } = await gen(["rbac", MODULE, "--webhook-ca-patch", "--name", "w"]);
    assert.deepEqual(rules(docs), [
      "/configmaps: get,list,watch",
      "admissionregistration.k8s.io/mutatingwebhookconfigurations[w-mutating]: get,patch,update",
      "admissionregistration.k8s.io/validatingwebhookconfigurations[w-validating]: get,patch,update",
      "apiextensions.k8s.io/customresourcedefinitions[gadgets.example.com,widgets.example.com]: get,patch,update",
    ]);
    const r = await complete(["gen", "rbac", "test/cli/fixtures/sharded-operator.ts", "--webhook-ca-patch"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--webhook-ca-patch, but the Manager registers no webhooks or conversions .*drop the option/);
  });
});
