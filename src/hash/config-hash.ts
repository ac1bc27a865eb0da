/**
 * Config-hash rollouts: a pod template env var per referenced ConfigMap/Secret, holding its hash.
 *
 * Kubernetes rolls a Deployment or StatefulSet only when its pod template changes; pods that
 * read a ConfigMap through env vars never see an update, and mounted files change under a
 * running process that may never reread them. Putting a hash of each referenced object's data
 * into the template turns "config changed" into "template changed", so pods roll, and leaves
 * the template byte-identical when nothing changed, so nothing rolls.
 *
 * Flow: `findConfigReferences(template.spec)` → a `configDataHash(obj)` per referenced object
 * (the Builder's desired ConfigMaps/Secrets, or the live ones) → `injectConfigHashes` (or
 * `withConfigHashes` on a whole workload).
 */
import { hash } from "node:crypto";
import type { KubeObject } from "../client/types.ts";
import { hashObject } from "../util/canonical-json.ts";
import { configReferenceKey, findConfigReferences } from "./config-references.ts";
import type { ConfigReference } from "./config-references.ts";
import { argumentError, checkObject } from "../util/check-args.ts";
import { cloneJson } from "../util/clone-json.ts";

export { configReferenceKey, findConfigReferences } from "./config-references.ts";
export type { ConfigReference } from "./config-references.ts";

/**
 * The hash of what pods see of a ConfigMap or Secret (SHA-256 hex, see `hashObject`).
 *
 * - ConfigMap: `data` and `binaryData` (absent = empty).
 * - Secret: `data` with `stringData` merged in the way the API server does — each `stringData`
 *   value base64-encoded (UTF-8) and winning over a `data` key of the same name — and `type`
 *   (absent = `"Opaque"`, the server default). So a desired Secret written with `stringData`
 *   hashes like the live Secret the server returns.
 *
 * Metadata (labels, annotations, resourceVersion, …) and `immutable` never affect the hash.
 *
 * Caveat: a Secret's hash lands in the pod template, which more principals can usually read
 * than the Secret itself. The hash covers all keys plus `type`, so it reveals nothing directly,
 * but someone who can guess every other key can confirm a guess of a short password. Keep
 * secret values high-entropy, or do not let the Builder hash Secrets whose readers differ.
 *
 * @throws TypeError when `obj.kind` is neither `ConfigMap` nor `Secret`, or a `stringData`
 *   value is not a string.
 * @example
 * ```ts
 * const a = configDataHash({ kind: "Secret", metadata: { name: "db" }, stringData: { user: "app" } });
 * const b = configDataHash({ kind: "Secret", metadata: { name: "db", resourceVersion: "7" }, type: "Opaque", data: { user: "YXBw" } });
 * a === b; // true
 * ```
 */
export function configDataHash(obj: KubeObject): string {
  checkObject("configDataHash(obj)", "obj", obj, "a ConfigMap or Secret object");
  if (obj.kind === "ConfigMap") {
    return hashObject({ binaryData: obj.binaryData ?? {}, data: obj.data ?? {} });
  }
  if (obj.kind === "Secret") {
    const entries = Object.entries(asRecord(obj.data, "data"));
    for (const [key, value] of Object.entries(asRecord(obj.stringData, "stringData"))) {
      if (typeof value !== "string") throw new TypeError(`configDataHash: Secret stringData.${key} is not a string`);
      entries.push([key, Buffer.from(value, "utf8").toString("base64")]);
    }
    // fromEntries keeps the last entry of a key (stringData wins) and defines "__proto__" as a key.
    return hashObject({ data: Object.fromEntries(entries), type: obj.type ?? "Opaque" });
  }
  throw new TypeError(`configDataHash: expected a ConfigMap or Secret, got kind ${JSON.stringify(obj.kind)}`);
}

/**
 * The env var name that carries the hash of one referenced object:
 * `<KIND>_<NAME>_HASH`, upper-cased, with every character outside `[A-Z0-9_]` (in
 * DNS-1123 names: `-` and `.`) replaced by `_`. Always a valid C identifier
 * (`[A-Z_][A-Z0-9_]*`) and a pure function of kind and name.
 *
 * Collision rule (applied by `injectConfigHashes`, which sees all references of one pod): when
 * two referenced objects map to the same name (`app-config` and `app.config`), each colliding
 * one gets `_` + the first 6 hex characters (upper-cased) of SHA-256 of `"<kind>/<name>"`
 * appended: `CONFIGMAP_APP_CONFIG_HASH_1F0A2B`. A suffixed name never equals an unsuffixed one
 * (those end in `_HASH`, and `H` is no hex digit).
 *
 * @throws TypeError for an empty name.
 * @example
 * ```ts
 * configHashEnvName("ConfigMap", "app-config");  // "CONFIGMAP_APP_CONFIG_HASH"
 * configHashEnvName("Secret", "tls.example.com"); // "SECRET_TLS_EXAMPLE_COM_HASH"
 * ```
 */
export function configHashEnvName(kind: ConfigReference["kind"], name: string): string {
  if (name === "") throw new TypeError("configHashEnvName: name must not be empty");
  return `${kind.toUpperCase()}_${name.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}_HASH`;
}

/**
 * Returns a new pod template (a PodTemplateSpec: `{ metadata?, spec }`) in which every
 * container and init container carries one env var per referenced ConfigMap/Secret (see
 * `findConfigReferences`) that has a hash in `hashes`, keyed `"<kind>/<name>"`
 * (`configReferenceKey`). Referenced objects without a hash are skipped.
 *
 * Guarantees:
 * - The input is never mutated; the result shares no objects with it.
 * - The hash vars follow the container's own env entries, sorted by name; an existing env var
 *   of the same name is replaced, so injecting into an injected template is idempotent.
 * - Same hashes ⇒ byte-identical `JSON.stringify` of the result; one changed hash ⇒ only that
 *   var's value changes.
 * - Env var names follow `configHashEnvName` and its collision rule.
 *
 * Caveats: a hash var of an object the template no longer references is not removed (inject
 * into the desired template, built fresh each reconcile, not into the live one). Ephemeral
 * containers' references are found but they get no env (templates cannot hold them).
 *
 * @example
 * ```ts
 * const template = {
 *   metadata: { labels: { app: "web" } },
 *   spec: {
 *     containers: [{ name: "web", image: "nginx", env: [{ name: "MODE", value: "prod" }] }],
 *     volumes: [{ name: "conf", configMap: { name: "web-conf" } }],
 *   },
 * };
 * const injected = injectConfigHashes(template, new Map([["ConfigMap/web-conf", "3a7bd3e2360a"]]));
 * // containers[0].env: [{ name: "MODE", value: "prod" }, { name: "CONFIGMAP_WEB_CONF_HASH", value: "3a7bd3e2360a" }]
 * ```
 */
export function injectConfigHashes(podTemplate: KubeObject, hashes: ReadonlyMap<string, string>): KubeObject {
  checkObject("injectConfigHashes(podTemplate, hashes)", "podTemplate", podTemplate, "a pod template object ({ metadata?, spec })");
  if (!(hashes instanceof Map)) throw argumentError("injectConfigHashes(podTemplate, hashes)", "hashes", 'a Map of "Kind/name" to hash', hashes);
  const template = cloneJson(podTemplate);
  injectInto(template, findConfigReferences(template.spec), hashes);
  return template;
}

/**
 * Config hashes for a workload whose pod template is at `spec.template` (Deployment,
 * StatefulSet; also DaemonSet, ReplicaSet, Job): finds the references, asks `lookup` for each
 * one's hash (usually `configDataHash` of the desired or live object; `undefined` = unknown,
 * skipped) and returns a new object with them injected (see `injectConfigHashes`) plus every
 * reference found, so the caller can report or watch missing ones. The input is never mutated.
 * A workload without `spec.template` comes back as an unchanged copy with no references.
 *
 * @example
 * ```ts
 * const config = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-conf" }, data: { a: "1" } };
 * const deployment = {
 *   apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
 *   spec: { selector: { matchLabels: { app: "web" } }, template: {
 *     metadata: { labels: { app: "web" } },
 *     spec: { containers: [{ name: "web", image: "nginx", envFrom: [{ configMapRef: { name: "web-conf" } }] }] },
 *   } },
 * };
 * const { object, referenced } = withConfigHashes(deployment, (ref) =>
 *   ref.kind === "ConfigMap" && ref.name === "web-conf" ? configDataHash(config) : undefined);
 * // object.spec.template.spec.containers[0].env: [{ name: "CONFIGMAP_WEB_CONF_HASH", value: "…" }]
 * // referenced: [{ kind: "ConfigMap", name: "web-conf", optional: false }]
 * ```
 */
export function withConfigHashes(
  workload: KubeObject,
  lookup: (ref: ConfigReference) => string | undefined,
): { object: KubeObject; referenced: ConfigReference[] } {
  checkObject("withConfigHashes(workload, lookup)", "workload", workload, "a workload object (Deployment, StatefulSet, …)");
  if (typeof lookup !== "function") throw argumentError("withConfigHashes(workload, lookup)", "lookup", "a function (ref) => hash | undefined", lookup);
  const object = cloneJson(workload);
  const template = asOptionalRecord(asOptionalRecord(object.spec)?.template);
  if (!template) return { object, referenced: [] };
  const referenced = findConfigReferences(template.spec);
  const hashes = new Map<string, string>();
  for (const ref of referenced) {
    const value = lookup(ref);
    if (value !== undefined) hashes.set(configReferenceKey(ref), value);
  }
  injectInto(template, referenced, hashes);
  return { object, referenced };
}

type Json = Record<string, unknown>;
interface EnvVar { name: string; value: string }

/** Injects into a template this module already owns (a clone); see `injectConfigHashes`. */
function injectInto(template: Json, refs: ConfigReference[], hashes: ReadonlyMap<string, string>): void {
  const spec = asOptionalRecord(template.spec);
  if (!spec) return;
  const names = envNames(refs);
  const vars: EnvVar[] = [];
  for (const ref of refs) {
    const key = configReferenceKey(ref);
    const value = hashes.get(key);
    if (value !== undefined) vars.push({ name: names.get(key)!, value });
  }
  if (vars.length === 0) return;
  vars.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const injected = new Set(vars.map((v) => v.name));
  for (const list of ["initContainers", "containers"]) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      const record = asOptionalRecord(container);
      if (!record) continue;
      const own = Array.isArray(record.env) ? record.env.filter((e: unknown) => !isEnvNamed(e, injected)) : [];
      record.env = [...own, ...vars.map((v) => ({ name: v.name, value: v.value }))];
    }
  }
}

/** Env var name per reference key, with the collision rule of `configHashEnvName` applied. */
function envNames(refs: readonly ConfigReference[]): Map<string, string> {
  const byName = new Map<string, ConfigReference[]>();
  for (const ref of refs) {
    const name = configHashEnvName(ref.kind, ref.name);
    const group = byName.get(name);
    if (group) group.push(ref);
    else byName.set(name, [ref]);
  }
  const out = new Map<string, string>();
  for (const [name, group] of byName) {
    for (const ref of group) {
      const key = configReferenceKey(ref);
      const suffix = group.length > 1 ? `_${hash("sha256", key, "hex").slice(0, 6).toUpperCase()}` : "";
      out.set(key, name + suffix);
    }
  }
  return out;
}

function isEnvNamed(entry: unknown, names: ReadonlySet<string>): boolean {
  const name = asOptionalRecord(entry)?.name;
  return typeof name === "string" && names.has(name);
}

function asOptionalRecord(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function asRecord(value: unknown, field: string): Json {
  if (value === undefined || value === null) return {};
  const record = asOptionalRecord(value);
  if (!record) throw new TypeError(`configDataHash: Secret ${field} is not an object`);
  return record;
}
