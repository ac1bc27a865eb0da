/**
 * The TSDoc `@example` harness: every ```ts fence that follows an `@example` tag in a TSDoc
 * comment of `src/` and `builders/` is a module that must type-check against the package.
 *
 * - {@link extractExamples} reads the blocks (the leading ` * ` stripped) with their file and line.
 * - {@link checkExamples} writes each block as a module into a temporary directory and type-checks
 *   them all in one run of the repo's `tsc` (a second run only when a block does not parse: tsc
 *   holds every type error back while there is a parse error), with a tsconfig that extends the
 *   repo's (strict, minus the unused-variable checks), maps `operator-runtime`,
 *   `operator-runtime/testing` and `operator-runtime/<entry>` (src/entries/<entry>.ts) to the
 *   sources, and makes the names of `example-prelude.d.ts` global. A relative import in an
 *   example is resolved from the source file the example is in.
 * - Line 1 of each generated module is the implicit import of the documented file's exports the
 *   example uses ({@link implicitImport}); example line k is line k + 1, mapped back to source
 *   line fence + k.
 *
 * What an example may assume is `example-prelude.d.ts`; anything else it uses, it declares or
 * imports itself. Two more rules, reported without tsc: every `@example` has a fenced block
 * (```ts for code, ```json/```yaml/```text for what is not TypeScript; an `@example` without one
 * is `file:line: @example without a fenced block`), and a ```ts block under an `@example` is not
 * empty (`file:line: @example with an empty ```ts block`).
 *
 * `node test/docs/tsdoc-examples.ts [--no-implicit] [--keep]` prints the failures without the test
 * runner; `node test/docs/tsdoc-examples-report.ts [--list]` groups them by cause.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const PRELUDE = fileURLToPath(new URL("./example-prelude.d.ts", import.meta.url));
/** The folders whose TSDoc is checked. */
export const ROOTS = ["src", "builders"];

/** One ```ts block of an `@example`. */
export interface Example {
  /** Repo-relative path of the source file, `src/foo/bar.ts`. */
  file: string;
  /** 1-based line of the opening fence in the source file: example line k is source line `line + k`. */
  line: number;
  /** 1-based ordinal of the block among the file's examples. */
  index: number;
  /** The code, one entry per line, ` * ` stripped. */
  code: string[];
}

/** An `@example` tag with no fenced block under it (of any language). */
export interface Unfenced {
  file: string;
  /** 1-based line of the `@example` tag. */
  line: number;
  /** The tag's text (the first line after the tag when the tag line is bare). */
  text: string;
}

/** A ```ts fence under an `@example` tag with nothing (or only blank lines) in it. */
export interface EmptyBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** 1-based ordinal of the block among the file's examples. */
  index: number;
}

/** What {@link extractFrom} and {@link extractExamples} find. */
export interface Extracted {
  examples: Example[];
  unfenced: Unfenced[];
  empty: EmptyBlock[];
}

/** A type error, or an extraction problem, at a source line. */
export interface Failure {
  file: string;
  line: number;
  /** The example's ordinal in its file (0 for an unfenced tag). */
  index: number;
  /** `TS2304`; `unfenced` for an `@example` without a fenced block; `empty` for an empty ```ts block. */
  code: string;
  message: string;
}

export interface CheckResult {
  examples: Example[];
  unfenced: Unfenced[];
  empty: EmptyBlock[];
  failures: Failure[];
  /** Diagnostics outside the examples (the prelude, or a source file mid-edit), as tsc printed them. */
  other: string[];
}

const FENCE_OPEN = /^```(ts|typescript)\s*$/;
const FENCE_OTHER = /^```\S+/;
const FENCE_CLOSE = /^```\s*$/;
/** A TSDoc block tag at the start of a comment line (`@example`, `@param`, `@returns`, …). */
const BLOCK_TAG = /^@[a-zA-Z]+/;

/** Strips a comment line's leading `*` and the one space after it. */
function commentText(line: string): string {
  return line.replace(/^\s*\*(?!\/) ?/, "");
}

/**
 * The ```ts blocks under `@example` tags in the TSDoc comments of one file's text, the
 * `@example` tags with no fenced block at all (a ```json, ```yaml or ```text block is one), and
 * the empty ```ts blocks under a tag. `file` is the name reported for them.
 */
export function extractFrom(file: string, text: string): Extracted {
  const lines = text.split(/\r?\n/);
  const examples: Example[] = [];
  const unfenced: Unfenced[] = [];
  const empty: EmptyBlock[] = [];
  let inDoc = false;
  /** The open `@example` tag, while in its section. */
  let tag: { line: number; text: string; blocks: number } | undefined;
  const closeTag = () => {
    if (tag && tag.blocks === 0) unfenced.push({ file, line: tag.line, text: tag.text });
    tag = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!inDoc) {
      // A TSDoc comment opens with `/**` (not `/**/`); its text may start on the same line.
      const open = raw.indexOf("/**");
      if (open < 0 || raw.slice(open).startsWith("/**/")) continue;
      const rest = raw.slice(open + 3);
      if (rest.includes("*/")) {
        const inline = rest.slice(0, rest.indexOf("*/")).trim();
        if (inline.startsWith("@example")) unfenced.push({ file, line: i + 1, text: inline.slice("@example".length).trim() });
        continue;
      }
      inDoc = true;
      const first = rest.trim();
      if (first.startsWith("@example")) {
        const after = first.slice("@example".length).trim();
        tag = { line: i + 1, text: after || commentText(lines[i + 1] ?? "").trim(), blocks: 0 };
      }
      continue;
    }
    const end = raw.indexOf("*/");
    const content = commentText(end >= 0 ? raw.slice(0, end) : raw);
    const trimmed = content.trim();
    if (FENCE_OPEN.test(trimmed) || FENCE_OTHER.test(trimmed) || FENCE_CLOSE.test(trimmed)) {
      // Any fence: skip to its close, keeping it if it is a ```ts block of an @example.
      const start = i;
      const code: string[] = [];
      let closed = false;
      for (i++; i < lines.length; i++) {
        const r = lines[i]!;
        const e = r.indexOf("*/");
        const c = commentText(e >= 0 ? r.slice(0, e) : r);
        if (FENCE_CLOSE.test(c.trim())) { closed = true; break; }
        if (e >= 0) break; // the comment ends inside the fence
        code.push(c);
      }
      if (tag) tag.blocks++;
      if (tag && FENCE_OPEN.test(trimmed)) {
        const example = { file, line: start + 1, index: examples.length + 1, code };
        examples.push(example);
        if (code.every((l) => l.trim() === "")) empty.push({ file, line: example.line, index: example.index });
      }
      if (!closed) throw new Error(`${file}:${start + 1}: unterminated code fence in a TSDoc comment`);
      if (lines[i]!.includes("*/")) { closeTag(); inDoc = false; }
      continue;
    }
    if (BLOCK_TAG.test(trimmed)) {
      closeTag();
      if (trimmed.startsWith("@example")) {
        const after = trimmed.slice("@example".length).trim();
        const next = after || commentText(lines[i + 1] ?? "").trim();
        tag = { line: i + 1, text: next, blocks: 0 };
      }
    }
    if (end >= 0) { closeTag(); inDoc = false; }
  }
  return { examples, unfenced, empty };
}

/** Every `.ts` file under the roots (no `.d.ts`), repo-relative, sorted. */
export function sourceFiles(repo = REPO, roots = ROOTS): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(rel);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  for (const root of roots) walk(root);
  return out.sort();
}

/** The examples, unfenced tags and empty blocks of every source file under the roots. */
export function extractExamples(repo = REPO, roots = ROOTS): Extracted {
  return mergeExtracted(sourceFiles(repo, roots).map((file) => extractFrom(file, readFileSync(join(repo, file), "utf8"))));
}

function mergeExtracted(parts: Extracted[]): Extracted {
  return {
    examples: parts.flatMap((p) => p.examples),
    unfenced: parts.flatMap((p) => p.unfenced),
    empty: parts.flatMap((p) => p.empty),
  };
}

/** Import specifiers: `from "…"`, `import "…"`, `import("…")`, `export … from "…"`, `require("…")`. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'])(\.{1,2}\/[^"'\n]*)\2/g;

/** The example's code with relative import specifiers made absolute, from the source file's folder. */
export function rewriteRelativeImports(code: string, sourceFile: string): string {
  const dir = dirname(sourceFile);
  return code.replace(SPECIFIER, (_m, lead: string, quote: string, spec: string) =>
    `${lead}${quote}${resolve(dir, spec).split("\\").join("/")}${quote}`);
}

/**
 * The global declarations of the prelude for the generated project: `example-prelude.d.ts` is a
 * module (so the repo's own type check gains no globals from it), and each of its exported
 * values and types becomes a global of the same type here. A name an example declares itself
 * shadows the global (an example is a module).
 */
export function preludeGlobals(preludePath = PRELUDE): string {
  const text = readFileSync(preludePath, "utf8");
  const spec = JSON.stringify(preludePath.split("\\").join("/"));
  const decls: string[] = [];
  for (const m of text.matchAll(/^export\s+declare\s+(const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/gm)) {
    decls.push(`  const ${m[2]}: typeof import(${spec}).${m[2]};`);
  }
  for (const m of text.matchAll(/^export\s+(?:declare\s+)?(?:type|interface)\s+([A-Za-z_$][\w$]*)(<[^=>{]*>)?/gm)) {
    if (m[2]) throw new Error(`example-prelude.d.ts: generic type ${m[1]} is not supported; give it a fixed type`);
    decls.push(`  type ${m[1]} = import(${spec}).${m[1]};`);
  }
  return `export {};\ndeclare global {\n${decls.join("\n")}\n}\n`;
}

/** The names the prelude makes global. */
export function preludeNames(preludePath = PRELUDE): string[] {
  return [...preludeGlobals(preludePath).matchAll(/^ {2}(?:const|type) ([\w$]+)/gm)].map((m) => m[1]!);
}

/** An export of a source file, and whether it is a type only (imported with `type`). */
export interface ExportedName {
  name: string;
  typeOnly: boolean;
}

const exportCache = new Map<string, ExportedName[]>();

/**
 * The names a source file exports, read from its text (declarations, `export { … }` lists, and
 * re-exports followed into the files they come from). Enough for the implicit import of
 * {@link implicitImport}, not a module resolver.
 */
export function exportsOf(path: string, seen = new Set<string>()): ExportedName[] {
  const cached = exportCache.get(path);
  if (cached) return cached;
  if (seen.has(path)) return [];
  seen.add(path);
  let text: string;
  try { text = readFileSync(path, "utf8"); } catch { return []; }
  // Comments out, so examples' and prose's `export`s don't count.
  text = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const names = new Map<string, boolean>();
  const add = (name: string, typeOnly: boolean) => names.set(name, (names.get(name) ?? true) && typeOnly);
  for (const m of text.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(function\*?|class|const|let|var|enum|interface|type)\s+([A-Za-z_$][\w$]*)/gm)) {
    add(m[2]!, m[1] === "interface" || m[1] === "type");
  }
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*["']([^"']+)["'])?/gm)) {
    const from = m[3]?.startsWith(".") ? exportsOf(resolve(dirname(path), m[3]), seen) : undefined;
    for (const item of m[2]!.split(",").map((x) => x.trim()).filter(Boolean)) {
      const t = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(item);
      if (!t) continue;
      const local = t[2]!;
      const exported = t[3] ?? local;
      if (exported === "default") continue;
      const typeOnly = Boolean(m[1] || t[1]) || (from?.find((e) => e.name === local)?.typeOnly ?? inferTypeOnly(text, local));
      add(exported, typeOnly);
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+from\s*["'](\.[^"']+)["']/gm)) {
    for (const e of exportsOf(resolve(dirname(path), m[1]!), seen)) add(e.name, e.typeOnly);
  }
  const out = [...names].map(([name, typeOnly]) => ({ name, typeOnly }));
  exportCache.set(path, out);
  return out;
}

/** For `export { x }` of a local name: a type when the file declares it only as a type or interface. */
function inferTypeOnly(text: string, name: string): boolean {
  const value = new RegExp(`\\b(?:function\\*?|class|const|let|var|enum)\\s+${name.replace(/\$/g, "\\$")}\\b`).test(text);
  const type = new RegExp(`\\b(?:interface|type)\\s+${name.replace(/\$/g, "\\$")}\\b`).test(text);
  return type && !value;
}

/** Names an example declares or imports itself (anywhere in it: good enough to avoid a clash). */
export function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  const ident = /[A-Za-z_$][\w$]*/g;
  for (const m of code.matchAll(/\b(?:const|let|var|function\*?|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
  for (const m of code.matchAll(/\b(?:const|let|var)\s*([{[][^=;]*[}\]])\s*=/g)) {
    for (const id of m[1]!.matchAll(ident)) names.add(id[0]);
  }
  for (const m of code.matchAll(/\bimport\s+(?:type\s+)?([^;"']*?)\s+from\b/g)) {
    for (const id of m[1]!.replace(/\b\w+\s+as\b/g, "").matchAll(ident)) if (id[0] !== "type") names.add(id[0]);
  }
  return names;
}

/**
 * The implicit import of an example: the exports of the file it documents that the example uses
 * and does not declare or import itself (an example on `rendezvousScore` calls `rendezvousScore`
 * without importing it, as in `deno test --doc`). One line, "" when there is nothing to import.
 */
export function implicitImport(ex: Example, repo = REPO): string {
  const source = join(repo, ex.file);
  const code = ex.code.join("\n");
  const declared = declaredNames(code);
  const used = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const names = exportsOf(source).filter((e) => used.has(e.name) && !declared.has(e.name));
  if (names.length === 0) return "";
  const list = names.map((e) => (e.typeOnly ? `type ${e.name}` : e.name)).join(", ");
  return `import { ${list} } from ${JSON.stringify(source.split("\\").join("/"))};`;
}

/** Lines of the generated module before the example's first line: the implicit import. */
const HEADER_LINES = 1;

/** The generated module's name for an example: readable, unique, and stable across runs. */
function moduleName(ex: Example): string {
  return `${ex.file.replace(/\.ts$/, "").replace(/[\\/]/g, "__")}.L${ex.line}.ts`;
}

/** The tsconfig of the generated project. */
function tsconfig(repo: string, files: string[]): object {
  const src = (p: string) => join(repo, p).split("\\").join("/");
  return {
    extends: src("tsconfig.json"),
    compilerOptions: {
      noEmit: true,
      allowImportingTsExtensions: true,
      // Examples are fragments: a name declared and not used is fine; everything else is strict.
      noUnusedLocals: false,
      noUnusedParameters: false,
      allowUnreachableCode: true,
      // Every example is a module, with or without an import (no clashes between examples; top-level await).
      moduleDetection: "force",
      paths: {
        "operator-runtime": [src("src/index.ts")],
        "operator-runtime/testing": [src("src/testing/index.ts")],
        "operator-runtime/*": [src("src/entries/*.ts")],
      },
    },
    files,
    include: [],
  };
}

export interface CheckOptions {
  repo?: string;
  prelude?: string;
  /** Extra examples (tests use fixtures); with `only`, instead of the repository's. */
  examples?: Example[];
  /** Extra source texts, extracted as if they were these repo-relative files; with `only`, instead of the repository's. */
  sources?: { file: string; text: string }[];
  only?: boolean;
  /** Import the documented file's exports that an example uses (default true; see {@link implicitImport}). */
  implicitImports?: boolean;
  /** Keep the temporary directory (its path is printed) for debugging. */
  keep?: boolean;
}

/** Runs the repo's tsc on a project; its output ("" when clean). */
function runTsc(repo: string, project: string, cwd: string): Promise<string> {
  const tsc = join(dirname(createRequire(join(repo, "package.json")).resolve("typescript/package.json")), "bin", "tsc");
  return new Promise((done, fail) => {
    execFile(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", project], { cwd, timeout: 300_000, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const out = `${stdout}${stderr}`;
        if (err && !out.includes("error TS")) fail(new Error(`tsc did not run: ${err.message}\n${out}`));
        else done(out);
      });
  });
}

/** `file(line,col): error TSxxxx: message` (continuation lines indented) → diagnostics. */
function parseDiagnostics(out: string, cwd: string): { path: string; line: number; code: string; message: string; raw: string }[] {
  const diags: { path: string; line: number; code: string; message: string; raw: string }[] = [];
  for (const line of out.split(/\r?\n/)) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (m) {
      diags.push({ path: isAbsolute(m[1]!) ? m[1]! : resolve(cwd, m[1]!), line: Number(m[2]), code: m[4]!, message: m[5]!, raw: line });
    } else if (/^error (TS\d+): /.test(line)) {
      diags.push({ path: "", line: 0, code: /TS\d+/.exec(line)![0], message: line.replace(/^error TS\d+: /, ""), raw: line });
    } else if (line.trim() !== "" && diags.length > 0) {
      const last = diags[diags.length - 1]!;
      last.message += `\n${line}`;
      last.raw += `\n${line}`;
    }
  }
  return diags;
}

/**
 * Whether tsc held the type errors back: it reports the parser's errors (TS1xxx) alone while any
 * file has one, so a run whose every diagnostic is TS1xxx may not have type-checked at all.
 */
function onlyParseErrors(diags: { code: string }[]): boolean {
  return diags.length > 0 && diags.every((d) => /^TS1\d{3}$/.test(d.code));
}

/** Empties the examples that do not parse and runs tsc again. */
function rerunWithout(repo: string, dir: string, broken: Set<string>): Promise<string> {
  for (const path of broken) writeFileSync(path, "export {};\n");
  return runTsc(repo, join(dir, "tsconfig.json"), dir);
}

/** Type-checks every example in one tsc run (two if one does not parse); failures mapped back to source lines. */
export async function checkExamples(options: CheckOptions = {}): Promise<CheckResult> {
  const repo = options.repo ?? REPO;
  const extracted = mergeExtracted([
    options.only ? { examples: [], unfenced: [], empty: [] } : extractExamples(repo),
    ...(options.sources ?? []).map((s) => extractFrom(s.file, s.text)),
  ]);
  const examples = [...extracted.examples, ...(options.examples ?? [])];
  const implicit = options.implicitImports ?? true;
  const dir = mkdtempSync(join(tmpdir(), "tsdoc-examples-"));
  try {
    // Packages (and @types/node) resolve from the repo's node_modules; the modules are ESM.
    symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"), "junction");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tsdoc-examples", private: true, type: "module" }));
    writeFileSync(join(dir, "prelude.d.ts"), preludeGlobals(options.prelude ?? PRELUDE));
    const byPath = new Map<string, Example>();
    const files = ["prelude.d.ts"];
    for (const ex of examples) {
      const name = moduleName(ex);
      const code = rewriteRelativeImports(ex.code.join("\n"), join(repo, ex.file));
      writeFileSync(join(dir, name), `${[implicit ? implicitImport(ex, repo) : "", code].join("\n")}\n`);
      byPath.set(join(dir, name), ex);
      files.push(name);
    }
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig(repo, files), null, 2));
    // tsc reports only syntax errors while any file has one: a second run checks the rest.
    const diagnostics = parseDiagnostics(await runTsc(repo, join(dir, "tsconfig.json"), dir), dir);
    const broken = new Set(onlyParseErrors(diagnostics) ? diagnostics.filter((d) => byPath.has(d.path)).map((d) => d.path) : []);
    const all = broken.size === 0 ? diagnostics : [
      ...diagnostics.filter((d) => broken.has(d.path)),
      ...parseDiagnostics(await rerunWithout(repo, dir, broken), dir).filter((d) => !broken.has(d.path)),
    ];
    const failures: Failure[] = [
      ...extracted.unfenced.map((u) => ({ file: u.file, line: u.line, index: 0, code: "unfenced", message: UNFENCED })),
      ...extracted.empty.map((e) => ({ file: e.file, line: e.line, index: e.index, code: "empty", message: EMPTY })),
    ];
    const other: string[] = [];
    for (const d of all) {
      const ex = byPath.get(d.path);
      if (!ex) {
        const shown = d.path.startsWith(dir) ? relative(dir, d.path) : d.path.startsWith(repo) ? relative(repo, d.path) : d.path;
        other.push(`${shown}:${d.line}: error ${d.code}: ${d.message}`);
        continue;
      }
      const k = Math.max(0, d.line - HEADER_LINES); // 0: the implicit import, reported at the fence
      failures.push({ file: ex.file, line: ex.line + k, index: ex.index, code: d.code, message: d.message });
    }
    failures.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    return { examples, unfenced: extracted.unfenced, empty: extracted.empty, failures, other };
  } finally {
    if (options.keep) console.error(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const UNFENCED = "@example without a fenced block";
const EMPTY = "@example with an empty ```ts block";

/** Whether a failure is a type error (tsc's), not a fence rule. */
export function isTypeError(f: Failure): boolean {
  return f.code !== "unfenced" && f.code !== "empty";
}

/**
 * `src/foo/bar.ts:LINE (example N): error TSxxxx: message` for a type error;
 * `src/foo/bar.ts:LINE: @example without a fenced block` and
 * `src/foo/bar.ts:LINE: @example with an empty ```ts block` for the fence rules.
 */
export function formatFailure(f: Failure): string {
  if (!isTypeError(f)) return `${f.file}:${f.line}: ${f.message}`;
  return `${f.file}:${f.line} (example ${f.index}): error ${f.code}: ${f.message}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const keep = process.argv.includes("--keep");
  const result = await checkExamples({ keep, implicitImports: !process.argv.includes("--no-implicit") });
  const failing = new Set(result.failures.filter(isTypeError).map((f) => `${f.file}:${f.index}`));
  for (const f of result.failures) console.log(formatFailure(f));
  for (const o of result.other) console.log(`(outside examples) ${o}`);
  console.log(`\n${result.examples.length} blocks, ${failing.size} failing, ${result.failures.length} diagnostics, ` +
    `${result.unfenced.length} @example tags without a fenced block, ${result.empty.length} empty \`\`\`ts blocks, ${result.other.length} diagnostics outside examples`);
}
