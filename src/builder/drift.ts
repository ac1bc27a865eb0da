/**
 * Drift that server-side apply alone cannot undo: list items another manager added or
 * re-keyed (someone edits a Service port, a container is added by hand). Apply merges list
 * items by key and keeps items others own, so the Builder replaces such lists with a JSON
 * patch after the apply.
 */
import type { SameScalar } from "./scalars.ts";

/** A JSON-patch operation. */
export interface PatchOp {
  op: "add" | "replace";
  path: string;
  value: unknown;
}

/**
 * The JSON-patch ops that make every desired field of `live` equal to `desired`: lists that
 * differ in length or in an item are replaced whole, scalars that differ are replaced, missing
 * fields are added. Fields `live` holds beyond `desired` are left alone.
 */
export function driftPatch(desired: unknown, live: unknown, same: SameScalar, path = "", at: (string | number)[] = []): PatchOp[] {
  if (Array.isArray(desired)) {
    if (!Array.isArray(live) || live.length !== desired.length) return [{ op: "replace", path, value: desired }];
    return desired.flatMap((d, i) => driftPatch(d, live[i], same, `${path}/${i}`, [...at, i]));
  }
  if (desired !== null && typeof desired === "object") {
    if (live === null || typeof live !== "object" || Array.isArray(live)) return [{ op: path ? "replace" : "add", path, value: desired }];
    const ops: PatchOp[] = [];
    for (const [k, v] of Object.entries(desired)) {
      if (v === undefined) continue;
      const child = `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      const lv = (live as Record<string, unknown>)[k];
      if (lv === undefined) ops.push({ op: "add", path: child, value: v });
      else ops.push(...driftPatch(v, lv, same, child, [...at, k]));
    }
    return ops;
  }
  return desired === live || same(desired, live, at) ? [] : [{ op: "replace", path, value: desired }];
}
