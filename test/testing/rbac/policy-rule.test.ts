/**
 * RBAC rule matching and coverage, as kube's RBAC authorizer and escalation check decide them.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compactRules, compactString, ruleAllows, uncovered } from "../../../src/testing/rbac/policy-rule.ts";
import type { PolicyRule } from "../../../src/testing/rbac/policy-rule.ts";
import { nonResourceAttributes, resourceAttributes } from "../../../src/testing/auth/attributes.ts";

const user = { name: "u", groups: ["system:authenticated"] };
const req = (verb: string, apiGroup: string, resource: string, extra: { subresource?: string; name?: string; namespace?: string } = {}) =>
  resourceAttributes(user, { verb, apiGroup, resource, ...extra });

describe("ruleAllows", () => {
  const rule = (r: Partial<PolicyRule>): PolicyRule => ({ verbs: ["get"], apiGroups: [""], resources: ["pods"], ...r });

  it("matches verb, group and resource, each by name or *", () => {
    assert.equal(ruleAllows(req("get", "", "pods"), rule({})), true);
    assert.equal(ruleAllows(req("list", "", "pods"), rule({})), false);
    assert.equal(ruleAllows(req("get", "apps", "pods"), rule({})), false);
    assert.equal(ruleAllows(req("delete", "apps", "deployments"), rule({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] })), true);
  });

  it("keeps subresources apart, except for * and */subresource (resource/* is no wildcard)", () => {
    assert.equal(ruleAllows(req("get", "", "pods", { subresource: "log" }), rule({})), false);
    assert.equal(ruleAllows(req("get", "", "pods", { subresource: "log" }), rule({ resources: ["pods/log"] })), true);
    assert.equal(ruleAllows(req("get", "", "pods", { subresource: "log" }), rule({ resources: ["*/log"] })), true);
    assert.equal(ruleAllows(req("get", "", "pods", { subresource: "log" }), rule({ resources: ["*"] })), true);
    assert.equal(ruleAllows(req("get", "", "pods", { subresource: "log" }), rule({ resources: ["pods/*"] })), false);
    assert.equal(ruleAllows(req("get", "", "pods"), rule({ resources: ["*/log"] })), false);
  });

  it("matches resourceNames only when the request names one of them", () => {
    const named = rule({ verbs: ["get", "list", "create"], resourceNames: ["a"] });
    assert.equal(ruleAllows(req("get", "", "pods", { name: "a" }), named), true);
    assert.equal(ruleAllows(req("get", "", "pods", { name: "b" }), named), false);
    assert.equal(ruleAllows(req("list", "", "pods"), named), false);
    assert.equal(ruleAllows(req("create", "", "pods"), named), false);
  });

  it("matches non-resource URLs exactly, by a trailing * prefix, or by *", () => {
    const get = (path: string) => nonResourceAttributes(user, "get", path);
    assert.equal(ruleAllows(get("/apis/apps"), { verbs: ["get"], nonResourceURLs: ["/apis/*"] }), true);
    assert.equal(ruleAllows(get("/apis"), { verbs: ["get"], nonResourceURLs: ["/apis/*"] }), false);
    assert.equal(ruleAllows(get("/metrics"), { verbs: ["get"], nonResourceURLs: ["*"] }), true);
    assert.equal(ruleAllows(get("/metrics"), { verbs: ["get"], apiGroups: ["*"], resources: ["*"] }), false, "resource rules never match paths");
    assert.equal(ruleAllows(req("get", "", "pods"), { verbs: ["get"], nonResourceURLs: ["*"] }), false, "URL rules never match resources");
  });
});

describe("uncovered (the escalation check)", () => {
  it("returns the parts of the granted rules the owner's rules do not cover, one group/resource/verb each", () => {
    const owner: PolicyRule[] = [{ verbs: ["get", "list"], apiGroups: [""], resources: ["configmaps"] }, { verbs: ["get"], apiGroups: ["*"], resources: ["*/status"] }];
    assert.deepEqual(uncovered(owner, [{ verbs: ["get"], apiGroups: [""], resources: ["configmaps", "pods/status"] }]), []);
    assert.deepEqual(uncovered(owner, [{ verbs: ["get", "delete"], apiGroups: [""], resources: ["configmaps"] }]),
      [{ verbs: ["delete"], apiGroups: [""], resources: ["configmaps"] }]);
    assert.deepEqual(uncovered([{ verbs: ["get"], apiGroups: [""], resources: ["secrets"], resourceNames: ["a"] }],
      [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }]).length, 1, "a named grant does not cover all names");
  });

  it("describes missing rules compacted, as kube prints them", () => {
    const missing = uncovered([], [{ verbs: ["get", "list"], apiGroups: ["apps"], resources: ["deployments"] }, { verbs: ["get"], nonResourceURLs: ["/metrics"] }]);
    assert.deepEqual(compactRules(missing).map(compactString), [
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
      '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}',
    ]);
  });
});
