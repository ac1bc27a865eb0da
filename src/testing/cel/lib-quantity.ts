/**
 * Kubernetes' CEL quantity library (`quantity()`, `isQuantity`, `sign`, `isGreaterThan`,
 * `isLessThan`, `compareTo`, `add`, `sub`, `asInteger`, `asApproximateFloat`, `isInteger`), with
 * apimachinery's `resource.ParseQuantity` rules computed exactly (bigint), including which values
 * apimachinery keeps as an int64 amount (so `isInteger` / `asInteger` answer as it does:
 * `quantity("1000m").isInteger()` is false there, the value being stored as 1000 × 10⁻³).
 *
 * @module
 */
import { CelScalar, celFunc, celMethod } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { opaqueType } from "./lib-opaque.ts";

/**
 * A parsed quantity: `mant × 10^exp`. `int` is true while apimachinery would hold it as an
 * `int64Amount` (mantissa within int64), false once it is an `inf.Dec`.
 */
export interface ParsedQuantity {
  readonly int: boolean;
  readonly mant: bigint;
  readonly exp: number;
}

const SPLIT_RE = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
/** apimachinery's `ErrFormatWrong`. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${SPLIT_RE}'`;
/** apimachinery's `ErrNumeric`. */
export const QUANTITY_NUMERIC_ERROR = "unable to parse numeric part of quantity";
/** apimachinery's `ErrSuffix`. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const fitsInt64 = (v: bigint) => v >= INT64_MIN && v <= INT64_MAX;
const DIGITS = /^[0-9]$/;
const SUFFIX_CHARS = "eEinumkKMGTP";

const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** apimachinery's `parseQuantityString`, a scanner that splits sign, digits and suffix. */
function scan(str: string): Scanned | string {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === "-" || str[0] === "+") {
    positive = str[0] === "+";
    pos++;
  }
  while (pos < end && str[pos] === "0") pos++;
  if (pos >= end) return { positive, value: "0", num: "0", denom: "", suffix: "" };
  let i = pos;
  while (i < end && DIGITS.test(str[i]!)) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: "", suffix: "" };
  const num = str.slice(pos, i) || "0";
  pos = i;
  let denom = "";
  if (str[pos] === ".") {
    pos++;
    i = pos;
    while (i < end && DIGITS.test(str[i]!)) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: "" };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos]!)) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === "-" || str[pos] === "+") pos++;
  while (pos < end && DIGITS.test(str[pos]!)) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  return QUANTITY_FORMAT_ERROR;
}

type Suffix = { base: 2 | 10; exponent: number; format: "DecimalSI" | "BinarySI" | "DecimalExponent" };

function interpret(suffix: string): Suffix | undefined {
  const dec = DECIMAL[suffix];
  if (dec !== undefined) return { base: 10, exponent: dec, format: "DecimalSI" };
  const bin = BINARY[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E")) {
    const rest = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(rest)) return undefined;
    const n = Number(rest);
    if (n > 2 ** 31 - 1 || n < -(2 ** 31)) return undefined;
    return { base: 10, exponent: n, format: "DecimalExponent" };
  }
  return undefined;
}

/** `inf.Dec.SetString` of the numeric part: sign, digits, optional fraction. */
function decimalOf(value: string): { mant: bigint; exp: number } | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const frac = m[3] ?? "";
  const mant = BigInt(`${m[1] === "-" ? "-" : ""}${m[2]}${frac}` || "0");
  return { mant, exp: -frac.length };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/**
 * apimachinery's `resource.ParseQuantity`: the quantity `str` denotes, or the error message
 * kube-apiserver gives for it.
 *
 * @example
 * ```ts
 * import { parseQuantityExact } from "./lib-quantity.ts";
 * parseQuantityExact("1.5Gi"); // { int: false, mant: 1610612736000000000n, exp: -9 }
 * parseQuantityExact("200K");  // "unable to parse quantity's suffix"
 * ```
 */
export function parseQuantityExact(str: string): ParsedQuantity | string {
  if (str.length === 0) return QUANTITY_FORMAT_ERROR;
  if (str === "0") return { int: true, mant: 0n, exp: 0 };
  const scanned = scan(str);
  if (typeof scanned === "string") return scanned;
  const { positive, value, num, denom } = scanned;
  const suffix = interpret(scanned.suffix);
  if (suffix === undefined) return QUANTITY_SUFFIX_ERROR;

  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (suffix.format === "BinarySI") {
    if (suffix.exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(suffix.exponent);
      precision = 15 - num.length - Math.trunc(Math.fround((suffix.exponent * 3) / 10)) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = suffix.exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = BigInt(num + denom);
      if (!fitsInt64(shifted)) return QUANTITY_NUMERIC_ERROR;
      const result = shifted * mantissa;
      if (fitsInt64(result)) return { int: true, mant: positive ? result : -result, exp: scale };
    }
  }

  const amount = decimalOf(value);
  if (amount === undefined) return QUANTITY_NUMERIC_ERROR;
  let { mant, exp } = amount;
  if (suffix.base === 10) exp += suffix.exponent;
  else mant *= 1n << BigInt(suffix.exponent);
  const negative = mant < 0n;
  if (negative) mant = -mant;
  if (mant !== 0n) {
    // inf.Dec.Round(amount, 9, RoundUp): exactly nine decimals, rounded away from zero.
    if (exp < -9) {
      const div = pow10(-9 - exp);
      mant = (mant + div - 1n) / div;
    } else {
      mant *= pow10(exp + 9);
    }
    exp = -9;
  }
  if (suffix.format === "BinarySI" && cmpParts(mant, exp, INT64_MAX, 0) > 0) {
    mant = INT64_MAX;
    exp = 0;
  }
  return { int: false, mant: negative ? -mant : mant, exp };
}

function cmpParts(am: bigint, ae: number, bm: bigint, be: number): number {
  const e = Math.min(ae, be);
  const a = am * pow10(ae - e);
  const b = bm * pow10(be - e);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `resource.Quantity.Cmp`: -1, 0 or 1.
 *
 * @example
 * ```ts
 * import { compareQuantities, parseQuantityExact, type ParsedQuantity } from "./lib-quantity.ts";
 * const q = (s: string) => parseQuantityExact(s) as ParsedQuantity;
 * compareQuantities(q("200M"), q("0.2G")); // 0
 * ```
 */
export function compareQuantities(a: ParsedQuantity, b: ParsedQuantity): number {
  return cmpParts(a.mant, a.exp, b.mant, b.exp);
}

/** The equality key: the exact value with trailing zeros folded into the exponent. */
function keyOf(q: ParsedQuantity): string {
  if (q.mant === 0n) return "0";
  let { mant, exp } = q;
  while (mant % 10n === 0n) {
    mant /= 10n;
    exp++;
  }
  return `${mant}e${exp}`;
}

function fromKey(key: string): ParsedQuantity {
  const [m, e] = key.split("e");
  return { int: false, mant: BigInt(m!), exp: Number(e ?? 0) };
}

/** `positiveScaleInt64`: base × 10^scale when it fits in int64. */
function scaleUp(base: bigint, scale: number): bigint | undefined {
  const v = base * pow10(scale);
  return fitsInt64(v) ? v : undefined;
}

/** `int64Amount.Add`, or undefined when apimachinery falls back to `inf.Dec`. */
function addInt64(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity | undefined {
  if (b.mant === 0n) return a;
  if (a.mant === 0n) return b;
  let av = a.mant;
  let bv = b.mant;
  let scale = a.exp;
  if (a.exp > b.exp) {
    const c = scaleUp(a.mant, a.exp - b.exp);
    if (c === undefined) return undefined;
    av = c;
    scale = b.exp;
  } else if (a.exp < b.exp) {
    const c = scaleUp(b.mant, b.exp - a.exp);
    if (c === undefined) return undefined;
    bv = c;
  }
  const sum = av + bv;
  return fitsInt64(sum) ? { int: true, mant: sum, exp: scale } : undefined;
}

/**
 * `resource.Quantity.Add`.
 *
 * @example
 * ```ts
 * import { addQuantities, parseQuantityExact, type ParsedQuantity } from "./lib-quantity.ts";
 * const q = (s: string) => parseQuantityExact(s) as ParsedQuantity;
 * addQuantities(q("50k"), q("20")); // { int: true, mant: 50020n, exp: 0 }
 * ```
 */
export function addQuantities(a: ParsedQuantity, b: ParsedQuantity): ParsedQuantity {
  if (a.int && b.int) {
    const sum = addInt64(a, b);
    if (sum !== undefined) return sum;
  }
  const e = Math.min(a.exp, b.exp);
  return { int: false, mant: a.mant * pow10(a.exp - e) + b.mant * pow10(b.exp - e), exp: e };
}

const negate = (q: ParsedQuantity): ParsedQuantity => ({ ...q, mant: -q.mant });

/**
 * `resource.Quantity.AsInt64`: the value as an int64, or undefined when apimachinery cannot
 * convert it (an `inf.Dec` amount, a negative scale, or an overflow).
 *
 * @example
 * ```ts
 * import { quantityAsInt64, parseQuantityExact, type ParsedQuantity } from "./lib-quantity.ts";
 * quantityAsInt64(parseQuantityExact("50k") as ParsedQuantity); // 50000n
 * ```
 */
export function quantityAsInt64(q: ParsedQuantity): bigint | undefined {
  if (!q.int) return undefined;
  if (q.exp === 0) return q.mant;
  if (q.exp < 0) return undefined;
  return scaleUp(q.mant, q.exp);
}

const POW10_TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

/** Go's `math.Pow10`, with its table arithmetic (so results match to the last bit). */
function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.trunc(n / 32)]! * POW10_TAB[n % 32]!;
  if (n < 0 && n >= -323) return POW10_NEG32[Math.trunc(-n / 32)]! / POW10_TAB[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/** `resource.Quantity.AsApproximateFloat64`. */
function approximateFloat(q: ParsedQuantity): number {
  const base = Number(q.mant);
  return q.exp === 0 ? base : base * goPow10(q.exp);
}

const quantityT = opaqueType<ParsedQuantity>("kubernetes.Quantity", fromKey);
const wrap = (q: ParsedQuantity) => quantityT.wrap(q, keyOf(q));
const Q = quantityT.type;
const { STRING, BOOL, INT, DOUBLE } = CelScalar;

/**
 * The quantity library's functions, as kube-apiserver 1.36 declares them (`sign` is a global
 * function there: `sign(quantity("1"))`).
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { QUANTITY_FUNCS } from "./lib-quantity.ts";
 * run('quantity("1Gi").isGreaterThan(quantity("1G"))', {}, { funcs: [...QUANTITY_FUNCS] }); // true
 * ```
 */
export const QUANTITY_FUNCS: readonly CelFunc[] = [
  celFunc("quantity", [STRING], Q, (s) => {
    const q = parseQuantityExact(s);
    if (typeof q === "string") throw new Error(q);
    return wrap(q);
  }),
  celFunc("isQuantity", [STRING], BOOL, (s) => typeof parseQuantityExact(s) !== "string"),
  celFunc("sign", [Q], INT, (q) => BigInt(Math.sign(Number(quantityT.unwrap(q).mant)))),
  celMethod("isGreaterThan", Q, [Q], BOOL, function (o) {
    return compareQuantities(quantityT.unwrap(this), quantityT.unwrap(o)) === 1;
  }),
  celMethod("isLessThan", Q, [Q], BOOL, function (o) {
    return compareQuantities(quantityT.unwrap(this), quantityT.unwrap(o)) === -1;
  }),
  celMethod("compareTo", Q, [Q], INT, function (o) {
    return BigInt(compareQuantities(quantityT.unwrap(this), quantityT.unwrap(o)));
  }),
  celMethod("asApproximateFloat", Q, [], DOUBLE, function () {
    return approximateFloat(quantityT.unwrap(this));
  }),
  celMethod("asInteger", Q, [], INT, function () {
    const v = quantityAsInt64(quantityT.unwrap(this));
    if (v === undefined) throw new Error("cannot convert value to integer");
    return v;
  }),
  celMethod("isInteger", Q, [], BOOL, function () {
    return quantityAsInt64(quantityT.unwrap(this)) !== undefined;
  }),
  celMethod("add", Q, [Q], Q, function (o) {
    return wrap(addQuantities(quantityT.unwrap(this), quantityT.unwrap(o)));
  }),
  celMethod("add", Q, [INT], Q, function (n) {
    return wrap(addQuantities(quantityT.unwrap(this), { int: true, mant: n, exp: 0 }));
  }),
  celMethod("sub", Q, [Q], Q, function (o) {
    return wrap(addQuantities(quantityT.unwrap(this), negate(quantityT.unwrap(o))));
  }),
  celMethod("sub", Q, [INT], Q, function (n) {
    return wrap(addQuantities(quantityT.unwrap(this), { int: true, mant: -n, exp: 0 }));
  }),
];
