import { test } from "node:test";
import assert from "node:assert/strict";
import { BuilderValidationError } from "../../src/errors.ts";
import {
  checkMetadata,
  dns1123Label,
  dns1123Subdomain,
  ianaServiceName,
  labelKey,
  labelValue,
  portNumber,
  problem,
  problemsFor,
  suggestName,
} from "../../builders/validation.ts";
import type { KubeObject } from "../../src/client/types.ts";
import { nameRuleOf } from "../../src/util/name-rules.ts";

function metadataProblems(obj: KubeObject, group = "", kind = "ConfigMap"): BuilderValidationError[] {
  const p = problemsFor(obj, kind);
  checkMetadata(p, obj, nameRuleOf(group, kind));
  return p.list;
}

test("DNS-1123 labels accept lower-case names with inner dashes only", () => {
  for (const ok of ["web", "web-1", "a", "0abc", "x".repeat(63)]) assert.equal(dns1123Label(ok), undefined, ok);
  for (const bad of ["", "Web", "web_1", "-web", "web-", "web.api", "x".repeat(64)]) assert.notEqual(dns1123Label(bad), undefined, bad);
  assert.match(dns1123Label("x".repeat(64))!, /at most 63 characters \(has 64\)/);
});

test("DNS-1123 subdomains accept dotted labels up to 253 characters", () => {
  for (const ok of ["web", "web.config", "a-1.b-2.c"]) assert.equal(dns1123Subdomain(ok), undefined, ok);
  for (const bad of ["", ".web", "web.", "web..api", "Web.api", "a".repeat(254)]) assert.notEqual(dns1123Subdomain(bad), undefined, bad);
});

test("label keys take an optional DNS prefix and a qualified name", () => {
  for (const ok of ["app", "app.kubernetes.io/name", "A_b.c-d", "example.com/Tier"]) assert.equal(labelKey(ok), undefined, ok);
  assert.match(labelKey("Example.com/app")!, /prefix "Example.com"/);
  assert.match(labelKey("app.io/")!, /name part must not be empty/);
  assert.match(labelKey("-app")!, /name part must consist/);
  assert.match(labelKey("a".repeat(64))!, /at most 63/);
});

test("label values may be empty but not contain spaces or exceed 63 characters", () => {
  for (const ok of ["", "v1.2", "web_api-1"]) assert.equal(labelValue(ok), undefined, ok);
  for (const bad of ["a b", "-x", "x".repeat(64)]) assert.notEqual(labelValue(bad), undefined, bad);
});

test("port numbers and IANA port names are checked", () => {
  assert.equal(portNumber(80), undefined);
  assert.match(portNumber(0)!, /out of range/);
  assert.match(portNumber(70000)!, /out of range/);
  assert.match(portNumber("80")!, /not an integer/);
  assert.equal(ianaServiceName("http-metrics"), undefined);
  assert.match(ianaServiceName("8080")!, /at least one letter/);
  assert.match(ianaServiceName("very-long-port-name")!, /at most 15/);
  assert.match(ianaServiceName("a--b")!, /'--'/);
});

test("suggested names are valid DNS names close to the input", () => {
  assert.equal(suggestName("My_App", "label"), "my-app");
  assert.equal(suggestName("Shop.Config_v1", "subdomain"), "shop.config-v1");
  assert.equal(suggestName("___", "label"), "my-object");
});

test("a problem's message names the object, the field, the reason and the fix", () => {
  const err = problem({ kind: "Deployment", metadata: { name: "web" } }, "spec.replicas", "-1 is negative", "set spec.replicas to 0 or more");
  assert.ok(err instanceof BuilderValidationError);
  assert.equal(err.object, "Deployment/web");
  assert.equal(err.field, "spec.replicas");
  assert.equal(err.message, "Deployment/web: spec.replicas: -1 is negative. Fix: set spec.replicas to 0 or more");
});

test("a collector names objects that omit their kind after the builder's kind", () => {
  const p = problemsFor({ metadata: { name: "cfg" } }, "ConfigMap");
  p.add("data", "is an array", "make data an object");
  assert.equal(p.list[0]!.object, "ConfigMap/cfg");
  assert.equal(problemsFor({}, "ConfigMap").list.length, 0);
});

test("a missing name is reported with the fix to set metadata.name", () => {
  const [err, ...rest] = metadataProblems({ metadata: {} });
  assert.equal(rest.length, 0);
  assert.equal(err!.field, "metadata.name");
  assert.equal(err!.object, "ConfigMap/(unnamed)");
  assert.match(err!.message, /set metadata\.name/);
});

test("generateName is refused because the Builder applies by name", () => {
  const [err] = metadataProblems({ metadata: { generateName: "web-" } });
  assert.match(err!.problem, /generateName is not supported/);
});

test("an invalid name suggests a valid one", () => {
  const [err] = metadataProblems({ metadata: { name: "Web_Config" } });
  assert.equal(err!.field, "metadata.name");
  assert.match(err!.message, /"Web_Config" must be a DNS-1123 subdomain \(.*\) because kube-apiserver requires it for ConfigMaps; it contains upper-case letters/);
  assert.match(err!.fix, /"web-config"/);
});

test("label-rule kinds refuse dotted names", () => {
  assert.equal(metadataProblems({ metadata: { name: "web.api" } }).length, 0);
  const [err] = metadataProblems({ metadata: { name: "web.api" } }, "apps", "StatefulSet");
  assert.equal(err!.field, "metadata.name");
  assert.match(err!.message, /must be a DNS-1123 label .* because kube-apiserver requires it for StatefulSets \(its Pods' hostnames are made from it\); it contains "\."/);
  assert.match(err!.fix, /rename it, e\.g\. "web-api"/);
});

test("a Service name that starts with a digit is refused as kube-apiserver refuses it, with a fix that fits", () => {
  const [err, ...rest] = metadataProblems({ metadata: { name: "9cache" } }, "", "Service");
  assert.equal(rest.length, 0);
  assert.equal(err!.message,
    'Service/9cache: metadata.name: "9cache" must be a DNS-1035 label (start with a lower-case letter and end with a letter or digit; ' +
    "a-z, 0-9 and '-'; at most 63 characters) because kube-apiserver requires it for Services (a Service's name is its DNS name in the cluster, " +
    'which may not start with a digit); it starts with "9", not a lower-case letter. Fix: rename it, e.g. "svc-9cache"');
  assert.equal(metadataProblems({ metadata: { name: "9cache" } }).length, 0, "a ConfigMap may start with a digit");
});

test("RBAC kinds take path-segment names, CronJobs at most 52 characters", () => {
  const rbac = "rbac.authorization.k8s.io";
  assert.deepEqual(metadataProblems({ metadata: { name: "system:controller:x" } }, rbac, "ClusterRole"), []);
  assert.match(metadataProblems({ metadata: { name: "a/b" } }, rbac, "Role")[0]!.problem, /path segment name .*; it contains "\/"/);
  assert.match(metadataProblems({ metadata: { name: "system:x" } })[0]!.problem, /contains ":"/);
  assert.deepEqual(metadataProblems({ metadata: { name: "c".repeat(52) } }, "batch", "CronJob"), []);
  const [long] = metadataProblems({ metadata: { name: "c".repeat(53) } }, "batch", "CronJob");
  assert.match(long!.problem, /at most 52 characters\) because kube-apiserver requires it for CronJobs .*; it is 53 characters long, more than 52/);
  assert.equal(long!.fix, `rename it, e.g. "${"c".repeat(52)}"`);
});

test("namespace, labels and annotations are checked with the field in the path", () => {
  const problems = metadataProblems({
    metadata: {
      name: "ok",
      namespace: "Prod",
      labels: { "app.kubernetes.io/name": "web", "bad key": "x", tier: "front end" },
      annotations: { "example.com/note": "fine", "/bad": "x" },
    },
  });
  assert.deepEqual(problems.map((e) => e.field), [
    "metadata.namespace",
    'metadata.labels["bad key"]',
    "metadata.labels.tier",
    'metadata.annotations["/bad"]',
  ]);
});

test("non-string label and annotation values are refused", () => {
  const obj = { metadata: { name: "ok", labels: { replicas: 3 }, annotations: { n: 1 } } } as unknown as KubeObject;
  assert.deepEqual(metadataProblems(obj).map((e) => e.field), ["metadata.labels.replicas", "metadata.annotations.n"]);
});
