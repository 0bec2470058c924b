/** An error whose message is meant for the person at the terminal: printed as one line, no stack. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}
