/**
 * JSON Merge Patch (RFC 7386): what an API server computes from `application/merge-patch+json`.
 * One implementation for LocalCluster's PATCH handler and the SDK's `writeStatus`, which uses it
 * to tell whether a status patch would change anything before sending it.
 */

import { cloneJson } from "./clone-json.ts";
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
  if (!isPlainObject(patch)) return cloneJson(patch);
  const result: Record<string, unknown> = {};
  if (isPlainObject(target)) {
    for (const key of Object.keys(target)) {
      if (!Object.hasOwn(patch, key) || patch[key] === undefined) setMember(result, key, cloneJson(target[key]));
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || value === null) continue;
    setMember(result, key, mergePatch(isPlainObject(target) ? target[key] : undefined, value));
  }
  return result;
}

/**
 * {@link mergePatch} of a JSON object `target` that the caller owns and gives up: the patch is
 * applied to `target` itself, which is returned. Members the patch does not touch are kept, not
 * copied (a large object patched in one place costs no copy); the patch's values are copied.
 * Members come out in the order `mergePatch` gives them: those the patch leaves alone in their
 * place, then those it sets, in the patch's order.
 *
 * @example
 * ```ts
 * const doc = { a: 1, b: { c: 2, d: 3 }, e: 4 };
 * mergePatchInPlace(doc, { b: { d: null } }); // doc is now { a: 1, e: 4, b: { c: 2 } }
 * ```
 */
export function mergePatchInPlace(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === undefined) continue;
    const own = Object.hasOwn(target, key);
    if (value === null) {
      if (own) delete target[key];
      continue;
    }
    const current = target[key];
    const merged = isPlainObject(value) && own && isPlainObject(current) ? mergePatchInPlace(current, value) : mergePatch(current, value);
    // Set last, as mergePatch places the members a patch sets.
    if (own) delete target[key];
    setMember(target, key, merged);
  }
  return target;
}
