/**
 * Builder rules for any other kind: identity only, the API server validates the rest.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules } from "./kind-rules.ts";
import type { Problems } from "./validation.ts";
import { checkKind, checkMetadata, dns1123Label, dns1123Subdomain, problemsFor } from "./validation.ts";
import { groupOf, nameRuleOf } from "../src/util/name-rules.ts";

const CAMEL_CASE = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Rules for objects of `apiVersion`/`kind`, reconciled in the `custom` phase (last, after the
 * services). Checks only what the Builder itself relies on; the API server validates the body
 * against the CRD's schema.
 *
 * Validation: `apiVersion` present as `group/version` (a DNS-1123 subdomain group and a
 * DNS-1123 label version; a bare `v1` is accepted for core kinds that reach this fallback);
 * `kind` present and CamelCase; both equal to the ones given here; `metadata.name` by the rule
 * kube-apiserver applies to the kind (`nameRuleOf`): a DNS-1123 subdomain for custom resources
 * and most built-in kinds, a DNS-1035 label for a Service, a DNS-1123 label for a Namespace or
 * a StatefulSet, a path segment for the RBAC kinds (so `system:controller:x` is accepted);
 * namespace, labels and annotations as for every kind.
 *
 * @example
 * ```ts
 * const greetings = customObjectRules("sample.foperator.gfxmonk.net/v1alpha1", "Greeting");
 * greetings.validate({
 *   apiVersion: "sample.foperator.gfxmonk.net/v1alpha1", kind: "Greeting",
 *   metadata: { name: "hello", namespace: "default" }, spec: { name: "Ada" },
 * }); // []
 * ```
 */
export function customObjectRules(apiVersion: string, kind: string): KindRules {
  return {
    apiVersion,
    kind,
    phase: "custom",
    validate(obj: KubeObject): BuilderValidationError[] {
      const p = problemsFor(obj, kind || "Object");
      checkApiVersion(p, obj.apiVersion);
      checkKindName(p, obj.kind);
      if (p.list.length === 0) checkKind(p, obj, apiVersion, kind);
      // Without a usable apiVersion (already a problem) no built-in group matches: the default rule.
      const group = typeof obj.apiVersion === "string" && obj.apiVersion !== "" ? groupOf(obj.apiVersion) : "(unknown)";
      checkMetadata(p, obj, nameRuleOf(group, typeof obj.kind === "string" && obj.kind !== "" ? obj.kind : kind || "Object"));
      return p.list;
    },
  };
}

function checkApiVersion(p: Problems, apiVersion: unknown): void {
  const fix = 'set apiVersion to the CRD\'s "<group>/<version>", e.g. "example.com/v1"';
  if (apiVersion === undefined || apiVersion === "") {
    p.add("apiVersion", "is required for custom objects", fix);
    return;
  }
  if (typeof apiVersion !== "string") {
    p.add("apiVersion", "is not a string", fix);
    return;
  }
  const why = apiVersionProblem(apiVersion);
  if (why) p.add("apiVersion", `${JSON.stringify(apiVersion)} is not "<group>/<version>": ${why}`, fix);
}

function apiVersionProblem(apiVersion: string): string | undefined {
  const parts = apiVersion.split("/");
  if (parts.length > 2) return "has more than one '/'";
  const version = parts.at(-1)!;
  if (parts.length === 2) {
    const group = parts[0]!;
    const why = dns1123Subdomain(group);
    if (why) return `group ${JSON.stringify(group)} ${why}`;
  }
  const why = dns1123Label(version);
  return why ? `version ${JSON.stringify(version)} ${why}` : undefined;
}

function checkKindName(p: Problems, kind: unknown): void {
  if (kind === undefined || kind === "") {
    p.add("kind", "is required for custom objects", 'set kind to the CRD\'s kind, e.g. "Greeting"');
  } else if (typeof kind !== "string" || !CAMEL_CASE.test(kind)) {
    p.add("kind", `${JSON.stringify(kind)} is not a CamelCase kind`, "use the kind as the CRD names it (spec.names.kind), e.g. \"Greeting\"");
  }
}
