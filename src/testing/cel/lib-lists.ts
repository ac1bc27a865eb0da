/**
 * Kubernetes' CEL lists library (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf` on
 * lists) and cel-go's sets extension (`sets.contains`, `sets.equivalent`, `sets.intersects`),
 * which kube-apiserver enables for CRD validation rules since 1.29.
 *
 * Equality, ordering and addition are CEL's own (`==`, `<`, `+` of `@bufbuild/cel`), so
 * cross-type numeric comparisons (`[1, 2.5].max()`) behave as in kube-apiserver.
 *
 * @module
 */
import { CelScalar, celEnv, celFunc, celMethod, isCelError, listType } from "@bufbuild/cel";
import type { CelFunc, CelList, CelValue } from "@bufbuild/cel";

const std = celEnv().funcs;

function stdCall(name: string, a: CelValue, b: CelValue): unknown {
  const result = std.find(name)?.call(0, undefined, [a, b]);
  if (isCelError(result)) throw result;
  return result;
}

/**
 * CEL equality (`==`) of two values.
 *
 * @example
 * ```ts
 * import { celEquals } from "./lib-lists.ts";
 * // inside a CEL function implementation only (it needs the evaluation context)
 * typeof celEquals;
 * ```
 */
export function celEquals(a: CelValue, b: CelValue): boolean {
  return stdCall("_==_", a, b) === true;
}

/** CEL ordering: -1, 0, 1, or undefined when `<` has no overload for the pair. */
function celCompare(a: CelValue, b: CelValue): number | undefined {
  const lt = stdCall("_<_", a, b);
  if (lt === undefined) return undefined;
  if (lt === true) return -1;
  return stdCall("_>_", a, b) === true ? 1 : 0;
}

function comparable(v: CelValue, fn: string): void {
  if (celCompare(v, v) === undefined) throw new Error(`no such overload: ${fn} on a list of ${typeName(v)}`);
}

function typeName(v: CelValue): string {
  const t = std.find("type")?.call(0, undefined, [v]);
  return t === undefined || isCelError(t) ? typeof v : String(t);
}

function extreme(list: CelList, name: "min" | "max"): CelValue {
  if (list.size === 0) throw new Error(`${name} called on empty list`);
  let result = list.get(0)!;
  comparable(result, name);
  for (let i = 1; i < list.size; i++) {
    const next = list.get(i)!;
    comparable(next, name);
    const cmp = celCompare(result, next);
    if (cmp === (name === "min" ? 1 : -1)) result = next;
  }
  return result;
}

const LIST = listType(CelScalar.DYN);
const { BOOL, DYN, INT } = CelScalar;

function contains(list: CelList, item: CelValue): boolean {
  for (const v of list) if (celEquals(v, item)) return true;
  return false;
}

/**
 * The lists library and the sets extension.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { LIST_FUNCS } from "./lib-lists.ts";
 * run("[1, 2, 3].isSorted() && sets.contains([1, 2], [2])", {}, { funcs: [...LIST_FUNCS] }); // true
 * ```
 */
export const LIST_FUNCS: readonly CelFunc[] = [
  celMethod("isSorted", LIST, [], BOOL, function () {
    let prev: CelValue | undefined;
    for (const next of this) {
      comparable(next, "isSorted");
      if (prev !== undefined && celCompare(prev, next) === 1) return false;
      prev = next;
    }
    return true;
  }),
  celMethod("sum", LIST, [], DYN, function () {
    let acc: CelValue | undefined;
    for (const next of this) {
      if (acc === undefined) {
        if (stdCall("_+_", next, next) === undefined) throw new Error(`no such overload: sum on a list of ${typeName(next)}`);
        acc = next;
        continue;
      }
      const s = stdCall("_+_", acc, next);
      if (s === undefined) throw new Error(`no such overload: ${typeName(acc)} + ${typeName(next)}`);
      acc = s as CelValue;
    }
    return acc ?? 0n;
  }),
  celMethod("min", LIST, [], DYN, function () {
    return extreme(this, "min");
  }),
  celMethod("max", LIST, [], DYN, function () {
    return extreme(this, "max");
  }),
  celMethod("indexOf", LIST, [DYN], INT, function (item) {
    for (let i = 0; i < this.size; i++) if (celEquals(this.get(i)!, item)) return BigInt(i);
    return -1n;
  }),
  celMethod("lastIndexOf", LIST, [DYN], INT, function (item) {
    for (let i = this.size - 1; i >= 0; i--) if (celEquals(this.get(i)!, item)) return BigInt(i);
    return -1n;
  }),
  celFunc("sets.contains", [LIST, LIST], BOOL, (list, sub) => {
    for (const v of sub) if (!contains(list, v)) return false;
    return true;
  }),
  celFunc("sets.equivalent", [LIST, LIST], BOOL, (a, b) => {
    for (const v of b) if (!contains(a, v)) return false;
    for (const v of a) if (!contains(b, v)) return false;
    return true;
  }),
  celFunc("sets.intersects", [LIST, LIST], BOOL, (a, b) => {
    for (const v of b) if (contains(a, v)) return true;
    return false;
  }),
];
