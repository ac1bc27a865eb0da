/**
 * CustomResourceDefinitions themselves: validation, server-side defaults and the served versions.
 *
 * Caveats, compared with a real apiserver: only `apiextensions.k8s.io/v1` CRDs are understood
 * (no top-level `validation`/`subresources`/`additionalPrinterColumns` of v1beta1); schemas are
 * checked for the structural invariants (see {@link structuralCauses}) but not for the
 * completeness of junctors nor the generic OpenAPI rules. `spec.conversion` is validated as
 * `ValidateCustomResourceConversion` does (see {@link conversionCauses}) and
 * `status.storedVersions` as `ValidateCustomResourceDefinitionStoredVersions`.
 * CEL rules (`x-kubernetes-validations`) are checked as kube-apiserver checks them (rule fields,
 * compilation, `oldSelf` placement, estimated cost: see `celSchemaCauses`), with LocalCluster's
 * own estimator and compile messages.
 */
import type { KubeObject, PrinterColumn, ScaleSubresource } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { invalid, invalidValue, requiredValue, unsupportedValue } from "../status.ts";
import { cloneJson, isJsonObject, jsonEqual } from "../json-value.ts";
import type { JsonObject } from "../json-value.ts";
import type { JsonSchema } from "./schema-node.ts";
import { celSchemaCauses } from "./cel-crd-checks.ts";
import { genericSchemaCauses, structuralCauses } from "./structural.ts";
import { X509Certificate } from "node:crypto";
import { clientConfigCauses, reviewVersionCauses } from "../kinds/validation/admissionregistration.ts";
import { goValue } from "../kinds/validation/field.ts";

const CRD_KIND = "CustomResourceDefinition";
const CRD_GROUP = "apiextensions.k8s.io";
const SCOPES = ["Cluster", "Namespaced"];
const COLUMN_TYPES = ["integer", "number", "string", "boolean", "date"];
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, " +
  "and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end " +
  "with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** One served version of a CRD, as LocalCluster serves it (see {@link crdVersions}). */
export interface CrdVersion {
  /** The version name, e.g. `v1beta1`. */
  name: string;
  /** True for the one version objects are stored in. */
  storage: boolean;
  /** `schema.openAPIV3Schema` of this version. */
  schema: JsonSchema;
  /** True when `subresources.status` is set. */
  statusSubresource: boolean;
  /** `subresources.scale`, when set. */
  scale?: ScaleSubresource;
  /** `additionalPrinterColumns` (empty when none: Name and Age are then shown). */
  printerColumns: PrinterColumn[];
}

function member(obj: unknown, key: string): JsonObject {
  const value = isJsonObject(obj) ? obj[key] : undefined;
  return isJsonObject(value) ? value : {};
}

function text(obj: JsonObject, key: string): string | undefined {
  const value = obj[key];
  return typeof value === "string" ? value : undefined;
}

function objects(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

function dns1035Errors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push("must be no more than 63 characters");
  if (!DNS1035_LABEL.test(value)) errors.push(DNS1035_MESSAGE);
  return errors;
}

/** Invalid-value causes for a name that must be a DNS-1035 label (`prefix` for kind/listKind). */
function labelCauses(field: string, value: string | undefined, check: string, prefix = ""): StatusCause[] {
  if (value === undefined || value === "") return [];
  const errors = dns1035Errors(check);
  return errors.length === 0 ? [] : [invalidValue(field, value, prefix + errors.join(","))];
}

/**
 * Validates a CustomResourceDefinition (`apiextensions.k8s.io/v1`) the way the apiserver does on
 * create and update.
 *
 * Checked: `metadata.name` is `<spec.names.plural>.<spec.group>`; `spec.group` is a DNS
 * subdomain with at least one dot; `spec.scope` is `Namespaced` or `Cluster`; there is at least
 * one version, at least one served and exactly one storage version, with unique DNS-1035 names;
 * every version has a structural `schema.openAPIV3Schema` (see {@link structuralCauses}); a
 * scale subresource names its replica paths; printer columns have a name, a known type and a JSONPath;
 * `spec.names.plural` and `spec.names.kind` are set, plural/singular/shortNames are lower-case
 * DNS-1035 labels and kind/listKind are too apart from case; `spec.conversion` (strategy
 * `None` or `Webhook`; a Webhook's client config with exactly one of `url` (https, no user
 * info, query or fragment) and `service`, a decodable `caBundle` on update,
 * `conversionReviewVersions` with `v1` or `v1beta1`; no webhook fields under `None`;
 * `Webhook` needs `preserveUnknownFields` false), reported at the internal paths
 * `spec.conversion.webhookClientConfig…`; `status.storedVersions` (at least one, the storage
 * version among them, each still in `spec.versions`) as the create or update strategy
 * prepares it.
 *
 * Errors: a `StatusError` 422 Invalid for kind `CustomResourceDefinition`, group
 * `apiextensions.k8s.io`, with one cause per problem, e.g.
 * `metadata.name: Invalid value: "foo.example.com": must be spec.names.plural+"."+spec.group`.
 * A schema, subresources or columns shared by all versions are reported under
 * `spec.validation.openAPIV3Schema`, `spec.subresources`, `spec.additionalPrinterColumns`
 * (the apiserver's internal form), e.g.
 * `spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields`.
 *
 * @param old - the stored CRD on update (undefined on create): an update checks the stored
 *   versions it keeps and the new `caBundle`, and tolerates what the stored CRD already broke
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const crd: KubeObject; // the body of a CRD create
 * validateCrd(crd);                       // throws on an invalid CRD
 * const stored = crdDefaults(crd, new Date());
 * validateCrd(stored, stored);            // an update of the stored CRD
 * ```
 */
export function validateCrd(crd: KubeObject, old?: KubeObject): void {
  const spec = member(crd, "spec");
  const causes = [
    ...metadataCauses(crd),
    ...specCauses(spec),
    ...conversionCauses(spec, old),
    ...storedVersionsCauses(crd, old !== undefined),
  ];
  if (causes.length > 0) throw invalid(CRD_KIND, CRD_GROUP, crd.metadata?.name ?? "", causes);
}

/** The ConversionReview versions kube-apiserver speaks. */
const CONVERSION_REVIEW_VERSIONS = ["v1", "v1beta1"];
const STRATEGIES = ["None", "Webhook"];
const NOT_WEBHOOK = "should not be set when strategy is not set to Webhook";

/**
 * `spec.conversion` as apiextensions validates it (`validateCustomResourceConversion`, on the
 * internal form: `webhook.clientConfig` is `webhookClientConfig`, `webhook.conversionReviewVersions`
 * is `conversionReviewVersions`), after the Webhook-versus-`preserveUnknownFields` check.
 * `old` (the stored CRD, on update) decides whether an undecodable `caBundle` is tolerated (on
 * create, or when the stored one was undecodable too) and whether a known review version is
 * required (unless the stored list had none either).
 */
function conversionCauses(spec: JsonObject, old: KubeObject | undefined): StatusCause[] {
  if (!isJsonObject(spec["conversion"])) return [];
  const conversion = spec["conversion"];
  const at = "spec.conversion";
  const causes: StatusCause[] = [];
  const strategy = text(conversion, "strategy") ?? "";
  if (strategy !== "None" && spec["preserveUnknownFields"] === true) {
    causes.push(invalidValue(`${at}.strategy`, strategy, "must be None if spec.preserveUnknownFields is true"));
  }
  if (strategy === "") causes.push(requiredValue(`${at}.strategy`));
  else if (!STRATEGIES.includes(strategy)) causes.push(unsupportedValue(`${at}.strategy`, strategy, STRATEGIES));
  const webhook = isJsonObject(conversion["webhook"]) ? conversion["webhook"] : undefined;
  const clientConfig = webhook && isJsonObject(webhook["clientConfig"]) ? webhook["clientConfig"] : undefined;
  const reviewVersions = Array.isArray(webhook?.["conversionReviewVersions"]) ? (webhook!["conversionReviewVersions"] as unknown[]) : [];
  if (strategy !== "Webhook") {
    if (clientConfig) causes.push(forbiddenCause(`${at}.webhookClientConfig`, NOT_WEBHOOK));
    if (reviewVersions.length > 0) causes.push(forbiddenCause(`${at}.conversionReviewVersions`, NOT_WEBHOOK));
    return causes;
  }
  if (!clientConfig) causes.push(requiredValue(`${at}.webhookClientConfig`, "required when strategy is set to Webhook"));
  else {
    causes.push(...clientConfigCauses(clientConfig, `${at}.webhookClientConfig`));
    const bundle = text(clientConfig, "caBundle") ?? "";
    if (bundle !== "" && !allowInvalidCaBundle(old)) {
      const error = caBundleError(bundle);
      if (error) causes.push({ reason: "FieldValueInvalid", field: `${at}.webhookClientConfig.caBundle`, message: `Invalid value: ${goValue(bundle)}: ${error}` });
    }
  }
  const requireKnown = old === undefined || knowsReviewVersion(old);
  causes.push(...reviewVersionCauses(reviewVersions, `${at}.conversionReviewVersions`, requireKnown, ""));
  return causes;
}

function forbiddenCause(field: string, detail: string): StatusCause {
  return { reason: "FieldValueForbidden", field, message: `Forbidden: ${detail}` };
}

/** The stored CRD's `conversion.webhook.clientConfig` (undefined when none). */
function storedClientConfig(old: KubeObject): JsonObject | undefined {
  const webhook = member(member(old, "spec")["conversion"], "webhook");
  return isJsonObject(webhook["clientConfig"]) ? webhook["clientConfig"] : undefined;
}

/** `allowInvalidCABundle`: on create, before Established, or when the stored caBundle is undecodable itself. */
function allowInvalidCaBundle(old: KubeObject | undefined): boolean {
  if (!old) return true;
  const established = objects(member(old, "status")["conditions"]).some((c) => c["type"] === "Established" && c["status"] === "True");
  if (!established) return true;
  const bundle = text(storedClientConfig(old) ?? {}, "caBundle") ?? "";
  return bundle !== "" && caBundleError(bundle) !== undefined;
}

/** `hasValidConversionReviewVersionOrEmpty` of the stored CRD. */
function knowsReviewVersion(old: KubeObject): boolean {
  const conversion = member(member(old, "spec"), "conversion");
  const versions = member(conversion, "webhook")["conversionReviewVersions"];
  if (!Array.isArray(versions) || versions.length === 0) return true;
  return versions.some((v) => typeof v === "string" && CONVERSION_REVIEW_VERSIONS.includes(v));
}

const PEM_BLOCK = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/**
 * Why a base64 `caBundle` holds no usable certificate, as client-go's `ParseCertsPEM` words it
 * (`data does not contain any valid RSA or ECDSA certificates`), or undefined when it does.
 */
function caBundleError(base64: string): string | undefined {
  const pem = Buffer.from(base64, "base64").toString("latin1");
  let found = false;
  for (const [, type, body] of pem.matchAll(PEM_BLOCK)) {
    if (type !== "CERTIFICATE") continue;
    try {
      new X509Certificate(Buffer.from(body!.replace(/\s+/g, ""), "base64"));
    } catch {
      return "x509: malformed certificate";
    }
    found = true;
  }
  return found ? undefined : "data does not contain any valid RSA or ECDSA certificates";
}

/**
 * `ValidateCustomResourceDefinitionStoredVersions`, on the list the strategy prepared (the
 * storage version appended on update, as PrepareForUpdate does before validation): at least
 * one, the storage version among them, each still in `spec.versions`.
 */
function storedVersionsCauses(crd: KubeObject, update: boolean): StatusCause[] {
  const field = "status.storedVersions";
  const raw = member(crd, "status")["storedVersions"];
  const versions = objects(member(crd, "spec")["versions"]);
  const storage = versions.find((v) => v["storage"] === true);
  const storageName = storage ? (text(storage, "name") ?? "") : undefined;
  // PrepareForCreate resets the status to the storage version alone; PrepareForUpdate keeps
  // the stored list and appends the storage version.
  const stored = update && Array.isArray(raw) ? raw.filter((v): v is string => typeof v === "string") : [];
  if (storageName !== undefined && !stored.includes(storageName)) stored.push(storageName);
  if (stored.length === 0) {
    // A create's strategy leaves the list nil (no storage version): Go prints it as null.
    return [{ reason: "FieldValueInvalid", field, message: `Invalid value: ${update ? "[]" : "null"}: must have at least one stored version` }];
  }
  const causes: StatusCause[] = [];
  const index = new Map<string, number>();
  stored.forEach((v, i) => index.set(v, i));
  for (const v of versions) {
    const name = text(v, "name") ?? "";
    if (v["storage"] === true && !index.has(name)) {
      causes.push({ reason: "FieldValueInvalid", field, message: `Invalid value: ${goValue(stored)}: must have the storage version ${name}` });
    }
    index.delete(name);
  }
  for (const [v, i] of [...index].sort((a, b) => a[1] - b[1])) {
    causes.push(
      invalidValue(
        `${field}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return causes;
}

function metadataCauses(crd: KubeObject): StatusCause[] {
  const name = crd.metadata?.name;
  if (typeof name !== "string" || name === "") return [requiredValue("metadata.name", "name or generateName is required")];
  const spec = member(crd, "spec");
  const expected = `${text(member(spec, "names"), "plural") ?? ""}.${text(spec, "group") ?? ""}`;
  return name === expected ? [] : [invalidValue("metadata.name", name, 'must be spec.names.plural+"."+spec.group')];
}

function specCauses(spec: JsonObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const group = text(spec, "group");
  if (group === undefined || group === "") causes.push(requiredValue("spec.group"));
  else if (group.length > 253 || !DNS1123_SUBDOMAIN.test(group)) causes.push(invalidValue("spec.group", group, DNS1123_SUBDOMAIN_MESSAGE));
  else if (!group.includes(".")) causes.push(invalidValue("spec.group", group, "should be a domain with at least one dot"));

  const scope = text(spec, "scope");
  if (scope === undefined || scope === "") causes.push(requiredValue("spec.scope"));
  else if (!SCOPES.includes(scope)) causes.push(unsupportedValue("spec.scope", scope, SCOPES));

  causes.push(...versionsCauses(spec["versions"]), ...namesCauses(member(spec, "names")));
  return causes;
}

/**
 * Like the apiserver (whose internal CRD has top-level `validation`, `subresources` and
 * `additionalPrinterColumns` for what every version shares), a schema, subresources or columns
 * identical in all versions are checked once under `spec.validation`, `spec.subresources`,
 * `spec.additionalPrinterColumns`; otherwise per version under `spec.versions[i]`.
 */
function sharedAcrossVersions(versions: JsonObject[], key: string): boolean {
  const first = versions[0]?.[key];
  return versions.every((v) => jsonEqual(v[key], first));
}

function versionsCauses(value: unknown): StatusCause[] {
  const versions = objects(value);
  if (versions.length === 0) return [requiredValue("spec.versions", "must have at least one version")];
  const causes: StatusCause[] = [];
  const names = new Set<string>();
  let uniqueNames = true;
  const sharedSchema = sharedAcrossVersions(versions, "schema") && isJsonObject(member(versions[0], "schema")["openAPIV3Schema"]);
  const sharedSubresources = sharedAcrossVersions(versions, "subresources");
  const sharedColumns = sharedAcrossVersions(versions, "additionalPrinterColumns");
  versions.forEach((version, i) => {
    const path = `spec.versions[${i}]`;
    const name = text(version, "name");
    if (name === undefined || name === "") causes.push(requiredValue(`${path}.name`));
    else causes.push(...labelCauses(`${path}.name`, name, name));
    if (name !== undefined && names.has(name)) uniqueNames = false;
    if (name !== undefined) names.add(name);
    if (!sharedSchema) causes.push(...schemaCauses(version, `${path}.schema.openAPIV3Schema`));
    if (!sharedSubresources) causes.push(...subresourceCauses(version, `${path}.subresources`));
    if (!sharedColumns) causes.push(...columnCauses(version, `${path}.additionalPrinterColumns`));
  });
  if (!uniqueNames) causes.push(invalidValue("spec.versions", versions, "must contain unique version names"));
  if (!versions.some((v) => v["served"] === true)) {
    causes.push(invalidValue("spec.versions", versions, "must have at least one version marked as served"));
  }
  if (versions.filter((v) => v["storage"] === true).length !== 1) {
    causes.push(invalidValue("spec.versions", versions, "must have exactly one version marked as storage version"));
  }
  const first = versions[0]!;
  if (sharedSchema) causes.push(...schemaCauses(first, "spec.validation.openAPIV3Schema"));
  if (sharedSubresources) causes.push(...subresourceCauses(first, "spec.subresources"));
  if (sharedColumns) causes.push(...columnCauses(first, "spec.additionalPrinterColumns"));
  return causes;
}

function schemaCauses(version: JsonObject, schemaPath: string): StatusCause[] {
  const root = member(version, "schema")["openAPIV3Schema"];
  if (!isJsonObject(root)) return [requiredValue(schemaPath, "schemas are required")];
  const causes = [...genericSchemaCauses(root, schemaPath), ...structuralCauses(root, schemaPath)];
  // kube-apiserver compiles the CEL rules only of an otherwise valid (structural) schema.
  causes.push(...celSchemaCauses(root, schemaPath, causes.length === 0));
  return causes;
}

function subresourceCauses(version: JsonObject, path: string): StatusCause[] {
  const subresources = member(version, "subresources");
  if (!isJsonObject(subresources["scale"])) return [];
  const scale = subresources["scale"];
  const causes: StatusCause[] = [];
  for (const [key, under] of [["specReplicasPath", ".spec"], ["statusReplicasPath", ".status"]] as const) {
    const field = `${path}.scale.${key}`;
    const value = text(scale, key);
    if (value === undefined || value === "") causes.push(requiredValue(field));
    else if (!value.startsWith(`${under}.`)) causes.push(invalidValue(field, value, `should be a json path under ${under}`));
  }
  return causes;
}

function columnCauses(version: JsonObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  objects(version["additionalPrinterColumns"]).forEach((column, i) => {
    const columnPath = `${path}[${i}]`;
    if (!text(column, "name")) causes.push(requiredValue(`${columnPath}.name`));
    const type = text(column, "type");
    if (!type) causes.push(requiredValue(`${columnPath}.type`));
    else if (!COLUMN_TYPES.includes(type)) causes.push(unsupportedValue(`${columnPath}.type`, type, COLUMN_TYPES));
    if (!text(column, "jsonPath")) causes.push(requiredValue(`${columnPath}.jsonPath`));
  });
  return causes;
}

function namesCauses(names: JsonObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const plural = text(names, "plural");
  const kind = text(names, "kind");
  if (!plural) causes.push(requiredValue("spec.names.plural"));
  if (!kind) causes.push(requiredValue("spec.names.kind"));
  const mixedCase = "may have mixed case, but should otherwise match: ";
  const singular = text(names, "singular");
  const listKind = text(names, "listKind");
  causes.push(
    ...labelCauses("spec.names.plural", plural, plural ?? ""),
    ...labelCauses("spec.names.singular", singular, singular ?? ""),
    ...labelCauses("spec.names.kind", kind, (kind ?? "").toLowerCase(), mixedCase),
    ...labelCauses("spec.names.listKind", listKind, (listKind ?? "").toLowerCase(), mixedCase),
  );
  const shortNames = names["shortNames"];
  if (Array.isArray(shortNames)) {
    shortNames.forEach((s, i) => {
      if (typeof s === "string") causes.push(...labelCauses(`spec.names.shortNames[${i}]`, s, s));
    });
  }
  return causes;
}

/** RFC 3339 with whole seconds, as Kubernetes `Time` values are serialized. */
function rfc3339(now: Date | string): string {
  return typeof now === "string" ? now : now.toISOString().replace(/\.\d+Z$/, "Z");
}

/**
 * A copy of a CRD with the fields the apiserver fills in: `spec.names.singular` (lower-case
 * kind), `spec.names.listKind` (`<Kind>List`), `spec.conversion.strategy: None`, and a `status`
 * that accepts the names at once — conditions `NamesAccepted=True` (NoConflicts) and
 * `Established=True` (InitialNamesAccepted), `acceptedNames` (the defaulted names) and
 * `storedVersions` (the storage version).
 *
 * Guarantees: values already set in `spec` are kept. With `previous` (the stored CRD, on
 * update) `storedVersions` keeps every version it listed and the conditions keep their
 * `lastTransitionTime`. The input is not modified.
 *
 * Assumptions: the CRD passed {@link validateCrd}. Name conflicts with other CRDs are not
 * detected (NamesAccepted is always True).
 *
 * @param now - the time of the write; a `Date` is rendered as RFC 3339 with whole seconds
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const crd: KubeObject;
 * const stored = crdDefaults(crd, new Date());
 * stored.status; // → { conditions: [...], acceptedNames: {...}, storedVersions: ["v1"] }
 * ```
 */
export function crdDefaults(crd: KubeObject, now: Date | string, previous?: KubeObject): KubeObject {
  const out = cloneJson(crd);
  const spec: JsonObject = isJsonObject(out["spec"]) ? out["spec"] : (out["spec"] = {});
  const names: JsonObject = isJsonObject(spec["names"]) ? spec["names"] : (spec["names"] = {});
  const kind = text(names, "kind");
  if (kind) {
    if (!text(names, "singular")) names["singular"] = kind.toLowerCase();
    if (!text(names, "listKind")) names["listKind"] = `${kind}List`;
  }
  if (!isJsonObject(spec["conversion"])) spec["conversion"] = { strategy: "None" };

  const time = rfc3339(now);
  const previousStatus = member(previous, "status");
  const previousConditions = objects(previousStatus["conditions"]);
  const since = (type: string): string => {
    const old = previousConditions.find((c) => c["type"] === type && c["status"] === "True");
    return (old && text(old, "lastTransitionTime")) || time;
  };
  const storedVersions = Array.isArray(previousStatus["storedVersions"])
    ? previousStatus["storedVersions"].filter((v): v is string => typeof v === "string")
    : [];
  const storage = objects(spec["versions"]).find((v) => v["storage"] === true);
  const storageName = storage && text(storage, "name");
  if (storageName && !storedVersions.includes(storageName)) storedVersions.push(storageName);

  out["status"] = {
    conditions: [
      { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found", lastTransitionTime: since("NamesAccepted") },
      {
        type: "Established",
        status: "True",
        reason: "InitialNamesAccepted",
        message: "the initial names have been accepted",
        lastTransitionTime: since("Established"),
      },
    ],
    acceptedNames: cloneJson(names),
    storedVersions,
  };
  return out;
}

/**
 * The served versions of a CRD, in the CRD's order, with what serving each one needs: its
 * schema, whether `/status` and `/scale` exist, and its printer columns.
 *
 * Assumptions: the CRD passed {@link validateCrd}. A version without a schema (only possible
 * for an unvalidated CRD) gets `{type: object, x-kubernetes-preserve-unknown-fields: true}`,
 * which keeps every field.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../resource-type.ts";
 *
 * declare const crd: KubeObject;
 * for (const v of crdVersions(crd)) console.log(v.name, v.storage, v.statusSubresource);
 * ```
 */
export function crdVersions(crd: KubeObject): CrdVersion[] {
  return objects(member(crd, "spec")["versions"])
    .filter((v) => v["served"] === true)
    .map((v) => {
      const root = member(v, "schema")["openAPIV3Schema"];
      const subresources = member(v, "subresources");
      const version: CrdVersion = {
        name: text(v, "name") ?? "",
        storage: v["storage"] === true,
        schema: isJsonObject(root) ? root : { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        statusSubresource: isJsonObject(subresources["status"]),
        printerColumns: objects(v["additionalPrinterColumns"]).map(printerColumn),
      };
      const scale = scaleSubresource(subresources["scale"]);
      if (scale !== undefined) version.scale = scale;
      return version;
    });
}

function scaleSubresource(value: unknown): ScaleSubresource | undefined {
  if (!isJsonObject(value)) return undefined;
  const scale: ScaleSubresource = {
    specReplicasPath: text(value, "specReplicasPath") ?? "",
    statusReplicasPath: text(value, "statusReplicasPath") ?? "",
  };
  const labelSelectorPath = text(value, "labelSelectorPath");
  if (labelSelectorPath !== undefined) scale.labelSelectorPath = labelSelectorPath;
  return scale;
}

function printerColumn(column: JsonObject): PrinterColumn {
  const out: PrinterColumn = {
    name: text(column, "name") ?? "",
    type: text(column, "type") ?? "string",
    jsonPath: text(column, "jsonPath") ?? "",
  };
  const description = text(column, "description");
  if (description !== undefined) out.description = description;
  if (typeof column["priority"] === "number") out.priority = column["priority"];
  const format = text(column, "format");
  if (format !== undefined) out.format = format;
  return out;
}
