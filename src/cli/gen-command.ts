/** One `operator-runtime gen` subcommand (its own file so the subcommands and the table of them do not import each other). */
export interface GenCommand {
  /** One line for `operator-runtime gen --help`. */
  readonly summary: string;
  /** Its `--help` text. */
  readonly usage: string;
  /**
   * Runs it with the arguments after its name; resolves with the exit code. Throws a
   * `UsageError` for a bad command line (the CLI prints it with `usage` and exits 2).
   */
  run(args: readonly string[]): Promise<number>;
}
