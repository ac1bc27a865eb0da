/**
 * Drift that server-side apply alone did not undo, corrected item by item with a JSON patch
 * after the apply. Only the Builder's own list items are touched: in a map list the items with
 * a desired key, in a set the desired values, and an atomic list as a whole (apply owns it
 * whole). Items another manager added, or re-keyed away from ours, are theirs and stay.
 */
import type { SameScalar } from "./scalars.ts";
import { type ListKinds, matchingItems, POSITIONAL } from "./list-items.ts";
import { isSubset } from "./desired.ts";

/** A JSON-patch operation. */
export interface PatchOp {
  op: "add" | "replace";
  path: string;
  value: unknown;
}

/**
 * The JSON-patch ops that make every desired field of `live` equal to `desired`: a desired
 * item missing from a map list or set is appended, a matching item is corrected field by
 * field, an atomic or unknown list that differs in length is replaced whole, scalars that
 * differ are replaced, missing fields are added. Fields and items `live` holds beyond
 * `desired` are left alone.
 */
export function driftPatch(desired: unknown, live: unknown, same: SameScalar, lists: ListKinds = POSITIONAL, path = "", at: (string | number)[] = []): PatchOp[] {
  if (Array.isArray(desired)) {
    if (!Array.isArray(live)) return [{ op: "replace", path, value: desired }];
    const kind = lists(at.filter((s): s is string => typeof s === "string"));
    if (kind && kind.type !== "atomic") {
      return desired.flatMap((d) => {
        const found = matchingItems(d, live, kind);
        if (found.length === 0) return [{ op: "add" as const, path: `${path}/-`, value: d }];
        if (found.some((i) => isSubset(d, live[i], same, lists, [...at, i]))) return [];
        return driftPatch(d, live[found[0]!], same, lists, `${path}/${found[0]}`, [...at, found[0]!]);
      });
    }
    if (live.length !== desired.length) return [{ op: "replace", path, value: desired }];
    return desired.flatMap((d, i) => driftPatch(d, live[i], same, lists, `${path}/${i}`, [...at, i]));
  }
  if (desired !== null && typeof desired === "object") {
    if (live === null || typeof live !== "object" || Array.isArray(live)) return [{ op: path ? "replace" : "add", path, value: desired }];
    const ops: PatchOp[] = [];
    for (const [k, v] of Object.entries(desired)) {
      if (v === undefined) continue;
      const child = `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      const lv = (live as Record<string, unknown>)[k];
      if (lv === undefined) ops.push({ op: "add", path: child, value: v });
      else ops.push(...driftPatch(v, lv, same, lists, child, [...at, k]));
    }
    return ops;
  }
  return desired === live || same(desired, live, at) ? [] : [{ op: "replace", path, value: desired }];
}
