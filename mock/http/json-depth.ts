/**
 * Whether a JSON text nests arrays and objects deeper than `limit`, found by one scan of the
 * text (outside strings), before anything parses it: a body nested 100,000 levels deep costs
 * one pass, never a deep recursion in a parser, a validator or a serializer. One scan for the
 * mock and the judges of answers: contract/json-text.ts.
 */
export { jsonDepthExceeds } from '../../contract/json-text.ts';
