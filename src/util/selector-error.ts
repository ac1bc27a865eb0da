/** The one error of the selector parsers: which selector was refused, and why in the API server's words. */
import { OperatorRuntimeError } from "../errors.ts";

/**
 * A label, field or shard selector that cannot be parsed or holds an invalid key or value.
 *
 * `problem` is worded exactly as kube-apiserver words it (`unable to parse requirement: …`,
 * `found ',', expected: …`), so LocalCluster answers it unchanged as a 400 BadRequest; the
 * `message` adds which selector it is about.
 *
 * @example
 * ```ts
 * import { parseLabelSelector } from "operator-runtime/cache";
 *
 * try {
 *   parseLabelSelector("app=web,");
 * } catch (err) {
 *   if (err instanceof InvalidSelectorError) console.log(err.selector, err.problem); // "app=web," "found '', expected: identifier after ','"
 * }
 * ```
 */
export class InvalidSelectorError extends OperatorRuntimeError {
  /** Which kind of selector. */
  readonly selectorType: "label" | "field" | "shard";
  /** The selector as given: the string, or the JSON of a `metav1.LabelSelector` object. */
  readonly selector: string;
  /** What is wrong, in the API server's words. */
  readonly problem: string;

  constructor(selectorType: "label" | "field" | "shard", selector: string, problem: string) {
    super(`invalid ${selectorType} selector ${JSON.stringify(selector)}: ${problem}`);
    this.name = "InvalidSelectorError";
    this.selectorType = selectorType;
    this.selector = selector;
    this.problem = problem;
  }
}
