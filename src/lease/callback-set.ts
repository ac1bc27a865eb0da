/** Callbacks that never break their caller: throws and rejections are logged, pending promises can be awaited. */
import type { Logger } from "../log/logger.ts";

/**
 * A set of callbacks of one argument. `emit` calls each synchronously; a throw or a rejected
 * promise is logged, never propagated; promises still running can be awaited with `settled()`.
 *
 * @example
 * ```ts
 * const work = new AbortController(); // aborts the leader's work
 * const stopped = new CallbackSet<string>("onStoppedLeading", log);
 * const off = stopped.add((reason) => work.abort(reason));
 * stopped.emit("renew-deadline");
 * await stopped.settled();
 * off();
 * ```
 */
export class CallbackSet<A> {
  readonly #fns = new Set<(arg: A) => unknown>();
  readonly #pending = new Set<Promise<unknown>>();
  readonly #what: string;
  readonly #log: Logger;

  constructor(what: string, log: Logger) {
    this.#what = what;
    this.#log = log;
  }

  /** Adds `fn`; returns a function removing it. */
  add(fn: (arg: A) => unknown): () => void {
    this.#fns.add(fn);
    return () => void this.#fns.delete(fn);
  }

  /** Calls every callback with `arg`. */
  emit(arg: A): void {
    for (const fn of this.#fns) {
      try {
        const result = fn(arg);
        if (result instanceof Promise) {
          const settled = result.then(undefined, (err: unknown) => this.#failed(err)).finally(() => this.#pending.delete(settled));
          this.#pending.add(settled);
        }
      } catch (err) {
        this.#failed(err);
      }
    }
  }

  /** Resolves when every promise returned by a callback so far has settled. */
  async settled(): Promise<void> {
    await Promise.all([...this.#pending]);
  }

  #failed(err: unknown): void {
    this.#log.error(`${this.#what} callback failed`, { error: err });
  }
}
