/** Field selectors the cache can answer in memory: `metadata.name` and `metadata.namespace`. */
import type { KubeObject } from "../client/types.ts";
import { OperatorRuntimeError } from "../errors.ts";

const FIELDS = {
  "metadata.name": (o: KubeObject) => o.metadata?.name ?? "",
  "metadata.namespace": (o: KubeObject) => o.metadata?.namespace ?? "",
} as const;

/**
 * Compiles a field selector over `metadata.name` / `metadata.namespace` (`=`, `==`, `!=`,
 * comma = AND, `\,` `\=` `\\` escapes) into a predicate.
 *
 * Errors: any other field throws {@link OperatorRuntimeError}: the cache holds whole objects
 * but does not know the server's per-kind field labels; read through the API
 * (`client.reader()`) for those, or filter the result.
 *
 * @example
 * ```ts
 * const matches = fieldSelectorMatcher("metadata.name!=kube-root-ca.crt");
 * matches({ metadata: { name: "app-config" } }); // true
 * ```
 */
export function fieldSelectorMatcher(selector: string): (obj: KubeObject) => boolean {
  const reqs: { get: (o: KubeObject) => string; negate: boolean; value: string }[] = [];
  if (selector.trim() !== "") {
    for (const part of selector.split(/(?<!\\),/)) {
      const m = /^\s*([^!=\s]+)\s*(==|=|!=)(.*)$/.exec(part);
      const field = m?.[1];
      if (!m || !field) {
        throw new OperatorRuntimeError(`invalid field selector "${selector}": cannot parse "${part}". Supported: field=value, field==value, field!=value; comma means AND.`);
      }
      if (!Object.hasOwn(FIELDS, field)) {
        throw new OperatorRuntimeError(
          `field selector "${field}" is not supported by the cache: only metadata.name and metadata.namespace. ` +
            "Fix: filter the listed objects yourself, or read through the API (client.reader()).",
        );
      }
      const value = m[3]!.trim().replace(/\\([,=\\])/g, "$1");
      reqs.push({ get: FIELDS[field as keyof typeof FIELDS], negate: m[2] === "!=", value });
    }
  }
  return (obj) => reqs.every((r) => (r.get(obj) === r.value) !== r.negate);
}
