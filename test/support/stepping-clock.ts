/**
 * A ManualClock for stepping code that runs on timers and awaits I/O in between (the leader
 * elector): time moves only when the test says so, and the test can wait for the barrier "the
 * code has scheduled its next step" instead of sleeping.
 */
import { ManualClock } from "../../src/util/clock.ts";

/**
 * A {@link ManualClock} that also reports its timers: {@link SteppingClock.advance} returns how
 * many fired, {@link SteppingClock.nextTimer} resolves when the next one is set (the code under
 * test has finished what a fired timer started and scheduled what comes next), and
 * {@link SteppingClock.nextDueIn} tells how far away the earliest pending timer is.
 *
 * @example
 * ```ts
 * const clock = new SteppingClock();
 * const elector = new LeaderElector({ ...options, clock });
 * const scheduled = clock.nextTimer();
 * clock.advance(clock.nextDueIn()!);   // the retry timer fires: an attempt starts
 * await within(scheduled, "the attempt"); // it ended and the next one is scheduled
 * ```
 */
export class SteppingClock extends ManualClock {
  #fired = 0;
  readonly #due = new Map<unknown, number>();
  #waiters: (() => void)[] = [];

  override setTimeout(callback: () => void, ms: number): unknown {
    const handle: unknown = super.setTimeout(() => {
      this.#due.delete(handle);
      this.#fired++;
      callback();
    }, ms);
    this.#due.set(handle, this.now() + Math.max(0, ms));
    for (const wake of this.#waiters.splice(0)) wake();
    return handle;
  }

  override clearTimeout(handle: unknown): void {
    this.#due.delete(handle);
    super.clearTimeout(handle);
  }

  /** Moves time forward by `ms`, running the timers that fall due; returns how many ran. */
  override advance(ms: number): number {
    const before = this.#fired;
    super.advance(ms);
    return this.#fired - before;
  }

  /** Resolves the next time a timer is set. */
  nextTimer(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Milliseconds until the earliest pending timer falls due; undefined when none is pending. */
  nextDueIn(): number | undefined {
    if (this.#due.size === 0) return undefined;
    return Math.max(0, Math.min(...this.#due.values()) - this.now());
  }
}
