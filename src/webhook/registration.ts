/**
 * From `mgr.webhook(Kind, options)` and `mgr.conversion(Kind, options)` to the registrations
 * the server and the manifests read: paths, names, resources, checked options.
 *
 * @module
 */
import type { KindRef } from "../kinds/kind.ts";
import type { KubeObject } from "../kinds/kube-object.ts";
import type { AdmissionOperation, AdmissionRegistration, ConversionOptions, ConversionRegistration, WebhookOptions } from "./types.ts";
import { checkConversionOptions } from "./conversion.ts";

/**
 * The plural resource name of a kind, guessed as kubebuilder does: lowercase, then `-es` after
 * s/x/z/ch/sh, `-ies` for a consonant and y, else `-s`.
 *
 * @example
 * ```ts
 * guessResource("Greeting"); // "greetings"
 * guessResource("Policy");   // "policies"
 * guessResource("Ingress");  // "ingresses"
 * ```
 */
export function guessResource(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/** `group/version` → [group, version] (`v1` → ["", "v1"]). */
function splitApiVersion(apiVersion: string): [string, string] {
  const i = apiVersion.lastIndexOf("/");
  return i < 0 ? ["", apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

/**
 * The default path of a webhook, kubebuilder's: `/mutate-<group, dots as dashes>-<version>-<kind
 * lowercase>` or `/validate-…` (`/mutate--v1-pod` for the core group).
 *
 * @example
 * ```ts
 * webhookPath("validating", { apiVersion: "example.com/v1", kind: "Greeting" }); // "/validate-example-com-v1-greeting"
 * ```
 */
export function webhookPath(type: "mutating" | "validating", kind: KindRef): string {
  const [group, version] = splitApiVersion(kind.apiVersion);
  return `/${type === "mutating" ? "mutate" : "validate"}-${group.replace(/\./g, "-")}-${version}-${kind.kind.toLowerCase()}`;
}

/**
 * The name of a webhook in its configuration: `m<kind>.<group>` / `v<kind>.<group>` lowercase,
 * completed to the three DNS labels kube-apiserver requires with `.k8s.io` (a one-label group
 * such as `apps`: `vdeployment.apps.k8s.io`) or `core.k8s.io` (the core group:
 * `vpod.core.k8s.io`).
 *
 * @example
 * ```ts
 * webhookName("validating", { apiVersion: "example.com/v1", kind: "Greeting" }); // "vgreeting.example.com"
 * ```
 */
export function webhookName(type: "mutating" | "validating", kind: KindRef): string {
  const [group] = splitApiVersion(kind.apiVersion);
  const g = group || "core";
  const base = `${type === "mutating" ? "m" : "v"}${kind.kind}.${g}`.toLowerCase();
  return base.split(".").length >= 3 ? base : `${base}.k8s.io`;
}

const OPERATIONS: readonly AdmissionOperation[] = ["CREATE", "UPDATE", "DELETE", "CONNECT"];

/**
 * The registrations of `mgr.webhook(kind, options)`: one `mutating` for `default`, one
 * `validating` for `validate`. Throws a TypeError naming `where` and the fix when neither
 * handler is given, a handler is not a function, `timeoutSeconds` is not a whole number from 1
 * to 30, an operation is unknown, or a path does not start with `/`.
 *
 * @example
 * ```ts
 * const regs = admissionRegistrations("mgr.webhook(Greeting)", Greeting, { validate: () => undefined });
 * regs[0]!.path; // "/validate-example-com-v1-greeting"
 * ```
 */
export function admissionRegistrations<T extends KubeObject>(where: string, kind: KindRef, options: WebhookOptions<T>): AdmissionRegistration[] {
  if (typeof kind !== "object" || kind === null || typeof kind.apiVersion !== "string" || !kind.apiVersion || typeof kind.kind !== "string" || !kind.kind) {
    throw new TypeError(`${where}: the kind must be a kind handle { apiVersion, kind }, e.g. Greeting from defineKind().`);
  }
  if (typeof options !== "object" || options === null) throw new TypeError(`${where}: options must be { default?, validate?, … }.`);
  // Handlers take T; the server hands them objects of the kind they were registered for.
  const opts = options as unknown as WebhookOptions;
  if (opts.default === undefined && opts.validate === undefined) {
    throw new TypeError(`${where}: give options.default (a defaulting webhook), options.validate (a validating webhook), or both.`);
  }
  for (const h of ["default", "validate"] as const) {
    if (opts[h] !== undefined && typeof opts[h] !== "function") throw new TypeError(`${where}: options.${h} must be a function.`);
  }
  const timeout = opts.timeoutSeconds;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 30)) {
    throw new TypeError(`${where}: options.timeoutSeconds must be a whole number of seconds from 1 to 30 (kube-apiserver's bounds), got ${JSON.stringify(timeout)}.`);
  }
  for (const field of ["validateOperations", "defaultOperations"] as const) {
    const ops = opts[field];
    if (ops === undefined) continue;
    if (!Array.isArray(ops) || ops.length === 0 || ops.some((o) => !OPERATIONS.includes(o))) {
      throw new TypeError(`${where}: options.${field} must be a non-empty list of ${OPERATIONS.join(", ")}, got ${JSON.stringify(ops)}.`);
    }
  }
  for (const p of [opts.path?.mutate, opts.path?.validate]) {
    if (p !== undefined && (typeof p !== "string" || !/^\/[\w\-./]*$/.test(p) || p === "/convert")) {
      throw new TypeError(`${where}: options.path values must be URL paths starting with "/" (and not /convert), got ${JSON.stringify(p)}.`);
    }
  }
  if (opts.resource !== undefined && (typeof opts.resource !== "string" || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(opts.resource))) {
    throw new TypeError(`${where}: options.resource must be the kind's plural resource name in lowercase (e.g. "greetings"), got ${JSON.stringify(opts.resource)}.`);
  }
  const [group, version] = splitApiVersion(kind.apiVersion);
  const resource = opts.resource ?? guessResource(kind.kind);
  const frozen = Object.freeze({ ...opts });
  const regs: AdmissionRegistration[] = [];
  if (opts.default) {
    regs.push(Object.freeze({
      type: "mutating", name: webhookName("mutating", kind), path: opts.path?.mutate ?? webhookPath("mutating", kind),
      group, version, kind: kind.kind, resource, operations: Object.freeze([...(opts.defaultOperations ?? ["CREATE", "UPDATE"])]), options: frozen,
    }));
  }
  if (opts.validate) {
    regs.push(Object.freeze({
      type: "validating", name: webhookName("validating", kind), path: opts.path?.validate ?? webhookPath("validating", kind),
      group, version, kind: kind.kind, resource, operations: Object.freeze([...(opts.validateOperations ?? ["CREATE", "UPDATE"])]), options: frozen,
    }));
  }
  return regs;
}

/**
 * The registration of `mgr.conversion(kind, options)`. Throws a TypeError naming `where` when
 * the kind has no group (only custom resources are converted by webhooks), its version is
 * neither the hub nor a spoke, or the options are not a valid hub-and-spoke conversion (see
 * `checkConversionOptions`).
 *
 * @example
 * ```ts
 * import type { ConversionOptions } from "operator-runtime/webhook";
 * declare const options: ConversionOptions;
 * const reg = conversionRegistration("mgr.conversion(Greeting)", Greeting, options);
 * ```
 */
export function conversionRegistration(where: string, kind: KindRef, options: ConversionOptions): ConversionRegistration {
  if (typeof kind !== "object" || kind === null || typeof kind.apiVersion !== "string" || typeof kind.kind !== "string" || !kind.kind) {
    throw new TypeError(`${where}: the kind must be a kind handle { apiVersion, kind }, e.g. Greeting from defineKind().`);
  }
  const [group, version] = splitApiVersion(kind.apiVersion);
  if (!group) throw new TypeError(`${where}: ${kind.kind} (${kind.apiVersion}) has no API group; conversion webhooks serve custom resources (apiVersion "<group>/<version>").`);
  checkConversionOptions(where, options);
  if (version !== options.hub && !Object.hasOwn(options.spokes, version)) {
    throw new TypeError(`${where}: the kind's version ${version} is neither the hub (${options.hub}) nor a spoke (${Object.keys(options.spokes).join(", ")}). Fix: add spokes.${version} or pass the kind of another version.`);
  }
  if (options.resource !== undefined && (typeof options.resource !== "string" || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(options.resource))) {
    throw new TypeError(`${where}: options.resource must be the kind's plural resource name in lowercase (e.g. "greetings"), got ${JSON.stringify(options.resource)}.`);
  }
  return Object.freeze({
    group, kind: kind.kind, resource: options.resource ?? guessResource(kind.kind),
    options: Object.freeze({ ...options, spokes: Object.freeze({ ...options.spokes }) }),
  });
}
