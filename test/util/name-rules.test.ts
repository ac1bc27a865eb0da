import { test } from "node:test";
import assert from "node:assert/strict";
import { groupOf, matchesFormat, nameProblem, nameRuleOf, suggestNameFor } from "../../src/util/name-rules.ts";
import type { NameRule } from "../../src/util/name-rules.ts";

const RULES: NameRule[] = [
  nameRuleOf("", "Service"), nameRuleOf("", "Namespace"), nameRuleOf("apps", "StatefulSet"), nameRuleOf("", "ConfigMap"),
  nameRuleOf("batch", "CronJob"), nameRuleOf("rbac.authorization.k8s.io", "ClusterRole"), nameRuleOf("example.com", "Widget"),
];
const NAMES = ["cache", "9cache", "web.v1", "Web_1", "-x", "x-", "a.-b", "..", "a/b", "100%", "system:x", "ä", " ", "x".repeat(53), "y".repeat(64), "z".repeat(254)];

test("each kind gets kube-apiserver's rule; custom resources and other kinds a DNS-1123 subdomain", () => {
  assert.deepEqual(RULES.map((r) => [r.kind, r.format, r.maxLength]), [
    ["Service", "dns1035-label", undefined], ["Namespace", "dns1123-label", undefined], ["StatefulSet", "dns1123-label", undefined],
    ["ConfigMap", "dns1123-subdomain", undefined], ["CronJob", "dns1123-subdomain", 52], ["ClusterRole", "path-segment", undefined],
    ["Widget", "dns1123-subdomain", undefined],
  ]);
  assert.equal(nameRuleOf("example.com", "Service").format, "dns1123-subdomain", "a custom kind named Service is not the core Service");
  assert.equal(nameRuleOf("", "constructor").format, "dns1123-subdomain");
  assert.deepEqual(["v1", "apps/v1", "rbac.authorization.k8s.io/v1"].map(groupOf), ["", "apps", "rbac.authorization.k8s.io"]);
});

test("a name has a problem exactly when the format refuses it (or it passes the kind's own limit)", () => {
  for (const rule of RULES) {
    for (const name of NAMES) {
      const refused = !matchesFormat(rule.format, name) || (rule.maxLength !== undefined && name.length > rule.maxLength);
      assert.equal(nameProblem(rule, name) !== undefined, refused, `${rule.kind} ${JSON.stringify(name)}: ${nameProblem(rule, name)}`);
    }
  }
});

test("every suggested name fits the rule", () => {
  for (const rule of RULES) {
    for (const name of NAMES) assert.equal(nameProblem(rule, suggestNameFor(rule, name)), undefined, `${rule.kind} ${JSON.stringify(name)} → ${suggestNameFor(rule, name)}`);
  }
  assert.equal(suggestNameFor(nameRuleOf("", "Service"), "9cache"), "svc-9cache");
});
