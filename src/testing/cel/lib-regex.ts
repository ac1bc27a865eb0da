/**
 * Kubernetes' CEL regex library: `<string>.find(<regex>)` and `<string>.findAll(<regex>[, n])`.
 *
 * Patterns are RE2 (as Go's `regexp`): a pattern is first checked with the RE2 parser
 * `@bufbuild/cel` itself uses for `matches`, so an invalid one fails as in kube-apiserver, then
 * translated to an equivalent JavaScript `RegExp` (Unicode mode) to find match positions.
 *
 * @module
 */
import { CelScalar, celMethod, listType } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { RE2JS } from "@bufbuild/re2";

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-/:-@[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Characters JavaScript's Unicode mode lets a backslash escape outside a class. */
const JS_SYNTAX = "^$\\.*+?()[]{}|/";

function literal(ch: string): string {
  return JS_SYNTAX.includes(ch) ? `\\${ch}` : ch === "-" ? "\\-" : ch;
}

/** An RE2 Unicode class name as JavaScript spells it: categories as they are, scripts as `Script=`. */
function unicodeClass(name: string): string {
  return name.length <= 2 || name === "Any" ? name : `Script=${name}`;
}

/** The escape at `p[i]` (just past the backslash): its JavaScript form and the next index. */
function escape(p: string, i: number, inClass: boolean): [string, number] {
  const c = p[i] ?? "";
  if (c === "p" || c === "P") {
    if (p[i + 1] === "{") {
      const close = p.indexOf("}", i);
      let name = p.slice(i + 2, close);
      let kind = c;
      if (name.startsWith("^")) {
        name = name.slice(1);
        kind = c === "p" ? "P" : "p";
      }
      return [`\\${kind}{${unicodeClass(name)}}`, close + 1];
    }
    return [`\\${c}{${p[i + 1]}}`, i + 2];
  }
  if (c === "x" && p[i + 1] === "{") {
    const close = p.indexOf("}", i);
    return [`\\u{${p.slice(i + 2, close)}}`, close + 1];
  }
  if (c === "Q") {
    const end = p.indexOf("\\E", i);
    const text = end < 0 ? p.slice(i + 1) : p.slice(i + 1, end);
    const out = [...text].map((ch) => (inClass ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : literal(ch))).join("");
    return [out, end < 0 ? p.length : end + 2];
  }
  if (!inClass && c === "A") return ["(?<![\\s\\S])", i + 1];
  if (!inClass && c === "z") return ["(?![\\s\\S])", i + 1];
  if (c === "C") return ["[\\s\\S]", i + 1];
  if (/[0-7]/.test(c)) {
    const m = /^[0-7]{1,3}/.exec(p.slice(i))![0];
    return [`\\u{${parseInt(m, 8).toString(16)}}`, i + m.length];
  }
  if (/[A-Za-z0-9]/.test(c)) return [`\\${c}`, i + 1];
  return [inClass ? `\\u{${c.codePointAt(0)!.toString(16)}}` : literal(c), i + c.length];
}

/**
 * Translates an RE2 pattern (already known valid) to a JavaScript `RegExp` source for the
 * `u` flag: `(?P<n>` groups, `(?flags)` scopes, POSIX classes, `\A` `\z` `\Q…\E`, `\x{…}`.
 *
 * @example
 * ```ts
 * import { re2ToJs } from "./lib-regex.ts";
 * re2ToJs("(?i)ab[[:digit:]]+"); // "(?i:ab[0-9]+)"
 * ```
 */
export function re2ToJs(p: string): string {
  let out = "";
  /** For each open group, the `(?flags:` scopes opened inside it, closed with it. */
  const scopes: string[][] = [[]];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "\\") {
      const [js, next] = escape(p, i + 1, false);
      out += js;
      i = next;
    } else if (c === "[") {
      let cls = "[";
      i++;
      if (p[i] === "^") {
        cls += "^";
        i++;
      }
      let first = true;
      while (i < p.length && (p[i] !== "]" || first)) {
        first = false;
        if (p.startsWith("[:", i)) {
          const close = p.indexOf(":]", i);
          const name = p.slice(i + 2, close);
          const neg = name.startsWith("^");
          const set = POSIX[neg ? name.slice(1) : name] ?? "";
          cls += neg ? negatedPosix(set) : set;
          i = close + 2;
        } else if (p[i] === "\\") {
          const [js, next] = escape(p, i + 1, true);
          cls += js;
          i = next;
        } else {
          const ch = String.fromCodePoint(p.codePointAt(i)!);
          cls += ch === "[" || ch === "/" || ch === "{" || ch === "}" || ch === "(" || ch === ")" || ch === "|" ? `\\${ch}` : ch;
          i += ch.length;
        }
      }
      out += `${cls}]`;
      i++;
    } else if (c === "(") {
      if (p.startsWith("(?P<", i)) {
        out += "(?<";
        i += 4;
        scopes.push([]);
      } else if (p[i + 1] === "?" && p[i + 2] !== "<") {
        const m = /^\(\?([imsU-]*)(:|\))/.exec(p.slice(i))!;
        const flags = jsFlags(m[1]!);
        if (m[2] === ":") {
          out += flags === "" ? "(?:" : `(?${flags}:`;
          scopes.push([]);
        } else if (flags !== "") {
          out += `(?${flags}:`;
          scopes[scopes.length - 1]!.push(flags);
        }
        i += m[0].length;
      } else {
        out += "(";
        i++;
        scopes.push([]);
      }
    } else if (c === ")") {
      out += ")".repeat(scopes.pop()?.length ?? 0) + ")";
      i++;
    } else if (c === "|") {
      // RE2 flags hold to the end of the group, across alternatives: reopen them after `|`.
      const open = scopes[scopes.length - 1]!;
      out += ")".repeat(open.length) + "|" + open.map((f) => `(?${f}:`).join("");
      i++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
      if (m && out !== "") {
        out += m[0];
        i += m[0].length;
      } else {
        out += "\\{";
        i++;
      }
    } else if (c === "}") {
      out += "\\}";
      i++;
    } else if (c === "/") {
      out += "\\/";
      i++;
    } else {
      const ch = String.fromCodePoint(p.codePointAt(i)!);
      out += ch;
      i += ch.length;
    }
  }
  return out + ")".repeat(scopes[0]?.length ?? 0);
}

function negatedPosix(set: string): string {
  // A negated POSIX class inside a bracket: JavaScript has no nested negation without the v
  // flag, so spell the complement of the (ASCII) set as ranges.
  const inSet = new Set<number>();
  const re = new RegExp(`[${set}]`, "u");
  for (let cp = 0; cp < 128; cp++) if (re.test(String.fromCodePoint(cp))) inSet.add(cp);
  let ranges = "";
  let start = -1;
  for (let cp = 0; cp <= 128; cp++) {
    const outside = cp === 128 || !inSet.has(cp);
    if (outside && start < 0) start = cp;
    if ((!outside || cp === 128) && start >= 0) {
      const end = cp === 128 ? 0x10ffff : cp - 1;
      ranges += `\\u{${start.toString(16)}}-\\u{${end.toString(16)}}`;
      start = -1;
    }
  }
  return ranges;
}

function jsFlags(flags: string): string {
  // U (ungreedy) has no JavaScript equivalent; i, m, s map one to one.
  const [on = "", off = ""] = flags.replaceAll("U", "").split("-");
  return off === "" ? on : `${on}-${off}`;
}

const compiled = new Map<string, RegExp>();

/** The JavaScript RegExp (global, Unicode) for an RE2 pattern; throws Go's parse error. */
function regexOf(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      RE2JS.compile(pattern);
    } catch (e) {
      throw new Error((e as Error).message);
    }
    try {
      re = new RegExp(re2ToJs(pattern), "gu");
    } catch (e) {
      throw new Error(`LocalCluster cannot evaluate the RE2 pattern ${JSON.stringify(pattern)} (its JavaScript translation fails: ${(e as Error).message})`);
    }
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * Go's `FindAllString(s, n)`: non-overlapping leftmost matches; an empty match right after
 * the previous match is skipped. `n < 0` means all.
 *
 * @example
 * ```ts
 * import { findAll } from "./lib-regex.ts";
 * findAll("123 abc 456", "[0-9]+", -1); // ["123", "456"]
 * ```
 */
export function findAll(s: string, pattern: string, n: number): string[] {
  const re = regexOf(pattern);
  const out: string[] = [];
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length && (n < 0 || out.length < n)) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (m === null) break;
    const start = m.index;
    const end = start + m[0].length;
    if (!(end === start && start === prevEnd)) {
      out.push(m[0]);
      prevEnd = end;
    }
    pos = end > start ? end : start + (s.codePointAt(start)! > 0xffff ? 2 : 1);
  }
  return out;
}

const { STRING, INT } = CelScalar;

/**
 * The regex library.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { REGEX_FUNCS } from "./lib-regex.ts";
 * run("'abc 123'.find('[0-9]+')", {}, { funcs: [...REGEX_FUNCS] }); // "123"
 * ```
 */
export const REGEX_FUNCS: readonly CelFunc[] = [
  celMethod("find", STRING, [STRING], STRING, function (pattern) {
    return findAll(this, pattern, 1)[0] ?? "";
  }),
  celMethod("findAll", STRING, [STRING], listType(STRING), function (pattern) {
    return findAll(this, pattern, -1);
  }),
  celMethod("findAll", STRING, [STRING, INT], listType(STRING), function (pattern, n) {
    return findAll(this, pattern, n < 0n ? -1 : Number(n));
  }),
];
