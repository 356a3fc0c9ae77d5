/**
 * The rules every answer owes by role, from the operations table (contract/operations.ts): the
 * documented shape of a success answer (its success schema, or no body) and, for an answer with
 * a body, a JSON Content-Type. Their rule ids are the table's, named there literally.
 */
import { operation, operationRules, operations, type OperationId } from '../../contract/operations.ts';
import { valueAtPointer } from '../../contract/json-pointer.ts';
import type { SchemaName } from '../../contract/schemas.ts';
import type { Exchange } from '../../http/exchange.ts';
import { bodyIsEmpty, bodyMatchesSchema, contentTypeIsJson, type Violation } from '../checks.ts';
import type { AnswerContext } from '../expectations.ts';
import { echoedFields } from './echoes.ts';
import { registered, type RegisteredCheck } from './define.ts';

/** The operations whose answers owe rules (the reference's; not the suite's undocumented helpers). */
export const documentedOperations = (): OperationId[] =>
  operations.filter((entry) => entry.rules !== undefined).map((entry) => entry.id);

/** The schema of an operation's documented success answer, if it has a body. */
function successSchema(id: OperationId): SchemaName | undefined {
  return operation(id).responses.find((response) => response.status.startsWith('2'))?.schema as SchemaName | undefined;
}

/**
 * Echoed fields the server read as "not given" and the answer shows as null or leaves out: the
 * reference does not say what a transaction shows for them, so their schema violations are not ones.
 */
function unsetFieldLocations(exchange: Exchange, context: AnswerContext): Set<string> {
  const read = context.read;
  if (read === undefined) return new Set();
  return new Set(
    echoedFields
      .filter((field) => read[field] === undefined && valueAtPointer(exchange.json, `/${field}`) == null)
      .map((field) => `body /${field}`),
  );
}

/**
 * RFC 8259 section 4: the names within an object SHOULD be unique. An answer that names a member twice
 * (`"status":500,"status":200`) is read differently by different parsers (the first, the last, or a refusal):
 * its shape is not the documented one for every client.
 */
export function namesUnique(exchange: Pick<Exchange, 'duplicateName'>): Violation[] {
  const duplicate = exchange.duplicateName;
  if (duplicate === undefined) return [];
  return [
    {
      location: `body ${duplicate.pointer || '/'}`,
      expected: 'each member named once (RFC 8259 section 4: parsers keep the first, the last, or refuse)',
      actual: `the member ${JSON.stringify(duplicate.name)} named twice`,
      type: 'schema',
    },
  ];
}

function shapeCheck(id: OperationId): RegisteredCheck {
  const schema = successSchema(id);
  const violations = (exchange: Exchange, context: AnswerContext, strict: boolean): Violation[] => {
    if (schema === undefined) return bodyIsEmpty(exchange);
    const unset = unsetFieldLocations(exchange, context);
    return [
      ...namesUnique(exchange),
      ...bodyMatchesSchema(exchange, schema, strict ? 'strict' : 'reference').filter(
        (violation) => !unset.has(violation.location),
      ),
    ];
  };
  // The strict layer only adds to the reference one: an answer it accepts, the reference accepts too, so a
  // conforming answer is validated once. A value that does not exist yet (gap row not-yet-values), null or
  // absent, passes the reference and is what --strict refuses.
  return registered(operationRules(id).shape, [id], (exchange, context, settings) => {
    const strictViolations = violations(exchange, context, true);
    if (settings.strict || strictViolations.length === 0) return strictViolations;
    const referenceViolations = violations(exchange, context, false);
    if (referenceViolations.length > 0) return referenceViolations;
    const [first, ...others] = strictViolations as [Violation, ...Violation[]];
    const more = others.length === 0 ? '' : ` (and ${others.length} more)`;
    return {
      violations: [],
      lenient: `--strict refuses ${first.location}: expected ${first.expected}, actual ${first.actual}${more}`,
    };
  });
}

/** The shape of every documented operation's success answer, and its Content-Type where it has a body. */
export function shapeChecks(): RegisteredCheck[] {
  return documentedOperations().flatMap((id): RegisteredCheck[] => {
    const contentType = operationRules(id).contentType;
    const shape = shapeCheck(id);
    return contentType === undefined ? [shape] : [shape, registered(contentType, [id], contentTypeIsJson)];
  });
}
