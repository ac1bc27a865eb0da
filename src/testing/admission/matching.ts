/**
 * Which admission webhooks a request calls, as kube-apiserver's webhook matchers decide:
 * `rules` (operations, apiGroups, apiVersions, resources with `*`, `*\/*`, `pods/status`,
 * `scope`), `matchPolicy` (`Equivalent`: a rule naming another served version of the same
 * resource matches, and the webhook gets the object in that version), `namespaceSelector` and
 * `objectSelector`. `matchConditions` (CEL) are evaluated by the chain, after these, with the
 * object (see `match-conditions.ts`). ValidatingAdmissionPolicies reuse these matchers (see
 * `policy-matching.ts`).
 *
 * @module
 */
import { matchLabelSelectorObject } from "../../util/label-selector.ts";
import type { LabelSelectorObject } from "../../util/label-selector.ts";
import type { KubeObject } from "../resource-type.ts";
import type { ConfiguredWebhook, Gvr, Operation, SelectorShape, WebhookRule } from "./review-types.ts";

/**
 * What rules look at: the operation, the resource as requested, and the request's namespace.
 *
 * @example
 * ```ts
 * const attrs: RuleAttributes = { operation: "DELETE", group: "apps", version: "v1", resource: "deployments", subresource: "", namespace: "default" };
 * ```
 */
export interface RuleAttributes {
  readonly operation: Operation;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** "" for the object itself. */
  readonly subresource: string;
  /**
   * The request's namespace as admission sees it: "" for cluster-scoped objects, the object's
   * own name for a Namespace (kube-apiserver's request info does so).
   */
  readonly namespace: string;
}

/**
 * Whether one rule matches, as kube-apiserver's `rules.Matcher`: every list holds the value
 * or `*`; a resource entry `res/sub` matches when `res` is the resource or `*` and `sub` is the
 * subresource or `*` (no `/` means the object itself); scope `Namespaced` excludes Namespaces
 * and cluster-scoped objects, `Cluster` takes exactly those.
 *
 * @example
 * ```ts
 * const attrs = { operation: "UPDATE", group: "", version: "v1", resource: "pods", subresource: "status", namespace: "default" } as const;
 * ruleMatches({ operations: ["UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods/status"], scope: "*" }, attrs); // → true
 * ruleMatches({ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] }, attrs); // → false (a subresource)
 * ```
 */
export function ruleMatches(rule: WebhookRule, a: RuleAttributes): boolean {
  const has = (list: readonly string[] | undefined, v: string) => (list ?? []).some((x) => x === "*" || x === v);
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.group) || !has(rule.apiVersions, a.version)) return false;
  const resourceOk = (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf("/");
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? "" : entry.slice(slash + 1);
    return (res === "*" || res === a.resource) && (sub === "*" || sub === a.subresource);
  });
  if (!resourceOk) return false;
  const isNamespace = a.group === "" && a.resource === "namespaces";
  switch (rule.scope ?? "*") {
    case "Namespaced":
      return !isNamespace && a.namespace !== "";
    case "Cluster":
      return isNamespace || a.namespace === "";
    default:
      return true;
  }
}

/**
 * The group/version/resource a webhook is called with for a request, or undefined when none of
 * its rules match: the request's own when a rule matches it; with `matchPolicy: Equivalent`
 * (the default), otherwise the first of `equivalents` (the other served versions of the same
 * resource) a rule matches.
 *
 * @example
 * ```ts
 * const hook = { mutating: false, configuration: "c", index: 0, spec: { name: "v.example.com", clientConfig: {},
 *   rules: [{ operations: ["CREATE"], apiGroups: ["example.com"], apiVersions: ["v1"], resources: ["widgets"] }] } };
 * const attrs = { operation: "CREATE", group: "example.com", version: "v1beta1", resource: "widgets", subresource: "", namespace: "default" } as const;
 * matchedResource(hook, attrs, [{ group: "example.com", version: "v1", resource: "widgets" }]);
 * // → { group: "example.com", version: "v1", resource: "widgets" }
 * ```
 */
export function matchedResource(hook: ConfiguredWebhook, a: RuleAttributes, equivalents: readonly Gvr[]): Gvr | undefined {
  const rules = hook.spec.rules ?? [];
  if (rules.some((r) => ruleMatches(r, a))) return { group: a.group, version: a.version, resource: a.resource };
  if ((hook.spec.matchPolicy ?? "Equivalent") !== "Equivalent") return undefined;
  for (const gvr of equivalents) {
    const other = { ...a, group: gvr.group, version: gvr.version, resource: gvr.resource };
    if (rules.some((r) => ruleMatches(r, other))) return gvr;
  }
  return undefined;
}

/**
 * Whether a selector is empty (matches everything, and needs no labels looked up).
 *
 * @example
 * ```ts
 * emptySelector({}); // → true (the default of a stored configuration)
 * ```
 */
export function emptySelector(sel: SelectorShape | undefined): boolean {
  return !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
}

/**
 * `objectSelector`: an empty selector matches; otherwise the labels of the new object or of the
 * old one must match (kube-apiserver's `MatchObjectSelector`).
 *
 * @example
 * ```ts
 * objectSelectorMatches({ matchLabels: { team: "a" } }, { metadata: { labels: { team: "a" } } }, undefined); // → true
 * ```
 */
export function objectSelectorMatches(sel: SelectorShape | undefined, object: KubeObject | undefined, oldObject: KubeObject | undefined): boolean {
  if (emptySelector(sel)) return true;
  const s = sel as LabelSelectorObject;
  const matches = (o: KubeObject | undefined) => o !== undefined && matchLabelSelectorObject(s, o.metadata?.labels ?? {});
  return matches(object) || matches(oldObject);
}

/**
 * `namespaceSelector`: an empty selector matches, and so does any request for a cluster-scoped
 * object other than a Namespace; otherwise the namespace's labels must match (for a Namespace,
 * its own labels: `namespaceLabels` is asked for them).
 *
 * @example
 * ```ts
 * const attrs = { operation: "CREATE", group: "", version: "v1", resource: "configmaps", subresource: "", namespace: "team-a" } as const;
 * namespaceSelectorMatches({ matchLabels: { env: "test" } }, attrs, () => ({ env: "test" })); // → true
 * ```
 */
export function namespaceSelectorMatches(sel: SelectorShape | undefined, a: RuleAttributes, namespaceLabels: () => Record<string, string>): boolean {
  if (a.namespace === "" && !(a.group === "" && a.resource === "namespaces")) return true;
  if (emptySelector(sel)) return true;
  return matchLabelSelectorObject(sel as LabelSelectorObject, namespaceLabels());
}
