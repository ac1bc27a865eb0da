/**
 * Shared checks of the per-kind rules (`KindRules`): object names (by the kind's rule in
 * `src/util/name-rules.ts`), DNS-1123 names, labels, metadata, and the `problem` helper.
 */
import { BuilderValidationError } from "../src/errors.ts";
import type { KubeObject } from "../src/client/types.ts";
import { describeNameRule, nameProblem, suggestNameFor } from "../src/util/name-rules.ts";
import type { NameRule } from "../src/util/name-rules.ts";
import { isRecord, jsonType, keyPath } from "./json.ts";

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/**
 * Why a value is not a DNS-1123 label (at most 63 lower-case letters, digits and '-', starting
 * and ending with a letter or digit), or undefined when it is one.
 *
 * @example
 * ```ts
 * dns1123Label("web-1"); // undefined
 * dns1123Label("Web_1"); // "must consist of lower-case letters, digits and '-', ..."
 * ```
 */
export function dns1123Label(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > 63) return `must be at most 63 characters (has ${value.length})`;
  if (!LABEL.test(value)) return "must consist of lower-case letters, digits and '-', and start and end with a letter or digit";
  return undefined;
}

/**
 * Why a value is not a DNS-1123 subdomain (at most 253 characters of dot-separated DNS labels),
 * or undefined when it is one.
 *
 * @example
 * ```ts
 * dns1123Subdomain("shop.config"); // undefined
 * dns1123Subdomain("-shop");       // "must consist of lower-case letters, digits, '-' and '.', ..."
 * ```
 */
export function dns1123Subdomain(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > 253) return `must be at most 253 characters (has ${value.length})`;
  if (!SUBDOMAIN.test(value)) return "must consist of lower-case letters, digits, '-' and '.', and start and end with a letter or digit";
  return undefined;
}

/**
 * Why a value is not a label (or annotation) key — an optional DNS-1123 subdomain prefix and
 * `/`, then a name of at most 63 letters, digits, '-', '_' and '.' starting and ending with a
 * letter or digit — or undefined when it is one.
 *
 * @example
 * ```ts
 * labelKey("app.kubernetes.io/name"); // undefined
 * labelKey("-app");                   // "name part must ..."
 * ```
 */
export function labelKey(key: string): string | undefined {
  const slash = key.indexOf("/");
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (slash !== -1) {
    const prefix = key.slice(0, slash);
    const why = dns1123Subdomain(prefix);
    if (why) return `prefix ${JSON.stringify(prefix)} ${why}`;
  }
  if (name.length === 0) return "name part must not be empty";
  if (name.length > 63) return `name part must be at most 63 characters (has ${name.length})`;
  if (!QUALIFIED_NAME.test(name)) return "name part must consist of letters, digits, '-', '_' and '.', and start and end with a letter or digit";
  return undefined;
}

/**
 * Why a value is not a label value (empty, or at most 63 letters, digits, '-', '_' and '.'
 * starting and ending with a letter or digit), or undefined when it is one.
 *
 * @example
 * ```ts
 * labelValue("v1.2");  // undefined
 * labelValue("a b");   // "must consist of letters, digits, ..."
 * ```
 */
export function labelValue(value: string): string | undefined {
  if (value.length === 0) return undefined;
  if (value.length > 63) return `must be at most 63 characters (has ${value.length})`;
  if (!QUALIFIED_NAME.test(value)) return "must consist of letters, digits, '-', '_' and '.', and start and end with a letter or digit";
  return undefined;
}

/**
 * A DNS-1123 name close to `value`, to suggest in a fix.
 *
 * @example
 * ```ts
 * suggestName("My_App", "label"); // "my-app"
 * ```
 */
export function suggestName(value: string, rule: "label" | "subdomain"): string {
  const allowed = rule === "label" ? /[^a-z0-9-]+/g : /[^a-z0-9.-]+/g;
  const max = rule === "label" ? 63 : 253;
  const cleaned = value.toLowerCase().replace(allowed, "-").slice(0, max).replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
  return cleaned || "my-object";
}

/**
 * `Kind/name` of an object for messages (`(unnamed)` when the name is missing).
 *
 * @example
 * ```ts
 * objectRef({ kind: "Service", metadata: { name: "web" } }); // "Service/web"
 * ```
 */
export function objectRef(obj: KubeObject): string {
  const name = obj.metadata?.name;
  return `${obj.kind || "Object"}/${typeof name === "string" && name ? name : "(unnamed)"}`;
}

/**
 * A validation error for one field of an object: which field, why it is wrong, how to fix it.
 *
 * @example
 * ```ts
 * const dep = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { replicas: -1 } };
 * const err = problem(dep, "spec.replicas", "-1 is negative", "set spec.replicas to 0 or more");
 * // err.message → "Deployment/web: spec.replicas: -1 is negative. Fix: set spec.replicas to 0 or more"
 * ```
 */
export function problem(obj: KubeObject, field: string, why: string, fix: string): BuilderValidationError {
  return new BuilderValidationError(objectRef(obj), field, why, fix);
}

/**
 * Collects the problems of one object (see {@link problemsFor}).
 *
 * @example
 * ```ts
 * const p: Problems = problemsFor({ metadata: { name: "web" }, spec: { ports: [] } }, "Service");
 * p.add("spec.ports", "has no ports", "add a port");
 * // p.list[0].message → "Service/web: spec.ports: has no ports. Fix: add a port"
 * ```
 */
export interface Problems {
  readonly list: BuilderValidationError[];
  /** Records a problem of `field`. */
  add(field: string, why: string, fix: string): void;
}

/**
 * A problem collector for `obj`, naming it `kind/name` even when the object omits `kind`.
 *
 * @example
 * ```ts
 * import type { BuilderValidationError, KubeObject } from "operator-runtime";
 *
 * function checkData(obj: KubeObject): BuilderValidationError[] {
 *   const p = problemsFor(obj, "ConfigMap");
 *   if (Array.isArray(obj.data)) p.add("data", "is an array", "make data an object of string values");
 *   return p.list;
 * }
 * ```
 */
export function problemsFor(obj: KubeObject, kind: string): Problems {
  const target: KubeObject = obj.kind ? obj : { ...obj, kind };
  const list: BuilderValidationError[] = [];
  return { list, add: (field, why, fix) => void list.push(problem(target, field, why, fix)) };
}

/**
 * Checks `kind` and `apiVersion` when the object sets them: they must be those of the kind the
 * rules are for (the Builder method the object was given to).
 *
 * @example
 * ```ts
 * const obj = { apiVersion: "v1", kind: "Secret", metadata: { name: "settings" } };
 * const p = problemsFor(obj, "ConfigMap");
 * checkKind(p, obj, "v1", "ConfigMap");
 * // p.list[0].field → "kind" (the object says Secret)
 * ```
 */
export function checkKind(p: Problems, obj: KubeObject, apiVersion: string, kind: string): void {
  if (obj.kind !== undefined && obj.kind !== kind) {
    p.add("kind", `is ${JSON.stringify(obj.kind)} but this is the ${kind} builder`, `pass the object to the builder for its kind, or set kind: ${kind}`);
  }
  if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion) {
    p.add("apiVersion", `is ${JSON.stringify(obj.apiVersion)} but ${kind} is served as ${apiVersion}`, `set apiVersion: ${apiVersion}`);
  }
}

/**
 * Checks a name-like string field against a DNS-1123 rule; returns whether it is valid.
 *
 * @example
 * ```ts
 * const obj = { metadata: { name: "web", namespace: "Team_A" } };
 * const p = problemsFor(obj, "Service");
 * checkDnsName(p, "metadata.namespace", obj.metadata.namespace, "label"); // → false
 * // p.list[0].fix → 'use a name like "team-a"'
 * ```
 */
export function checkDnsName(p: Problems, field: string, value: unknown, rule: "label" | "subdomain"): boolean {
  if (typeof value !== "string") {
    p.add(field, `is ${jsonType(value)}, not a string`, `set ${field} to a DNS-1123 ${rule} such as "my-app"`);
    return false;
  }
  const why = rule === "label" ? dns1123Label(value) : dns1123Subdomain(value);
  if (why === undefined) return true;
  p.add(field, `${JSON.stringify(value)} is not a valid DNS-1123 ${rule}: it ${why}`, `use a name like ${JSON.stringify(suggestName(value, rule))}`);
  return false;
}

/**
 * Checks a label map (keys and values); used for `metadata.labels`, selectors and templates.
 *
 * @example
 * ```ts
 * const dep = { kind: "Deployment", metadata: { name: "web" }, spec: { template: { metadata: { labels: { app: "web", tier: 3 } } } } };
 * const p = problemsFor(dep, "Deployment");
 * checkLabels(p, "spec.template.metadata.labels", dep.spec.template.metadata.labels);
 * // p.list[0].field → "spec.template.metadata.labels.tier" (label values are strings)
 * ```
 */
export function checkLabels(p: Problems, field: string, labels: unknown): void {
  if (labels === undefined) return;
  if (!isRecord(labels)) {
    p.add(field, `is ${jsonType(labels)}`, `make ${field} an object of string keys and string values`);
    return;
  }
  for (const [key, value] of Object.entries(labels)) {
    const path = keyPath(field, key);
    const keyWhy = labelKey(key);
    if (keyWhy) p.add(path, `key ${JSON.stringify(key)} is not a valid label key: ${keyWhy}`, `rename the key, e.g. ${JSON.stringify(suggestName(key, "subdomain"))}`);
    if (typeof value !== "string") {
      p.add(path, `value is ${jsonType(value)}, labels are strings`, `quote the value, e.g. ${JSON.stringify(String(value))}`);
      continue;
    }
    const valueWhy = labelValue(value);
    if (valueWhy) p.add(path, `value ${JSON.stringify(value)} is not a valid label value: it ${valueWhy}`, "shorten or clean the value, or move it to an annotation");
  }
}

/**
 * Checks `metadata.name` against the rule kube-apiserver applies to the object's kind (see
 * `nameRuleOf`): the problem names the rule, why the name breaks it, and a name that fits.
 *
 * @example
 * ```ts
 * import { nameRuleOf } from "../src/util/name-rules.ts";
 *
 * const p = problemsFor({ metadata: { name: "9cache" } }, "Service");
 * checkObjectName(p, "9cache", nameRuleOf("", "Service")); // → false, and p.list[0].message is:
 * // Service/9cache: metadata.name: "9cache" must be a DNS-1035 label (…) because kube-apiserver
 * // requires it for Services …; it starts with "9", not a lower-case letter. Fix: rename it, e.g. "svc-9cache"
 * ```
 */
export function checkObjectName(p: Problems, name: unknown, rule: NameRule): boolean {
  const must = `must be ${describeNameRule(rule)} because kube-apiserver requires it for ${plural(rule.kind)}${rule.because ? ` (${rule.because})` : ""}`;
  if (typeof name !== "string") {
    p.add("metadata.name", `is ${jsonType(name)}, not a string; it ${must}`, 'set metadata.name to a string, e.g. "my-app"');
    return false;
  }
  const why = nameProblem(rule, name);
  if (why === undefined) return true;
  p.add("metadata.name", `${JSON.stringify(name)} ${must}; it ${why}`, `rename it, e.g. ${JSON.stringify(suggestNameFor(rule, name))}`);
  return false;
}

function plural(kind: string): string {
  if (/(s|x|ch|sh)$/.test(kind)) return `${kind}es`;
  if (/[^aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  return `${kind}s`;
}

/**
 * The metadata checks common to every kind: a name (by the kind's `nameRule`, see
 * `nameRuleOf`), a DNS-1123 label namespace, valid labels, and annotation keys with string
 * values.
 *
 * @example
 * ```ts
 * import { nameRuleOf } from "../src/util/name-rules.ts";
 *
 * const obj = { metadata: { name: "app-settings", labels: { app: "web" } } };
 * const p = problemsFor(obj, "ConfigMap");
 * checkMetadata(p, obj, nameRuleOf("", "ConfigMap"));
 * // p.list → [] (a valid name, no namespace, valid labels)
 * ```
 */
export function checkMetadata(p: Problems, obj: KubeObject, nameRule: NameRule): void {
  const meta = obj.metadata;
  if (meta !== undefined && !isRecord(meta)) {
    p.add("metadata", `is ${jsonType(meta)}`, "make metadata an object with at least a name");
    return;
  }
  const name = meta?.name;
  if (name === undefined || name === "") {
    const why = meta?.generateName
      ? "is required; generateName is not supported because the Builder applies objects by name"
      : "is required";
    p.add("metadata.name", why, `set metadata.name to ${describeNameRule(nameRule)}, e.g. "my-app"`);
  } else {
    checkObjectName(p, name, nameRule);
  }
  if (meta?.namespace !== undefined) checkDnsName(p, "metadata.namespace", meta.namespace, "label");
  checkLabels(p, "metadata.labels", meta?.labels);
  const annotations: unknown = meta?.annotations;
  if (annotations === undefined) return;
  if (!isRecord(annotations)) {
    p.add("metadata.annotations", `is ${jsonType(annotations)}`, "make metadata.annotations an object of string values");
    return;
  }
  for (const [key, value] of Object.entries(annotations)) {
    const path = keyPath("metadata.annotations", key);
    const why = labelKey(key);
    if (why) p.add(path, `key ${JSON.stringify(key)} is not a valid annotation key: ${why}`, `rename the key, e.g. ${JSON.stringify(suggestName(key, "subdomain"))}`);
    if (typeof value !== "string") p.add(path, `value is ${jsonType(value)}, annotations are strings`, "encode the value as a string (e.g. JSON.stringify)");
  }
}

/**
 * Why a value is not a port number (an integer from 1 to 65535), or undefined when it is one.
 *
 * @example
 * ```ts
 * portNumber(8080);  // undefined
 * portNumber(70000); // "70000 is out of range"
 * ```
 */
export function portNumber(value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isInteger(value)) return `${JSON.stringify(value ?? null)} is not an integer`;
  if (value < 1 || value > 65535) return `${value} is out of range`;
  return undefined;
}

/**
 * Why a value is not an IANA service name (a container port name: at most 15 lower-case
 * letters, digits and '-', with a letter, no '--', no '-' at either end), or undefined.
 *
 * @example
 * ```ts
 * ianaServiceName("http-metrics"); // undefined
 * ianaServiceName("8080");         // "must contain at least one letter"
 * ```
 */
export function ianaServiceName(value: string): string | undefined {
  if (value.length === 0) return "must not be empty";
  if (value.length > 15) return `must be at most 15 characters (has ${value.length})`;
  if (!LABEL.test(value)) return "must consist of lower-case letters, digits and '-', and start and end with a letter or digit";
  if (value.includes("--")) return "must not contain '--'";
  if (!/[a-z]/.test(value)) return "must contain at least one letter";
  return undefined;
}
