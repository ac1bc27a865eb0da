/**
 * JSON Merge Patch (RFC 7386): what an API server computes from `application/merge-patch+json`.
 * One implementation for LocalCluster's PATCH handler and the SDK's `writeStatus`, which uses it
 * to tell whether a status patch would change anything before sending it.
 */

import { setMember } from "./own-member.ts";

/** Whether a value is a JSON object (not an array, not null). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The result of merging `patch` into `target`: objects merge key by key, `null` deletes a key,
 * `undefined` members of the patch are skipped (JSON has none), and everything else — lists
 * included — replaces the value. The result shares no structure with either input.
 *
 * @example
 * ```ts
 * mergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { d: null, e: [1] } }); // { a: 1, b: { c: 2, e: [1] } }
 * mergePatch({ a: 1 }, "x");                                          // "x"
 * ```
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = {};
  if (isPlainObject(target)) {
    for (const [key, value] of Object.entries(target)) {
      if (!Object.hasOwn(patch, key) || patch[key] === undefined) setMember(result, key, structuredClone(value));
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || value === null) continue;
    setMember(result, key, mergePatch(isPlainObject(target) ? target[key] : undefined, value));
  }
  return result;
}
