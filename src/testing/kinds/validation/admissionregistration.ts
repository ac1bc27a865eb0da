/**
 * MutatingWebhookConfiguration and ValidatingWebhookConfiguration validation, as
 * kube-apiserver's admissionregistration validation reports it (after the v1 defaults of
 * `defaults/admissionregistration.ts`): per webhook its name, rules, enums, `sideEffects`,
 * `timeoutSeconds`, selectors, `clientConfig` and `matchConditions`, then its
 * `admissionReviewVersions`, then duplicate names. On update, the rules a stored
 * configuration already breaks are relaxed as kube-apiserver relaxes them (side effects,
 * review versions, unique names, selector label values, unchanged match conditions).
 *
 * The webhook client rules (`url`, `service`) are shared with CRD conversion webhooks.
 * Match condition expressions are only required here; compiling them is the CEL layer's.
 */
import { webhookMatchConditionCauses } from "../../admission/policy-validation.ts";
import type { KubeObject } from "../../resource-type.ts";
import type { StatusCause } from "../../status.ts";
import { dns1035LabelErrors, dns1123SubdomainErrors } from "../../names.ts";
import { qualifiedNameErrors } from "../../metadata-validation.ts";
import { jsonEqual } from "../../json-value.ts";
import { duplicate, invalid, list, notSupported, num, obj, required, str } from "./field.ts";
import type { Obj } from "./field.ts";
import { fullSelectorCauses } from "./pdb.ts";

const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
const NO_SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const SIDE_EFFECTS = ["None", "NoneOnDryRun", "Some", "Unknown"];
const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];
const REINVOCATION_POLICIES = ["IfNeeded", "Never"];
/** The AdmissionReview (and ConversionReview) versions kube-apiserver speaks. */
const REVIEW_VERSIONS = ["v1", "v1beta1"];
const MAX_MATCH_CONDITIONS = 64;
const URL_FORM = "; desired format: https://host[/path]";

/** What an update relaxes, from the stored configuration (`validationOptions` of kube-apiserver). */
interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  ignoreMatchConditions: boolean;
}

const CREATE_OPTIONS: Options = {
  requireNoSideEffects: true,
  requireRecognizedReviewVersion: true,
  requireUniqueNames: true,
  allowInvalidLabelValueInSelector: false,
  ignoreMatchConditions: false,
};

/** The parts of a URL Go's `net/url.Parse` yields that webhook validation looks at, or its error. */
export type GoUrl = { scheme: string; host: string; user?: string; fragment: string; rawQuery: string };

const CONTROL_BYTE = /[\x00-\x1f\x7f]/;

function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's `parseHost` checks (brackets, port digits); the error text or undefined. */
function hostError(host: string): string | undefined {
  const validPort = (p: string) => p === "" || /^:[0-9]*$/.test(p);
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) return "missing ']' in host";
    const port = host.slice(i + 1);
    if (!validPort(port)) return `invalid port ${goQuote(port)} after host`;
    return undefined;
  }
  const i = host.lastIndexOf(":");
  if (i >= 0 && !validPort(host.slice(i))) return `invalid port ${goQuote(host.slice(i))} after host`;
  if (/%(?![0-9a-fA-F]{2})/.test(host)) {
    const bad = /%.{0,2}/.exec(host.slice(host.search(/%(?![0-9a-fA-F]{2})/)))![0];
    return `invalid URL escape ${goQuote(bad)}`;
  }
  return undefined;
}

/**
 * The URL as Go's `url.Parse` reads it (scheme lower-cased, authority split into user and
 * host, query and fragment), or the text of its error (`parse "…": missing protocol scheme`).
 *
 * @example
 * ```ts
 * parseGoUrl("https://user@example.com/x?y#z"); // → { scheme: "https", host: "example.com", user: "user", rawQuery: "y", fragment: "z" }
 * parseGoUrl(":foo"); // → 'parse ":foo": missing protocol scheme'
 * ```
 */
export function parseGoUrl(raw: string): GoUrl | string {
  const hash = raw.indexOf("#");
  const u = hash < 0 ? raw : raw.slice(0, hash);
  const fragment = hash < 0 ? "" : raw.slice(hash + 1);
  const fail = (msg: string) => `parse ${goQuote(u)}: ${msg}`;
  if (CONTROL_BYTE.test(u)) return fail("net/url: invalid control character in URL");
  const out: GoUrl = { scheme: "", host: "", fragment, rawQuery: "" };
  if (u === "" || u === "*") return out;
  let rest = u;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(u);
  if (u.startsWith(":")) return fail("missing protocol scheme");
  if (m) {
    out.scheme = m[1]!.toLowerCase();
    rest = u.slice(m[0].length);
  }
  if (rest.endsWith("?") && rest.split("?").length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf("?");
    if (q >= 0) {
      out.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith("/")) {
    if (out.scheme !== "") return out; // opaque: no host
    const colon = rest.indexOf(":");
    const slash = rest.indexOf("/");
    if (colon >= 0 && (slash < 0 || colon < slash)) return fail("first path segment in URL cannot contain colon");
  }
  if (rest.startsWith("//") && (out.scheme !== "" || !rest.startsWith("///"))) {
    const authorityEnd = rest.indexOf("/", 2);
    const authority = authorityEnd < 0 ? rest.slice(2) : rest.slice(2, authorityEnd);
    const at = authority.lastIndexOf("@");
    const host = at < 0 ? authority : authority.slice(at + 1);
    const error = hostError(host);
    if (error) return fail(error);
    if (at >= 0) {
      const user = authority.slice(0, at);
      if (!/^[-A-Za-z0-9._~!$&'()*+,;=:%@]*$/.test(user)) return fail("net/url: invalid userinfo");
      out.user = user;
    }
    out.host = host;
  }
  return out;
}

/**
 * apiserver's `ValidateWebhookURL` (https only): causes for a webhook's `url` at `field`.
 *
 * @example
 * ```ts
 * webhookUrlCauses("http://example.com", "webhooks[0].clientConfig.url");
 * // → [{ field: "webhooks[0].clientConfig.url", message: `Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`, … }]
 * ```
 */
export function webhookUrlCauses(url: string, field: string): StatusCause[] {
  const parsed = parseGoUrl(url);
  if (typeof parsed === "string") return [required(field, `url must be a valid URL: ${parsed}${URL_FORM}`)];
  const causes: StatusCause[] = [];
  if (parsed.scheme !== "https") causes.push(invalid(field, parsed.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (parsed.host === "") causes.push(invalid(field, parsed.host, `host must be provided${URL_FORM}`));
  if (parsed.user !== undefined) causes.push(invalid(field, parsed.user, "user information is not permitted in the URL"));
  if (parsed.fragment !== "") causes.push(invalid(field, parsed.fragment, "fragments are not permitted in the URL"));
  if (parsed.rawQuery !== "") causes.push(invalid(field, parsed.rawQuery, "query parameters are not permitted in the URL"));
  return causes;
}

/**
 * apiserver's `ValidateWebhookService` for a `service` reference at `field` (port defaulted to
 * 443). kube-apiserver passes the reference's name and namespace in swapped order, so an
 * empty namespace is reported on `.name` ("service name is required") and an empty name on
 * `.namespace`: reproduced as it answers.
 *
 * @example
 * ```ts
 * webhookServiceCauses({ name: "svc", namespace: "ns", path: "/a//b" }, "webhooks[0].clientConfig.service");
 * // → [{ field: "webhooks[0].clientConfig.service.path", message: `Invalid value: "/a//b": segment[1] may not be empty`, … }]
 * ```
 */
export function webhookServiceCauses(service: Obj, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  // ValidateWebhookService(fldPath, namespace, name, …) is called with (…, Name, Namespace, …).
  if (str(service.namespace) === "") causes.push(required(`${field}.name`, "service name is required"));
  if (str(service.name) === "") causes.push(required(`${field}.namespace`, "service namespace is required"));
  const port = num(service.port) ?? (service.port === undefined || service.port === null ? 443 : 0);
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    causes.push(invalid(`${field}.port`, port, "port is not valid: must be between 1 and 65535, inclusive"));
  }
  if (typeof service.path !== "string") return causes;
  const path = service.path;
  if (path === "/" || path === "") return causes;
  const at = `${field}.path`;
  if (path === "//") return [...causes, invalid(at, path, "segment[0] may not be empty")];
  if (!path.startsWith("/")) causes.push(invalid(at, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith("/")) check = check.slice(0, -1);
  check.split("/").forEach((segment, i) => {
    if (segment === "") {
      causes.push(invalid(at, path, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of dns1123SubdomainErrors(segment)) causes.push(invalid(at, path, `segment[${i}]: ${m}`));
  });
  return causes;
}

/** apimachinery's `IsFullyQualifiedName`: a DNS subdomain of at least three segments. */
function fullyQualifiedNameCauses(name: string, field: string): StatusCause[] {
  if (name === "") return [required(field)];
  const errs = dns1123SubdomainErrors(name);
  if (errs.length) return [invalid(field, name, errs.join(","))];
  if (name.split(".").length < 3) return [invalid(field, name, "should be a domain with at least three segments separated by dots")];
  return [];
}

const hasWildcard = (values: unknown[]): boolean => values.includes("*");

/** `validateResources` (subresources allowed). */
function resourcesCauses(resources: unknown[], field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (resources.length === 0) causes.push(required(field));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let double = false;
  let single = false;
  let plain = false;
  resources.forEach((raw, i) => {
    const r = str(raw);
    if (r === "") {
      causes.push(required(`${field}[${i}]`));
      return;
    }
    if (r === "*/*") double = true;
    if (r === "*") single = true;
    const slash = r.indexOf("/");
    if (slash < 0) {
      plain = r !== "*";
      return;
    }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if (wildcardSub.has(res)) causes.push(invalid(`${field}[${i}]`, r, `if '${res}/*' is present, must not specify ${r}`));
    if (wildcardRes.has(sub)) causes.push(invalid(`${field}[${i}]`, r, `if '*/${sub}' is present, must not specify ${r}`));
    if (sub === "*") wildcardSub.add(res);
    if (res === "*") wildcardRes.add(sub);
  });
  if (resources.length > 1 && double) causes.push(invalid(field, resources, "if '*/*' is present, must not specify other resources"));
  if (single && plain) causes.push(invalid(field, resources, "if '*' is present, must not specify other resources without subresources"));
  return causes;
}

/** `validateRuleWithOperations`. */
function ruleCauses(rule: Obj, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const ops = list(rule.operations);
  if (ops.length === 0) causes.push(required(`${at}.operations`));
  if (ops.length > 1 && hasWildcard(ops)) causes.push(invalid(`${at}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(str(op))) causes.push(notSupported(`${at}.operations[${i}]`, str(op), OPERATIONS));
  });
  const groups = list(rule.apiGroups);
  if (groups.length === 0) causes.push(required(`${at}.apiGroups`));
  if (groups.length > 1 && hasWildcard(groups)) causes.push(invalid(`${at}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = list(rule.apiVersions);
  if (versions.length === 0) causes.push(required(`${at}.apiVersions`));
  if (versions.length > 1 && hasWildcard(versions)) causes.push(invalid(`${at}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (str(v) === "") causes.push(required(`${at}.apiVersions[${i}]`));
  });
  causes.push(...resourcesCauses(list(rule.resources), `${at}.resources`));
  if (typeof rule.scope === "string" && !SCOPES.includes(rule.scope)) causes.push(notSupported(`${at}.scope`, rule.scope, SCOPES));
  return causes;
}

/** `ValidateLabelSelector`, optionally without checking requirement values (as an update may allow). */
function selectorCauses(selector: unknown, field: string, opts: Options): StatusCause[] {
  const causes = fullSelectorCauses(selector, field);
  if (!opts.allowInvalidLabelValueInSelector) return causes;
  return causes.filter((c) => !(c.reason === "FieldValueInvalid" && /\.matchExpressions\[\d+\]\.values\[\d+\]$/.test(c.field ?? "")));
}

/** `validateMatchConditions`: each condition's expression (required, compiled), then its name. */
function matchConditionCauses(conditions: unknown[], field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) {
    causes.push({ reason: "FieldValueTooMany", field, message: `Too many: ${conditions.length}: must have at most ${MAX_MATCH_CONDITIONS} items` });
  }
  const names = new Set<string>();
  conditions.forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const at = `${field}[${i}]`;
    const expression = str(c.expression).trim();
    if (expression === "") causes.push(required(`${at}.expression`));
    // Compiled trimmed, each condition's expression before its name, as kube-apiserver orders them.
    else causes.push(...webhookMatchConditionCauses([{ expression }], field).map((cause) => ({ ...cause, field: `${at}.expression` })));
    const name = str(c.name);
    if (name === "") causes.push(required(`${at}.name`));
    else for (const m of qualifiedNameErrors(name)) causes.push(invalid(`${at}.name`, name, m));
    if (name !== "") {
      if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
      else names.add(name);
    }
  });
  return causes;
}

/** One webhook's own causes (`validateValidatingWebhook` / `validateMutatingWebhook`). */
function webhookCauses(hook: Obj, at: string, mutating: boolean, opts: Options): StatusCause[] {
  const causes = fullyQualifiedNameCauses(str(hook.name), `${at}.name`);
  list(hook.rules).forEach((rule, i) => causes.push(...ruleCauses(obj(rule) ?? {}, `${at}.rules[${i}]`)));
  if (typeof hook.failurePolicy === "string" && !FAILURE_POLICIES.includes(hook.failurePolicy)) {
    causes.push(notSupported(`${at}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  }
  if (typeof hook.matchPolicy === "string" && !MATCH_POLICIES.includes(hook.matchPolicy)) {
    causes.push(notSupported(`${at}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  }
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
  if (hook.sideEffects === undefined || hook.sideEffects === null) {
    causes.push(required(`${at}.sideEffects`, `must specify one of ${allowedSideEffects.join(", ")}`));
  } else if (!allowedSideEffects.includes(str(hook.sideEffects))) {
    causes.push(notSupported(`${at}.sideEffects`, str(hook.sideEffects), allowedSideEffects));
  }
  const timeout = num(hook.timeoutSeconds);
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) {
    causes.push(invalid(`${at}.timeoutSeconds`, timeout, "the timeout value must be between 1 and 30 seconds"));
  }
  if (obj(hook.namespaceSelector)) causes.push(...selectorCauses(hook.namespaceSelector, `${at}.namespaceSelector`, opts));
  if (obj(hook.objectSelector)) causes.push(...selectorCauses(hook.objectSelector, `${at}.objectSelector`, opts));
  if (mutating && typeof hook.reinvocationPolicy === "string" && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    causes.push(notSupported(`${at}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  causes.push(...clientConfigCauses(obj(hook.clientConfig) ?? {}, `${at}.clientConfig`));
  if (!opts.ignoreMatchConditions) causes.push(...matchConditionCauses(list(hook.matchConditions), `${at}.matchConditions`));
  return causes;
}

/**
 * A webhook client config's `url`/`service` causes: exactly one of them, then its own rules
 * (shared by admission webhooks and CRD conversion webhooks).
 *
 * @example
 * ```ts
 * clientConfigCauses({}, "webhooks[0].clientConfig");
 * // → [{ field: "webhooks[0].clientConfig", message: "Required value: exactly one of url or service is required", … }]
 * ```
 */
export function clientConfigCauses(config: Obj, field: string): StatusCause[] {
  const hasUrl = typeof config.url === "string";
  const service = obj(config.service);
  if (hasUrl === (service !== undefined)) return [required(field, "exactly one of url or service is required")];
  if (hasUrl) return webhookUrlCauses(config.url, `${field}.url`);
  return webhookServiceCauses(service!, `${field}.service`);
}

/**
 * `validateAdmissionReviewVersions` / `validateConversionReviewVersions`: required, no
 * duplicates, DNS-1035 labels, at least one version the server speaks (when `requireKnown`).
 * `requiredDetail` is the Required message's detail (admission names the versions,
 * conversion says nothing).
 *
 * @example
 * ```ts
 * reviewVersionCauses(["v2"], "webhooks[0].admissionReviewVersions", true, "must specify one of v1, v1beta1");
 * // → [{ field: "webhooks[0].admissionReviewVersions", message: 'Invalid value: ["v2"]: must include at least one of v1, v1beta1', … }]
 * ```
 */
export function reviewVersionCauses(versions: unknown[], field: string, requireKnown: boolean, requiredDetail: string): StatusCause[] {
  if (versions.length === 0) return [required(field, requiredDetail)];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  let known = false;
  versions.forEach((raw, i) => {
    const v = str(raw);
    if (seen.has(v)) {
      causes.push(invalid(`${field}[${i}]`, v, "duplicate version"));
      return;
    }
    seen.add(v);
    for (const m of dns1035LabelErrors(v)) causes.push(invalid(`${field}[${i}]`, v, m));
    if (REVIEW_VERSIONS.includes(v)) known = true;
  });
  if (requireKnown && !known) causes.push(invalid(field, versions, `must include at least one of ${REVIEW_VERSIONS.join(", ")}`));
  return causes;
}

/** Whether every listed version set has a version the server speaks (or is empty). */
function knowsReviewVersions(hooks: Obj[]): boolean {
  return hooks.every((h) => {
    const versions = list(h.admissionReviewVersions);
    return versions.length === 0 || versions.some((v) => REVIEW_VERSIONS.includes(str(v)));
  });
}

/** The update relaxations kube-apiserver derives from the stored configuration. */
function updateOptions(hooks: Obj[], oldHooks: Obj[]): Options {
  const names = oldHooks.map((h) => str(h.name));
  return {
    requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECTS.includes(str(h.sideEffects)) && h.sideEffects !== undefined),
    requireRecognizedReviewVersion: knowsReviewVersions(oldHooks),
    requireUniqueNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some(
      (h) => selectorCauses(h.namespaceSelector, "", CREATE_OPTIONS).length + selectorCauses(h.objectSelector, "", CREATE_OPTIONS).length > 0,
    ),
    ignoreMatchConditions: hooks.length === oldHooks.length && hooks.every((h, i) => jsonEqual(h.matchConditions ?? null, oldHooks[i]!.matchConditions ?? null)),
  };
}

function configurationCauses(o: KubeObject, old: KubeObject | undefined, mutating: boolean): StatusCause[] {
  const hooks = list((o as Obj).webhooks).map((h) => obj(h) ?? {});
  const opts = old ? updateOptions(hooks, list((old as Obj).webhooks).map((h) => obj(h) ?? {})) : CREATE_OPTIONS;
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  hooks.forEach((hook, i) => {
    const at = `webhooks[${i}]`;
    causes.push(...webhookCauses(hook, at, mutating, opts));
    causes.push(...reviewVersionCauses(list(hook.admissionReviewVersions), `${at}.admissionReviewVersions`, opts.requireRecognizedReviewVersion, `must specify one of ${REVIEW_VERSIONS.join(", ")}`));
    const name = str(hook.name);
    if (opts.requireUniqueNames && name !== "") {
      if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
      else names.add(name);
    }
  });
  return causes;
}

/**
 * Every cause of a ValidatingWebhookConfiguration (`old`: the stored one, on update), in
 * kube-apiserver's order.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../../resource-type.ts";
 *
 * declare const config: KubeObject;
 * const causes = validatingWebhookConfigurationCauses(config, undefined); // [] when valid
 * ```
 */
export function validatingWebhookConfigurationCauses(o: KubeObject, old: KubeObject | undefined): StatusCause[] {
  return configurationCauses(o, old, false);
}

/**
 * Every cause of a MutatingWebhookConfiguration (`old`: the stored one, on update), in
 * kube-apiserver's order (as {@link validatingWebhookConfigurationCauses}, plus `reinvocationPolicy`).
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../../resource-type.ts";
 *
 * declare const config: KubeObject;
 * const causes = mutatingWebhookConfigurationCauses(config, undefined); // [] when valid
 * ```
 */
export function mutatingWebhookConfigurationCauses(o: KubeObject, old: KubeObject | undefined): StatusCause[] {
  return configurationCauses(o, old, true);
}
