/**
 * Stateful, model-based tests: one long sequence of hundreds of commands per kind of rules
 * (tests/conformance/properties/stateful-sequences.ts). In a file of their own, named to sort first:
 * Playwright dispatches tests in file order, and each command waits for the answer to the one
 * before, so against a target far away (40 ms: about 15 s a sequence) these are the run's critical
 * path; started first, they run beside everything else instead of after it.
 */
import { test } from '../../suite/fixtures.ts';
import { sequenceTests } from './properties/stateful-sequences.ts';

for (const { title, details, body } of sequenceTests('long')) test(title, details, body);
