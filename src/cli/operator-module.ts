/**
 * Loads the user's operator module for `gen rbac` and `gen manifests`: the Manager it exports
 * (named `manager` or default; a Manager or a function returning one) and its CRDs (`crds`).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { GENERATING } from "../manager/generating.ts";
import { pathToFileURL } from "node:url";
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Manager } from "../manager/manager.ts";
import { OperatorRuntimeError } from "../errors.ts";

/** What an operator module gives the generators. */
export interface OperatorModule {
  /** Its Manager, with every controller registered (not started). */
  manager: Manager;
  /** The CustomResourceDefinitions it declares (`export const crds`), possibly none. */
  crds: KubeObject[];
}

/**
 * A failure of a generator that is the input's fault (a module without a Manager, an unknown
 * kind): the CLI prints the message alone and exits 1.
 */
export class GenerateError extends OperatorRuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GenerateError";
  }
}

/**
 * Imports `path` (a `.js`, `.mjs` or, on Node ≥ 22.18, an erasable-syntax `.ts` file) and
 * returns its Manager and CRDs. The module must not start the Manager on import (guard a
 * `main()` with `if (import.meta.main)`, or keep it in another file).
 *
 * @throws {GenerateError} when the file is missing, fails to load, exports no Manager, or its
 *   `crds` is not an array of CustomResourceDefinitions.
 * @example
 * ```ts
 * // operator.ts
 * import { readFileSync } from "node:fs";
 * import { KubeConfig, Manager } from "operator-runtime";
 * import type { KubeObject, Reconciler } from "operator-runtime";
 * declare const reconcile: Reconciler; // the Greeting reconciler, from another file
 *
 * export const crds: KubeObject[] = [JSON.parse(readFileSync("config/crd/greetings.json", "utf8"))];
 * export function manager(): Manager {
 *   const kubeConfig = new KubeConfig();
 *   kubeConfig.loadFromDefault();
 *   const mgr = new Manager({ kubeConfig, leaderElection: { namespace: "ops", name: "greeting" } });
 *   mgr.controller("greeting").for(Greeting, { status: ["patch"] }).reconcile(reconcile);
 *   return mgr;
 * }
 * // then: operator-runtime gen rbac operator.ts
 * ```
 */
export async function loadOperatorModule(path: string): Promise<OperatorModule> {
  // While the module loads (and its factory runs), a Manager.start() throws at once instead of
  // running the operator against the current cluster (say, a top-level `await mgr.runUntilSignal()`).
  const guard = { startsRefused: 0 };
  const global = globalThis as Record<symbol, unknown>;
  global[GENERATING] = guard;
  try {
    return await loadGuarded(path, guard);
  } finally {
    if (global[GENERATING] === guard) delete global[GENERATING];
  }
}

async function loadGuarded(path: string, guard: { startsRefused: number }): Promise<OperatorModule> {
  const file = resolve(path);
  if (!existsSync(file)) throw new GenerateError(`${path}: no such file (give the path of the module that exports your Manager)`);
  const startedAtImport = () => new GenerateError(`${path}: the module started its Manager when imported (it would run the operator); `
    + "start it from another file (a main.ts that imports the Manager), or behind `if (import.meta.main)`");
  let mod: Record<string, unknown>;
  try {
    mod = await withTimeout(import(pathToFileURL(file).href) as Promise<Record<string, unknown>>, path, "importing it");
  } catch (err) {
    if (err instanceof GenerateError) throw err;
    if (guard.startsRefused > 0) throw startedAtImport();
    throw new GenerateError(`${path}: cannot load the module: ${messageOf(err)}`, { cause: err });
  }
  if (guard.startsRefused > 0) throw startedAtImport();
  const exported = Object.hasOwn(mod, "manager") ? mod.manager : mod.default;
  const which = Object.hasOwn(mod, "manager") ? "its `manager` export" : "its default export";
  if (exported === undefined) {
    throw new GenerateError(`${path} exports no Manager: export it as \`manager\` or as the default export (a Manager, or a function returning one)`);
  }
  let value: unknown = exported;
  if (typeof exported === "function" && !isManager(exported)) {
    try {
      value = await withTimeout(Promise.resolve().then(() => (exported as () => unknown)()), path, `calling ${which}`);
    } catch (err) {
      if (err instanceof GenerateError) throw err;
      if (guard.startsRefused > 0) throw startedAtImport();
      throw new GenerateError(`${path}: ${which} threw: ${messageOf(err)}`, { cause: err });
    }
  }
  if (!isManager(value)) {
    throw new GenerateError(`${path}: ${which} is not a Manager (nor a function returning one); export the Manager your operator runs`);
  }
  if (value.started || guard.startsRefused > 0) throw startedAtImport();
  return { manager: value, crds: crdsOf(path, mod.crds) };
}

/** How long importing the module, or calling its factory, may take. */
const LOAD_TIMEOUT_MS = 30_000;

/** `promise`, or a GenerateError after {@link LOAD_TIMEOUT_MS} saying what hung. */
async function withTimeout<T>(promise: Promise<T>, path: string, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GenerateError(`${path}: ${what} did not finish within ${LOAD_TIMEOUT_MS / 1000} s; `
      + "does it run the Manager (runUntilSignal) at import? Start it from another file, or behind `if (import.meta.main)`")), LOAD_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether `value` looks like a Manager (duck-typed: the module may load another copy of the SDK). */
function isManager(value: unknown): value is Manager {
  const m = value as Partial<Manager> | null;
  return typeof m === "object" && m !== null && typeof m.controllers === "function" && typeof m.cache?.informers === "function"
    && "leaderElection" in m;
}

function crdsOf(path: string, crds: unknown): KubeObject[] {
  if (crds === undefined) return [];
  if (!Array.isArray(crds)) throw new GenerateError(`${path}: its \`crds\` export must be an array of CustomResourceDefinition objects`);
  crds.forEach((crd: unknown, i) => {
    const c = crd as KubeObject | null;
    if (typeof c !== "object" || c === null || c.kind !== "CustomResourceDefinition" || typeof c.metadata?.name !== "string") {
      throw new GenerateError(`${path}: crds[${i}] is not a CustomResourceDefinition with a metadata.name`);
    }
  });
  return crds as KubeObject[];
}
