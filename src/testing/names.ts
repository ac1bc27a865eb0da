/**
 * Object name rules (DNS-1123) with the API server's exact error texts.
 */
import type { StatusCause } from "./status.ts";
import { invalidValue } from "./status.ts";

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** Kinds whose names must be DNS-1123 labels (the rest use subdomains). */
const LABEL_KINDS = new Set(["Namespace", "Service"]);

/** Checks `metadata.name` for a kind; returns the causes (empty when valid). */
export function validateName(kind: string, name: string): StatusCause[] {
  if (LABEL_KINDS.has(kind)) {
    if (name.length > 63) return [invalidValue("metadata.name", name, "must be no more than 63 characters")];
    if (!LABEL.test(name)) return [invalidValue("metadata.name", name, LABEL_MSG)];
    return [];
  }
  if (name.length > 253) return [invalidValue("metadata.name", name, "must be no more than 253 characters")];
  if (!SUBDOMAIN.test(name)) return [invalidValue("metadata.name", name, SUBDOMAIN_MSG)];
  return [];
}

/** Checks a path segment name (GET/DELETE by name) for characters a URL name may not hold. */
export function isValidPathName(name: string): boolean {
  return name !== "." && name !== ".." && !name.includes("/") && !name.includes("%");
}

const GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** `generateName` + 5 random characters, prefix cut to 58 characters. */
export function generateName(prefix: string): string {
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return prefix.slice(0, 58) + suffix;
}
