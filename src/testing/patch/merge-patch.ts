/**
 * JSON Merge Patch (RFC 7386, `application/merge-patch+json`).
 *
 * Objects merge key by key, `null` deletes a key, and everything else (lists included)
 * replaces the stored value. This is the only non-apply patch type that works on custom
 * resources besides JSON Patch.
 *
 * @module
 */

import { badRequest } from "../status.ts";
import type { KubeObject } from "../resource-type.ts";
import { isJsonObject } from "../json-value.ts";

/**
 * Applies an RFC 7386 merge patch to `doc` and returns the patched copy. `doc` is never mutated.
 *
 * Guarantees: `null` removes the key it is set on (at any depth); nested objects merge
 * recursively; lists and scalars replace the stored value wholesale. A `null` nested in a
 * newly added object is dropped rather than stored.
 *
 * Errors: 400 BadRequest (`Invalid JSON Patch`) when `patch` is not a JSON object — the
 * API server refuses to replace a whole object through a merge patch.
 *
 * @example
 * ```ts
 * const next = applyMergePatch(cm, { data: { stale: null, mode: "b" } });
 * ```
 */
export function applyMergePatch(doc: KubeObject, patch: unknown): KubeObject {
  if (!isJsonObject(patch)) throw badRequest("Invalid JSON Patch");
  return mergeObject(doc, patch) as KubeObject;
}

function mergeObject(target: unknown, patch: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else if (isJsonObject(value)) {
      result[key] = mergeObject(result[key], value);
    } else {
      result[key] = structuredClone(value);
    }
  }
  // Keys the patch did not touch still share structure with `target`; copy them so the caller
  // owns the whole result.
  for (const key of Object.keys(result)) {
    if (!Object.hasOwn(patch, key)) result[key] = structuredClone(result[key]);
  }
  return result;
}
