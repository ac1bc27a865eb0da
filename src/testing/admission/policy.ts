/**
 * ValidatingAdmissionPolicies in LocalCluster, evaluated as kube-apiserver's
 * `admission/plugin/policy/validating` dispatcher evaluates them, on LocalCluster's CEL engine:
 * for each policy whose `matchConstraints` take the request, each of its bindings whose
 * `matchResources` take it (with its params, when the policy has a `paramKind`): the policy's
 * `matchConditions`, then its `validations` (with `variables`, evaluated lazily and once), and
 * its `auditAnnotations`. A failed validation is enforced by the binding's
 * `validationActions`: `Deny` refuses the request (kube-apiserver's
 * `ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request: <message>`,
 * with the validation's `reason` and its code), `Warn` adds a `Warning`, `Audit` an audit
 * annotation. Errors (compile errors, runtime errors, a missing param) follow the policy's
 * `failurePolicy`: `Fail` makes them failed validations, `Ignore` drops them.
 *
 * Differences from kube-apiserver: policies and bindings take effect as soon as they are
 * stored (kube-apiserver's informers take a moment); expressions are not type-checked against
 * the matched kinds (kube-apiserver reports such errors in the policy's `status.typeChecking`,
 * which LocalCluster leaves empty): a type error shows when the expression is evaluated, as a
 * runtime error under the failure policy. The `authorizer` variable is not implemented (an
 * expression naming it is a compile error).
 *
 * @module
 */
import type { CelInput } from "@bufbuild/cel";
import { celMap } from "@bufbuild/cel";
import { compileCelExpression } from "../cel/compile.ts";
import type { CompiledExpression } from "../cel/compile.ts";
import type { KubeObject } from "../resource-type.ts";
import { StatusError } from "../status.ts";
import type { CompiledCondition } from "./match-conditions.ts";
import {
  CostBudget, OUT_OF_BUDGET, admissionBindings, celErrorText, celTypeName, compileMatchConditions, evaluateAdmissionExpression, evaluateMatchConditions, policyCelEnvironment,
} from "./match-conditions.ts";
import type { PolicyMatchRequest } from "./policy-matching.ts";
import { matchResources } from "./policy-matching.ts";
import type { BindingObject, BindingSpec, MatchResources, PolicyObject, PolicySpec } from "./policy-types.ts";
import { withMatchDefaults } from "./policy-types.ts";
import type { Gvk, Gvr } from "./review-types.ts";

/** The longest `messageExpression` result kept (`celconfig.MaxEvaluatedMessageExpressionSizeBytes`). */
const MAX_MESSAGE_BYTES = 5 * 1024;
/** The longest audit annotation value kept. */
const MAX_AUDIT_VALUE = 10 * 1024;
/** The audit annotation an `Audit` action publishes. */
export const VALIDATION_FAILURE_ANNOTATION = "validation.policy.admission.k8s.io/validation_failure";

/** One validation, compiled. */
interface CompiledValidation {
  readonly expression: CompiledExpression;
  readonly message: string | undefined;
  readonly messageExpression: CompiledExpression | undefined;
  readonly reason: string | undefined;
}

/**
 * A policy with its expressions compiled (once per stored version of it).
 *
 * @example
 * ```ts
 * const policy = compilePolicy({ metadata: { name: "replicas" }, spec: { validations: [{ expression: "object.spec.replicas <= 5" }] } });
 * policy.configurationError; // → undefined
 * ```
 */
export interface CompiledPolicy {
  readonly name: string;
  readonly spec: PolicySpec;
  readonly match: MatchResources | undefined;
  readonly failurePolicy: "Fail" | "Ignore";
  readonly conditions: CompiledCondition[];
  readonly variables: { readonly name: string; readonly compiled: CompiledExpression }[];
  readonly validations: CompiledValidation[];
  readonly auditAnnotations: { readonly key: string; readonly value: CompiledExpression }[];
  /** Set when the policy cannot run (a `paramKind` LocalCluster does not serve). */
  configurationError?: string;
}

/**
 * Compiles a stored ValidatingAdmissionPolicy: each variable in an environment that has the
 * variables before it, then the conditions, validations, messages and audit annotations.
 *
 * @example
 * ```ts
 * const p = compilePolicy({ metadata: { name: "p" }, spec: { variables: [{ name: "r", expression: "object.spec.replicas" }], validations: [{ expression: "variables.r < 3" }] } });
 * p.validations[0]!.expression.error; // → undefined
 * ```
 */
export function compilePolicy(object: PolicyObject): CompiledPolicy {
  const spec = object.spec ?? {};
  const names: string[] = [];
  const variables = (spec.variables ?? []).map((v) => {
    const compiled = compileCelExpression(v.expression ?? "", policyCelEnvironment(names));
    names.push(v.name);
    return { name: v.name, compiled };
  });
  const env = policyCelEnvironment(names);
  return {
    name: object.metadata?.name ?? "",
    spec,
    match: withMatchDefaults(spec.matchConstraints),
    failurePolicy: spec.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    conditions: compileMatchConditions(spec.matchConditions, env),
    variables,
    validations: (spec.validations ?? []).map((v) => ({
      expression: compileCelExpression(v.expression ?? "", env),
      message: v.message,
      messageExpression: v.messageExpression?.trim() ? compileCelExpression(v.messageExpression, env) : undefined,
      reason: v.reason,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({ key: a.key, value: compileCelExpression(a.valueExpression ?? "", env) })),
  };
}

/**
 * A binding as the evaluator uses it.
 *
 * @example
 * ```ts
 * const b: PolicyBinding = { name: "replicas-test", spec: { policyName: "replicas", validationActions: ["Deny"] }, match: undefined };
 * ```
 */
export interface PolicyBinding {
  readonly name: string;
  readonly spec: BindingSpec;
  readonly match: MatchResources | undefined;
}

/**
 * A stored binding, its `matchResources` defaulted.
 *
 * @example
 * ```ts
 * policyBinding({ metadata: { name: "b" }, spec: { policyName: "p", validationActions: ["Warn"] } }).spec.validationActions; // → ["Warn"]
 * ```
 */
export function policyBinding(object: BindingObject): PolicyBinding {
  const spec = object.spec ?? {};
  return { name: object.metadata?.name ?? "", spec, match: withMatchDefaults(spec.matchResources) };
}

/**
 * A policy and the bindings that name it.
 *
 * @example
 * ```ts
 * declare const policy: CompiledPolicy;
 * const bound: BoundPolicy = { policy, bindings: [] };
 * ```
 */
export interface BoundPolicy {
  readonly policy: CompiledPolicy;
  readonly bindings: readonly PolicyBinding[];
}

/**
 * What the evaluator needs from LocalCluster for one request.
 *
 * @example
 * ```ts
 * declare const host: PolicyHost;
 * const ns = host.namespaceObject("default");
 * ```
 */
export interface PolicyHost {
  /** The object (or old object) in another served version of the resource, with that version's kind. */
  convert(object: KubeObject, to: Gvr): Promise<{ object: KubeObject; kind: Gvk }>;
  /** The request's Namespace (404 when it does not exist). */
  namespaceObject(namespace: string): KubeObject;
  /**
   * The param objects of a binding: the objects, or a configuration error in kube-apiserver's
   * words (`undefined` objects when the ref names none and `parameterNotFoundAction: Allow`).
   */
  params(paramKind: NonNullable<PolicySpec["paramKind"]>, ref: NonNullable<BindingSpec["paramRef"]>, namespace: string): { objects: KubeObject[] } | { error: string };
}

/**
 * One request as the evaluator sees it.
 *
 * @example
 * ```ts
 * import type { PolicyMatchRequest } from "./policy-matching.ts";
 * declare const match: PolicyMatchRequest;
 * const req: PolicyRequest = { ...match, kind: { group: "apps", version: "v1", kind: "Deployment" }, request: () => ({ operation: "CREATE" }), forbiddenName: "web" };
 * ```
 */
export interface PolicyRequest extends PolicyMatchRequest {
  /** The kind of the objects as requested. */
  readonly kind: Gvk;
  /** `request` as CEL sees it, for the resource and kind a policy matched as. */
  readonly request: (resource: Gvr, kind: Gvk) => Record<string, unknown>;
  /** The name kube-apiserver's `admission.NewForbidden` shows (the object's name, its `generateName`, or `Unknown`). */
  readonly forbiddenName: string;
}

/**
 * What the policies decided: the first refusal (if any), the `Warning`s and the audit
 * annotations to add.
 *
 * @example
 * ```ts
 * declare const outcome: PolicyOutcome;
 * if (outcome.denial) throw outcome.denial;
 * ```
 */
export interface PolicyOutcome {
  denial?: StatusError;
  readonly warnings: string[];
  readonly auditAnnotations: Record<string, string>;
}

/** A failed validation, or an error the failure policy turned into one. */
interface Decision {
  readonly message: string;
  readonly reason?: string;
  readonly index: number;
}

interface Denied {
  readonly policy: string;
  readonly binding: string | undefined;
  readonly message: string;
  readonly reason: string | undefined;
}

/**
 * Runs the policies on one request, in order (policies by name, each with its bindings by
 * name), and returns what they decided; the first refusal wins, as in kube-apiserver.
 *
 * @example
 * ```ts
 * declare const policies: BoundPolicy[];
 * declare const req: PolicyRequest;
 * declare const host: PolicyHost;
 * const outcome = await runPolicies(policies, req, host);
 * ```
 */
export async function runPolicies(policies: readonly BoundPolicy[], req: PolicyRequest, host: PolicyHost): Promise<PolicyOutcome> {
  const outcome: PolicyOutcome = { warnings: [], auditAnnotations: {} };
  const denied: Denied[] = [];
  const configError = (policy: CompiledPolicy, binding: string | undefined, err: string) => {
    if (policy.failurePolicy === "Ignore") return;
    denied.push({ policy: policy.name, binding, message: `${binding === undefined ? "failed to configure policy" : "failed to configure binding"}: ${err}`, reason: undefined });
  };
  for (const { policy, bindings } of policies) {
    if (!policy.match) continue;
    const gvr = matchResources(policy.match, req);
    if (!gvr) continue;
    if (policy.configurationError !== undefined) {
      configError(policy, undefined, policy.configurationError);
      continue;
    }
    const same = gvr.group === req.attributes.group && gvr.version === req.attributes.version && gvr.resource === req.attributes.resource;
    let object = req.object;
    let oldObject = req.oldObject;
    let kind = req.kind;
    if (!same) {
      if (object) ({ object, kind } = await host.convert(object, gvr));
      if (oldObject) ({ object: oldObject, kind } = await host.convert(oldObject, gvr));
    }
    const request = req.request(gvr, kind);
    const collected = new Map<string, string[]>();
    for (const binding of bindings) {
      if (binding.match && !matchResources(binding.match, req)) continue;
      let params: (KubeObject | undefined)[] = [undefined];
      if (policy.spec.paramKind) {
        if (!binding.spec.paramRef) {
          configError(policy, binding.name, `paramKind is specified but no paramRef is set in binding ${JSON.stringify(binding.name)}`);
          continue;
        }
        const found = host.params(policy.spec.paramKind, binding.spec.paramRef, req.attributes.namespace);
        if ("error" in found) {
          configError(policy, binding.name, found.error);
          continue;
        }
        params = found.objects;
      }
      const namespace = req.attributes.namespace !== "" && !(req.attributes.group === "" && req.attributes.resource === "namespaces")
        ? namespaceObjectOf(host.namespaceObject(req.attributes.namespace))
        : undefined;
      for (const param of params) {
        const result = validate(policy, { object, oldObject, request, params: param, namespaceObject: namespace });
        for (const d of result.decisions) enforce(policy, binding, d, denied, outcome);
        for (const [key, value] of result.annotations) {
          const values = collected.get(key) ?? [];
          if (!values.includes(value)) values.push(value);
          collected.set(key, values);
        }
        for (const err of result.annotationErrors) {
          if (policy.failurePolicy === "Fail") denied.push({ policy: policy.name, binding: binding.name, message: err, reason: undefined });
        }
      }
    }
    for (const [key, values] of collected) outcome.auditAnnotations[`${policy.name}/${key}`] = values.join(", ");
  }
  if (denied.length > 0) outcome.denial = denial(denied[0]!, req);
  return outcome;
}

/** Applies a binding's `validationActions` to one failed validation. */
function enforce(policy: CompiledPolicy, binding: PolicyBinding, d: Decision, denied: Denied[], outcome: PolicyOutcome): void {
  for (const action of binding.spec.validationActions ?? []) {
    if (action === "Deny") denied.push({ policy: policy.name, binding: binding.name, message: d.message, reason: d.reason });
    else if (action === "Warn") {
      const w = `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${d.message}`;
      if (!outcome.warnings.includes(w)) outcome.warnings.push(w);
    } else if (action === "Audit" && outcome.auditAnnotations[VALIDATION_FAILURE_ANNOTATION] === undefined) {
      outcome.auditAnnotations[VALIDATION_FAILURE_ANNOTATION] = JSON.stringify([
        { message: d.message, policy: binding.spec.policyName ?? policy.name, binding: binding.name, expressionIndex: d.index, validationActions: binding.spec.validationActions },
      ]);
    }
  }
}

/** The Namespace as `namespaceObject` shows it (kube-apiserver's `CreateNamespaceObject`: no managed fields, no owners). */
function namespaceObjectOf(ns: KubeObject): KubeObject {
  const m = (ns.metadata ?? {}) as Record<string, unknown>;
  const keep = ["name", "generateName", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers"];
  const metadata = Object.fromEntries(keep.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]));
  const n = ns as { spec?: unknown; status?: unknown };
  return { metadata, ...(n.spec !== undefined ? { spec: n.spec } : {}), ...(n.status !== undefined ? { status: n.status } : {}) } as KubeObject;
}

interface ValidateResult {
  readonly decisions: Decision[];
  readonly annotations: [string, string][];
  readonly annotationErrors: string[];
}

/** One policy for one binding and param: conditions, validations, messages, audit annotations. */
function validate(policy: CompiledPolicy, input: { object: KubeObject | undefined; oldObject: KubeObject | undefined; request: Record<string, unknown>; params: KubeObject | undefined; namespaceObject: KubeObject | undefined }): ValidateResult {
  const ignore = policy.failurePolicy === "Ignore";
  const none: ValidateResult = { decisions: [], annotations: [], annotationErrors: [] };
  const budget = new CostBudget();
  const bindings: Record<string, CelInput> = admissionBindings(input);
  bindings.variables = lazyVariables(policy, bindings);
  const matched = evaluateMatchConditions(policy.conditions, bindings, policy.failurePolicy, budget);
  if ("error" in matched) return { ...none, decisions: [{ message: matched.error, index: 0 }] };
  if (!matched.matches) return none;
  const decisions: Decision[] = [];
  for (const [index, v] of policy.validations.entries()) {
    const outcome = evaluateAdmissionExpression(v.expression, bindings, budget);
    if ("outOfBudget" in outcome) return ignore ? none : { ...none, decisions: [{ message: OUT_OF_BUDGET, index: 0 }] };
    if ("error" in outcome) {
      if (!ignore) decisions.push({ message: outcome.error, index });
      continue;
    }
    if (outcome.value === true) continue;
    if (outcome.value !== false) {
      if (!ignore) decisions.push({ message: `expression '${v.expression.source}' resulted in error: no such overload: a validation must evaluate to bool, got ${celTypeName(outcome.value)}`, index });
      continue;
    }
    decisions.push({ message: failureMessage(v, bindings, budget), reason: v.reason ?? "Invalid", index });
  }
  const annotations: [string, string][] = [];
  const annotationErrors: string[] = [];
  for (const a of policy.auditAnnotations) {
    const outcome = evaluateAdmissionExpression(a.value, bindings, new CostBudget());
    if ("outOfBudget" in outcome) continue;
    if ("error" in outcome) {
      annotationErrors.push(outcome.error);
      continue;
    }
    if (outcome.value === null) continue;
    if (typeof outcome.value !== "string") {
      annotationErrors.push(`valueExpression '${a.value.source}' resulted in unsupported return type: ${celTypeName(outcome.value)}. Return type must be either string or null.`);
      continue;
    }
    const value = outcome.value.trim();
    if (value !== "") annotations.push([a.key, value.slice(0, MAX_AUDIT_VALUE)]);
  }
  return { decisions, annotations, annotationErrors };
}

/** A failed validation's message: its `messageExpression` (a one-line string), else `message`, else `failed expression: …`. */
function failureMessage(v: CompiledValidation, bindings: Record<string, CelInput>, budget: CostBudget): string {
  let message = "";
  if (v.messageExpression) {
    const outcome = evaluateAdmissionExpression(v.messageExpression, bindings, budget);
    if ("value" in outcome && typeof outcome.value === "string") {
      message = outcome.value.trim();
      if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes("\n")) message = "";
    }
  }
  if (message === "" && v.message) message = v.message.trim();
  if (message === "") message = `failed expression: ${v.expression.source.trim()}`;
  return message;
}

/**
 * `variables`: a CEL map whose entries are evaluated when first read (then kept), charged to
 * the expression reading them; a variable that fails makes the reading expression fail with
 * kube-apiserver's `composited variable "<name>" fails to evaluate: …`.
 */
function lazyVariables(policy: CompiledPolicy, bindings: Record<string, CelInput>): CelInput {
  const results = new Map<string, { value: unknown } | { error: string }>();
  const byName = new Map(policy.variables.map((v) => [v.name, v.compiled]));
  class LazyVariables extends Map<string, CelInput> {
    override get(name: string): CelInput | undefined {
      const compiled = byName.get(name);
      if (compiled === undefined) return undefined;
      let result = results.get(name);
      if (result === undefined) {
        if (compiled.error !== undefined || compiled.evaluate === undefined) {
          result = { error: `composited variable ${JSON.stringify(name)} fails to compile: ${compiled.error ?? "unknown error"}` };
        } else {
          const value = compiled.evaluate(bindings);
          result = value instanceof Error ? { error: `composited variable ${JSON.stringify(name)} fails to evaluate: ${celErrorText(value)}` } : { value };
        }
        results.set(name, result);
      }
      if ("error" in result) throw new Error(result.error);
      return result.value as CelInput;
    }
  }
  return celMap(new LazyVariables(policy.variables.map((v) => [v.name, null])));
}

/** kube-apiserver's status for a refusal: `admission.NewForbidden`'s message and details, the validation's reason and its code. */
function denial(d: Denied, req: PolicyRequest): StatusError {
  const message = d.binding === undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
  const a = req.attributes;
  const resource = a.group === "" ? a.resource : `${a.resource}.${a.group}`;
  const reason = d.reason || "Invalid";
  return new StatusError(reasonToCode(reason), reason, `${resource} ${JSON.stringify(req.forbiddenName)} is forbidden: ${message}`, {
    name: req.forbiddenName, ...(a.group ? { group: a.group } : {}), kind: a.resource, causes: [{ message }],
  });
}

/**
 * The HTTP code of a validation's `reason`, as kube-apiserver's `reasonToCode`.
 *
 * @example
 * ```ts
 * reasonToCode("Forbidden"); // → 403
 * reasonToCode("Invalid"); // → 422
 * ```
 */
export function reasonToCode(reason: string): number {
  switch (reason) {
    case "Forbidden":
      return 403;
    case "Unauthorized":
      return 401;
    case "RequestEntityTooLarge":
      return 413;
    default:
      return 422;
  }
}
