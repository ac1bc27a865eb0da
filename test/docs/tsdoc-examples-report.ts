/**
 * The failing `@example` blocks grouped by cause, for fixing them: `node test/docs/tsdoc-examples-report.ts`
 * (add `--list` to print every failure under its group).
 *
 * Each failing block gets one cause, the first that applies in this order: not TypeScript,
 * a syntax fragment, a relative import that does not resolve, a wrong or removed API (a type
 * error other than a missing name), a package export used without importing it, an internal
 * name that no entry exports, a free variable, and last the implicitly-`any` parameters that
 * follow from a fragment's missing context. An `@example` without a fenced block, and an empty
 * ```ts block, are groups of their own.
 */
import { join } from "node:path";
import { readdirSync } from "node:fs";
import { checkExamples, exportsOf, formatFailure, isTypeError, REPO, type Failure } from "./tsdoc-examples.ts";

const FREE = /Cannot find name '([^']+)'|No value exists in scope for the shorthand property '([^']+)'/;

/** Names exported by the package's entries (root, testing, src/entries/*). */
function packageNames(): Set<string> {
  const entries = [join(REPO, "src/index.ts"), join(REPO, "src/testing/index.ts")];
  try {
    for (const f of readdirSync(join(REPO, "src/entries"))) if (f.endsWith(".ts")) entries.push(join(REPO, "src/entries", f));
  } catch { /* no entries yet */ }
  return new Set(entries.flatMap((e) => exportsOf(e).map((x) => x.name)));
}

/** Names exported by some file of src/ (but src/testing, whose kind tables export `pod`, `obj`, …) or builders/. */
function internalNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(join(REPO, dir), { withFileTypes: true })) {
      if (e.isDirectory()) { if (`${dir}/${e.name}` !== "src/testing") walk(`${dir}/${e.name}`); }
      else if (e.name.endsWith(".ts")) {
        for (const m of exportsOf(join(REPO, dir, e.name))) names.add(m.name);
      }
    }
  };
  walk("src");
  walk("builders");
  return names;
}

const CAUSES = [
  "not TypeScript",
  "syntax fragment (`...`, `return` outside a function, elided code)",
  "relative import that does not resolve from the source file",
  "wrong or removed API (type errors other than a missing name)",
  "package export used without importing it",
  "internal name used without importing it (no package entry exports it)",
  "free variable not in the prelude",
  "implicitly-any parameter (a callback without its context)",
] as const;
type Cause = (typeof CAUSES)[number];

function causeOf(fs: Failure[], pkg: Set<string>, internal: Set<string>): Cause {
  const syntax = fs.filter((f) => /^TS1\d{3}$/.test(f.code));
  if (syntax.length > 0) {
    return syntax.length >= 3 || fs.some((f) => f.code === "TS1005" && /';' expected/.test(f.message)) && syntax.length > 1
      ? CAUSES[0] : CAUSES[1];
  }
  if (fs.some((f) => f.code === "TS2307" && /Cannot find module '\//.test(f.message))) return CAUSES[2];
  const free = fs.map((f) => FREE.exec(f.message)).filter((m) => m !== null).map((m) => m[1] ?? m[2]!);
  if (fs.some((f) => !FREE.test(f.message) && !/^TS7\d{3}$/.test(f.code) && f.code !== "TS18046")) return CAUSES[3];
  if (free.some((n) => pkg.has(n))) return CAUSES[4];
  if (free.some((n) => internal.has(n))) return CAUSES[5];
  if (free.length > 0) return CAUSES[6];
  return CAUSES[7];
}

/** The diagnostic of a block that shows its cause. */
function representative(cause: Cause, fs: Failure[]): Failure {
  const pick = (test: (f: Failure) => boolean) => fs.find(test) ?? fs[0]!;
  if (cause === CAUSES[0] || cause === CAUSES[1]) return pick((f) => /^TS1\d{3}$/.test(f.code));
  if (cause === CAUSES[2]) return pick((f) => f.code === "TS2307");
  if (cause === CAUSES[3]) return pick((f) => !FREE.test(f.message) && !/^TS7\d{3}$/.test(f.code) && f.code !== "TS18046");
  return fs[0]!;
}

const list = process.argv.includes("--list");
const result = await checkExamples();
const pkg = packageNames();
const internal = internalNames();
const byExample = new Map<string, Failure[]>();
for (const f of result.failures) {
  if (!isTypeError(f)) continue;
  const key = `${f.file}#${f.index}`;
  byExample.set(key, [...(byExample.get(key) ?? []), f]);
}
const groups = new Map<Cause, Failure[][]>(CAUSES.map((c) => [c, []]));
for (const fs of byExample.values()) groups.get(causeOf(fs, pkg, internal))!.push(fs);

console.log(`${result.examples.length} \`\`\`ts blocks under @example in ${new Set(result.examples.map((e) => e.file)).size} files; ` +
  `${byExample.size} fail (${result.failures.filter(isTypeError).length} diagnostics); ` +
  `${result.unfenced.length} @example tags have no fenced block; ${result.empty.length} \`\`\`ts blocks are empty.\n`);
for (const [cause, exs] of groups) {
  if (exs.length === 0) continue;
  console.log(`## ${cause}: ${exs.length}`);
  if (cause === CAUSES[4] || cause === CAUSES[5] || cause === CAUSES[6]) {
    const counts = new Map<string, number>();
    for (const fs of exs) {
      for (const n of new Set(fs.map((f) => FREE.exec(f.message)).filter((m) => m !== null).map((m) => m[1] ?? m[2]!))) {
        if (cause === CAUSES[4] ? pkg.has(n) : cause === CAUSES[5] ? internal.has(n) && !pkg.has(n) : true) counts.set(n, (counts.get(n) ?? 0) + 1);
      }
    }
    console.log(`   names (blocks): ${[...counts].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n} ${c}`).join(", ")}`);
  }
  for (const fs of list ? exs : exs.slice(0, 4)) console.log(`   ${formatFailure(representative(cause, fs))}`);
  if (!list && exs.length > 4) console.log(`   … ${exs.length - 4} more`);
  console.log("");
}
const perFile = new Map<string, number>();
for (const fs of byExample.values()) perFile.set(fs[0]!.file, (perFile.get(fs[0]!.file) ?? 0) + 1);
const unfencedPerFile = new Map<string, number>();
for (const u of result.unfenced) unfencedPerFile.set(u.file, (unfencedPerFile.get(u.file) ?? 0) + 1);
console.log(`## files with the most failing blocks\n   ${[...perFile].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([f, c]) => `${f} ${c}`).join("\n   ")}\n`);
console.log(`## @example without a fenced block: ${result.unfenced.length}`);
console.log(`   inline (\`@example \`code\`\`): ${result.unfenced.filter((u) => u.text.startsWith("`")).length}; code on the following lines without a fence: ${result.unfenced.filter((u) => !u.text.startsWith("`")).length}`);
console.log(`   files: ${[...unfencedPerFile].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([f, c]) => `${f} ${c}`).join(", ")}`);
if (list) for (const u of result.unfenced) console.log(`   ${u.file}:${u.line}: ${u.text.slice(0, 100)}`);
if (result.empty.length > 0) {
  console.log(`\n## @example with an empty \`\`\`ts block: ${result.empty.length}`);
  for (const e of list ? result.empty : result.empty.slice(0, 12)) console.log(`   ${e.file}:${e.line}`);
  if (!list && result.empty.length > 12) console.log(`   … ${result.empty.length - 12} more`);
}
if (result.other.length > 0) console.log(`\n## diagnostics outside the examples (source files mid-edit, or the prelude)\n   ${result.other.join("\n   ")}`);
