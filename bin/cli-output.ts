// What every hcp-cdk command prints on its way out: its output, or a usage error with the usage.

/** Prints `text` on stdout; the exit status of a command that did what it was asked. */
export function print(text: string): number {
  console.log(text);
  return 0;
}

/** A usage error of `command` (`hcp-cdk plan`): the message and the usage on stderr, and the exit status `status`. */
export function usageErrorOf(command: string, usage: string, status: number): (message: string) => number {
  return (message) => {
    console.error(`${command}: ${message}\n${usage}`);
    return status;
  };
}
