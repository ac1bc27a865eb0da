/**
 * Runs TypeDoc for `npm run docs` (scripts/docs.ts starts it with the entry points as a JSON
 * argument: `[{ "name": "operator-runtime/testing", "source": "src/testing/index.ts" }, …]`).
 *
 * Like the `typedoc` command with `treatWarningsAsErrors`, but it reports every warning of a run
 * before failing: the command stops after conversion when conversion warned, so the validation
 * warnings (broken `{@link}`s, referenced types that are not exported) would only show on the next
 * run. The HTML is written either way, so a broken reference can be looked at.
 *
 * Each entry's module is named as users import it (`operator-runtime/testing`), whatever its
 * `@module` tag or file name says: package.json `"exports"` is the one source of those names.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Application, Converter, ReflectionKind, TSConfigReader, TypeDocReader } from "typedoc";
import type { Context, Reflection } from "typedoc";

interface DocEntry {
  readonly name: string;
  readonly source: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const entries = JSON.parse(process.argv[2] ?? "[]") as DocEntry[];
if (entries.length === 0) {
  console.error("tools/docs/build.ts: no entry points (run it through `npm run docs`)");
  process.exit(2);
}

/** TypeScript's spelling of a file name: absolute, with `/` separators. */
const tsFileName = (file: string): string => path.resolve(root, file).split(path.sep).join("/");
const moduleNames = new Map(entries.map((e) => [tsFileName(e.source), e.name]));

/**
 * Source links ("Defined in") point at the git remote `origin` (GitHub, GitLab, Bitbucket). A
 * checkout without one (CI, a fresh clone of a bundle) gets the file and line as plain text:
 * TypeDoc skips the remote when the revision is the literal `HEAD`, where it would otherwise warn
 * that links will be broken.
 */
const hasOrigin = spawnSync("git", ["-C", root, "remote", "get-url", "origin"], { stdio: "ignore" }).status === 0;

const app = await Application.bootstrapWithPlugins(
  {
    options: path.join(here, "typedoc.json"),
    entryPoints: entries.map((e) => tsFileName(e.source)),
    ...(hasOrigin ? {} : { gitRevision: "HEAD" }),
  },
  [new TypeDocReader(), new TSConfigReader()],
);

// After the comment plugin applied `@module` (lower priority runs later).
app.converter.on(
  Converter.EVENT_CREATE_DECLARATION,
  (context: Context, reflection: Reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module) || reflection.parent !== context.project) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName;
    const name = file === undefined ? undefined : moduleNames.get(file);
    if (name !== undefined) reflection.name = name;
  },
  -100,
);

const project = await app.convert();
if (project === undefined) {
  console.error("docs: TypeDoc could not convert the project (errors above)");
  process.exit(3);
}
app.validate(project);
await app.generateOutputs(project);

const { warningCount, errorCount } = app.logger;
const out = path.relative(root, app.options.getValue("out"));
if (warningCount + errorCount > 0) {
  console.error(`docs: ${errorCount} errors and ${warningCount} warnings; the reference in ${out}/ is incomplete until they are fixed`);
  process.exit(1);
}
console.log(`docs: API reference for ${entries.map((e) => e.name).join(", ")} in ${out}/`);
