/**
 * `npm run docs`: builds the API reference (HTML) into `docs/api/` with TypeDoc. The reference is
 * built, not committed.
 *
 * 1. TypeDoc lives in its own small npm project, `tools/docs/` (TypeDoc and the TypeScript it
 *    runs on, locked in `tools/docs/package-lock.json`): TypeDoc drives TypeScript's JavaScript
 *    compiler API, which TypeScript 7 (the repo's compiler, native) no longer has, and npm refuses
 *    TypeDoc's `typescript` peer range next to TypeScript 7 in one tree. This script installs it
 *    with `npm ci` when `tools/docs/node_modules` is missing or the lock changed since the last
 *    install, and does nothing otherwise.
 * 2. The entry points are the package's: every subpath of `package.json` `"exports"` with a
 *    `types` condition, mapped back to its source (`"./testing"` → `./dist/src/testing/index.d.ts`
 *    → `src/testing/index.ts`) and named as users import it (`operator-runtime/testing`).
 * 3. Runs `tools/docs/build.ts` (TypeDoc with `tools/docs/typedoc.json` and
 *    `tools/docs/tsconfig.json`), which writes the HTML, prints every warning, and exits non-zero
 *    if there was any: a warning is a broken reference, so it fails the build.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One entry point of the reference: the module name users import, and its source file. */
export interface DocEntry {
  /** The specifier users import: `operator-runtime`, `operator-runtime/testing`. */
  readonly name: string;
  /** The source file, relative to the repository root with `/` separators: `src/testing/index.ts`. */
  readonly source: string;
}

/** The fields of `package.json` the entry points come from. */
export interface PackageManifest {
  readonly name: string;
  readonly exports?: unknown;
}

/** The folder the build writes to (`outDir` of tsconfig.build.json), as `exports` paths spell it. */
const DIST_PREFIX = "./dist/";

/** Declaration file extensions and the source extension each one is emitted from. */
const DECLARATION_TO_SOURCE: ReadonlyArray<readonly [string, string]> = [
  [".d.ts", ".ts"],
  [".d.mts", ".mts"],
  [".d.cts", ".cts"],
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The `types` target of one export's conditions, searched depth-first in key order
 * (`{ "import": { "types": … } }` as well as `{ "types": … }`), or undefined if it has none (a
 * plain file like `"./package.json": "./package.json"`).
 */
function typesTarget(conditions: unknown): string | undefined {
  if (!isRecord(conditions)) return undefined;
  for (const [condition, target] of Object.entries(conditions)) {
    if (condition === "types" && typeof target === "string") return target;
    const nested = typesTarget(target);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/** The source file a declaration path under `./dist/` is emitted from: `./dist/src/x.d.ts` → `src/x.ts`. */
function sourceOf(subpath: string, types: string): string {
  const ext = DECLARATION_TO_SOURCE.find(([decl]) => types.endsWith(decl));
  if (!types.startsWith(DIST_PREFIX) || ext === undefined) {
    throw new Error(`package.json exports "${subpath}": types "${types}" is not a declaration file under ${DIST_PREFIX}`);
  }
  const [decl, source] = ext;
  return types.slice(DIST_PREFIX.length, -decl.length) + source;
}

/**
 * The reference's entry points, from `package.json` `"exports"`: one per subpath with a `types`
 * condition, in the order the map lists them. `"."` is named after the package, `"./x"` as
 * `package/x`. Subpaths without types (`"./package.json"`) are skipped; a pattern (`"./*"`) or
 * a types path that does not come from `dist/` throws, since no single source file stands behind it.
 *
 * @example
 * ```ts
 * docEntries({ name: "operator-runtime", exports: { "./testing": { types: "./dist/src/testing/index.d.ts" } } });
 * // → [{ name: "operator-runtime/testing", source: "src/testing/index.ts" }]
 * ```
 */
export function docEntries(pkg: PackageManifest): DocEntry[] {
  const { exports } = pkg;
  if (exports === undefined) return [];
  // `"exports": "./x.js"` or `"exports": { "types": …, "import": … }` are sugar for `{ ".": … }`.
  const isSubpathMap = isRecord(exports) && Object.keys(exports).some((key) => key.startsWith("."));
  const map: Record<string, unknown> = isSubpathMap ? exports : { ".": exports };
  const entries: DocEntry[] = [];
  for (const [subpath, conditions] of Object.entries(map)) {
    if (subpath.includes("*")) throw new Error(`package.json exports "${subpath}": patterns are not supported by the docs build`);
    const types = typesTarget(conditions);
    if (types === undefined) continue;
    const name = subpath === "." ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, "")}`;
    entries.push({ name, source: sourceOf(subpath, types) });
  }
  return entries;
}

/** A short digest of the files that decide what `npm ci` installs into tools/docs. */
function lockDigest(toolsDir: string): string {
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) hash.update(readFileSync(path.join(toolsDir, file)));
  return hash.digest("hex");
}

/** Runs npm: the one running this script (`npm run docs`), else the `npm` on PATH. */
function npm(args: string[], cwd: string): number | null {
  const npmCli = process.env["npm_execpath"];
  const result = npmCli?.endsWith(".js") && existsSync(npmCli)
    ? spawnSync(process.execPath, [npmCli, ...args], { cwd, stdio: "inherit" })
    : spawnSync("npm", args, { cwd, stdio: "inherit" });
  return result.status;
}

/** Installs tools/docs with `npm ci` unless its node_modules was installed from the current lock. */
function ensureInstalled(root: string, toolsDir: string): void {
  const stamp = path.join(toolsDir, "node_modules", ".docs-lock-digest");
  const digest = lockDigest(toolsDir);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return;
  console.log("docs: installing TypeDoc into tools/docs (npm ci)");
  const status = npm(["ci", "--prefix", path.relative(root, toolsDir), "--no-audit", "--no-fund"], root);
  if (status !== 0) {
    console.error(`docs: npm ci in tools/docs failed (exit ${status})`);
    process.exit(1);
  }
  writeFileSync(stamp, digest);
}

function main(): void {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const toolsDir = path.join(root, "tools", "docs");
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageManifest;
  const entries = docEntries(pkg);
  const missing = entries.filter((e) => !existsSync(path.join(root, e.source)));
  if (entries.length === 0 || missing.length > 0) {
    console.error(entries.length === 0
      ? "docs: package.json exports no entry with types"
      : `docs: package.json exports entries whose source is missing: ${missing.map((e) => `${e.name} → ${e.source}`).join(", ")}`);
    process.exit(1);
  }
  ensureInstalled(root, toolsDir);
  const build = spawnSync(process.execPath, [path.join(toolsDir, "build.ts"), JSON.stringify(entries)], { cwd: root, stdio: "inherit" });
  process.exit(build.status ?? 1);
}

if (import.meta.main) main();
