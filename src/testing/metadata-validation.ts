/**
 * The limits kube-apiserver enforces on every object's metadata and on the data of ConfigMaps
 * and Secrets: label keys and values, annotation keys and their total size, config keys and the
 * 1 MiB data limit. Messages and field paths are apimachinery's, word for word.
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import type { StatusCause } from "./status.ts";
import { StatusError, invalidValue } from "./status.ts";
import { dns1123SubdomainErrors, maxLenError, regexError } from "./names.ts";

/** Total bytes of a ConfigMap's or Secret's values (`corev1.MaxSecretSize`, 1 MiB). */
export const MAX_DATA_BYTES = 1024 * 1024;

/** Total bytes of all annotation keys and values (`TotalAnnotationSizeLimitB`, 256 KiB). */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;

const QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+";
const CONFIG_KEY = new RegExp(`^${CONFIG_KEY_FMT}$`);

/**
 * Messages of apimachinery's `IsQualifiedName`: an optional DNS subdomain prefix and `/`, then
 * a name of at most 63 characters that starts and ends with an alphanumeric character.
 */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else errs.push(...dns1123SubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (Buffer.byteLength(name) > 63) errs.push(`name part ${maxBytesError(63)}`);
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")}`);
  return errs;
}

/** `must be no more than <n> bytes` (v1.36's words for a qualified name's and a label value's length). */
export function maxBytesError(max: number): string {
  return `must be no more than ${max} bytes`;
}

/** Messages of apimachinery's `IsValidLabelValue`: empty, or at most 63 bytes of a qualified name. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value) > 63) errs.push(maxBytesError(63));
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        "MyValue",
        "my_value",
        "12345",
      ),
    );
  }
  return errs;
}

/** Messages of apimachinery's `IsConfigMapKey` (ConfigMap and Secret data keys). */
export function configKeyErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!CONFIG_KEY.test(value)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
  }
  if (value === ".") errs.push("must not be '.'");
  else if (value === "..") errs.push("must not be '..'");
  else if (value.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}

/** `Too long: may not be more than <n> bytes` (reason FieldValueTooLong), as apimachinery's `field.TooLong`. */
export function tooLong(field: string, max: number): StatusCause {
  return { reason: "FieldValueTooLong", field, message: `Too long: may not be more than ${max} bytes` };
}

/** Causes for a label map (`ValidateLabels`): each bad key or value, on the map's own field. */
export function validateLabels(labels: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const [k, v] of stringEntries(labels)) {
    for (const msg of qualifiedNameErrors(k)) causes.push(invalidValue(field, k, msg));
    if (typeof v === "string") for (const msg of labelValueErrors(v)) causes.push(invalidValue(field, v, msg));
  }
  return causes;
}

/**
 * Causes for an annotation map (`ValidateAnnotations`): keys are qualified names (any case),
 * and all keys and values together take at most {@link MAX_ANNOTATIONS_BYTES}.
 */
export function validateAnnotations(annotations: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [k, v] of stringEntries(annotations)) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) causes.push(invalidValue(field, k, msg));
    size += Buffer.byteLength(k) + (typeof v === "string" ? Buffer.byteLength(v) : 0);
  }
  if (size > MAX_ANNOTATIONS_BYTES) causes.push(tooLong(field, MAX_ANNOTATIONS_BYTES));
  return causes;
}

/** Labels and annotations of an `ObjectMeta` at `path` (e.g. `metadata`, `spec.template.metadata`). */
function validateObjectMeta(meta: unknown, path: string): StatusCause[] {
  if (!isRecord(meta)) return [];
  return [...validateLabels(meta.labels, `${path}.labels`), ...validateAnnotations(meta.annotations, `${path}.annotations`)];
}

/**
 * ConfigMap data and binaryData: valid config keys, no key in both, and the values' total
 * size (strings as UTF-8, binaryData decoded) at most 1 MiB, reported on the whole object.
 */
function validateConfigMapData(obj: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const binary = isRecord(obj.binaryData) ? obj.binaryData : {};
  let size = 0;
  for (const [k, v] of stringEntries(obj.data)) {
    for (const msg of configKeyErrors(k)) causes.push(invalidValue(`data[${k}]`, k, msg));
    if (Object.hasOwn(binary, k)) causes.push(invalidValue(`data[${k}]`, k, "duplicate of key present in binaryData"));
    if (typeof v === "string") size += Buffer.byteLength(v);
  }
  for (const [k, v] of stringEntries(binary)) {
    for (const msg of configKeyErrors(k)) causes.push(invalidValue(`binaryData[${k}]`, k, msg));
    if (typeof v === "string") size += base64Bytes(v);
  }
  // v1.36 reports the size on the path of the whole object, which Go spells `[]`.
  if (size > MAX_DATA_BYTES) causes.push(tooLong("[]", MAX_DATA_BYTES));
  return causes;
}

/** Secret data: valid config keys and at most 1 MiB of decoded bytes, reported on `data`. */
function validateSecretData(obj: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [k, v] of stringEntries(obj.data)) {
    for (const msg of configKeyErrors(k)) causes.push(invalidValue(`data[${k}]`, k, msg));
    if (typeof v === "string") size += base64Bytes(v);
  }
  if (size > MAX_DATA_BYTES) causes.push(tooLong("data", MAX_DATA_BYTES));
  return causes;
}

/**
 * Every metadata and data limit that applies to `obj` of `type`: labels and annotations of
 * `metadata` (all kinds, custom resources included), of a workload's pod template and of its
 * `spec.selector.matchLabels`, a Service's `spec.selector`, and ConfigMap/Secret data.
 */
export function objectLimitCauses(type: ResourceType, obj: KubeObject): StatusCause[] {
  const causes = validateObjectMeta(obj.metadata, "metadata");
  if (!type.builtin) return causes;
  const spec = isRecord(obj.spec) ? obj.spec : undefined;
  switch (type.kind) {
    case "ConfigMap":
      causes.push(...validateConfigMapData(obj));
      break;
    case "Secret":
      causes.push(...validateSecretData(obj));
      break;
    case "Service":
      causes.push(...validateLabels(spec?.selector, "spec.selector"));
      break;
    case "Deployment":
    case "StatefulSet":
    case "ReplicaSet": {
      const selector = isRecord(spec?.selector) ? spec.selector : undefined;
      causes.push(...validateLabels(selector?.matchLabels, "spec.selector.matchLabels"));
      const template = isRecord(spec?.template) ? spec.template : undefined;
      causes.push(...validateObjectMeta(template?.metadata, "spec.template.metadata"));
      break;
    }
  }
  return causes;
}

/**
 * Throws the 422 kube-apiserver answers when `obj` breaks any limit of
 * {@link objectLimitCauses}. A cause on the whole object has an empty field, which the
 * message spells `: Too long: …` and the cause leaves out, as apimachinery does.
 */
export function checkObjectLimits(type: ResourceType, obj: KubeObject): void {
  const causes = objectLimitCauses(type, obj);
  if (causes.length === 0) return;
  const name = obj.metadata?.name ?? "";
  const qualifiedKind = type.group === "" ? type.kind : `${type.kind}.${type.group}`;
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  throw new StatusError(422, "Invalid", `${qualifiedKind} "${name}" is invalid: ${summary}`, {
    name,
    group: type.group || undefined,
    kind: type.kind,
    causes: causes.map((c) => (c.field === "" ? { reason: c.reason, message: c.message } : c)),
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringEntries(map: unknown): [string, unknown][] {
  return isRecord(map) ? Object.entries(map) : [];
}

/** Bytes a base64 text decodes to (padding and whitespace ignored). */
function base64Bytes(text: string): number {
  return Buffer.byteLength(text, "base64");
}
