/**
 * The Kubernetes objects that register a Manager's webhooks with a cluster: a
 * MutatingWebhookConfiguration, a ValidatingWebhookConfiguration and, for conversions, the
 * `spec.conversion` of each CustomResourceDefinition — built from the registrations
 * (`mgr.webhookRegistrations()`) and checked against what kube-apiserver 1.36 accepts before
 * anything reaches it (`gen manifests` prints them; a test registers a running Manager with them).
 *
 * @module
 */
import { X509Certificate } from "node:crypto";
import type { KubeObject } from "../kinds/kube-object.ts";
import { OperatorRuntimeError } from "../errors.ts";
import { DNS1123_SUBDOMAIN_FMT } from "../util/name-rules.ts";
import { labelKeyProblems, labelValueProblems } from "../util/label-selector.ts";
import { argumentError, checkObject, checkOptionalObject } from "../util/check-args.ts";
import type { AdmissionRegistration, ConversionRegistration, LabelSelectorShape } from "./types.ts";
import { CONVERSION_PATH } from "./types.ts";

/** Where the API server reaches the webhook server: a URL (outside the cluster, or a test) or a Service. */
export type WebhookTarget =
  | { readonly url: string }
  | { readonly service: { readonly namespace: string; readonly name: string; readonly port?: number } };

/** Options of {@link webhookConfigurations}. */
export interface WebhookConfigurationOptions {
  /**
   * The CA that signed the webhook server's certificate, as PEM text or as the base64 of it
   * (what `clientConfig.caBundle` holds); without it (and without `certManager`) the API server
   * trusts its system roots only.
   */
  caBundle?: string;
  /** Base of the configurations' names: `<name>-mutating`, `<name>-validating`. Default `"operator-runtime"`. */
  name?: string;
  /**
   * Let cert-manager's CA injector fill every `caBundle` from this Certificate
   * (`"<namespace>/<name>"`, or `"<name>"` in the target Service's namespace): sets the
   * `cert-manager.io/inject-ca-from` annotation; exclusive with `caBundle`.
   */
  certManager?: { certificate: string };
  /** Labels of every object made (default none). */
  labels?: Readonly<Record<string, string>>;
}

/** The registrations {@link webhookConfigurations} reads (`mgr.webhookRegistrations()`). */
export interface WebhookRegistrations {
  readonly admission: readonly AdmissionRegistration[];
  readonly conversion: readonly ConversionRegistration[];
}

/** cert-manager's CA injector annotation. */
export const INJECT_CA_FROM = "cert-manager.io/inject-ca-from";


/** One thing kube-apiserver would reject, with the field as it would name it. */
export interface ManifestProblem {
  /** The field in the object, as kube-apiserver names it: `webhooks[0].timeoutSeconds`. */
  readonly field: string;
  /** kube-apiserver's wording: `Invalid value: 45: the timeout value must be between 1 and 30 seconds`. */
  readonly message: string;
}

/**
 * What {@link webhookConfigurations} throws when the registrations or options would make an
 * object kube-apiserver rejects: one line per problem, naming the object, the field, the
 * server's wording and the fix.
 *
 * @example
 * ```ts
 * declare const err: unknown;
 * if (err instanceof WebhookConfigurationError) console.error(err.problems.map((p) => p.field));
 * ```
 */
export class WebhookConfigurationError extends OperatorRuntimeError {
  /** Every problem, with the object it is in (`MutatingWebhookConfiguration "x-mutating"`). */
  readonly problems: readonly (ManifestProblem & { object: string; fix: string })[];

  constructor(problems: readonly (ManifestProblem & { object: string; fix: string })[]) {
    super(`webhook manifests kube-apiserver would reject (or could not use):\n${problems.map((p) => `  ${p.object}: ${p.field}: ${p.message}${p.fix ? ` (${p.fix})` : ""}`).join("\n")}`);
    this.name = "WebhookConfigurationError";
    this.problems = problems;
  }
}

/**
 * The objects that register `regs` with a cluster: one MutatingWebhookConfiguration
 * `<name>-mutating` (when a registration is mutating), one ValidatingWebhookConfiguration
 * `<name>-validating` (when one is validating) and, per conversion, a CustomResourceDefinition
 * stub `<resource>.<group>` holding only `spec.conversion` (strategy `Webhook`, path
 * `/convert`) — a partial object to merge into the installed CRD (`kubectl apply
 * --server-side --force-conflicts`: whoever created the CRD owns its defaulted `strategy: None`;
 * or `kubectl patch --type merge`), not to create.
 *
 * Each webhook carries its registration's name, `clientConfig` (the target's URL plus the
 * registration's path, or the Service with that path), one rule (the kind's group, version and
 * resource with its subresources, the operations and the scope), `sideEffects: None`,
 * `admissionReviewVersions: [v1]`, `failurePolicy`, `matchPolicy`, `timeoutSeconds` (with the
 * server's defaults written out: Fail, Equivalent, 10), the selectors when given, and
 * `reinvocationPolicy` (mutating, default Never).
 *
 * @throws {WebhookConfigurationError} when any object would be rejected by kube-apiserver (a
 *   webhook name of fewer than three DNS labels, a duplicate name, a path not starting with `/`
 *   or with segments that are not DNS-1123 subdomains on a Service, `timeoutSeconds` outside
 *   1–30, a bad selector, an `http://` URL, a caBundle without a certificate…), listing all.
 * @example
 * ```ts
 * import type { WebhookRegistrations } from "operator-runtime/webhook";
 * declare const regs: WebhookRegistrations; // mgr.webhookRegistrations()
 * const objects = webhookConfigurations(regs, { service: { namespace: "ops", name: "greeting-webhook" } },
 *   { name: "greeting", certManager: { certificate: "greeting-webhook" } });
 * // [MutatingWebhookConfiguration greeting-mutating, ValidatingWebhookConfiguration greeting-validating, …]
 * ```
 */
export function webhookConfigurations(regs: WebhookRegistrations, target: WebhookTarget, opts: WebhookConfigurationOptions = {}): KubeObject[] {
  const where = "webhookConfigurations(regs, target, opts)";
  checkObject(where, "regs", regs, "{ admission, conversion } (mgr.webhookRegistrations())");
  if (!Array.isArray(regs.admission) || !Array.isArray(regs.conversion)) {
    throw argumentError(where, "regs", "{ admission: AdmissionRegistration[], conversion: ConversionRegistration[] }", regs, "Pass mgr.webhookRegistrations()");
  }
  checkTarget(where, target);
  checkOptionalObject(where, "opts", opts, "{ caBundle?, name?, certManager?, labels? }");
  const base = opts.name ?? "operator-runtime";
  const ca = clientCa(target, opts);
  const metadata = (name: string) => ({
    name,
    ...(opts.labels && Object.keys(opts.labels).length ? { labels: { ...opts.labels } } : {}),
    ...(ca.annotation ? { annotations: { [INJECT_CA_FROM]: ca.annotation } } : {}),
  });
  const objects: KubeObject[] = [];
  const sources: Map<KubeObject, Source[]> = new Map();
  for (const type of ["mutating", "validating"] as const) {
    const mine = regs.admission.filter((r) => r.type === type);
    if (!mine.length) continue;
    const kind = type === "mutating" ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration";
    const config = {
      apiVersion: "admissionregistration.k8s.io/v1", kind,
      metadata: metadata(`${base}-${type}`),
      webhooks: mine.map((r) => admissionWebhook(r, target, ca.bundle)),
    } as KubeObject;
    objects.push(config);
    sources.set(config, mine.map((r) => ({ what: `webhook "${r.name}" (${r.type} ${r.kind}, mgr.webhook)` })));
  }
  for (const reg of regs.conversion) {
    const stub = {
      apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
      metadata: metadata(crdName(reg)),
      spec: { conversion: crdConversion(target, { ...opts, path: conversionPath(reg) }) },
    } as KubeObject;
    objects.push(stub);
    sources.set(stub, [{ what: `conversion of ${reg.kind} (mgr.conversion)` }]);
  }
  throwProblems(objects, sources, opts);
  return objects;
}

/**
 * The `spec.conversion` that sends a CRD's conversions to the webhook server at `target`
 * (path `/convert` unless `opts.path`): strategy `Webhook`, `conversionReviewVersions: [v1]`,
 * the `caBundle` when given (with `certManager`, the annotation on the CRD fills it instead).
 * Not validated here: {@link manifestProblems} checks the CRD it is put in.
 *
 * @example
 * ```ts
 * const conversion = crdConversion({ service: { namespace: "ops", name: "greeting-webhook" } });
 * // { strategy: "Webhook", webhook: { clientConfig: { service: { namespace: "ops", name: "greeting-webhook", path: "/convert", port: 443 } }, conversionReviewVersions: ["v1"] } }
 * ```
 */
export function crdConversion(target: WebhookTarget, opts: Pick<WebhookConfigurationOptions, "caBundle"> & { path?: string } = {}): Record<string, unknown> {
  const bundle = opts.caBundle === undefined ? undefined : caBundleBase64(opts.caBundle);
  return {
    strategy: "Webhook",
    webhook: { clientConfig: clientConfig(target, opts.path ?? CONVERSION_PATH, bundle), conversionReviewVersions: ["v1"] },
  };
}

/**
 * The name of a conversion's CustomResourceDefinition: `<resource>.<group>`.
 *
 * @example
 * ```ts
 * import type { ConversionRegistration } from "operator-runtime/webhook";
 * declare const reg: ConversionRegistration;
 * crdName(reg); // "greetings.greeting.example.com"
 * ```
 */
export function crdName(reg: Pick<ConversionRegistration, "resource" | "group">): string {
  return `${reg.resource}.${reg.group}`;
}

/**
 * The `cert-manager.io/inject-ca-from` value for `certificate` (`"<namespace>/<name>"`, or a
 * bare name in the target Service's namespace).
 *
 * @throws {WebhookConfigurationError} for a bare name with a URL target (no namespace to take).
 * @example
 * ```ts
 * injectCaFrom("webhook-cert", { service: { namespace: "ops", name: "greeting-webhook" } }); // "ops/webhook-cert"
 * ```
 */
export function injectCaFrom(certificate: string, target: WebhookTarget): string {
  if (certificate.includes("/")) return certificate;
  if ("service" in target) return `${target.service.namespace}/${certificate}`;
  throw new WebhookConfigurationError([{ object: "options", field: "certManager.certificate", message: `Invalid value: "${certificate}": needs a namespace with a URL target`, fix: "write it as \"<namespace>/<certificate>\"" }]);
}

function checkTarget(where: string, target: WebhookTarget): void {
  const t = target as { url?: unknown; service?: { namespace?: unknown; name?: unknown } } | null;
  const ok = typeof t === "object" && t !== null
    && (typeof t.url === "string" || (typeof t.service === "object" && t.service !== null && typeof t.service.namespace === "string" && typeof t.service.name === "string"));
  if (!ok) throw argumentError(where, "target", "{ url } or { service: { namespace, name, port? } }", target);
}

/** What a problem in a built object comes from, for the fix in the message. */
interface Source {
  what: string;
}

function conversionPath(reg: ConversionRegistration): string {
  const path = (reg as ConversionRegistration & { path?: unknown }).path;
  return typeof path === "string" ? path : CONVERSION_PATH;
}

function clientCa(target: WebhookTarget, opts: WebhookConfigurationOptions): { bundle?: string; annotation?: string } {
  if (opts.certManager !== undefined && opts.caBundle !== undefined) {
    throw new WebhookConfigurationError([{ object: "options", field: "caBundle", message: "Forbidden: may not be set with certManager (cert-manager's CA injector writes caBundle)", fix: "give one of caBundle and certManager" }]);
  }
  if (opts.certManager !== undefined) return { annotation: injectCaFrom(opts.certManager.certificate, target) };
  return opts.caBundle === undefined ? {} : { bundle: caBundleBase64(opts.caBundle) };
}

/** A caBundle given as PEM or as base64 of PEM, as `clientConfig.caBundle` holds it (base64). */
function caBundleBase64(given: string): string {
  return given.includes("-----BEGIN") ? Buffer.from(given, "utf8").toString("base64") : given.replace(/\s+/g, "");
}

function clientConfig(target: WebhookTarget, path: string, caBundle: string | undefined): Record<string, unknown> {
  const where = "url" in target
    ? { url: `${target.url.replace(/\/+$/, "")}${path}` }
    : { service: { namespace: target.service.namespace, name: target.service.name, path, port: target.service.port ?? 443 } };
  return caBundle === undefined ? where : { ...where, caBundle };
}

function admissionWebhook(reg: AdmissionRegistration, target: WebhookTarget, caBundle: string | undefined): Record<string, unknown> {
  const o = reg.options;
  const hook: Record<string, unknown> = {
    name: reg.name,
    clientConfig: clientConfig(target, reg.path, caBundle),
    rules: [{
      apiGroups: [reg.group],
      apiVersions: [reg.version],
      operations: [...reg.operations],
      resources: [reg.resource, ...(o.subresources ?? []).map((s) => `${reg.resource}/${s}`)],
      scope: o.scope ?? "*",
    }],
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
    failurePolicy: o.failurePolicy ?? "Fail",
    matchPolicy: o.matchPolicy ?? "Equivalent",
    timeoutSeconds: o.timeoutSeconds ?? 10,
  };
  if (o.namespaceSelector !== undefined) hook.namespaceSelector = structuredClone(o.namespaceSelector);
  if (o.objectSelector !== undefined) hook.objectSelector = structuredClone(o.objectSelector);
  if (reg.type === "mutating") hook.reinvocationPolicy = o.reinvocationPolicy ?? "Never";
  return hook;
}

/** The option a user changes for a field of the output, by the field's last name. */
const FIXES: readonly [RegExp, string][] = [
  [/^webhooks\[\d+\]\.name$/, "name the webhook with at least three lowercase DNS labels, e.g. \"vgreeting.example.com\", unique in its configuration"],
  [/\.timeoutSeconds$/, "set timeoutSeconds to a whole number from 1 to 30"],
  [/\.failurePolicy$/, "set failurePolicy to \"Fail\" or \"Ignore\""],
  [/\.matchPolicy$/, "set matchPolicy to \"Exact\" or \"Equivalent\""],
  [/\.reinvocationPolicy$/, "set reinvocationPolicy to \"Never\" or \"IfNeeded\""],
  [/\.namespaceSelector/, "fix namespaceSelector"],
  [/\.objectSelector/, "fix objectSelector"],
  [/\.operations/, "fix validateOperations / defaultOperations (CREATE, UPDATE, DELETE, CONNECT)"],
  [/\.resources/, "fix resource / subresources"],
  [/\.scope$/, "set scope to \"Namespaced\", \"Cluster\" or \"*\""],
  [/\.apiGroups|\.apiVersions/, "register the kind with its group and version"],
  [/service\.path$/, "give path (options.path) starting with '/' whose segments are lowercase DNS-1123 subdomains, e.g. \"/validate-example-com-v1-greeting\""],
  [/\.url$/, "give an https:// URL with a host and no user, query or fragment (the target's url)"],
  [/service\.(name|namespace|port)$/, "fix the target Service"],
  [/\.caBundle$/, "give caBundle as the PEM of the CA certificate (-----BEGIN CERTIFICATE-----) or its base64"],
  [/^metadata\.name$/, "the name option must make a DNS-1123 subdomain"],
  [/^metadata\.annotations/, "give certManager.certificate as \"<namespace>/<certificate>\""],
];

function throwProblems(objects: readonly KubeObject[], sources: ReadonlyMap<KubeObject, Source[]>, opts: WebhookConfigurationOptions): void {
  const all: (ManifestProblem & { object: string; fix: string })[] = [];
  for (const obj of objects) {
    for (const p of manifestProblems(obj)) {
      const index = /^webhooks\[(\d+)\]/.exec(p.field)?.[1];
      const list = sources.get(obj) ?? [];
      const source = index !== undefined ? list[Number(index)] : p.field.startsWith("spec.") ? list[0] : undefined;
      const fix = FIXES.find(([re]) => re.test(p.field))?.[1] ?? "";
      const from = source ? `from ${source.what}` : p.field.startsWith("metadata.") ? `from the options (name "${opts.name ?? "operator-runtime"}")` : "";
      all.push({ ...p, object: `${obj.kind} "${obj.metadata?.name ?? ""}"`, fix: [from, fix].filter(Boolean).join(": ") });
    }
  }
  if (all.length) throw new WebhookConfigurationError(all);
}

const SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** apimachinery's `IsDNS1123Subdomain` messages. */
function subdomainProblems(value: string): string[] {
  const out: string[] = [];
  if (value.length > 253) out.push("must be no more than 253 characters");
  if (!SUBDOMAIN.test(value)) out.push(SUBDOMAIN_MESSAGE);
  return out;
}

const json = (v: unknown) => JSON.stringify(v);
const invalid = (field: string, value: unknown, detail: string): ManifestProblem => ({ field, message: `Invalid value: ${json(value)}: ${detail}` });
const required = (field: string, detail = ""): ManifestProblem => ({ field, message: `Required value${detail ? `: ${detail}` : ""}` });
const notSupported = (field: string, value: unknown, allowed: readonly string[]): ManifestProblem =>
  ({ field, message: `Unsupported value: ${json(value)}: supported values: ${allowed.map((a) => `"${a}"`).join(", ")}` });

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/**
 * What kube-apiserver 1.36 would reject in `object` on create: a Mutating- or
 * ValidatingWebhookConfiguration (its `Validate…WebhookConfiguration`: names, rules, client
 * config, policies, selectors, review versions) or the `spec.conversion` of a
 * CustomResourceDefinition (strategy, webhook client config, caBundle, review versions,
 * `preserveUnknownFields`). Empty when it would be accepted; other kinds give none.
 *
 * @example
 * ```ts
 * const problems = manifestProblems({ apiVersion: "admissionregistration.k8s.io/v1", kind: "ValidatingWebhookConfiguration",
 *   metadata: { name: "x" }, webhooks: [{ name: "short.name", sideEffects: "None", admissionReviewVersions: ["v1"], clientConfig: { url: "https://h/p" } }] });
 * // [{ field: "webhooks[0].name", message: "Invalid value: \"short.name\": should be a domain with at least three segments separated by dots" }]
 * ```
 */
export function manifestProblems(object: KubeObject): ManifestProblem[] {
  const out: ManifestProblem[] = [];
  const name = object.metadata?.name ?? "";
  if (object.kind === "MutatingWebhookConfiguration" || object.kind === "ValidatingWebhookConfiguration") {
    metadataNameProblems(name, out);
    annotationProblems(object, out);
    const seen = new Set<string>();
    const hooks = Array.isArray((object as Json).webhooks) ? (object as Json).webhooks as unknown[] : [];
    hooks.forEach((h, i) => {
      const hook = obj(h) ?? {};
      const at = `webhooks[${i}]`;
      webhookProblems(hook, at, object.kind === "MutatingWebhookConfiguration", out);
      const hookName = typeof hook.name === "string" ? hook.name : "";
      if (hookName) {
        if (seen.has(hookName)) out.push({ field: `${at}.name`, message: `Duplicate value: ${json(hookName)}` });
        seen.add(hookName);
      }
    });
  } else if (object.kind === "CustomResourceDefinition") {
    metadataNameProblems(name, out);
    annotationProblems(object, out);
    const spec = obj((object as Json).spec) ?? {};
    if (spec.conversion !== undefined) conversionProblems(obj(spec.conversion) ?? {}, spec, out);
  }
  return out;
}

function metadataNameProblems(name: string, out: ManifestProblem[]): void {
  if (name === "") out.push(required("metadata.name", "name or generateName is required"));
  else for (const m of subdomainProblems(name)) out.push(invalid("metadata.name", name, m));
}

function annotationProblems(object: KubeObject, out: ManifestProblem[]): void {
  const value = object.metadata?.annotations?.[INJECT_CA_FROM];
  if (value !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(value)) {
    out.push(invalid(`metadata.annotations[${INJECT_CA_FROM}]`, value, "cert-manager reads \"<namespace>/<certificate>\""));
  }
}

const FAILURE = ["Fail", "Ignore"];
const MATCH = ["Equivalent", "Exact"];
const REINVOCATION = ["IfNeeded", "Never"];
const SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];
const REVIEW_VERSIONS = ["v1", "v1beta1"];

function webhookProblems(hook: Json, at: string, mutating: boolean, out: ManifestProblem[]): void {
  const name = typeof hook.name === "string" ? hook.name : "";
  if (name === "") out.push(required(`${at}.name`));
  else {
    const sub = subdomainProblems(name);
    if (sub.length) out.push(invalid(`${at}.name`, name, sub.join(",")));
    else if (name.split(".").length < 3) out.push(invalid(`${at}.name`, name, "should be a domain with at least three segments separated by dots"));
  }
  (Array.isArray(hook.rules) ? hook.rules : []).forEach((r, i) => ruleProblems(obj(r) ?? {}, `${at}.rules[${i}]`, out));
  enumProblem(hook.failurePolicy, `${at}.failurePolicy`, FAILURE, out);
  enumProblem(hook.matchPolicy, `${at}.matchPolicy`, MATCH, out);
  if (hook.sideEffects === undefined) out.push(required(`${at}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(", ")}`));
  else enumProblem(hook.sideEffects, `${at}.sideEffects`, SIDE_EFFECTS, out);
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1 || timeout > 30)) {
    out.push(invalid(`${at}.timeoutSeconds`, timeout, "the timeout value must be between 1 and 30 seconds"));
  }
  if (hook.namespaceSelector !== undefined) selectorProblems(hook.namespaceSelector, `${at}.namespaceSelector`, out);
  if (hook.objectSelector !== undefined) selectorProblems(hook.objectSelector, `${at}.objectSelector`, out);
  if (mutating) enumProblem(hook.reinvocationPolicy, `${at}.reinvocationPolicy`, REINVOCATION, out);
  clientConfigProblems(obj(hook.clientConfig), `${at}.clientConfig`, out);
  reviewVersionProblems(hook.admissionReviewVersions, `${at}.admissionReviewVersions`, REVIEW_VERSIONS, out);
}

function enumProblem(value: unknown, field: string, allowed: readonly string[], out: ManifestProblem[]): void {
  if (value !== undefined && !allowed.includes(value as string)) out.push(notSupported(field, value, allowed));
}

function ruleProblems(rule: Json, at: string, out: ManifestProblem[]): void {
  const ops = strings(rule.operations);
  if (!ops.length) out.push(required(`${at}.operations`));
  if (ops.length > 1 && ops.includes("*")) out.push(invalid(`${at}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => enumProblem(op, `${at}.operations[${i}]`, OPERATIONS, out));
  const groups = rule.apiGroups === undefined ? [] : strings(rule.apiGroups);
  if (!Array.isArray(rule.apiGroups) || groups.length === 0) out.push(required(`${at}.apiGroups`));
  if (groups.length > 1 && groups.includes("*")) out.push(invalid(`${at}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (!versions.length) out.push(required(`${at}.apiVersions`));
  if (versions.length > 1 && versions.includes("*")) out.push(invalid(`${at}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => { if (v === "") out.push(required(`${at}.apiVersions[${i}]`)); });
  resourceProblems(strings(rule.resources), `${at}.resources`, out);
  if (rule.scope !== undefined) enumProblem(rule.scope, `${at}.scope`, SCOPES, out);
}

/** The rules' `resources`, as kube-apiserver's `validateResources` reads them (wildcards and subresources). */
function resourceProblems(resources: readonly string[], at: string, out: ManifestProblem[]): void {
  if (!resources.length) out.push(required(at));
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let double = false;
  let single = false;
  let plain = false;
  resources.forEach((r, i) => {
    if (r === "") { out.push(required(`${at}[${i}]`)); return; }
    if (r === "*/*") double = true;
    if (r === "*") single = true;
    const slash = r.indexOf("/");
    if (slash < 0) { plain = r !== "*"; return; }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if (wildSub.has(res)) out.push(invalid(`${at}[${i}]`, r, `if '${res}/*' is present, must not specify ${r}`));
    if (wildRes.has(sub)) out.push(invalid(`${at}[${i}]`, r, `if '*/${sub}' is present, must not specify ${r}`));
    if (sub === "*") wildSub.add(res);
    if (res === "*") wildRes.add(sub);
  });
  if (resources.length > 1 && double) out.push(invalid(at, resources, "if '*/*' is present, must not specify other resources"));
  if (single && plain) out.push(invalid(at, resources, "if '*' is present, must not specify other resources without subresources"));
}

/** metav1 `ValidateLabelSelector`. */
function selectorProblems(value: unknown, at: string, out: ManifestProblem[]): void {
  const sel = obj(value) as LabelSelectorShape | undefined;
  if (sel === undefined) { out.push(invalid(at, value, "must be a label selector object")); return; }
  for (const [key, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const m of labelKeyProblems(key)) out.push(invalid(`${at}.matchLabels`, key, m));
    for (const m of labelValueProblems(String(v))) out.push(invalid(`${at}.matchLabels`, v, m));
  }
  (sel.matchExpressions ?? []).forEach((e, i) => {
    const ex = `${at}.matchExpressions[${i}]`;
    const values = e.values ?? [];
    if (e.operator === "In" || e.operator === "NotIn") {
      if (!values.length) out.push(required(`${ex}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (e.operator === "Exists" || e.operator === "DoesNotExist") {
      if (values.length) out.push({ field: `${ex}.values`, message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
    } else {
      out.push(invalid(`${ex}.operator`, e.operator, "not a valid selector operator"));
    }
    for (const m of labelKeyProblems(e.key ?? "")) out.push(invalid(`${ex}.key`, e.key, m));
    values.forEach((v, j) => { for (const m of labelValueProblems(v)) out.push(invalid(`${ex}.values[${j}]`, v, m)); });
  });
}

/** `ValidateWebhookURL` / `ValidateWebhookService`, and the caBundle as apiextensions checks it. */
function clientConfigProblems(cc: Json | undefined, at: string, out: ManifestProblem[]): void {
  const url = cc?.url;
  const service = obj(cc?.service);
  if (cc === undefined || (url === undefined) === (service === undefined)) {
    out.push(required(at, "exactly one of url or service is required"));
  } else if (typeof url === "string") {
    urlProblems(url, `${at}.url`, out);
  } else if (service !== undefined) {
    serviceProblems(service, `${at}.service`, out);
  }
  if (cc !== undefined && cc.caBundle !== undefined) {
    const problem = caBundleProblem(String(cc.caBundle));
    if (problem) out.push(invalid(`${at}.caBundle`, "<bundle>", problem));
  }
}

function urlProblems(url: string, at: string, out: ManifestProblem[]): void {
  const form = "; desired format: https://host[/path]";
  let u: URL;
  try {
    u = new URL(url);
  } catch (err) {
    out.push(required(at, `url must be a valid URL: ${(err as Error).message}${form}`));
    return;
  }
  if (u.protocol !== "https:") out.push(invalid(at, u.protocol.replace(/:$/, ""), `'https' is the only allowed URL scheme${form}`));
  if (!u.host) out.push(invalid(at, u.host, `host must be provided${form}`));
  if (u.username || u.password) out.push(invalid(at, u.username, "user information is not permitted in the URL"));
  if (u.hash) out.push(invalid(at, u.hash.slice(1), "fragments are not permitted in the URL"));
  if (u.search) out.push(invalid(at, u.search.slice(1), "query parameters are not permitted in the URL"));
}

function serviceProblems(service: Json, at: string, out: ManifestProblem[]): void {
  if (!service.name) out.push(required(`${at}.name`, "service name is required"));
  if (!service.namespace) out.push(required(`${at}.namespace`, "service namespace is required"));
  const port = service.port ?? 443;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
    out.push(invalid(`${at}.port`, port, "port is not valid: must be between 1 and 65535, inclusive"));
  }
  if (service.path === undefined) return;
  const path = String(service.path);
  if (path === "/" || path === "") return;
  if (path === "//") { out.push(invalid(`${at}.path`, path, "segment[0] may not be empty")); return; }
  if (!path.startsWith("/")) out.push(invalid(`${at}.path`, path, "must start with a '/'"));
  let rest = path.slice(1);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  rest.split("/").forEach((step, i) => {
    if (step === "") { out.push(invalid(`${at}.path`, path, `segment[${i}] may not be empty`)); return; }
    for (const m of subdomainProblems(step)) out.push(invalid(`${at}.path`, path, `segment[${i}]: ${m}`));
  });
}

/**
 * Why a caBundle (base64 of PEM) holds no usable certificate, or undefined when it does: as
 * client-go's `rootCertPool` reads it, blocks other than parseable CERTIFICATEs are skipped and
 * one is enough.
 */
function caBundleProblem(base64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) return "must be the base64 of a PEM bundle (illegal base64 data)";
  const pem = Buffer.from(base64, "base64").toString("utf8");
  const certificates = [...pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].filter(([block]) => {
    try {
      return new X509Certificate(block) !== undefined;
    } catch {
      return false;
    }
  });
  return certificates.length ? undefined : "unable to load root certificates: unable to parse bytes as PEM block";
}

function reviewVersionProblems(value: unknown, at: string, accepted: readonly string[], out: ManifestProblem[]): void {
  const versions = strings(value);
  if (!versions.length) { out.push(required(at, `must specify one of ${accepted.join(", ")}`)); return; }
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) { out.push(invalid(`${at}[${i}]`, v, "duplicate version")); return; }
    seen.add(v);
    if (!DNS1035.test(v) || v.length > 63) out.push(invalid(`${at}[${i}]`, v, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"));
  });
  if (!versions.some((v) => accepted.includes(v))) out.push(invalid(at, versions, `must include at least one of ${accepted.join(", ")}`));
}

/** apiextensions' `validateCustomResourceConversion`, plus the `preserveUnknownFields` a webhook forbids. */
function conversionProblems(conversion: Json, spec: Json, out: ManifestProblem[]): void {
  const at = "spec.conversion";
  if (conversion.strategy === undefined || conversion.strategy === "") { out.push(required(`${at}.strategy`)); return; }
  enumProblem(conversion.strategy, `${at}.strategy`, ["None", "Webhook"], out);
  const webhook = obj(conversion.webhook);
  if (conversion.strategy !== "Webhook") {
    if (webhook !== undefined) out.push({ field: `${at}.webhook`, message: "Forbidden: should not be set when strategy is not set to Webhook" });
    return;
  }
  if (webhook?.clientConfig === undefined) out.push(required(`${at}.webhookClientConfig`, "required when strategy is set to Webhook"));
  else clientConfigProblems(obj(webhook.clientConfig), `${at}.webhookClientConfig`, out);
  reviewVersionProblems(webhook?.conversionReviewVersions, `${at}.conversionReviewVersions`, ["v1", "v1beta1"], out);
  if (spec.preserveUnknownFields === true) {
    out.push(invalid(`${at}.strategy`, "Webhook", "must be None if spec.preserveUnknownFields is true"));
  }
}
