/**
 * Stateful, model-based tests: many short random sequences of every operation (the model, the
 * commands and the test are in ./stateful-sequences.ts; the long sequences run from
 * tests/conformance/00-long-sequences.spec.ts, first).
 */
import { test } from '../../../suite/fixtures.ts';
import { sequenceTests } from './stateful-sequences.ts';

for (const { title, details, body } of sequenceTests('short')) test(title, details, body);
