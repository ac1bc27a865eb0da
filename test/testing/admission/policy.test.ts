import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compilePolicy, policyBinding, reasonToCode, runPolicies, VALIDATION_FAILURE_ANNOTATION } from "../../../src/testing/admission/policy.ts";
import type { BoundPolicy, PolicyHost, PolicyRequest } from "../../../src/testing/admission/policy.ts";
import { matchResources, namedRuleMatches } from "../../../src/testing/admission/policy-matching.ts";
import { withMatchDefaults } from "../../../src/testing/admission/policy-types.ts";
import type { BindingSpec, PolicySpec } from "../../../src/testing/admission/policy-types.ts";

const DEPLOYMENTS = { operations: ["CREATE", "UPDATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"] };

const deployment = (replicas: number, labels: Record<string, string> = {}) => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", namespace: "team-a", labels }, spec: { replicas },
});

const request = (object: Record<string, unknown> | undefined, opts: { operation?: "CREATE" | "UPDATE" | "DELETE"; oldObject?: Record<string, unknown>; nsLabels?: Record<string, string> } = {}): PolicyRequest => ({
  attributes: { operation: opts.operation ?? "CREATE", group: "apps", version: "v1", resource: "deployments", subresource: "", namespace: "team-a" },
  name: "web",
  object: object as never,
  oldObject: opts.oldObject as never,
  equivalents: [],
  namespaceLabels: () => opts.nsLabels ?? { env: "test" },
  kind: { group: "apps", version: "v1", kind: "Deployment" },
  request: (resource, kind) => ({ uid: "", kind, resource, operation: opts.operation ?? "CREATE", name: "web", namespace: "team-a", userInfo: { username: "alice" }, dryRun: false }),
  forbiddenName: "web",
});

const host = (params: Record<string, Record<string, unknown>> = {}): PolicyHost => ({
  convert: async () => assert.fail("no conversion expected"),
  namespaceObject: (name) => ({ metadata: { name, labels: { env: "test" }, managedFields: [{}] } }) as never,
  params: (_kind, ref) => {
    const found = ref.name ? params[ref.name] : undefined;
    if (!found && ref.parameterNotFoundAction === "Deny") return { error: "no params found for policy binding with `Deny` parameterNotFoundAction" };
    return { objects: found ? [found as never] : [] };
  },
});

const bound = (spec: PolicySpec, ...bindings: BindingSpec[]): BoundPolicy[] => [{
  policy: compilePolicy({ metadata: { name: "replicas" }, spec: { matchConstraints: { resourceRules: [DEPLOYMENTS] }, ...spec } }),
  bindings: bindings.map((b, i) => policyBinding({ metadata: { name: `b${i}` }, spec: { policyName: "replicas", ...b } })),
}];

const maxFive: PolicySpec = { validations: [{ expression: "object.spec.replicas <= 5", message: "at most 5 replicas" }] };

describe("ValidatingAdmissionPolicy evaluation", () => {
  it("denies with kube-apiserver's Forbidden wording, the validation's reason and code, and one cause", async () => {
    const out = await runPolicies(bound(maxFive, { validationActions: ["Deny"] }), request(deployment(7)), host());
    assert.ok(out.denial);
    assert.equal(out.denial.code, 422);
    assert.equal(out.denial.reason, "Invalid");
    const message = "ValidatingAdmissionPolicy 'replicas' with binding 'b0' denied request: at most 5 replicas";
    assert.equal(out.denial.message, `deployments.apps "web" is forbidden: ${message}`);
    assert.deepEqual(out.denial.details, { name: "web", group: "apps", kind: "deployments", causes: [{ message }] });
    assert.equal((await runPolicies(bound(maxFive, { validationActions: ["Deny"] }), request(deployment(5)), host())).denial, undefined);
    const forbidden = await runPolicies(bound({ validations: [{ expression: "false", reason: "Forbidden" }] }, { validationActions: ["Deny"] }), request(deployment(1)), host());
    assert.equal(forbidden.denial?.code, 403);
    assert.equal(forbidden.denial?.message, `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replicas' with binding 'b0' denied request: failed expression: false`);
    assert.deepEqual([reasonToCode("Unauthorized"), reasonToCode("RequestEntityTooLarge"), reasonToCode("Invalid")], [401, 413, 422]);
  });

  it("warns and audits instead of denying, per validationActions", async () => {
    const out = await runPolicies(bound(maxFive, { validationActions: ["Warn", "Audit"] }), request(deployment(9)), host());
    assert.equal(out.denial, undefined);
    assert.deepEqual(out.warnings, ["Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'b0': at most 5 replicas"]);
    assert.deepEqual(JSON.parse(out.auditAnnotations[VALIDATION_FAILURE_ANNOTATION]!), [
      { message: "at most 5 replicas", policy: "replicas", binding: "b0", expressionIndex: 0, validationActions: ["Warn", "Audit"] },
    ]);
  });

  it("words the message from messageExpression, falling back to message when it is not a one-line string", async () => {
    const spec = (messageExpression: string): PolicySpec => ({ validations: [{ expression: "object.spec.replicas <= 5", message: "static", messageExpression }] });
    const message = async (expr: string) => (await runPolicies(bound(spec(expr), { validationActions: ["Warn"] }), request(deployment(8)), host())).warnings[0];
    assert.match((await message("'replicas ' + string(object.spec.replicas) + ' > 5'"))!, /: replicas 8 > 5$/);
    assert.match((await message("1"))!, /: static$/);
    assert.match((await message("'two\\nlines'"))!, /: static$/);
    assert.match((await message("object.nope"))!, /: static$/);
  });

  it("evaluates variables lazily, each seeing the ones before it", async () => {
    const spec: PolicySpec = {
      variables: [{ name: "replicas", expression: "object.spec.replicas" }, { name: "tooMany", expression: "variables.replicas > 5" }, { name: "broken", expression: "object.nope" }],
      validations: [{ expression: "!variables.tooMany", messageExpression: "'got ' + string(variables.replicas)" }],
    };
    const out = await runPolicies(bound(spec, { validationActions: ["Deny"] }), request(deployment(6)), host());
    assert.match(out.denial?.message ?? "", /denied request: got 6$/);
    const usesBroken = await runPolicies(bound({ ...spec, validations: [{ expression: "variables.broken == 1" }] }, { validationActions: ["Deny"] }), request(deployment(1)), host());
    assert.match(usesBroken.denial?.message ?? "", /denied request: expression 'variables\.broken == 1' resulted in error: composited variable "broken" fails to evaluate: no such key: nope$/);
  });

  it("skips the policy when a matchCondition is false, and follows failurePolicy when one errors", async () => {
    const spec: PolicySpec = { ...maxFive, matchConditions: [{ name: "not-alice", expression: "request.userInfo.username != 'alice'" }] };
    assert.equal((await runPolicies(bound(spec, { validationActions: ["Deny"] }), request(deployment(9)), host())).denial, undefined);
    const erroring: PolicySpec = { ...maxFive, matchConditions: [{ name: "bad", expression: "object.nope == 1" }] };
    const failed = await runPolicies(bound(erroring, { validationActions: ["Deny"] }), request(deployment(1)), host());
    assert.match(failed.denial?.message ?? "", /denied request: expression 'object\.nope == 1' resulted in error: no such key: nope$/);
    assert.equal((await runPolicies(bound({ ...erroring, failurePolicy: "Ignore" }, { validationActions: ["Deny"] }), request(deployment(1)), host())).denial, undefined);
  });

  it("makes a compile error a refusal under Fail and nothing under Ignore", async () => {
    const spec: PolicySpec = { validations: [{ expression: "object.spec.replicas <=" }] };
    const failed = await runPolicies(bound(spec, { validationActions: ["Deny"] }), request(deployment(1)), host());
    assert.match(failed.denial?.message ?? "", /denied request: compilation error: compilation failed: ERROR: <input>:1:/);
    assert.equal((await runPolicies(bound({ ...spec, failurePolicy: "Ignore" }, { validationActions: ["Deny"] }), request(deployment(1)), host())).denial, undefined);
  });

  it("matches namespaceSelector, objectSelector, excludeResourceRules and resourceNames; bindings narrow further", async () => {
    const spec: PolicySpec = { ...maxFive, matchConstraints: { resourceRules: [DEPLOYMENTS], namespaceSelector: { matchLabels: { env: "test" } } } };
    assert.ok((await runPolicies(bound(spec, { validationActions: ["Deny"] }), request(deployment(9)), host())).denial);
    assert.equal((await runPolicies(bound(spec, { validationActions: ["Deny"] }), request(deployment(9), { nsLabels: { env: "prod" } }), host())).denial, undefined);
    const narrowed = bound(spec, { validationActions: ["Deny"], matchResources: { objectSelector: { matchLabels: { tier: "web" } } } });
    assert.equal((await runPolicies(narrowed, request(deployment(9)), host())).denial, undefined);
    assert.ok((await runPolicies(narrowed, request(deployment(9, { tier: "web" })), host())).denial);
    const req = request(deployment(1));
    const m = withMatchDefaults({ resourceRules: [DEPLOYMENTS], excludeResourceRules: [{ ...DEPLOYMENTS, resourceNames: ["web"] }] })!;
    assert.equal(matchResources(m, req), undefined);
    assert.equal(namedRuleMatches({ ...DEPLOYMENTS, resourceNames: ["api"] }, req.attributes, "web"), false);
    assert.equal(matchResources(withMatchDefaults({ resourceRules: [{ ...DEPLOYMENTS, operations: ["DELETE"] }] })!, req), undefined);
  });

  it("passes params from the binding's paramRef, and refuses when none is found under parameterNotFoundAction: Deny", async () => {
    const spec: PolicySpec = { paramKind: { apiVersion: "v1", kind: "ConfigMap" }, validations: [{ expression: "object.spec.replicas <= int(params.data.max)", messageExpression: "'max is ' + params.data.max" }] };
    const limits = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "limits" }, data: { max: "3" } };
    const out = await runPolicies(bound(spec, { validationActions: ["Deny"], paramRef: { name: "limits" } }), request(deployment(4)), host({ limits }));
    assert.match(out.denial?.message ?? "", /denied request: max is 3$/);
    const missing = await runPolicies(bound(spec, { validationActions: ["Deny"], paramRef: { name: "other", parameterNotFoundAction: "Deny" } }), request(deployment(4)), host({ limits }));
    assert.match(missing.denial?.message ?? "", /with binding 'b0' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);
    assert.equal((await runPolicies(bound(spec, { validationActions: ["Deny"], paramRef: { name: "other", parameterNotFoundAction: "Allow" } }), request(deployment(4)), host())).denial, undefined);
  });

  it("publishes audit annotations from auditAnnotations, keyed by the policy", async () => {
    const spec: PolicySpec = { auditAnnotations: [{ key: "replicas", valueExpression: "'replicas: ' + string(object.spec.replicas)" }, { key: "none", valueExpression: "null" }] };
    const out = await runPolicies(bound(spec, { validationActions: ["Audit"] }), request(deployment(2)), host());
    assert.deepEqual(out.auditAnnotations, { "replicas/replicas": "replicas: 2" });
  });

  it("sees namespaceObject without managed fields, and oldObject on updates", async () => {
    const spec: PolicySpec = { validations: [{ expression: "namespaceObject.metadata.labels.env == 'test' && !has(namespaceObject.metadata.managedFields) && oldObject.spec.replicas == 1" }] };
    const out = await runPolicies(bound(spec, { validationActions: ["Deny"] }), request(deployment(2), { operation: "UPDATE", oldObject: deployment(1) }), host());
    assert.equal(out.denial, undefined);
  });
});
