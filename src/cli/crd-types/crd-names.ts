/**
 * The names of a CRD, checked as the API server checks them (apiextensions validation): the
 * group, plural, kind and version names `gen types` puts into file names and TypeScript names.
 */

import { quoted } from "./untrusted-text.ts";

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The names `checkCrdNames` reads. */
export interface CrdNames {
  /** `metadata.name`; undefined when the CRD has none. */
  name: string | undefined;
  group: string;
  plural: string;
  kind: string;
  /** `spec.versions[*].name`, in order. */
  versions: readonly string[];
}

/** Whether `value` is a DNS-1035 label: at most 63 characters, as `DNS1035_LABEL`. */
const isDns1035Label = (value: string): boolean => value.length <= 63 && DNS1035_LABEL.test(value);

/** The rule of a DNS-1035 label, for messages. */
const LABEL_RULE = "lower-case letters, digits and '-', starting with a letter, ending with a letter or digit, at most 63 characters";

/**
 * The problems of a CRD's names, each naming its field, the value and the rule; empty when the
 * API server would accept them. The rules are the API server's: `spec.group` a DNS-1123
 * subdomain with at least one dot, `spec.names.plural` and every version name a DNS-1035
 * label, `spec.names.kind` a DNS-1035 label once lower-cased, and `metadata.name`
 * `<plural>.<group>`. They also keep the names `gen types` makes from them safe: a file name
 * inside `--out`, TypeScript identifiers.
 *
 * @example
 * ```ts
 * checkCrdNames({ name: "widgets.example.com", group: "example.com", plural: "widgets", kind: "Widget", versions: ["v1"] }); // []
 * checkCrdNames({ name: "x.example.com", group: "example.com", plural: "../x", kind: "X", versions: ["v1"] });
 * // ['spec.names.plural "../x" is not a DNS-1035 label (…)', 'metadata.name "x.example.com" must be spec.names.plural.spec.group, "../x.example.com"']
 * ```
 */
export function checkCrdNames(names: CrdNames): string[] {
  const problems: string[] = [];
  const { group, plural, kind } = names;
  if (group.length > 253 || !DNS1123_SUBDOMAIN.test(group)) {
    problems.push(`spec.group ${quoted(group)} is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters)`);
  } else if (!group.includes(".")) {
    problems.push(`spec.group ${quoted(group)} must be a domain with at least one dot, such as ${group}.example.com`);
  }
  if (!isDns1035Label(plural)) problems.push(`spec.names.plural ${quoted(plural)} is not a DNS-1035 label (${LABEL_RULE})`);
  if (!/^[-A-Za-z0-9]+$/.test(kind) || !isDns1035Label(kind.toLowerCase())) {
    problems.push(`spec.names.kind ${quoted(kind)} is not a valid kind (a DNS-1035 label in mixed case: letters, digits and '-', starting with a letter, ending with a letter or digit, at most 63 characters)`);
  }
  names.versions.forEach((version, i) => {
    if (!isDns1035Label(version)) problems.push(`spec.versions[${i}].name ${quoted(version)} is not a DNS-1035 label (${LABEL_RULE})`);
  });
  const expected = `${plural}.${group}`;
  if (names.name === undefined) problems.push(`metadata.name is missing: it must be spec.names.plural.spec.group, ${quoted(expected)}`);
  else if (names.name !== expected) problems.push(`metadata.name ${quoted(names.name)} must be spec.names.plural.spec.group, ${quoted(expected)}`);
  return problems;
}
