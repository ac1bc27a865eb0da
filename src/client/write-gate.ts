/**
 * The write gate of a reconcile: the ResourceClient writes a reconcile makes are refused once it
 * is aborted or its process no longer leads, whether or not the reconciler passed its signal on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { WriteRefusedError } from "../errors.ts";

/**
 * What decides whether writes may go out: none once `signal` is aborted (they reject with its
 * reason), none while `open()` answers false (they reject with a `WriteRefusedError` naming
 * `closed`).
 *
 * @example
 * ```ts
 * import { LeaderElector } from "operator-runtime/controller";
 *
 * declare const elector: LeaderElector;
 * const gate: WriteGate = { signal, open: () => elector.isLeader(), closed: "this process no longer leads" };
 * ```
 */
export interface WriteGate {
  signal: AbortSignal;
  open?: () => boolean;
  /** Why writes are refused when `open()` answers false. */
  closed?: string;
}

const gates = new AsyncLocalStorage<WriteGate>();

/**
 * Runs `fn` with `gate` guarding every ResourceClient write made in it, through every `await`
 * and callback it starts (the controller runs each reconcile so).
 *
 * Caveats: work that `fn` starts and that outlives it (a timer, a background flush) carries the
 * gate too, so its writes are refused after `fn`'s reconcile is aborted or leading ends. Reads
 * are never refused: an informer started in a reconcile keeps working.
 *
 * @example
 * ```ts
 * import type { Request } from "operator-runtime";
 *
 * declare function reconcile(request: Request): Promise<void>;
 * const request: Request = { namespace: "default", name: "hello" };
 * await runWithWriteGate({ signal, open: () => mgr.isLeader(), closed: "this process no longer leads" }, () => reconcile(request));
 * ```
 */
export function runWithWriteGate<T>(gate: WriteGate, fn: () => T): T {
  return gates.run(gate, fn);
}

/**
 * Checks the gate a write runs under: throws when writes are refused; else its signal (to abort
 * the write in flight), undefined outside any gate.
 *
 * @example
 * ```ts
 * const signal = passWriteGate(); // throws in an aborted reconcile
 * ```
 */
export function passWriteGate(): AbortSignal | undefined {
  const gate = gates.getStore();
  if (!gate) return undefined;
  gate.signal.throwIfAborted();
  if (gate.open && !gate.open()) throw new WriteRefusedError(gate.closed ?? "the write gate is closed");
  return gate.signal;
}
