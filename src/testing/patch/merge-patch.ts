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
import { mergePatch } from "../../util/merge-patch.ts";

/**
 * Applies a merge patch to a stored object; a patch that is not a JSON object is a 400, as on
 * kube-apiserver.
 *
 * @example
 * ```ts
 * applyMergePatch({ metadata: { name: "a" }, data: { x: "1", y: "2" } }, { data: { y: null } });
 * // → { metadata: { name: "a" }, data: { x: "1" } }
 * ```
 */
export function applyMergePatch(doc: KubeObject, patch: unknown): KubeObject {
  if (!isJsonObject(patch)) throw badRequest("Invalid JSON Patch");
  return mergePatch(doc, patch) as KubeObject;
}
