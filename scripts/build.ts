/**
 * `npm run build` (and `prepack`): compiles `src/` and `builders/` to `dist/` as users get them.
 *
 * 1. Removes the old `dist/` so no stale module ships.
 * 2. Runs `tsc -p tsconfig.build.json`: `.js` with source maps (sources inlined, so the maps work
 *    from the tarball, which holds no `.ts`), and `.d.ts`. `rewriteRelativeImportExtensions`
 *    turns `./x.ts` into `./x.js` in the JavaScript.
 * 3. Rewrites the relative `.ts` specifiers that declaration emit keeps (`from "./x.ts"`,
 *    `import("./x.ts")`) to `.js`, so consumers on any TypeScript with `module: nodenext` resolve
 *    them to the `.d.ts` beside the `.js`.
 * 4. Fails if any emitted file still imports a relative `.ts` path (doc-comment examples aside).
 * 5. Copies the data files that modules read at run time beside them (the vendored Kubernetes
 *    `.proto` definitions with their README and LICENSE, the OpenAPI documents, and the
 *    dashboard's page: `src/dashboard/assets/`), so the same relative path works from
 *    `src/` and from `dist/src/`.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = path.join(root, "dist");

/** A relative module specifier ending in `.ts` (not `.d.ts`), in `from "…"` or `import("…")`. */
const RELATIVE_TS = /(\bfrom\s*|\bimport\s*\(\s*)(["'])(\.{1,2}\/[^"']*?)(?<!\.d)\.ts\2/g;

/** Every file under `dir` whose name ends with `suffix`. */
function filesEndingWith(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f));
}

rmSync(dist, { recursive: true, force: true });
const typescriptDir = path.dirname(createRequire(import.meta.url).resolve("typescript/package.json"));
const tsc = path.join(typescriptDir, "bin", "tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit", cwd: root });

let rewritten = 0;
for (const file of filesEndingWith(dist, ".d.ts")) {
  const text = readFileSync(file, "utf8");
  const next = text.replace(RELATIVE_TS, (_m, lead: string, quote: string, spec: string) => `${lead}${quote}${spec}.js${quote}`);
  if (next !== text) {
    writeFileSync(file, next);
    rewritten++;
  }
}

/** Whether a line of emitted code (not a doc comment's example) imports a relative `.ts` path. */
const importsTs = (line: string): boolean => !/^\s*(\*|\/\/)/.test(line) && new RegExp(RELATIVE_TS.source).test(line);
const leftovers = [...filesEndingWith(dist, ".js"), ...filesEndingWith(dist, ".d.ts")]
  .filter((file) => readFileSync(file, "utf8").split("\n").some(importsTs));
if (leftovers.length > 0) {
  console.error(`build: relative .ts imports left in:\n  ${leftovers.map((f) => path.relative(root, f)).join("\n  ")}`);
  process.exit(1);
}
/** Folders of run-time data under `src/`, copied whole to the same place under `dist/src/`. */
const RUNTIME_DATA = ["src/testing/protobuf/k8s-proto", "src/testing/openapi/kube-openapi-1.36", "src/dashboard/assets"];
for (const dir of RUNTIME_DATA) cpSync(path.join(root, dir), path.join(dist, dir), { recursive: true });

console.log(`build: dist/ written (${filesEndingWith(dist, ".js").length} modules; .ts specifiers rewritten in ${rewritten} declaration files)`);
