/**
 * Gap row lenient-json: RFC 8259 section 9 lets a parser accept forms and extensions beyond JSON, and the reference
 * says only that JSON bodies use Content-Type application/json. The variant reads bodies as mainstream lenient
 * parsers do with their defaults (the suite's models of them, judgment/json-dialects.ts, which
 * tests/integration/json-dialects.test.ts holds to the real parsers where they run).
 */
import { dialects, readJson, unread, type Dialect } from '../../../judgment/json-dialects.ts';
import { BadRequest } from '../../validation.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

const dialect = (name: string): Dialect => {
  const found = dialects.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`mock/mutants: no JSON dialect ${name}`);
  return found;
};

/** A body read by the first of the dialects that reads it, or refused as a parser refuses text it cannot read. */
export function readWith(names: readonly string[]): (text: string) => unknown {
  const readers = names.map(dialect);
  return (text) => {
    for (const reader of readers) {
      const value = readJson(text, reader);
      if (value !== unread) return value;
    }
    throw new BadRequest('the request body is not JSON this server reads', 400, 'invalid_json');
  };
}

export function lenientJsonVariants(): Variant[] {
  return [
    variant({
      name: 'variant.lenient-json-parsers',
      gaps: ['lenient-json'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'MALFORMED-JSON-4XX'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        "bodies read by the first lenient parser that reads them: Gson's, Json.NET's, Python's json, Go's json.Decoder",
      create: () => ({ readBody: readWith(['Gson', 'Json.NET', "Python's json", "Go's json.Decoder"]) }),
    }),
  ];
}
