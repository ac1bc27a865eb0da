import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { matchedResource, namespaceSelectorMatches, objectSelectorMatches, ruleMatches } from "../../../src/testing/admission/matching.ts";
import type { RuleAttributes } from "../../../src/testing/admission/matching.ts";
import { configuredWebhooks } from "../../../src/testing/admission/review-types.ts";
import type { ConfiguredWebhook, WebhookRule } from "../../../src/testing/admission/review-types.ts";

const pods: RuleAttributes = { operation: "CREATE", group: "", version: "v1", resource: "pods", subresource: "", namespace: "default" };
const rule = (r: Partial<WebhookRule>): WebhookRule => ({ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"], scope: "*", ...r });

describe("admission webhook rules", () => {
  it("match operations, groups and versions by value or *", () => {
    assert.equal(ruleMatches(rule({ operations: ["CREATE"] }), pods), true);
    assert.equal(ruleMatches(rule({ operations: ["UPDATE", "DELETE"] }), pods), false);
    assert.equal(ruleMatches(rule({ apiGroups: ["apps"] }), pods), false);
    assert.equal(ruleMatches(rule({ apiVersions: ["v1beta1"] }), pods), false);
    assert.equal(ruleMatches(rule({ operations: [] }), pods), false, "an empty list matches nothing");
  });

  it("match resources: name, *, */*, res/sub, res/*, */sub", () => {
    const status = { ...pods, operation: "UPDATE" as const, subresource: "status" };
    const cases: [string, RuleAttributes, boolean][] = [
      ["pods", pods, true], ["pods", status, false], ["*", pods, true], ["*", status, false],
      ["*/*", status, true], ["*/*", pods, true], ["pods/status", status, true], ["pods/status", pods, false],
      ["pods/*", status, true], ["pods/*", pods, true], ["*/status", status, true], ["*/status", pods, false],
      ["deployments", pods, false], ["deployments/status", status, false],
    ];
    for (const [resource, attrs, want] of cases) {
      assert.equal(ruleMatches(rule({ resources: [resource] }), attrs), want, `${resource} vs ${attrs.resource}/${attrs.subresource}`);
    }
  });

  it("match scope: Namespaced excludes Namespaces and cluster-scoped objects; Cluster takes exactly those", () => {
    const node = { ...pods, resource: "nodes", namespace: "" };
    const ns = { ...pods, resource: "namespaces", namespace: "team-a" };
    assert.deepEqual([pods, node, ns].map((a) => ruleMatches(rule({ scope: "Namespaced" }), a)), [true, false, false]);
    assert.deepEqual([pods, node, ns].map((a) => ruleMatches(rule({ scope: "Cluster" }), a)), [false, true, true]);
    assert.deepEqual([pods, node, ns].map((a) => ruleMatches(rule({ scope: "*" }), a)), [true, true, true]);
  });

  it("matchPolicy Equivalent matches another version of the resource and names it; Exact does not", () => {
    const widgets: RuleAttributes = { ...pods, group: "example.com", version: "v1beta1", resource: "widgets" };
    const hook = (matchPolicy?: "Exact" | "Equivalent"): ConfiguredWebhook => ({ mutating: false, configuration: "c", index: 0,
      spec: { name: "w.example.com", clientConfig: {}, rules: [rule({ apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"] })], ...(matchPolicy ? { matchPolicy } : {}) } });
    const v1 = { group: "example.com", version: "v1", resource: "widgets" };
    assert.deepEqual(matchedResource(hook(), widgets, [v1]), v1, "Equivalent is the default");
    assert.equal(matchedResource(hook("Exact"), widgets, [v1]), undefined);
    assert.deepEqual(matchedResource(hook("Exact"), { ...widgets, version: "v1" }, []), v1);
  });

  it("objectSelector: empty matches; else the new or the old object's labels", () => {
    const sel = { matchLabels: { team: "a" } };
    const a = { metadata: { labels: { team: "a" } } };
    const b = { metadata: { labels: { team: "b" } } };
    assert.equal(objectSelectorMatches({}, b, undefined), true);
    assert.equal(objectSelectorMatches(undefined, undefined, undefined), true);
    assert.equal(objectSelectorMatches(sel, a, undefined), true);
    assert.equal(objectSelectorMatches(sel, b, a), true, "the old object matches");
    assert.equal(objectSelectorMatches(sel, b, undefined), false);
    assert.equal(objectSelectorMatches(sel, undefined, undefined), false);
  });

  it("namespaceSelector: ignored for cluster-scoped objects but Namespaces; labels looked up only when needed", () => {
    let lookups = 0;
    const labels = () => (lookups++, { env: "prod" });
    const sel = { matchExpressions: [{ key: "env", operator: "NotIn", values: ["prod"] }] };
    assert.equal(namespaceSelectorMatches(sel, { ...pods, resource: "nodes", namespace: "" }, labels), true);
    assert.equal(namespaceSelectorMatches({}, pods, labels), true);
    assert.equal(lookups, 0);
    assert.equal(namespaceSelectorMatches(sel, pods, labels), false);
    assert.equal(namespaceSelectorMatches(sel, { ...pods, resource: "namespaces", namespace: "prod-ns" }, labels), false);
    assert.equal(lookups, 2);
  });

  it("orders webhooks by configuration name (bytes), then by position", () => {
    const config = (name: string, hooks: string[]) => ({ metadata: { name }, webhooks: hooks.map((h) => ({ name: h, clientConfig: {} })) });
    const order = configuredWebhooks([config("b", ["b1", "b2"]), config("B", ["B1"]), config("a", ["a1"])], true).map((h) => h.spec.name);
    assert.deepEqual(order, ["B1", "a1", "b1", "b2"]);
  });
});
