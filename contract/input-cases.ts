/**
 * Typed access to the input cases (specs/input-cases/*.json): one field of a request body set to
 * one value (or a whole body sent as text), with the outcome class the suite gives it and the rule
 * that judges it. The cases are
 * data, as the JSON-Schema-Test-Suite keeps its cases: tests/unit/input-class.test.ts checks the
 * classes against judgment/input-class.ts, and `collect-conformance rules --show ID`
 * lists the cases of a rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { InputClass } from './rules.ts';
import type { SchemaName } from './schemas.ts';

export interface InputCase {
  name: string;
  /** JSON Pointer of the field in the body. */
  pointer: string;
  value?: unknown;
  /** The field is left out (value is then ignored). */
  absent?: boolean;
  class: InputClass;
  /** The rule of specs/rules.json that judges the answer to this input, named literally. */
  rule: string;
  /** accept-or-refuse only: whether --strict refuses it. */
  strictRefuses?: boolean;
  /** accept-or-refuse only: the values a server may read it as ("absent" for not given). */
  readings?: unknown[];
  /**
   * The body sent as this text rather than as JSON (pointer ''): what it departs from JSON with, made from the
   * file's valid body. Its class comes from how mainstream parsers read it (judgment/text-class.ts).
   */
  text?: string;
  /** text only: the parsers that read it (judgment/json-dialects.ts names). */
  readers?: string[];
}

export interface InputCaseFile {
  /** File name inside specs/input-cases/. */
  file: string;
  /** The request-body schema the cases are about. */
  schema: SchemaName;
  /** The valid body the text cases were made from (files of text cases). */
  valid?: unknown;
  cases: InputCase[];
}

export const inputCasesDir = fileURLToPath(new URL('../specs/input-cases/', import.meta.url));

let loaded: InputCaseFile[] | undefined;

/** Every file of specs/input-cases/, in name order. */
export function inputCaseFiles(): InputCaseFile[] {
  if (loaded) return loaded;
  const files = readdirSync(inputCasesDir)
    .filter((file) => file.endsWith('.json'))
    .sort();
  loaded = files.map((file) => {
    const data = JSON.parse(readFileSync(inputCasesDir + file, 'utf8')) as Omit<InputCaseFile, 'file'>;
    return { file, schema: data.schema, cases: data.cases, ...(data.valid === undefined ? {} : { valid: data.valid }) };
  });
  return loaded;
}
