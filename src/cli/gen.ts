/**
 * `operator-runtime gen <what>`: the generators. Each entry of {@link GEN_COMMANDS} is one
 * `gen` subcommand with its own usage and runner; `main.ts` hands `gen`'s arguments here.
 */
import { genTypes } from "./gen-types.ts";
import { UsageError } from "./usage-error.ts";
import { genRbac } from "./gen-rbac.ts";
import { genManifests } from "./gen-manifests.ts";
import type { GenCommand } from "./gen-command.ts";
export type { GenCommand } from "./gen-command.ts";

/** The `gen` subcommands, by name. */
export const GEN_COMMANDS: Readonly<Record<string, GenCommand>> = {
  types: genTypes,
  rbac: genRbac,
  manifests: genManifests,
};

/** `operator-runtime gen --help`. */
export function genUsage(): string {
  const lines = Object.entries(GEN_COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: operator-runtime gen <what> [options]

what:
${lines.join("\n")}

Run "operator-runtime gen <what> --help" for its options.`;
}

/**
 * Runs `gen` with the arguments after it. `report` receives the usage to print with a
 * UsageError (the subcommand's once it is known).
 */
export async function runGen(args: readonly string[], report: (usage: string) => void): Promise<number> {
  const [what, ...rest] = args;
  if (what === undefined) throw new UsageError("gen needs what to generate");
  if (what === "--help" || what === "-h" || what === "help") {
    console.log(genUsage());
    return 0;
  }
  const command = Object.hasOwn(GEN_COMMANDS, what) ? GEN_COMMANDS[what] : undefined;
  if (!command) throw new UsageError(what.startsWith("-") ? `unknown option "${what}"` : `unknown generator "${what}"`);
  report(command.usage);
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.usage);
    return 0;
  }
  return command.run(rest);
}
