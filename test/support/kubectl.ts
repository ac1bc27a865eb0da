/**
 * The kubectl the tests run against LocalCluster: `KUBECTL` if set, else the first `kubectl` on
 * PATH (`.ci/run` installs one when the machine has none).
 */
import { access, constants } from "node:fs/promises";
import path from "node:path";

/** The kubectl executable: `KUBECTL` if set, else the first `kubectl` on PATH; or undefined. */
export async function findKubectl(): Promise<string | undefined> {
  const wanted = process.env.KUBECTL || "kubectl";
  const candidates = wanted.includes(path.sep)
    ? [wanted]
    : (process.env.PATH ?? "").split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, wanted));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The kubectl found when the test module loaded, or undefined. */
export const KUBECTL = await findKubectl();
