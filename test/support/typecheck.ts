/** Type-checks generated modules against the repo's sources, as a user's project would import them. */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const repo = fileURLToPath(new URL("../../", import.meta.url));

/** Type-checks the `.ts` files of `dir` (in the repo, so `operator-runtime` maps to `src/`); "" when clean. */
export async function typecheck(dir: string): Promise<string> {
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: relative(dir, join(repo, "tsconfig.json")),
      compilerOptions: { paths: { "operator-runtime": [relative(dir, join(repo, "src/index.ts"))] } },
      include: ["./**/*.ts"],
    }),
  );
  const tsc = join(createRequire(import.meta.url).resolve("typescript/package.json"), "..", "bin", "tsc");
  try {
    await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", join(dir, "tsconfig.json")], { cwd: repo, timeout: 120_000 });
    return "";
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}` || e.message;
  }
}
