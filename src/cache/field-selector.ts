/** Field selectors the cache can answer in memory: `metadata.name` and `metadata.namespace`. */
import type { KubeObject } from "../client/types.ts";
import { parseFieldSelector } from "../util/field-selector.ts";
import { InvalidSelectorError } from "../util/selector-error.ts";

const FIELDS: Readonly<Record<string, (o: KubeObject) => string>> = {
  "metadata.name": (o) => o.metadata?.name ?? "",
  "metadata.namespace": (o) => o.metadata?.namespace ?? "",
};

/**
 * Compiles a field selector over `metadata.name` / `metadata.namespace` into a predicate, with
 * the API server's syntax ({@link parseFieldSelector}: `=`, `==`, `!=`, comma = AND,
 * `\,` `\=` `\\` escapes, whitespace significant).
 *
 * Errors: bad syntax, or any other field, throws {@link InvalidSelectorError}: the cache holds
 * whole objects but does not know the server's per-kind field labels; read through the API
 * (`client.reader()`) for those, or filter the result.
 *
 * @example
 * ```ts
 * const matches = fieldSelectorMatcher("metadata.name!=kube-root-ca.crt");
 * matches({ metadata: { name: "app-config" } }); // true
 * ```
 */
export function fieldSelectorMatcher(selector: string): (obj: KubeObject) => boolean {
  const parsed = parseFieldSelector(selector);
  for (const { field } of parsed.requirements) {
    if (Object.hasOwn(FIELDS, field)) continue;
    throw new InvalidSelectorError(
      "field",
      selector,
      `field selector ${JSON.stringify(field)} is not supported by the cache: only metadata.name and metadata.namespace. ` +
        "Fix: filter the listed objects yourself, or read through the API (client.reader()).",
    );
  }
  const used = [...new Set(parsed.requirements.map((r) => r.field))];
  return (obj) => parsed.matches(Object.fromEntries(used.map((f) => [f, FIELDS[f]!(obj)])));
}
