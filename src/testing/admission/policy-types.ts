/**
 * The admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and
 * ValidatingAdmissionPolicyBinding shapes LocalCluster's policy evaluator reads, and their
 * defaults (`SetDefaults_ValidatingAdmissionPolicySpec`, `SetDefaults_MatchResources`…)
 * applied on read, so a stored object without them behaves as kube-apiserver's defaulted one.
 *
 * @module
 */
import type { KubeObject } from "../resource-type.ts";
import type { SelectorShape, WebhookRule } from "./review-types.ts";

/**
 * A `resourceRules` / `excludeResourceRules` entry (`NamedRuleWithOperations`).
 *
 * @example
 * ```ts
 * const rule: NamedRule = { operations: ["CREATE", "UPDATE"], apiGroups: ["apps"], apiVersions: ["v1"], resources: ["deployments"], resourceNames: ["web"] };
 * ```
 */
export interface NamedRule extends WebhookRule {
  resourceNames?: string[];
}

/**
 * `matchConstraints` of a policy, `matchResources` of a binding.
 *
 * @example
 * ```ts
 * const match: MatchResources = { namespaceSelector: { matchLabels: { env: "test" } }, resourceRules: [] };
 * ```
 */
export interface MatchResources {
  namespaceSelector?: SelectorShape;
  objectSelector?: SelectorShape;
  resourceRules?: NamedRule[];
  excludeResourceRules?: NamedRule[];
  matchPolicy?: "Exact" | "Equivalent";
}

/**
 * One named CEL expression (`matchConditions`, `variables`).
 *
 * @example
 * ```ts
 * const c: NamedExpression = { name: "not-system", expression: "!request.userInfo.username.startsWith('system:')" };
 * ```
 */
export interface NamedExpression {
  name: string;
  expression: string;
}

/**
 * One `validations` entry.
 *
 * @example
 * ```ts
 * const v: PolicyValidation = { expression: "object.spec.replicas <= 5", messageExpression: "'too many: ' + string(object.spec.replicas)", reason: "Forbidden" };
 * ```
 */
export interface PolicyValidation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

/**
 * The spec of a ValidatingAdmissionPolicy.
 *
 * @example
 * ```ts
 * const spec: PolicySpec = { failurePolicy: "Fail", validations: [{ expression: "true" }] };
 * ```
 */
export interface PolicySpec {
  paramKind?: { apiVersion?: string; kind?: string };
  matchConstraints?: MatchResources;
  validations?: PolicyValidation[];
  failurePolicy?: "Fail" | "Ignore";
  auditAnnotations?: { key: string; valueExpression: string }[];
  matchConditions?: NamedExpression[];
  variables?: NamedExpression[];
}

/**
 * The spec of a ValidatingAdmissionPolicyBinding.
 *
 * @example
 * ```ts
 * const spec: BindingSpec = { policyName: "replicas", validationActions: ["Deny"] };
 * ```
 */
export interface BindingSpec {
  policyName?: string;
  paramRef?: { name?: string; namespace?: string; selector?: SelectorShape; parameterNotFoundAction?: "Allow" | "Deny" };
  matchResources?: MatchResources;
  validationActions?: ("Deny" | "Warn" | "Audit")[];
}

/**
 * A policy as stored: its name and spec.
 *
 * @example
 * ```ts
 * const p: PolicyObject = { metadata: { name: "replicas" }, spec: { validations: [{ expression: "true" }] } };
 * ```
 */
export interface PolicyObject extends KubeObject {
  spec?: PolicySpec;
}

/**
 * A binding as stored.
 *
 * @example
 * ```ts
 * const b: BindingObject = { metadata: { name: "replicas-test" }, spec: { policyName: "replicas", validationActions: ["Warn"] } };
 * ```
 */
export interface BindingObject extends KubeObject {
  spec?: BindingSpec;
}

/**
 * `matchResources` with kube-apiserver's defaults: `matchPolicy: Equivalent`, empty selectors,
 * rules of scope `*`. Undefined stays undefined (a binding without `matchResources` matches
 * everything its policy does).
 *
 * @example
 * ```ts
 * withMatchDefaults({ resourceRules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }] })!.matchPolicy; // → "Equivalent"
 * ```
 */
export function withMatchDefaults(match: MatchResources | undefined): MatchResources | undefined {
  if (match === undefined || match === null) return undefined;
  const rule = (r: NamedRule): NamedRule => ({ ...r, scope: r.scope ?? "*" });
  return {
    ...match,
    matchPolicy: match.matchPolicy ?? "Equivalent",
    namespaceSelector: match.namespaceSelector ?? {},
    objectSelector: match.objectSelector ?? {},
    resourceRules: (match.resourceRules ?? []).map(rule),
    excludeResourceRules: (match.excludeResourceRules ?? []).map(rule),
  };
}
