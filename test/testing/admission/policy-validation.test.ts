import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  validatingAdmissionPolicyBindingCauses, validatingAdmissionPolicyCauses, webhookMatchConditionCauses,
} from "../../../src/testing/admission/policy-validation.ts";

const RULE = { operations: ["CREATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"] };
const policy = (spec: Record<string, unknown>) => ({ metadata: { name: "p" }, spec: { matchConstraints: { resourceRules: [RULE] }, validations: [{ expression: "true" }], ...spec } });

describe("ValidatingAdmissionPolicy validation", () => {
  it("accepts a valid policy", () => {
    assert.deepEqual(validatingAdmissionPolicyCauses(policy({
      variables: [{ name: "r", expression: "object.spec.replicas" }],
      validations: [{ expression: "variables.r <= 5", messageExpression: "'r=' + string(variables.r)", reason: "Forbidden" }],
      matchConditions: [{ name: "c", expression: "request.operation == 'CREATE'" }],
      auditAnnotations: [{ key: "k", valueExpression: "'v'" }],
    }), undefined), []);
  });

  it("refuses expressions that do not compile, with cel-go's compilation failed detail", () => {
    const causes = validatingAdmissionPolicyCauses(policy({ validations: [{ expression: "object.spec.replicas <=" }, { expression: "variables.nope" }] }), undefined);
    assert.equal(causes.length, 2);
    assert.equal(causes[0]!.field, "spec.validations[0].expression");
    assert.equal(causes[0]!.reason, "FieldValueInvalid");
    assert.match(causes[0]!.message!, /^Invalid value: "object\.spec\.replicas <=": compilation failed: ERROR: <input>:1:/);
    assert.equal(causes[1]!.message, `Invalid value: "variables.nope": compilation failed: ERROR: <input>:1:10: undefined field 'nope'`);
  });

  it("requires matchConstraints rules and validations or audit annotations, and checks enums", () => {
    const fields = (spec: Record<string, unknown>) => validatingAdmissionPolicyCauses({ metadata: { name: "p" }, spec }, undefined).map((c) => `${c.field}: ${c.message}`);
    assert.deepEqual(fields({ failurePolicy: "Sometimes", matchConstraints: {} }), [
      'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
      "spec.matchConstraints.resourceRules: Required value",
      "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
      "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
    ]);
    assert.deepEqual(fields({ matchConstraints: { resourceRules: [RULE] }, validations: [{ expression: "true", reason: "Teapot", message: "a\nb" }] }), [
      'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
      'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
    ]);
  });
});

describe("ValidatingAdmissionPolicyBinding validation", () => {
  it("checks policyName and validationActions as kube-apiserver does", () => {
    const fields = (spec: Record<string, unknown>) => validatingAdmissionPolicyBindingCauses({ metadata: { name: "b" }, spec }, undefined).map((c) => `${c.field}: ${c.message}`);
    assert.deepEqual(fields({ policyName: "p", validationActions: ["Deny"] }), []);
    assert.deepEqual(fields({}), ["spec.policyName: Required value", "spec.validationActions: Required value: at least one validation action is required"]);
    assert.deepEqual(fields({ policyName: "p", validationActions: ["Deny", "Warn", "Deny", "Log"] }), [
      'spec.validationActions[2]: Duplicate value: "Deny"',
      'spec.validationActions[3]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions: Invalid value: ["Deny","Warn","Deny","Log"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });
});

describe("webhook matchConditions validation", () => {
  it("refuses a condition that does not compile in the webhook environment", () => {
    assert.deepEqual(webhookMatchConditionCauses([{ name: "ok", expression: "request.operation == 'CREATE'" }], "webhooks[0].matchConditions"), []);
    const [cause] = webhookMatchConditionCauses([{ name: "p", expression: "params.x == 1" }], "webhooks[0].matchConditions");
    assert.equal(cause!.field, "webhooks[0].matchConditions[0].expression");
    assert.match(cause!.message!, /undeclared reference to 'params'/);
  });
});
