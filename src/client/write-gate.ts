/**
 * The write gate of a reconcile: the ResourceClient writes a reconcile makes are refused once it
 * is aborted or its process no longer leads, whether or not the reconciler passed its signal on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { WriteRefusedError } from "../errors.ts";
import type { KubeObject } from "../kinds/kube-object.ts";
import type { RequestVerb } from "./request-counter.ts";

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
  /**
   * Every write goes out as a server dry run (`dryRun=All`): the API server validates, admits
   * and answers it, and stores nothing (the dashboard's plan runs a reconcile so).
   */
  dryRun?: boolean;
  /**
   * Told of each write the gate lets through, just before it is sent; the function it returns
   * (if any) is told how the write ended. It must not throw (what it throws is ignored).
   */
  observe?: (write: GatedWrite) => ((end: GatedWriteEnd) => void) | void;
}

/**
 * A write passing a {@link WriteGate}: its verb and the object it is about.
 *
 * @example
 * ```ts
 * const write: GatedWrite = { verb: "apply", apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "app", dryRun: false };
 * ```
 */
export interface GatedWrite {
  verb: RequestVerb;
  apiVersion: string;
  kind: string;
  namespace?: string;
  /** Absent for a create by `generateName`. */
  name?: string;
  /** `status` for a status write. */
  subresource?: string;
  /** Sent as a server dry run. */
  dryRun: boolean;
}

/**
 * How a {@link GatedWrite} ended: the server's answer (the object written; absent when a
 * delete answered a Status), or the error.
 *
 * @example
 * ```ts
 * const end: GatedWriteEnd = { answer: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app", resourceVersion: "42" } } };
 * ```
 */
export interface GatedWriteEnd {
  answer?: KubeObject;
  error?: unknown;
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

/**
 * The gate the current code runs under (undefined outside any): what a writer consults to send
 * a dry run or to tell the gate's observer. It does not check the gate; see {@link passWriteGate}.
 *
 * @example
 * ```ts
 * const planning = currentWriteGate()?.dryRun === true;
 * ```
 */
export function currentWriteGate(): WriteGate | undefined {
  return gates.getStore();
}
