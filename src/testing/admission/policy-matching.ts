/**
 * Which requests a ValidatingAdmissionPolicy (`matchConstraints`) or one of its bindings
 * (`matchResources`) takes, as kube-apiserver's `admission/plugin/policy/matching` decides:
 * the namespace selector, the object selector, then `excludeResourceRules` (any match
 * excludes), then `resourceRules` (none: every resource) with `resourceNames` and
 * `matchPolicy: Equivalent` (a rule naming another served version of the resource matches, and
 * the policy sees the object in that version).
 *
 * @module
 */
import type { KubeObject } from "../resource-type.ts";
import type { RuleAttributes } from "./matching.ts";
import { namespaceSelectorMatches, objectSelectorMatches, ruleMatches } from "./matching.ts";
import type { MatchResources, NamedRule } from "./policy-types.ts";
import type { Gvr } from "./review-types.ts";

/**
 * The request as policy matching sees it.
 *
 * @example
 * ```ts
 * const req: PolicyMatchRequest = {
 *   attributes: { operation: "CREATE", group: "apps", version: "v1", resource: "deployments", subresource: "", namespace: "team-a" },
 *   name: "web", object: { metadata: { name: "web" } }, oldObject: undefined, equivalents: [], namespaceLabels: () => ({ env: "test" }),
 * };
 * ```
 */
export interface PolicyMatchRequest {
  readonly attributes: RuleAttributes;
  /** The object's name (`resourceNames` compare with it); "" on a create with `generateName`. */
  readonly name: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  /** The other served versions of the same resource (for `matchPolicy: Equivalent`). */
  readonly equivalents: readonly Gvr[];
  /** The labels of the request's namespace (looked up only when a selector needs them). */
  readonly namespaceLabels: () => Record<string, string>;
}

/**
 * Whether one `NamedRuleWithOperations` matches: the rule itself, and `resourceNames` (when
 * set) holding the object's name.
 *
 * @example
 * ```ts
 * const attrs = { operation: "UPDATE", group: "apps", version: "v1", resource: "deployments", subresource: "", namespace: "a" } as const;
 * namedRuleMatches({ operations: ["*"], apiGroups: ["apps"], apiVersions: ["*"], resources: ["deployments"], resourceNames: ["web"] }, attrs, "web"); // → true
 * ```
 */
export function namedRuleMatches(rule: NamedRule, a: RuleAttributes, name: string): boolean {
  if (!ruleMatches(rule, a)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** The resource a rule list matches the request as (its own, or an equivalent), or undefined. */
function rulesMatch(rules: readonly NamedRule[], matchPolicy: string | undefined, req: PolicyMatchRequest): Gvr | undefined {
  const a = req.attributes;
  if (rules.some((r) => namedRuleMatches(r, a, req.name))) return { group: a.group, version: a.version, resource: a.resource };
  if ((matchPolicy ?? "Equivalent") !== "Equivalent") return undefined;
  for (const gvr of req.equivalents) {
    const other = { ...a, group: gvr.group, version: gvr.version, resource: gvr.resource };
    if (rules.some((r) => namedRuleMatches(r, other, req.name))) return gvr;
  }
  return undefined;
}

/**
 * The resource a policy's `matchConstraints` or a binding's `matchResources` takes the request
 * as, or undefined when it does not take it. Selectors first, then the exclusions, then the
 * rules (no `resourceRules`: the request's own resource).
 *
 * @example
 * ```ts
 * const req: PolicyMatchRequest = {
 *   attributes: { operation: "CREATE", group: "apps", version: "v1", resource: "deployments", subresource: "", namespace: "a" },
 *   name: "web", object: {}, oldObject: undefined, equivalents: [], namespaceLabels: () => ({ env: "test" }),
 * };
 * matchResources({ namespaceSelector: { matchLabels: { env: "test" } } }, req); // → { group: "apps", version: "v1", resource: "deployments" }
 * ```
 */
export function matchResources(match: MatchResources, req: PolicyMatchRequest): Gvr | undefined {
  if (!namespaceSelectorMatches(match.namespaceSelector, req.attributes, req.namespaceLabels)) return undefined;
  if (!objectSelectorMatches(match.objectSelector, req.object, req.oldObject)) return undefined;
  if (rulesMatch(match.excludeResourceRules ?? [], match.matchPolicy, req) !== undefined) return undefined;
  const rules = match.resourceRules ?? [];
  if (rules.length === 0) {
    const a = req.attributes;
    return { group: a.group, version: a.version, resource: a.resource };
  }
  return rulesMatch(rules, match.matchPolicy, req);
}

/**
 * Whether some rule of a policy's `matchConstraints` could take a request (the rules only:
 * what LocalCluster checks before a write to know whether admission has any policy to run).
 *
 * @example
 * ```ts
 * const attrs = { operation: "DELETE", group: "", version: "v1", resource: "pods", subresource: "", namespace: "a" } as const;
 * rulesMayMatch({ resourceRules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }] }, attrs, []); // → false
 * ```
 */
export function rulesMayMatch(match: MatchResources | undefined, a: RuleAttributes, equivalents: readonly Gvr[]): boolean {
  const rules = match?.resourceRules ?? [];
  if (rules.length === 0) return true;
  const candidates = [a, ...equivalents.map((g) => ({ ...a, group: g.group, version: g.version, resource: g.resource }))];
  return rules.some((r) => candidates.some((c) => ruleMatches(r, c)));
}
