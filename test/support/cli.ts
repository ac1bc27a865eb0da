/**
 * Runs the `operator-runtime` command line for real, from the sources (`node src/cli/main.ts …`),
 * with its stdout and stderr collected apart.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { within } from "./wait.ts";

/** The repository's root folder. */
export const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Starts the CLI with `args` in `cwd` (default: the repository). */
export function cli(args: readonly string[], options: { cwd?: string } = {}) {
  const child = spawn(process.execPath, [`${REPO}src/cli/main.ts`, ...args], { cwd: options.cwd ?? REPO, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

/** Runs the CLI to its end (at most `timeoutMs`); its exit code, stdout and stderr. */
export async function complete(args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}) {
  const p = cli(args, options);
  try {
    const code = await within(p.exit, `operator-runtime ${args.join(" ")} to exit`, options.timeoutMs ?? 15_000);
    return { code, stdout: p.stdout(), stderr: p.stderr() };
  } finally {
    p.child.kill("SIGKILL");
  }
}
