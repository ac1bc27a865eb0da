/**
 * Create/update validation of ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
 * (kube-apiserver's `validateValidatingAdmissionPolicySpec` and
 * `validateValidatingAdmissionPolicyBindingSpec`), and the compilation of webhook
 * `matchConditions`: the CEL expressions are compiled in the environment they run in, and one
 * that does not compile is a `FieldValueInvalid` cause with cel-go's `compilation failed: …`
 * detail, so the object is refused at create time as kube-apiserver refuses it. Type errors
 * against the matched kinds are not found here (kube-apiserver reports them in the policy's
 * `status.typeChecking`; LocalCluster finds them at evaluation).
 *
 * The checks are a subset of kube-apiserver's: the enums, the required fields, the rules of
 * `matchConstraints` (required), the expressions, messages and reasons, the validation actions.
 *
 * @module
 */
import type { KubeObject } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { compileCelExpression } from "../cel/compile.ts";
import type { CelCompileOptions } from "../cel/compile.ts";
import { dns1123SubdomainErrors } from "../names.ts";
import { duplicate, invalid, list, notSupported, obj, required, str } from "../kinds/validation/field.ts";
import type { Obj } from "../kinds/validation/field.ts";
import { WEBHOOK_CEL_ENVIRONMENT, policyCelEnvironment } from "./match-conditions.ts";

const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
const REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
const ACTIONS = ["Audit", "Deny", "Warn"];
const NOT_FOUND_ACTIONS = ["Allow", "Deny"];
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** A compile error of `expression` at `field`, as kube-apiserver's `convertCELErrorToValidationError`. */
function compileCauses(expression: string, field: string, env: CelCompileOptions): StatusCause[] {
  const error = compileCelExpression(expression, env).error;
  return error === undefined ? [] : [invalid(field, expression, error)];
}

/**
 * The compile errors of a webhook's `matchConditions` (the CEL part of their validation;
 * the names and required expressions are checked with the rest of the webhook).
 *
 * @example
 * ```ts
 * webhookMatchConditionCauses([{ name: "a", expression: "object.x +" }], "webhooks[0].matchConditions");
 * // → [{ reason: "FieldValueInvalid", field: "webhooks[0].matchConditions[0].expression", message: "Invalid value: \"object.x +\": compilation failed: ERROR: …" }]
 * ```
 */
export function webhookMatchConditionCauses(conditions: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  list(conditions).forEach((raw, i) => {
    const expression = str(obj(raw)?.expression);
    if (expression.trim() !== "") causes.push(...compileCauses(expression, `${field}[${i}].expression`, WEBHOOK_CEL_ENVIRONMENT));
  });
  return causes;
}

/** `matchConstraints` / `matchResources`: enums and the rules' required lists. */
function matchCauses(match: Obj, field: string, rulesRequired: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  if (typeof match.matchPolicy === "string" && !MATCH_POLICIES.includes(match.matchPolicy)) causes.push(notSupported(`${field}.matchPolicy`, match.matchPolicy, MATCH_POLICIES));
  const rules = list(match.resourceRules);
  if (rulesRequired && rules.length === 0) causes.push(required(`${field}.resourceRules`));
  for (const [key, entries] of [["resourceRules", rules], ["excludeResourceRules", list(match.excludeResourceRules)]] as const) {
    entries.forEach((raw, i) => {
      const rule = obj(raw) ?? {};
      const at = `${field}.${key}[${i}]`;
      for (const part of ["operations", "apiGroups", "apiVersions", "resources"]) if (list(rule[part]).length === 0) causes.push(required(`${at}.${part}`));
    });
  }
  return causes;
}

/** `matchConditions` of a policy: names (required, unique, CEL-free) and compiled expressions. */
function conditionCauses(conditions: unknown[], field: string, env: CelCompileOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  conditions.forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const name = str(c.name);
    if (name === "") causes.push(required(`${at}.name`));
    else if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    names.add(name);
    const expression = str(c.expression);
    if (expression.trim() === "") causes.push(required(`${at}.expression`));
    else causes.push(...compileCauses(expression, `${at}.expression`, env));
  });
  return causes;
}

/**
 * The validation errors of a ValidatingAdmissionPolicy (empty when valid).
 *
 * @example
 * ```ts
 * validatingAdmissionPolicyCauses({ metadata: { name: "p" }, spec: { matchConstraints: { resourceRules: [] }, validations: [{ expression: "object.a <" }] } }, undefined);
 * // → [spec.matchConstraints.resourceRules: Required value, spec.validations[0].expression: Invalid value: "object.a <": compilation failed: …]
 * ```
 */
export function validatingAdmissionPolicyCauses(o: KubeObject, _old: KubeObject | undefined): StatusCause[] {
  const spec = obj((o as Obj).spec) ?? {};
  const causes: StatusCause[] = [];
  if (typeof spec.failurePolicy === "string" && !FAILURE_POLICIES.includes(spec.failurePolicy)) causes.push(notSupported("spec.failurePolicy", spec.failurePolicy, FAILURE_POLICIES));
  const paramKind = obj(spec.paramKind);
  if (paramKind) {
    if (str(paramKind.apiVersion) === "") causes.push(required("spec.paramKind.apiVersion"));
    if (str(paramKind.kind) === "") causes.push(required("spec.paramKind.kind"));
  }
  const match = obj(spec.matchConstraints);
  if (!match) causes.push(required("spec.matchConstraints"));
  else causes.push(...matchCauses(match, "spec.matchConstraints", true));
  const validations = list(spec.validations);
  const annotations = list(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    causes.push(required("spec.validations", "validations or auditAnnotations must contain at least one item"));
    causes.push(required("spec.auditAnnotations", "validations or auditAnnotations must contain at least one item"));
  }
  // Variables compile in order, each seeing the ones before it.
  const names: string[] = [];
  list(spec.variables).forEach((raw, i) => {
    const v = obj(raw) ?? {};
    const at = `spec.variables[${i}]`;
    const name = str(v.name);
    if (name === "") causes.push(required(`${at}.name`, "name is not specified"));
    else if (!CEL_IDENTIFIER.test(name)) causes.push(invalid(`${at}.name`, name, "name is not a valid CEL identifier"));
    const expression = str(v.expression);
    if (expression.trim() === "") causes.push(required(`${at}.expression`, "expression is not specified"));
    else causes.push(...compileCauses(expression, `${at}.expression`, policyCelEnvironment(names)));
    if (name !== "") names.push(name);
  });
  const env = policyCelEnvironment(names);
  causes.push(...conditionCauses(list(spec.matchConditions), "spec.matchConditions", env));
  validations.forEach((raw, i) => {
    const v = obj(raw) ?? {};
    const at = `spec.validations[${i}]`;
    const expression = str(v.expression);
    if (expression.trim() === "") causes.push(required(`${at}.expression`, "expression is not specified"));
    else causes.push(...compileCauses(expression, `${at}.expression`, env));
    const messageExpression = str(v.messageExpression);
    if (messageExpression !== "" && messageExpression.trim() === "") causes.push(invalid(`${at}.messageExpression`, messageExpression, "must be non-empty if specified"));
    else if (messageExpression.trim() !== "") causes.push(...compileCauses(messageExpression, `${at}.messageExpression`, env));
    const message = str(v.message);
    if (message !== "" && message.trim() === "") causes.push(invalid(`${at}.message`, message, "message must be non-empty if specified"));
    else if (/[\r\n]/.test(message.trim())) causes.push(invalid(`${at}.message`, message, "message must not contain line breaks"));
    if (typeof v.reason === "string" && !REASONS.includes(v.reason)) causes.push(notSupported(`${at}.reason`, v.reason, REASONS));
  });
  const keys = new Set<string>();
  annotations.forEach((raw, i) => {
    const a = obj(raw) ?? {};
    const at = `spec.auditAnnotations[${i}]`;
    const key = str(a.key);
    if (key === "") causes.push(required(`${at}.key`));
    else if (keys.has(key)) causes.push(duplicate(`${at}.key`, key));
    keys.add(key);
    const value = str(a.valueExpression);
    if (value.trim() === "") causes.push(required(`${at}.valueExpression`, "valueExpression is not specified"));
    else causes.push(...compileCauses(value, `${at}.valueExpression`, env));
  });
  return causes;
}

/**
 * The validation errors of a ValidatingAdmissionPolicyBinding (empty when valid).
 *
 * @example
 * ```ts
 * validatingAdmissionPolicyBindingCauses({ metadata: { name: "b" }, spec: { policyName: "p", validationActions: ["Deny", "Warn"] } }, undefined);
 * // → [spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (…)]
 * ```
 */
export function validatingAdmissionPolicyBindingCauses(o: KubeObject, _old: KubeObject | undefined): StatusCause[] {
  const spec = obj((o as Obj).spec) ?? {};
  const causes: StatusCause[] = [];
  const policyName = str(spec.policyName);
  if (policyName === "") causes.push(required("spec.policyName"));
  else for (const m of dns1123SubdomainErrors(policyName)) causes.push(invalid("spec.policyName", policyName, m));
  const ref = obj(spec.paramRef);
  if (ref) {
    if (str(ref.name) !== "" && obj(ref.selector)) causes.push({ reason: "FieldValueForbidden", field: "spec.paramRef.name", message: "Forbidden: name and selector are mutually exclusive" });
    if (str(ref.name) === "" && !obj(ref.selector)) causes.push(required("spec.paramRef", "one of name or selector must be specified"));
    if (typeof ref.parameterNotFoundAction === "string" && !NOT_FOUND_ACTIONS.includes(ref.parameterNotFoundAction)) {
      causes.push(notSupported("spec.paramRef.parameterNotFoundAction", ref.parameterNotFoundAction, NOT_FOUND_ACTIONS));
    }
  }
  const match = obj(spec.matchResources);
  if (match) causes.push(...matchCauses(match, "spec.matchResources", false));
  const actions = list(spec.validationActions).map(str);
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) causes.push(notSupported(`spec.validationActions[${i}]`, a, ACTIONS));
    if (seen.has(a)) causes.push(duplicate(`spec.validationActions[${i}]`, a));
    seen.add(a);
  });
  if (seen.has("Deny") && seen.has("Warn")) {
    causes.push(invalid("spec.validationActions", actions, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"));
  }
  if (seen.size === 0) causes.push(required("spec.validationActions", "at least one validation action is required"));
  return causes;
}
