/**
 * The documents the peer tools read, all derived from specs/openapi.json:
 * - the 3.1 document as is, with its server set to the mock (Portman, Prism);
 * - a 3.0 copy for Dredd, which does not read 3.1: type arrays become nullable / oneOf, and
 *   the "2XX" success ranges (the reference shows no success code) become the concrete codes
 *   Dredd needs, the ones the reference mock answers, since Dredd compares codes exactly.
 */
import { readFileSync } from 'node:fs';
import { openapiFile } from '../../mock/mutants/documented-responses.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function openapi31(): JsonObject {
  return JSON.parse(readFileSync(openapiFile, 'utf8')) as JsonObject;
}

/** Replaces each "2XX" success range by the concrete code of the reference mock (in place). */
function concreteSuccessCodes(document: JsonObject): JsonObject {
  for (const methods of Object.values(document.paths as JsonObject)) {
    if (!isObject(methods)) continue;
    for (const op of Object.values(methods)) {
      if (!isObject(op) || !isObject(op.responses) || op.responses['2XX'] === undefined) continue;
      op.responses[referenceSuccess[String(op.operationId)] ?? '200'] = op.responses['2XX']!;
      delete op.responses['2XX'];
    }
  }
  return document;
}

/**
 * The 3.1 document with concrete success codes, for tools that generate no check at all for a
 * "2XX" range (Portman: measured, it generates contract tests only for deleteCustomer's 204).
 */
export function openapi31ConcreteCodes(): JsonObject {
  return concreteSuccessCodes(openapi31());
}

/** Success codes of the reference mock, for tools that cannot read a 2XX range. */
export const referenceSuccess: Record<string, string> = {
  createCustomer: '201',
  createTransaction: '201',
  getPaymentLink: '200',
  sendTransaction: '200',
  getBalance: '200',
  getCurrency: '200',
  deleteCustomer: '204',
};

/** JSON Schema 2020-12 as used by the document, rewritten into OpenAPI 3.0's dialect. */
function downgradeSchema(value: Json): Json {
  if (Array.isArray(value)) return value.map(downgradeSchema);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'examples' || key === '$schema' || key === '$id') continue;
    out[key] = downgradeSchema(item);
  }
  const type = value.type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null') as string[];
    if (type.includes('null')) out.nullable = true;
    if (types.length === 1) out.type = types[0]!;
    else {
      delete out.type;
      out.oneOf = types.map((t) => ({ type: t }));
    }
  }
  return out;
}

export function openapi30(examples: { customerEmail: string; transaction: JsonObject; send: JsonObject }): JsonObject {
  const document = concreteSuccessCodes(openapi31());
  document.openapi = '3.0.3';
  const components = document.components as JsonObject;
  components.schemas = downgradeSchema(components.schemas!) as JsonObject;
  for (const methods of Object.values(document.paths as JsonObject)) {
    if (!isObject(methods)) continue;
    for (const op of Object.values(methods)) {
      if (!isObject(op) || !isObject(op.responses)) continue;
      const id = String(op.operationId);
      // Dredd needs a value for every path parameter and a body example for every request body.
      for (const parameter of Array.isArray(op.parameters) ? op.parameters : []) {
        if (isObject(parameter)) parameter.example = parameter.name === 'mode' ? 'mtn' : 1;
      }
      const media =
        isObject(op.requestBody) && isObject(op.requestBody.content)
          ? op.requestBody.content['application/json']
          : undefined;
      if (isObject(media)) {
        media.example =
          id === 'createTransaction'
            ? examples.transaction
            : id === 'sendTransaction'
              ? examples.send
              : { email: examples.customerEmail };
      }
    }
  }
  return document;
}
