/**
 * How a row of the settings table reads in --help, the documentation and .env.example: its flag
 * as typed, its variable, its default, and its Markdown as plain text for a terminal.
 */
import type { AnySetting, CommandName, TableRow } from './settings.ts';

/** Markdown as a terminal shows it: no backticks, no emphasis, links as their text. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1');
}

/** The flag as it is typed: `--base-url URL`, `--strict`. */
export function flagUsage(row: TableRow): string {
  const { name, placeholder } = row.flag;
  return placeholder === undefined ? `--${name}` : `--${name} ${placeholder}`;
}

/** The variable a flag sets, with the value a switch gives it: `PCS_BASE_URL`, `PCS_STRICT=yes`. */
export function flagVariable(row: TableRow): string | undefined {
  if (row.variable === undefined) return undefined;
  return row.flag.sets === undefined ? row.variable : `${row.variable}=${row.flag.sets}`;
}

/** A yes/no setting's value as it is written: `1`/`0` for a switch that sets 1, else `yes`/`no`. */
function booleanWord(row: AnySetting, value: boolean): string {
  const numeric = row.flag.sets === '1';
  if (value) return numeric ? '1' : 'yes';
  return numeric ? '0' : 'no';
}

/** The default as Markdown, or undefined when there is none to state. */
export function defaultMarkdown(row: AnySetting): string | undefined {
  if (row.defaultText !== undefined) return row.defaultText;
  const value = row.default;
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return `\`${booleanWord(row, value)}\``;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `\`${value}\``;
  return undefined;
}

/** A row's default for a command, as Markdown; undefined when there is none to state. */
export function commandDefault(row: TableRow, command: CommandName): string | undefined {
  return row.defaultFor?.[command] ?? (row.variable === undefined ? row.defaultText : defaultMarkdown(row));
}

/** The value .env.example writes on the variable's line: the example, else the default when it is a plain value. */
export function exampleValue(row: AnySetting): string {
  if (row.example !== undefined) return row.example;
  const value = row.default;
  if (typeof value === 'boolean') return booleanWord(row, value);
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return '';
}

/** Words wrapped to lines of at most `width` characters (a longer word stands on its own line). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
