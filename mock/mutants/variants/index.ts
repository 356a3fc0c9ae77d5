/**
 * Conforming variants: the same mechanism as the mutants, serving behaviours that conform to
 * the reference but choose differently where it is silent. They are derived from the gap
 * table (specs/gaps.json): every row has at least one variant that makes another choice than
 * the reference mock there (`gaps`), one choice at a time, and combined variants make several
 * at once. Each names, literally, the rules whose verdict its choice tests (`rules`): the rules
 * of its gap rows it exercises, and the rules whose tests meet its answers. The suite must pass
 * every one in its default mode: a failure is a false positive.
 *
 * Lenient variants (`strictKills`) accept what the reference leaves open only to a lenient
 * reading (null as "not given", coercion, another declared Content-Type, formats the prose
 * describes); --strict must fail them, naming that rule.
 *
 * One module per gap row, named after the row's id, holds the variants whose first row it is,
 * so that a row's variants are found beside each other; combined.ts holds those that make
 * several rows' choices at once, and shared.ts what more than one row's modules use.
 */
import { gapRows } from '../../../contract/gaps.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { accountIsolationVariants } from './account-isolation.ts';
import { authElsewhereVariants } from './auth-elsewhere.ts';
import { authOrderVariants } from './auth-order.ts';
import { boundsVariants } from './bounds.ts';
import { clockVariants } from './clock.ts';
import { coercionVariants } from './coercion.ts';
import { combinedVariants } from './combined.ts';
import { currencyAffixesVariants } from './currency-affixes.ts';
import { currencyModesVariants } from './currency-modes.ts';
import { customerCreationVariants } from './customer-creation.ts';
import { echoVariants } from './echo.ts';
import { errorBodyVariants } from './error-body.ts';
import { errorStatusVariants } from './error-status.ts';
import { eventFieldsVariants } from './event-fields.ts';
import { extraFieldsVariants } from './extra-fields.ts';
import { getByIdArrayVariants } from './get-by-id-array.ts';
import { identifiersVariants } from './identifiers.ts';
import { lenientJsonVariants } from './lenient-json.ts';
import { moneyVariants } from './money.ts';
import { linkTwiceVariants } from './link-twice.ts';
import { notYetValuesVariants } from './not-yet-values.ts';
import { paymentUrlVariants } from './payment-url.ts';
import { proseConstraintsVariants } from './prose-constraints.ts';
import { requestContentTypeVariants } from './request-content-type.ts';
import { requiredFieldsVariants } from './required-fields.ts';
import { responseContentTypeVariants } from './response-content-type.ts';
import { sendArrayVariants } from './send-array.ts';
import { serverOwnedFieldsVariants } from './server-owned-fields.ts';
import { statusValuesVariants } from './status-values.ts';
import { successStatusVariants } from './success-status.ts';
import { timestampsVariants } from './timestamps.ts';
import { tokenFormVariants } from './token-form.ts';
import { transportVariants } from './transport.ts';
import { unknownIdsVariants } from './unknown-ids.ts';

/**
 * Each row's module, by the row's id. The rows environments and token-not-key have none: the
 * variant that varies them (errors-other-shape) has error-body as its first row.
 */
const byRow: Readonly<Record<string, () => Variant[]>> = {
  'success-status': successStatusVariants,
  'error-body': errorBodyVariants,
  'error-status': errorStatusVariants,
  'auth-elsewhere': authElsewhereVariants,
  'auth-order': authOrderVariants,
  'account-isolation': accountIsolationVariants,
  'required-fields': requiredFieldsVariants,
  'server-owned-fields': serverOwnedFieldsVariants,
  coercion: coercionVariants,
  'lenient-json': lenientJsonVariants,
  money: moneyVariants,
  'request-content-type': requestContentTypeVariants,
  bounds: boundsVariants,
  'prose-constraints': proseConstraintsVariants,
  echo: echoVariants,
  timestamps: timestampsVariants,
  clock: clockVariants,
  'extra-fields': extraFieldsVariants,
  'event-fields': eventFieldsVariants,
  'not-yet-values': notYetValuesVariants,
  'status-values': statusValuesVariants,
  'currency-affixes': currencyAffixesVariants,
  identifiers: identifiersVariants,
  'get-by-id-array': getByIdArrayVariants,
  'send-array': sendArrayVariants,
  'token-form': tokenFormVariants,
  'link-twice': linkTwiceVariants,
  'customer-creation': customerCreationVariants,
  'unknown-ids': unknownIdsVariants,
  'currency-modes': currencyModesVariants,
  'response-content-type': responseContentTypeVariants,
  'payment-url': paymentUrlVariants,
  transport: transportVariants,
};

/**
 * Every conforming variant, row by row in the order of specs/gaps.json, then the combined ones.
 * A module filed under a row that does not exist, or holding a variant whose first row is
 * another, throws: either would leave a variant where a reader of its row does not look.
 */
export function conformingVariants(): Variant[] {
  const rowIds = new Set(gapRows.map((row) => row.id));
  for (const id of Object.keys(byRow)) {
    if (!rowIds.has(id))
      throw new Error(`mock/mutants/variants: variants filed under ${id}, no row of specs/gaps.json`);
  }
  const byRows = gapRows.flatMap((row) => {
    const list = byRow[row.id]?.() ?? [];
    for (const { name, gaps } of list) {
      if (gaps[0] !== row.id)
        throw new Error(`mock/mutants/variants: ${name} has ${gaps[0]} as its first row, not ${row.id}`);
    }
    return list;
  });
  return [...byRows, ...combinedVariants()];
}
