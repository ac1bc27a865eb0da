/**
 * The runtime cost of CEL validation rules, counted as kube-apiserver bounds it: a limit per
 * rule evaluation (`PerCallLimit`, 1,000,000) and a budget for every rule of one request
 * (`RuntimeCELCostBudget`, 10,000,000).
 *
 * LocalCluster's measure is cruder than cel-go's: one unit per evaluation, per element a list,
 * map or object yields or is read (see `cel-value.ts`), and per 10 characters a string
 * function reads. It bounds the work honestly (an evaluation stops as soon as its meter runs
 * out, so no rule can hang the server) but its totals are not cel-go's.
 *
 * @module
 */

/** kube-apiserver's `celconfig.PerCallLimit`: the most one rule evaluation may cost. */
export const PER_CALL_COST_LIMIT = 1_000_000;

/** kube-apiserver's `celconfig.RuntimeCELCostBudget`: the most all rules of one request may cost. */
export const RUNTIME_COST_BUDGET = 10_000_000;

/**
 * Thrown (inside an evaluation) when a meter runs past its limit; `@bufbuild/cel` turns it into
 * an error result, and the caller reads {@link CostMeter.exceeded}.
 *
 * @example
 * ```ts
 * const meter = new CostMeter(1);
 * try { meter.charge(2); } catch (e) { e instanceof CostLimitExceeded; } // → true
 * ```
 */
export class CostLimitExceeded extends Error {
  constructor() {
    super("operation cancelled: actual cost limit exceeded");
    this.name = "CostLimitExceeded";
  }
}

/**
 * Counts the cost of one evaluation and stops it (by throwing {@link CostLimitExceeded}) past
 * its limit.
 *
 * @example
 * ```ts
 * const meter = new CostMeter(10);
 * meter.charge(3);
 * meter.spent; // → 3
 * ```
 */
export class CostMeter {
  /** The units charged so far. */
  spent = 0;
  /** True once a charge went past the limit. */
  exceeded = false;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Adds `units`; throws {@link CostLimitExceeded} when the total passes the limit. */
  charge(units = 1): void {
    this.spent += units;
    if (this.spent > this.#limit) {
      this.exceeded = true;
      throw new CostLimitExceeded();
    }
  }
}

let activeMeter: CostMeter | undefined;

/**
 * Runs `fn` with `meter` as the one {@link chargeActiveMeter} charges (CEL evaluation is
 * synchronous, so one active meter at a time is enough).
 *
 * @example
 * ```ts
 * const meter = new CostMeter(100);
 * withActiveMeter(meter, () => chargeActiveMeter(5));
 * meter.spent; // → 5
 * ```
 */
export function withActiveMeter<T>(meter: CostMeter, fn: () => T): T {
  const previous = activeMeter;
  activeMeter = meter;
  try {
    return fn();
  } finally {
    activeMeter = previous;
  }
}

/**
 * Charges `units` to the active meter (none outside {@link withActiveMeter}: then free).
 *
 * @example
 * ```ts
 * chargeActiveMeter(3); // a no-op outside withActiveMeter
 * ```
 */
export function chargeActiveMeter(units: number): void {
  activeMeter?.charge(units);
}
