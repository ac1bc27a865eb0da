/**
 * Object name rules (DNS-1123 subdomain and label, DNS-1035 label, path segment names) with
 * the API server's exact error texts.
 *
 * Each `…Errors` function answers the messages apimachinery's matching check gives (empty when
 * the value is valid), so callers can turn them into causes on any field.
 */
import type { StatusCause } from "./status.ts";
import { invalidValue } from "./status.ts";
import { DNS1035_LABEL_FMT, DNS1123_LABEL_FMT, DNS1123_SUBDOMAIN_FMT, nameRuleOf } from "../util/name-rules.ts";
import type { NameFormat } from "../util/name-rules.ts";

const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/**
 * apimachinery's regex error text: `<msg> (e.g. 'a',  or 'b', regex used for validation is
 * '<fmt>')` (the double space after each example's comma is theirs).
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

/** `must be no more than <n> characters`. */
export function maxLenError(max: number): string {
  return `must be no more than ${max} characters`;
}

/** Messages of apimachinery's `IsDNS1123Label` (≤ 63, lower-case alphanumerics and '-'). */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) {
    errs.push(
      DNS1123_SUBDOMAIN.test(value)
        ? "must not contain dots"
        : regexError(
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
            DNS1123_LABEL_FMT,
            "my-name",
            "123-abc",
          ),
    );
  }
  return errs;
}

/** Messages of apimachinery's `IsDNS1123Subdomain` (≤ 253, dot-separated labels). */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        "example.com",
      ),
    );
  }
  return errs;
}

/** Messages of apimachinery's `IsDNS1035Label` (≤ 63, starts with a letter). */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        "my-name",
        "abc-123",
      ),
    );
  }
  return errs;
}

/** The messages of each name format's apimachinery check. */
const FORMAT_ERRORS: Record<NameFormat, (name: string) => string[]> = {
  "dns1123-label": dns1123LabelErrors,
  "dns1123-subdomain": dns1123SubdomainErrors,
  "dns1035-label": dns1035LabelErrors,
  "path-segment": pathSegmentNameErrors,
};

/**
 * Checks `metadata.name` of a new object by the rule kube-apiserver's per-kind `Validate…Name`
 * picks — the table the Builder's validation shares (`nameRuleOf` in src/util/name-rules.ts):
 * Namespaces and StatefulSets are DNS-1123 labels, Services DNS-1035 labels, the RBAC kinds
 * path segments (so `system:controller:foo` is a valid ClusterRole name); every other kind,
 * custom resources included, takes a DNS-1123 subdomain. Returns the causes (empty when valid).
 */
export function validateName(type: { kind: string; group: string; builtin: boolean }, name: string): StatusCause[] {
  const rule = type.builtin ? nameRuleOf(type.group, type.kind) : undefined;
  const errs = FORMAT_ERRORS[rule?.format ?? "dns1123-subdomain"](name);
  if (rule?.maxLength !== undefined && name.length > rule.maxLength) errs.push(maxLenError(rule.maxLength));
  const causes = errs.map((msg) => invalidValue("metadata.name", name, msg));
  // A Namespace carries its name as the label `kubernetes.io/metadata.name` (set by defaulting,
  // validated in the same pass): a name too long for a label value fails there too.
  if (causes.length && type.builtin && type.group === "" && type.kind === "Namespace" && Buffer.byteLength(name) > 63) {
    causes.push(invalidValue("metadata.labels", name, "must be no more than 63 bytes"));
  }
  return causes;
}

/**
 * Messages of apimachinery's `IsValidPathSegmentName`: a name in a URL may not be `.` or `..`
 * and may not contain `/` or `%`. Empty when the name is usable as a path segment.
 */
export function pathSegmentNameErrors(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  const errs: string[] = [];
  if (name.includes("/")) errs.push("may not contain '/'");
  if (name.includes("%")) errs.push("may not contain '%'");
  return errs;
}

const GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** `generateName` + 5 random characters, prefix cut to 58 characters. */
export function generateName(prefix: string): string {
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return prefix.slice(0, 58) + suffix;
}
