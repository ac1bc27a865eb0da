/**
 * RBAC policy rules: whether a rule allows a request (the RBAC authorizer's matching), and
 * whether a set of rules covers another (the escalation check on role and binding writes).
 */
import type { Attributes } from "../auth/attributes.ts";

/** A rule of a Role or ClusterRole (`rbac.authorization.k8s.io/v1` PolicyRule). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const ALL = "*";

const has = (set: readonly string[] | undefined, value: string): boolean => (set ?? []).includes(value);

const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined): boolean =>
  (values ?? []).every((v) => has(set, v));

/**
 * Whether `rule` allows the request, as kube's RBAC authorizer decides: `*` matches any verb,
 * group or resource; a resource `*` + `/status` matches the `status` subresource of any
 * resource (likewise for other subresources, never `pods/*`); a resource rule's
 * `resourceNames` match only a request naming one of them (never a create, list or watch
 * without a name); a non-resource URL ending in `*` matches every path it prefixes.
 *
 * @example
 * ```ts
 * import type { Attributes } from "../auth/attributes.ts";
 *
 * declare const attrs: Attributes;
 * ruleAllows(attrs, { verbs: ["get"], apiGroups: ["apps"], resources: ["deployments/status"] });
 * ```
 */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, ALL) && !has(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) return (rule.nonResourceURLs ?? []).some((url) => nonResourceURLMatches(url, a.path));
  if (!has(rule.apiGroups, ALL) && !has(rule.apiGroups, a.apiGroup)) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resourceMatches = (rule.resources ?? []).some((r) =>
    r === ALL || r === combined || (a.subresource !== "" && r === `*/${a.subresource}`));
  if (!resourceMatches) return false;
  return !rule.resourceNames?.length || rule.resourceNames.includes(a.name);
}

function nonResourceURLMatches(ruleURL: string, path: string): boolean {
  if (ruleURL === ALL || ruleURL === path) return true;
  return ruleURL.endsWith("*") && path.startsWith(ruleURL.replace(/\*+$/, ""));
}

/** One rule per group × resource × verb (× name), and per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function resourceCoversAll(owner: readonly string[] | undefined, servant: readonly string[] | undefined): boolean {
  if (has(owner, ALL) || hasAll(owner, servant)) return true;
  return (servant ?? []).every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf("/");
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((u) => (owner.nonResourceURLs ?? []).some((o) => o === u || (o.endsWith("*") && u.startsWith(o.replace(/\*+$/, "")))));
  const names = !sub.resourceNames?.length ? !owner.resourceNames?.length : !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && urls && names;
}

/**
 * The parts of `servant` that no rule of `owner` covers (empty when `owner` holds every
 * permission `servant` grants): kube's escalation check compares rules this way.
 *
 * @example
 * ```ts
 * uncovered([{ verbs: ["*"], apiGroups: [""], resources: ["configmaps"] }], [{ verbs: ["get"], apiGroups: [""], resources: ["secrets"] }]);
 * // → [{ apiGroups: [""], resources: ["secrets"], verbs: ["get"] }]
 * ```
 */
export function uncovered(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** Merges the verbs of rules about one group, one resource and at most one name (kube's `CompactRules`). */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple = !rule.nonResourceURLs?.length && (rule.resourceNames?.length ?? 0) <= 1
      && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!isSimple) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.resourceNames ?? []]);
    const existing = simple.get(key);
    if (existing) {
      for (const verb of rule.verbs) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
    } else {
      simple.set(key, { ...rule, verbs: [...rule.verbs] });
    }
  }
  return [...out, ...simple.values()];
}

/** Go's `%q` of a string list: `["get" "list"]`. */
export function goQuotedList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
}

/** A rule as kube prints it in escalation errors: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuotedList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuotedList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuotedList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuotedList(rule.resourceNames)}`);
  if (rule.verbs.length) parts.push(`Verbs:${goQuotedList(rule.verbs)}`);
  return `{${parts.join(", ")}}`;
}
