/** The error a command throws for a bad command line: the CLI prints it with the usage and exits 2. */
import { OperatorRuntimeError } from "../errors.ts";

/**
 * A command line the CLI cannot run: an unknown command or option, a missing or malformed value.
 * The message names the culprit (`--port must be an integer from 0 to 65535, got "abc"`).
 *
 * @example
 * ```ts
 * throw new UsageError('unknown command "nosuch"');
 * ```
 */
export class UsageError extends OperatorRuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UsageError";
  }
}
