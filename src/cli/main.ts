#!/usr/bin/env node
/**
 * The `operator-runtime` command line (the package's `bin`): reads the command and hands its
 * arguments to the command's module.
 *
 * Commands: `cluster` (a standalone LocalCluster, see `cluster.ts`), `dev` (an operator module
 * run with the dashboard, see `dev.ts`), `gen` (generators, see `gen.ts`), `help`. Exit codes: 0 done,
 * 1 the command failed, 2 a bad command line (the message and the usage go to stderr).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CLUSTER_USAGE, parseClusterArgs, runCluster } from "./cluster.ts";
import { DEV_USAGE, DevError, parseDevArgs, runDev } from "./dev.ts";
import { genUsage, runGen } from "./gen.ts";
import { UsageError } from "./usage-error.ts";
import { GenerateError } from "./operator-module.ts";

const USAGE = `usage: operator-runtime <command> [options]

commands:
  cluster    run a standalone LocalCluster and write its kubeconfig
  dev        run an operator module on LocalCluster with the live dashboard
  gen        generate TypeScript types, RBAC or deployment manifests
  help       print this help

options:
  -h, --help     print this help (or a command's, after the command)
  -v, --version  print the version

Run "operator-runtime <command> --help" for a command's options.`;

/** The installed package's version, read through the package's own `./package.json` export. */
function version(): string {
  const file = fileURLToPath(import.meta.resolve("operator-runtime/package.json"));
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** Set by commands after which the process exits once stdout is flushed, whatever handles remain. */
let exitWhenFlushed = false;

/** Runs the command line `args` (without `node` and the script) and returns the exit code. */
async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  let usage = USAGE;
  try {
    switch (command) {
      case undefined:
        throw new UsageError("no command given");
      case "help":
      case "--help":
      case "-h":
        console.log(USAGE);
        return 0;
      case "--version":
      case "-v":
        console.log(version());
        return 0;
      case "cluster": {
        usage = CLUSTER_USAGE;
        const options = parseClusterArgs(rest);
        if (!options) console.log(CLUSTER_USAGE);
        else await runCluster(options);
        return 0;
      }
      case "dev": {
        usage = DEV_USAGE;
        const options = parseDevArgs(rest);
        if (!options) {
          console.log(DEV_USAGE);
          return 0;
        }
        exitWhenFlushed = true; // the user's module may hold handles open (timers, sockets)
        return await runDev(options);
      }
      case "gen":
        usage = genUsage();
        exitWhenFlushed = true; // a user's module may hold handles open (timers, sockets) after import
        return await runGen(rest, (u) => (usage = u));
      default:
        throw new UsageError(command.startsWith("-") ? `unknown option "${command}"` : `unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof GenerateError || err instanceof DevError) {
      console.error(`operator-runtime: ${err.message}`);
      return 1;
    }
    if (!(err instanceof UsageError)) throw err;
    console.error(`operator-runtime: ${err.message}\n\n${usage}`);
    return 2;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error("operator-runtime:", err);
  process.exitCode = 1;
}
if (exitWhenFlushed) {
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  process.exit();
}
