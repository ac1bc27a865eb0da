/**
 * Kubernetes' CEL semver library, version 1 as kube-apiserver 1.36 enables it (`semver()`,
 * `isSemver` with the optional `normalize` argument, `major`, `minor`, `patch`,
 * `isGreaterThan`, `isLessThan`, `compareTo`), following github.com/blang/semver/v4's `Parse`
 * and its error texts.
 *
 * @module
 */
import { CelScalar, celFunc, celMethod } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { opaqueType } from "./lib-opaque.ts";

/** One pre-release identifier: a number or an alphanumeric string. */
export type PreRelease = { readonly num: bigint } | { readonly str: string };

/** A parsed semantic version (build metadata kept, ignored by comparisons). */
export interface ParsedSemver {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly PreRelease[];
  readonly build: readonly string[];
}

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const UINT64_MAX = (1n << 64n) - 1n;

class SemverError extends Error {}

function parseUint(s: string): bigint {
  if (s === "" || BigInt(s) > UINT64_MAX) {
    throw new SemverError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: ${s === "" ? "invalid syntax" : "value out of range"}`);
  }
  return BigInt(s);
}

function number(s: string, what: string): bigint {
  if (!NUMBERS.test(s)) throw new SemverError(`Invalid character(s) found in ${what.toLowerCase()} number ${JSON.stringify(s)}`);
  if (s.length > 1 && s[0] === "0") throw new SemverError(`${what} number must not contain leading zeroes ${JSON.stringify(s)}`);
  return parseUint(s);
}

/** blang/semver `Parse`; throws its error. */
function blangParse(s: string): ParsedSemver {
  if (s.length === 0) throw new SemverError("Version string empty");
  const first = s.indexOf(".");
  const second = first < 0 ? -1 : s.indexOf(".", first + 1);
  if (second < 0) throw new SemverError("No Major.Minor.Patch elements found");
  const major = number(s.slice(0, first), "Major");
  const minor = number(s.slice(first + 1, second), "Minor");
  let patchStr = s.slice(second + 1);
  let build: string[] = [];
  let preStrs: string[] = [];
  const plus = patchStr.indexOf("+");
  if (plus >= 0) {
    build = patchStr.slice(plus + 1).split(".");
    patchStr = patchStr.slice(0, plus);
  }
  const dash = patchStr.indexOf("-");
  if (dash >= 0) {
    preStrs = patchStr.slice(dash + 1).split(".");
    patchStr = patchStr.slice(0, dash);
  }
  const patch = number(patchStr, "Patch");
  const pre = preStrs.map((p): PreRelease => {
    if (p.length === 0) throw new SemverError("Prerelease is empty");
    if (NUMBERS.test(p)) {
      if (p.length > 1 && p[0] === "0") throw new SemverError(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(p)}`);
      return { num: parseUint(p) };
    }
    if (ALPHANUM.test(p)) return { str: p };
    throw new SemverError(`Invalid character(s) found in prerelease ${JSON.stringify(p)}`);
  });
  for (const b of build) {
    if (b.length === 0) throw new SemverError("Build meta data is empty");
    if (!ALPHANUM.test(b)) throw new SemverError(`Invalid character(s) found in build meta data ${JSON.stringify(b)}`);
  }
  return { major, minor, patch, pre, build };
}

/** The library's `normalizeAndParse`: drop a leading "v", fill minor/patch, strip leading zeros. */
function normalizeAndParse(input: string): ParsedSemver {
  const s = input.startsWith("v") ? input.slice(1) : input;
  const parts: string[] = [];
  let rest = s;
  while (parts.length < 2) {
    const dot = rest.indexOf(".");
    if (dot < 0) break;
    parts.push(rest.slice(0, dot));
    rest = rest.slice(dot + 1);
  }
  parts.push(rest);
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i]!;
    if (p.length > 1) {
      p = p.replace(/^0+/, "");
      if (p.length === 0 || !/^[0-9]/.test(p)) p = `0${p}`;
      parts[i] = p;
    }
  }
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) throw new SemverError("short version cannot contain PreRelease/Build meta data");
    while (parts.length < 3) parts.push("0");
  }
  return blangParse(parts.join("."));
}

/**
 * `semver(s[, normalize])`: the version, or the error kube-apiserver reports.
 *
 * @example
 * ```ts
 * import { parseSemver } from "./lib-semver.ts";
 * (parseSemver("v1.2", true) as { minor: bigint }).minor; // 2n
 * parseSemver("1.0"); // "No Major.Minor.Patch elements found"
 * ```
 */
export function parseSemver(s: string, normalize = false): ParsedSemver | string {
  try {
    return normalize ? normalizeAndParse(s) : blangParse(s);
  } catch (e) {
    if (e instanceof SemverError) return e.message;
    throw e;
  }
}

const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

function comparePre(a: PreRelease, b: PreRelease): number {
  if ("num" in a && "num" in b) return cmp(a.num, b.num);
  if ("num" in a) return -1;
  if ("num" in b) return 1;
  return a.str < b.str ? -1 : a.str > b.str ? 1 : 0;
}

/**
 * blang/semver `Version.Compare`: -1, 0 or 1; build metadata is ignored.
 *
 * @example
 * ```ts
 * import { compareSemver, parseSemver, type ParsedSemver } from "./lib-semver.ts";
 * const v = (s: string) => parseSemver(s) as ParsedSemver;
 * compareSemver(v("1.0.0-alpha"), v("1.0.0")); // -1
 * ```
 */
export function compareSemver(a: ParsedSemver, b: ParsedSemver): number {
  const head = cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch);
  if (head !== 0) return head;
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = comparePre(a.pre[i]!, b.pre[i]!);
    if (c !== 0) return c;
  }
  return cmp(BigInt(a.pre.length), BigInt(b.pre.length));
}

/** The equality key: the version without build metadata (which `Equals` ignores). */
function keyOf(v: ParsedSemver): string {
  const pre = v.pre.map((p) => ("num" in p ? String(p.num) : p.str)).join(".");
  return `${v.major}.${v.minor}.${v.patch}${pre === "" ? "" : `-${pre}`}`;
}

const semverT = opaqueType<ParsedSemver>("kubernetes.Semver", (key) => blangParse(key));
const S = semverT.type;
const { STRING, BOOL, INT } = CelScalar;

function semverOrThrow(s: string, normalize: boolean) {
  const v = parseSemver(s, normalize);
  if (typeof v === "string") throw new Error(v);
  return semverT.wrap(v, keyOf(v));
}

/**
 * The semver library.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { SEMVER_FUNCS } from "./lib-semver.ts";
 * run("semver('1.2.3').isLessThan(semver('1.10.0'))", {}, { funcs: [...SEMVER_FUNCS] }); // true
 * ```
 */
export const SEMVER_FUNCS: readonly CelFunc[] = [
  celFunc("semver", [STRING], S, (s) => semverOrThrow(s, false)),
  celFunc("semver", [STRING, BOOL], S, (s, normalize) => semverOrThrow(s, normalize)),
  celFunc("isSemver", [STRING], BOOL, (s) => typeof parseSemver(s) !== "string"),
  celFunc("isSemver", [STRING, BOOL], BOOL, (s, normalize) => typeof parseSemver(s, normalize) !== "string"),
  celMethod("major", S, [], INT, function () {
    return BigInt.asIntN(64, semverT.unwrap(this).major);
  }),
  celMethod("minor", S, [], INT, function () {
    return BigInt.asIntN(64, semverT.unwrap(this).minor);
  }),
  celMethod("patch", S, [], INT, function () {
    return BigInt.asIntN(64, semverT.unwrap(this).patch);
  }),
  celMethod("isGreaterThan", S, [S], BOOL, function (o) {
    return compareSemver(semverT.unwrap(this), semverT.unwrap(o)) === 1;
  }),
  celMethod("isLessThan", S, [S], BOOL, function (o) {
    return compareSemver(semverT.unwrap(this), semverT.unwrap(o)) === -1;
  }),
  celMethod("compareTo", S, [S], INT, function (o) {
    return BigInt(compareSemver(semverT.unwrap(this), semverT.unwrap(o)));
  }),
];
