/**
 * A setting read from the environment through its row of the table (settings/settings.ts):
 * blank or unset is the default, anything else must pass the row's validator, or it is a ConfigError
 * naming the variable.
 */
import { ConfigError } from './config-error.ts';
import { variableSettings, type Setting } from './settings.ts';

type Env = Record<string, string | undefined>;

/** The variable's text, trimmed; undefined when unset or blank. */
export function settingText(env: Env, row: Setting<unknown>): string | undefined {
  const text = env[row.variable]?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** A text of the variable, validated. */
export function parseSetting<T>(row: Setting<T>, text: string): T {
  const parsed = row.parse(text);
  if (!parsed.ok) throw new ConfigError(row.variable, parsed.problem);
  return parsed.value;
}

export function readSetting<T>(env: Env, row: Setting<T>): T {
  const text = settingText(env, row);
  return text === undefined ? row.default : parseSetting(row, text);
}

/**
 * For a module that reads a setting when it loads, before global setup validated the environment:
 * a wrong value is its default here, and is refused, with its one line, by global setup.
 */
export function readSettingOrDefault<T>(env: Env, row: Setting<T>): T {
  const text = settingText(env, row);
  if (text === undefined) return row.default;
  const parsed = row.parse(text);
  return parsed.ok ? parsed.value : row.default;
}

/** Every setting, each on its own: a ConfigError for the first wrong one. Rules across settings are loadConfig's. */
export function validateSettings(env: Env = process.env): void {
  for (const row of variableSettings) readSetting(env, row);
}
