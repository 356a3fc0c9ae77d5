/**
 * Gap row money: amount is an integer, and its units and bounds are not shown. An amount is read exactly or not at
 * all: a strict integer field refuses 1500.0 (not written as an integer), an exact reading takes "1000" and
 * "1_000" as 1000; neither reads a fraction as another amount.
 */
import { BadRequest } from '../../validation.ts';
import { isObject, type Hooks, type Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/** The amount as the raw text writes it: a fraction or an exponent (1500.0, 15e2) is no integer to a typed parser. */
const amountToken = /"amount"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

function strictIntegerAmount(): Hooks {
  return {
    readBody: (text) => {
      const spelled = amountToken.exec(text)?.[1];
      if (spelled !== undefined && /[.eE]/.test(spelled))
        throw new BadRequest(`amount must be an integer, got ${spelled}`, 422, 'unprocessable_entity');
      return undefined;
    },
  };
}

export function exactAmountReadings(): Hooks {
  return {
    preHandler: (c) => {
      const body = c.request.body;
      if (!isObject(body) || typeof body.amount !== 'string') return undefined;
      // Python's int() of a text: white space around it, a sign, digit separators; never a fraction.
      const digits = body.amount.trim();
      if (/^[+-]?\d+(?:_\d+)*$/.test(digits) && Number.isSafeInteger(Number(digits.replace(/_/g, ''))))
        body.amount = Number(digits.replace(/_/g, ''));
      return undefined;
    },
  };
}

export function moneyVariants(): Variant[] {
  return [
    variant({
      name: 'variant.amount-strict-integer',
      gaps: ['money'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-AMOUNT-EXACT'],
      operations: ['createTransaction'],
      description:
        "a strict integer amount (Go's encoding/json, pydantic's StrictInt): 1500.0 and 15e2 refused with 422, " +
        'as a fraction is',
      create: strictIntegerAmount,
    }),
    variant({
      name: 'variant.amount-exact-readings',
      gaps: ['money', 'coercion'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-AMOUNT-EXACT', 'TXN-CREATE-ECHO'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction'],
      description: 'an amount read exactly: "1000", " 1000 " and "1_000" as 1000, 1000.0 as 1000; a fraction refused',
      create: exactAmountReadings,
    }),
  ];
}
