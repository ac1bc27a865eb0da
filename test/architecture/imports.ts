/**
 * Reads the import statements of a TypeScript source: static imports, `export … from` and
 * dynamic `import("…")`, with comments and template-literal text ignored (TSDoc examples are
 * full of imports that are not the file's own).
 */

/** One import of a file. */
export interface ImportStatement {
  /** The module specifier as written, e.g. `../client/types.ts` or `node:http`. */
  specifier: string;
  /** `import type …` or `export type … from` (erased at run time). */
  typeOnly: boolean;
  /** 1-based line of the specifier. */
  line: number;
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX_WORDS = new Set(["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"]);
const BEFORE_REGEX_CHARS = "(,=:[!&|?{};+-*%<>~^";

/**
 * The source with every comment and every template literal's text replaced by spaces (line
 * breaks kept, so offsets and line numbers still match). Quoted strings and regular
 * expressions are kept as they are, but skipped over while looking for comments.
 */
export function codeOnly(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  const templateDepth: number[] = []; // brace depth at which each open `${` returns to its template
  let braces = 0;
  const skipTemplate = (): void => {
    // i is just after a backtick or a closing `}` of `${…}`: blank the text up to the end or the next `${`.
    const start = i;
    while (i < source.length) {
      const c = source[i];
      if (c === "\\") i += 2;
      else if (c === "`") {
        blank(start, i);
        i++;
        return;
      } else if (c === "$" && source[i + 1] === "{") {
        blank(start, i);
        templateDepth.push(braces);
        braces++;
        i += 2;
        return;
      } else i++;
    }
    blank(start, i);
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < source.length && source[i] !== c && source[i] !== "\n") i += source[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "`") {
      i++;
      skipTemplate();
    } else if (c === "{") {
      braces++;
      i++;
    } else if (c === "}") {
      braces--;
      i++;
      if (templateDepth.at(-1) === braces) {
        templateDepth.pop();
        skipTemplate();
      }
    } else if (c === "/" && startsRegex(out, i)) {
      i++;
      let inClass = false;
      while (i < source.length && source[i] !== "\n") {
        const r = source[i];
        if (r === "\\") i++;
        else if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
        i++;
      }
      i++;
    } else i++;
  }
  return out.join("");
}

/** Whether a `/` at `at` begins a regular expression, judged by the code before it. */
function startsRegex(code: string[], at: number): boolean {
  let k = at - 1;
  while (k >= 0 && /\s/.test(code[k]!)) k--;
  if (k < 0) return true;
  const prev = code[k]!;
  if (BEFORE_REGEX_CHARS.includes(prev)) return true;
  if (!/[\w$]/.test(prev)) return false;
  let start = k;
  while (start > 0 && /[\w$]/.test(code[start - 1]!)) start--;
  return BEFORE_REGEX_WORDS.has(code.slice(start, k + 1).join(""));
}

const STATIC = /(?:^|[\n;])[ \t]*(import|export)\s+(type\s+)?(?:[\w$*{}\s,]*?\s+from\s+)?(["'])([^"'\n]+)\3/g;
const DYNAMIC = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

/**
 * Every import of a source file, in order of appearance.
 *
 * @example
 * ```ts
 * importsOf('import type { A } from "./a.ts";\nexport { b } from "./b.ts";').map((i) => i.specifier); // ["./a.ts", "./b.ts"]
 * ```
 */
export function importsOf(source: string): ImportStatement[] {
  const code = codeOnly(source);
  const lineOf = (offset: number) => code.slice(0, offset).split("\n").length;
  const found: { at: number; imp: ImportStatement }[] = [];
  for (const m of code.matchAll(STATIC)) {
    // `export const x = …` and `export function` have no `from`; only re-exports and imports count.
    const text = m[0];
    if (m[1] === "export" && !/\sfrom\s/.test(text)) continue;
    const at = m.index + text.lastIndexOf(m[4]!);
    found.push({ at, imp: { specifier: m[4]!, typeOnly: m[2] !== undefined, line: lineOf(at) } });
  }
  for (const m of code.matchAll(DYNAMIC)) {
    const at = m.index + m[0].indexOf(m[2]!);
    found.push({ at, imp: { specifier: m[2]!, typeOnly: false, line: lineOf(at) } });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.imp);
}
