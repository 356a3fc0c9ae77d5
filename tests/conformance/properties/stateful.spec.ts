/**
 * Stateful, model-based tests: many short random sequences of every operation (the model, the
 * commands and the test are in ./stateful-sequences.ts; the long sequences run from
 * tests/conformance/00-long-sequences.spec.ts, first).
 */
import { declareSequenceTests } from './stateful-sequences.ts';

declareSequenceTests('short');
