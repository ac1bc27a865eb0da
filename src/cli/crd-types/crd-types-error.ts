/** The error `gen types` reports for input it cannot turn into types. */
import { OperatorRuntimeError } from "../../errors.ts";

/**
 * Input `gen types` cannot use: an unreadable file, YAML that does not parse, a document that
 * is not a CustomResourceDefinition, a CRD without a served version. The message names the file
 * (and the document, counted from 1) and what to fix; the CLI prints it without a stack trace
 * and exits 1.
 *
 * @example
 * ```ts
 * throw new CrdTypesError("crds/app.yaml (document 2): not a CustomResourceDefinition (kind Deployment)");
 * ```
 */
export class CrdTypesError extends OperatorRuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CrdTypesError";
  }
}
