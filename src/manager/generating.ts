/**
 * The flag `operator-runtime gen` sets while it imports an operator's module: a Manager started
 * meanwhile refuses (it would run the operator against whatever cluster the current kubeconfig
 * names, with the user's credentials) and counts the attempt, so the CLI can say what to change.
 */
import { OperatorRuntimeError } from "../errors.ts";

/**
 * The global key of the flag (a registered symbol: it holds across copies of the SDK).
 *
 * @example
 * ```ts
 * const generating = (globalThis as Record<symbol, unknown>)[GENERATING] !== undefined;
 * ```
 */
export const GENERATING: unique symbol = Symbol.for("operator-runtime.generating") as never;

/**
 * Throws when `operator-runtime gen` is loading the module that calls it (see {@link GENERATING}).
 *
 * @example
 * ```ts
 * refuseStartWhileGenerating(); // first thing in Manager.start()
 * ```
 */
export function refuseStartWhileGenerating(): void {
  const guard = (globalThis as Record<symbol, unknown>)[GENERATING] as { startsRefused: number } | undefined;
  if (!guard) return;
  guard.startsRefused++;
  throw new OperatorRuntimeError("Manager.start(): `operator-runtime gen` is loading this module, and starting the Manager would run the operator "
    + "against the current cluster. Fix: start it from another file (a main.ts that imports the Manager), or behind `if (import.meta.main)`.");
}
