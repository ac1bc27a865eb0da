/**
 * Scalar equality for drift detection: the API server canonicalizes resource quantities
 * (`0.5` → `500m`, `1024Mi` → `1Gi`), so two quantity strings are equal when their values are.
 */
import { parseQuantity } from "../../builders/index.ts";

/** True when `a` and `b` are the same value, or quantity strings of the same amount. */
export function sameQuantityOrValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "string" || typeof b !== "string") return false;
  if (!/^[+-]?[0-9.]/.test(a) || !/^[+-]?[0-9.]/.test(b)) return false;
  const qa = safeParse(a);
  const qb = safeParse(b);
  return qa !== undefined && qa === qb;
}

function safeParse(text: string): number | undefined {
  try {
    const v = parseQuantity(text);
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
