/** Pure parts of the webhook layer: the JSON Patch diff, certificates, registrations. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { jsonPatch, firstDifference } from "../../src/webhook/json-patch.ts";
import { generateCertificateAuthority, generateServingCertificate } from "../../src/util/x509.ts";
import { admissionRegistrations, conversionRegistration, guessResource, webhookName } from "../../src/webhook/registration.ts";
import { applyPatch } from "./support.ts";
import type { KubeObject } from "../../src/kinds/kube-object.ts";

/** A small random JSON value (seeded LCG: the same cases every run). */
function randomJson(next: () => number, depth = 0): unknown {
  const pick = next() % (depth > 3 ? 4 : 6);
  if (pick === 0) return next() % 5;
  if (pick === 1) return ["a", "b/c", "d~e", ""][next() % 4];
  if (pick === 2) return next() % 2 === 0;
  if (pick === 3) return null;
  if (pick === 4) return Array.from({ length: next() % 4 }, () => randomJson(next, depth + 1));
  const keys = ["x", "y/z", "~t", "w"];
  return Object.fromEntries(keys.filter(() => next() % 2 === 0).map((k) => [k, randomJson(next, depth + 1)]));
}

describe("jsonPatch", () => {
  it("turns any document into any other, 3,000 random pairs, escaping ~ and /", () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 3000; i++) {
      const a = { root: randomJson(next) };
      const b = { root: randomJson(next) };
      const ops = jsonPatch(a, b);
      assert.deepEqual(applyPatch(a, ops), b, `${JSON.stringify(a)} → ${JSON.stringify(b)}: ${JSON.stringify(ops)}`);
      assert.deepEqual(jsonPatch(a, a), []);
    }
    assert.deepEqual(jsonPatch({ "a/b": { "c~d": 1 } }, { "a/b": { "c~d": 2 } }), [{ op: "replace", path: "/a~1b/c~0d", value: 2 }]);
    assert.deepEqual(jsonPatch({ l: [1, 2, 3] }, { l: [1] }), [{ op: "remove", path: "/l/2" }, { op: "remove", path: "/l/1" }]);
  });

  it("firstDifference names the field as Kubernetes writes it", () => {
    assert.equal(firstDifference({ spec: { ports: [{ name: "a" }] } }, { spec: { ports: [{ name: "b" }] } }), "spec.ports[0].name");
    assert.equal(firstDifference({ metadata: { annotations: { "example.com/x": "1" } } }, { metadata: { annotations: {} } }), 'metadata.annotations["example.com/x"]');
    assert.equal(firstDifference({ a: [1] }, { a: [1] }), undefined);
  });
});

describe("x509", () => {
  it("issues a CA and a serving certificate it signs, for DNS names and IPv4/IPv6 addresses", () => {
    const ca = generateCertificateAuthority({ commonName: "unit-ca", validityDays: 30 });
    const caCert = new X509Certificate(ca.cert);
    assert.equal(caCert.ca, true);
    assert.ok(caCert.checkPrivateKey(createPrivateKey(ca.key)));
    assert.equal(caCert.subject, "CN=unit-ca");
    const s = generateServingCertificate(ca, { dnsNames: ["svc.ns.svc", "localhost"], ipAddresses: ["10.0.0.1", "::1", "2001:db8::ff00:42:8329"] });
    const cert = new X509Certificate(s.cert);
    assert.equal(cert.ca, false);
    assert.ok(cert.checkIssued(caCert));
    assert.ok(cert.verify(caCert.publicKey));
    assert.equal(cert.issuer, "CN=unit-ca");
    assert.equal(cert.subject, "CN=svc.ns.svc");
    assert.deepEqual(cert.keyUsage, ["1.3.6.1.5.5.7.3.1"]);
    assert.ok(cert.checkHost("svc.ns.svc"));
    assert.ok(cert.checkIP("10.0.0.1"));
    assert.ok(cert.checkIP("::1"));
    assert.ok(cert.checkIP("2001:db8::ff00:42:8329"));
    const days = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    assert.ok(days > 364 && days < 366, `${days}`);
  });

  it("refuses a certificate without names, a bad address, a CA whose key is not its own", () => {
    const ca = generateCertificateAuthority();
    assert.throws(() => generateServingCertificate(ca, {}), /give at least one of options.dnsNames or options.ipAddresses/);
    assert.throws(() => generateServingCertificate(ca, { ipAddresses: ["10.0.0.256"] }), /not an IPv4 or IPv6 address/);
    assert.throws(() => generateServingCertificate({ cert: ca.cert, key: generateCertificateAuthority().key }, { dnsNames: ["a"] }), /ca.key is not the private key of ca.cert/);
  });
});

describe("registrations", () => {
  const Greeting = { apiVersion: "example.com/v1", kind: "Greeting" };
  it("names paths, webhooks and resources as kubebuilder does", () => {
    const [m, v] = admissionRegistrations("w", Greeting, { default: () => undefined, validate: () => undefined });
    assert.deepEqual([m!.type, m!.path, m!.name, m!.resource, m!.operations], ["mutating", "/mutate-example-com-v1-greeting", "mgreeting.example.com", "greetings", ["CREATE", "UPDATE"]]);
    assert.deepEqual([v!.type, v!.path, v!.name], ["validating", "/validate-example-com-v1-greeting", "vgreeting.example.com"]);
    const [pod] = admissionRegistrations("w", { apiVersion: "v1", kind: "Pod" }, { validate: () => undefined });
    assert.deepEqual([pod!.path, pod!.name, pod!.group], ["/validate--v1-pod", "vpod.core.k8s.io", ""]);
    assert.equal(webhookName("mutating", { apiVersion: "apps/v1", kind: "Deployment" }), "mdeployment.apps.k8s.io");
    assert.deepEqual(["Policy", "Ingress", "Gateway", "Box"].map(guessResource), ["policies", "ingresses", "gateways", "boxes"]);
  });

  it("refuses what cannot be served, naming the fix", () => {
    assert.throws(() => admissionRegistrations("mgr.webhook(Greeting)", Greeting, {}), /mgr.webhook\(Greeting\): give options.default .*options.validate/);
    assert.throws(() => admissionRegistrations("w", Greeting, { validate: () => undefined, timeoutSeconds: 31 }), /timeoutSeconds must be a whole number of seconds from 1 to 30 .*got 31/);
    assert.throws(() => admissionRegistrations("w", Greeting, { validate: () => undefined, timeoutSeconds: 0 }), /from 1 to 30/);
    assert.throws(() => admissionRegistrations("w", Greeting, { validate: () => undefined, validateOperations: ["PATCH" as "CREATE"] }), /validateOperations must be a non-empty list/);
    const spoke = { toHub: (o: KubeObject) => o, fromHub: (o: KubeObject) => o };
    assert.throws(() => conversionRegistration("c", { apiVersion: "v1", kind: "ConfigMap" }, { hub: "v1", spokes: { v1beta1: spoke } }), /has no API group/);
    assert.throws(() => conversionRegistration("c", Greeting, { hub: "v1", spokes: { v1: spoke } }), /v1 is the hub and also a spoke/);
    assert.throws(() => conversionRegistration("c", Greeting, { hub: "v1", spokes: {} }), /spokes is empty/);
    assert.throws(() => conversionRegistration("c", Greeting, { hub: "v2", spokes: { v1alpha1: spoke } }), /the kind's version v1 is neither the hub \(v2\) nor a spoke/);
    assert.throws(() => conversionRegistration("c", Greeting, { hub: "v1", spokes: { v1alpha1: { toHub: spoke.toHub } as never } }), /spokes.v1alpha1 must have toHub\(obj\) and fromHub\(obj\)/);
  });
});
