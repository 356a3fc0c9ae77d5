/**
 * A wrong setting: its message is one line naming the variable (or the flag) and what is wrong
 * with it, and ends the run with exit code 2. A module of its own so that the modules that check
 * values need not load the configuration that uses them.
 */
export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}
