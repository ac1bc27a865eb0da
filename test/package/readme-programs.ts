/**
 * The documentation's TypeScript blocks as programs: every ```ts fence in README.md and in
 * docs/*.md is a complete program that the consumer test type-checks against the installed
 * package and runs against a fresh LocalCluster (through `KUBECONFIG`). An HTML comment on the
 * line before a fence says what the program needs and how it ends when it does not end by
 * itself (`doc-test`; the older spelling `readme-test` is read the same way):
 *
 *     <!-- doc-test: {"signalAfter": {"apiVersion": "v1", "kind": "ConfigMap", "namespace": "default", "name": "x"}} -->
 *
 * runs the program until that object exists, then sends SIGTERM and expects exit code 0.
 * `"setup"` names the objects created in the cluster before the program starts (see
 * `readme-setups.ts`: what the page says the program expects to find), and `"expect"` lists
 * objects that must exist once the program is done. Without a directive a program runs to exit
 * code 0 with no setup.
 *
 * Only ```ts fences are programs. A ```typescript (or ```mts, ```tsx) fence is refused rather
 * than skipped, so that partial code cannot slip past the check: show it inside a complete
 * program, or as prose. A directive that is not followed by a ```ts fence, an unknown key in
 * one, or JSON that does not parse is an error naming the page and line.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** An object the harness waits for. */
export interface ObjectKey {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** One documentation block. */
export interface ReadmeProgram {
  /**
   * The program's file name in the consumer project, named after the page and the fence's line
   * so that a failure points at it: `readme-<line>.ts` for README.md, `docs-<page>-<line>.ts`
   * for `docs/<page>.md`.
   */
  file: string;
  /** The page, relative to the repository root: `README.md`, `docs/builder.md`. */
  source: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The heading the block sits under. */
  section: string;
  code: string;
  signalAfter?: ObjectKey;
  setup?: string;
  expect: ObjectKey[];
}

/** The same thing under the name the docs use. */
export type DocProgram = ReadmeProgram;

/** What a directive may hold. */
export interface DocTestDirective {
  signalAfter?: ObjectKey;
  setup?: string;
  expect?: ObjectKey[];
}

const DIRECTIVE = /^<!--\s*(?:doc|readme)-test:\s*(.*?)\s*-->$/;
const DIRECTIVE_KEYS = new Set(["signalAfter", "setup", "expect"]);
/** Fences that would be TypeScript programs under another name: refused, never skipped. */
const OTHER_TS_FENCE = /^```\s*(typescript|mts|cts|tsx)\b/i;

/** The pages whose ```ts blocks are programs: README.md, then docs/*.md by name. */
export function docPages(repoRoot: string): string[] {
  const docsDir = path.join(repoRoot, "docs");
  let docs: string[] = [];
  try {
    docs = readdirSync(docsDir).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  return ["README.md", ...docs];
}

/** Every program of README.md and docs/*.md, in page order. */
export function docPrograms(repoRoot: string): ReadmeProgram[] {
  return docPages(repoRoot).flatMap((source) => parsePrograms(readFileSync(path.join(repoRoot, source), "utf8"), source));
}

/** Reads every ```ts block of one page (a path) with its test directive. */
export function readmePrograms(pagePath: string, source = path.basename(pagePath)): ReadmeProgram[] {
  return parsePrograms(readFileSync(pagePath, "utf8"), source);
}

/** `readme-<line>.ts` or `docs-<page>-<line>.ts`. */
export function programFileName(source: string, line: number): string {
  const normalized = source.split(path.sep).join("/");
  if (normalized === "README.md") return `readme-${line}.ts`;
  const stem = normalized.replace(/\.md$/i, "").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase();
  return `${stem}-${line}.ts`;
}

/** Parses a directive's JSON, refusing unknown keys and wrong shapes. */
function parseDirective(json: string, where: string): DocTestDirective {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new Error(`${where}: the doc-test directive is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${where}: the doc-test directive must be a JSON object`);
  const unknown = Object.keys(value).filter((k) => !DIRECTIVE_KEYS.has(k));
  if (unknown.length) throw new Error(`${where}: unknown doc-test key(s) ${unknown.join(", ")} (known: ${[...DIRECTIVE_KEYS].join(", ")})`);
  const d = value as DocTestDirective;
  const isKey = (k: unknown): k is ObjectKey => typeof k === "object" && k !== null &&
    typeof (k as ObjectKey).apiVersion === "string" && typeof (k as ObjectKey).kind === "string" && typeof (k as ObjectKey).name === "string";
  if (d.setup !== undefined && typeof d.setup !== "string") throw new Error(`${where}: "setup" must be a string`);
  if (d.signalAfter !== undefined && !isKey(d.signalAfter)) throw new Error(`${where}: "signalAfter" must be { apiVersion, kind, name, namespace? }`);
  if (d.expect !== undefined && !(Array.isArray(d.expect) && d.expect.every(isKey))) throw new Error(`${where}: "expect" must be a list of { apiVersion, kind, name, namespace? }`);
  return d;
}

/** Reads every ```ts block of a page's text; `source` names the page in file names and errors. */
export function parsePrograms(text: string, source: string): ReadmeProgram[] {
  const lines = text.split("\n");
  const programs: ReadmeProgram[] = [];
  let section = "";
  let pending: { directive: DocTestDirective; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const where = `${source}:${i + 1}`;
    if (/^#{1,6} /.test(line)) section = line.replace(/^#+ /, "").trim();
    const directive = DIRECTIVE.exec(line.trim());
    if (directive) {
      if (pending) throw new Error(`${source}:${pending.line}: a doc-test directive not followed by a \`\`\`ts block`);
      pending = { directive: parseDirective(directive[1]!, where), line: i + 1 };
      continue;
    }
    if (OTHER_TS_FENCE.test(line)) {
      throw new Error(`${where}: a \`\`\`${OTHER_TS_FENCE.exec(line)![1]} block; every TypeScript block is a program: use \`\`\`ts for a complete program, or show partial code in prose`);
    }
    const isTs = /^```ts(\s.*)?$/.test(line);
    if (!isTs) {
      if (pending && line.trim() !== "") throw new Error(`${source}:${pending.line}: a doc-test directive not followed by a \`\`\`ts block`);
      // Skip over other fences whole, so that a directive-like line inside one is not read.
      if (/^```/.test(line)) {
        for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++);
        if (i >= lines.length) throw new Error(`${where}: unterminated code block`);
      }
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`${source}:${start + 1}: unterminated code block`);
    const options = pending?.directive ?? {};
    pending = undefined;
    programs.push({
      file: programFileName(source, start + 1), source, line: start + 1, section, code: `${body.join("\n")}\n`,
      ...(options.signalAfter ? { signalAfter: options.signalAfter } : {}),
      ...(options.setup ? { setup: options.setup } : {}),
      expect: options.expect ?? [],
    });
  }
  if (pending) throw new Error(`${source}:${pending.line}: a doc-test directive not followed by a \`\`\`ts block`);
  return programs;
}
