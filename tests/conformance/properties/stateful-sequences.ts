/**
 * Stateful, model-based test (fc.commands + fc.asyncModelRun): random sequences of every
 * operation, including deleting unknown and already-deleted customers, linking unknown
 * transactions and sending with unknown tokens. A model of customers, transactions and
 * tokens predicts each answer; after every command the real answer is compared with it.
 * A failure shrinks to a minimal sequence, printed as numbered steps.
 *
 * Two tests run the same commands: one asserts the documented rules, the other the
 * inferred ones (a test checks one kind only); a rule of the other kind that a later
 * command relies on (e.g. creation giving a 2xx) is a precondition there.
 *
 * Rules across exchanges (an id or a token given out twice, a url carrying another transaction's token, a deleted
 * customer deleted again) are the registry's history checks, which the judge of traffic applies too: every answer of
 * a sequence is judged against the History of the sequence's earlier answers, then added to it.
 *
 * Only what the reference says is modelled: a token is used once (sending twice, or
 * linking a transaction already sent, is not described), and a transaction's newest
 * token is the one sent. What deleting a customer does to its transactions is not shown
 * either: their link and send may then be refused, never answered with a 5xx.
 *
 * Besides many short sequences (up to 15 commands), each kind also runs one long sequence of
 * hundreds of commands, so that what goes wrong only after many requests or many transactions
 * (state forgotten, ids reused) is met.
 */
import fc from 'fast-check';
import { type test, requireWrites } from '../../../suite/fixtures.ts';
import { covers } from '../../../judgment/covers.ts';
import { isSuccess, statusIsSuccess } from '../../../judgment/checks.ts';
import { checksOf } from '../../../judgment/registry.ts';
import { accepted, either, exactly, refused } from '../../../judgment/expectations.ts';
import type { OperationId } from '../../../contract/operations.ts';
import { acceptedSendPhone, acceptedTransactionBody, arbitraryFor } from '../../../generation/arbitraries.ts';
import { holdsAnswer, holdsHistory, needs, runProperty } from '../../../generation/properties.ts';
import type { FastClient } from '../../../http/fast-client.ts';
import type { Target } from '../../../settings/target.ts';
import { rule, type RuleKind } from '../../../contract/rules.ts';
import type { CreateCustomerBody, CreateTransactionBody } from '../../../contract/types.ts';
import { describeValue } from '../../../contract/json-pointer.ts';
import { bySuite, History } from '../../../judgment/history.ts';
import { linkExpectation } from '../../../judgment/history-expectations.ts';
import { createdCustomerId } from '../../../output/ledger.ts';

interface ModelTransaction {
  id: number;
  amount: number;
  /** The newest token issued for it, until it is sent. */
  token: unknown;
  sent: boolean;
  /** Refused after its customer was deleted (History.customerGone): nothing more is asked of it. */
  closed: boolean;
}

/** Transactions whose link may be asked: not sent, not closed. */
const open = (model: Readonly<Model>): ModelTransaction[] =>
  model.transactions.filter((transaction) => !transaction.sent && !transaction.closed);

interface Model {
  customers: number[];
  /**
   * Deleted customers, each with the customer of this sequence that guards its id: one created before the deletion,
   * with a higher id. A store that gives out max(id) + 1 (SQLite's rowid without AUTOINCREMENT, which Rails's schema
   * load gives; an in-memory map) may hand a deleted id to the next creation, another test's perhaps: the reference
   * does not forbid it. While the guard lives, the id cannot come back, so deleting it again names nobody.
   */
  deletedCustomers: { id: number; guard: number | undefined }[];
  transactions: ModelTransaction[];
}

/** Deleted customers whose id no creation can have been given since: their guard still lives. */
const guardedDeleted = (model: Readonly<Model>): number[] =>
  model.deletedCustomers
    .filter(({ id, guard }) => guard !== undefined && model.customers.includes(guard) && !model.customers.includes(id))
    .map(({ id }) => id);

interface Real {
  client: FastClient;
  target: Target;
  kind: RuleKind;
  /** Customers this sequence created and did not delete: removed after it. */
  leftovers: Set<number>;
  /** What the sequence's answers gave out so far, which the registry's history checks read. */
  history: History;
}

type Cmd = fc.AsyncCommand<Model, Real, false>;

const customerBody = arbitraryFor<CreateCustomerBody>('create-customer-body', { omit: ['/phone_number'] });

class CreateCustomer implements Cmd {
  static readonly operation: OperationId = 'createCustomer';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = [];
  readonly body: CreateCustomerBody;
  constructor(body: CreateCustomerBody) {
    this.body = body;
  }
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    real.client.step(this.toString());
    const exchange = await real.client.call('createCustomer', { body: this.body });
    // The id where the other tests read it: /id, /0/id or one object down
    // (/data/id), as the gap table says (docs/explanations/gaps.md).
    const id = createdCustomerId(exchange.json);
    // Customer creation is the suite's helper (not shown by the reference): its failure is a precondition of deletion.
    needs('CUSTOMER-DELETE-204', exchange, [
      ...statusIsSuccess(exchange),
      ...(id !== undefined
        ? []
        : [
            {
              location: 'body /id',
              expected: 'an integer customer id (at /id, /0/id or /<field>/id)',
              actual: describeValue(exchange.json),
            },
          ]),
    ]);
    holdsHistory(exchange, bySuite({ sent: this.body }), real.history);
    model.customers.push(id as number);
    real.leftovers.add(id as number);
  }
  toString = (): string => `createCustomer(${JSON.stringify(this.body)})`;
}

class DeleteCustomer implements Cmd {
  static readonly operation: OperationId = 'deleteCustomer';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['CUSTOMER-DELETE-204'];
  readonly pick: number;
  constructor(pick: number) {
    this.pick = pick;
  }
  check = (model: Readonly<Model>): boolean => model.customers.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const index = this.pick % model.customers.length;
    const id = model.customers[index]!;
    real.client.step(`${this.toString()}: customer ${id}`);
    const exchange = await real.client.call('deleteCustomer', { params: { id } });
    holdsAnswer(exchange, accepted('CUSTOMER-DELETE-204'), { prerequisite: true });
    holdsHistory(exchange, bySuite({ id }), real.history);
    model.customers.splice(index, 1);
    // A guard ends with its customer (a later customer may be given its id again).
    for (const deleted of model.deletedCustomers) if (deleted.guard === id) deleted.guard = undefined;
    const higher = model.customers.filter((other) => other > id);
    model.deletedCustomers.push({ id, guard: higher.length > 0 ? Math.max(...higher) : undefined });
    real.leftovers.delete(id);
  }
  toString = (): string => `deleteCustomer(existing #${this.pick})`;
}

class DeleteDeletedCustomer implements Cmd {
  static readonly operation: OperationId = 'deleteCustomer';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['CUSTOMER-DELETE-GONE'];
  readonly pick: number;
  constructor(pick: number) {
    this.pick = pick;
  }
  check = (model: Readonly<Model>): boolean => guardedDeleted(model).length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const guarded = guardedDeleted(model);
    const id = guarded[this.pick % guarded.length]!;
    real.client.step(`${this.toString()}: customer ${id}`);
    const exchange = await real.client.call('deleteCustomer', { params: { id } });
    // The sequence deleted it, and no customer it created since was given its id: history says so too.
    const judged = holdsHistory(exchange, bySuite({ id }), real.history);
    if (!judged.includes('CUSTOMER-DELETE-GONE'))
      throw new Error(`the sequence's history does not hold customer ${id} as deleted (a defect of the suite)`);
  }
  toString = (): string => `deleteCustomer(already deleted #${this.pick})`;
}

class DeleteUnknownCustomer implements Cmd {
  static readonly operation: OperationId = 'deleteCustomer';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['CUSTOMER-DELETE-404'];
  readonly id: number;
  constructor(id: number) {
    this.id = id;
  }
  check = (): boolean => true;
  async run(_model: Model, real: Real): Promise<void> {
    real.client.step(this.toString());
    const exchange = await real.client.call('deleteCustomer', { params: { id: this.id } });
    holdsAnswer(exchange, exactly('CUSTOMER-DELETE-404', 404));
    holdsHistory(exchange, bySuite({ id: this.id }), real.history);
  }
  toString = (): string => `deleteCustomer(unknown id ${this.id})`;
}

class CreateTransaction implements Cmd {
  static readonly operation: OperationId = 'createTransaction';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['TXN-CREATE-2XX', 'TXN-CREATE-CUSTOMER-BY-ID', 'TXN-ID-UNIQUE'];
  readonly body: CreateTransactionBody;
  /** Reference an existing customer by id alone (when the model has one). */
  readonly customerPick: number | null;
  constructor(body: CreateTransactionBody, customerPick: number | null) {
    this.body = body;
    this.customerPick = customerPick;
  }
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    let body = this.body;
    let byId = false;
    if (this.customerPick !== null && model.customers.length > 0) {
      body = { ...body, customer: { id: model.customers[this.customerPick % model.customers.length]! } };
      byId = true;
    }
    real.client.step(byId ? `${this.toString()} with customer ${body.customer?.id} by id` : this.toString());
    const exchange = await real.client.call('createTransaction', { body });
    // By id, the documented sequences judge the creation under the documented rule that names that form.
    const rule = byId && real.kind === 'documented' ? 'TXN-CREATE-CUSTOMER-BY-ID' : 'TXN-CREATE-2XX';
    holdsAnswer(exchange, accepted(rule, { read: { ...body } }), { prerequisite: true });
    holdsHistory(exchange, bySuite({ sent: body }), real.history);
    model.transactions.push({
      id: (exchange.json as { id: number }).id,
      amount: body.amount,
      token: undefined,
      sent: false,
      closed: false,
    });
  }
  toString = (): string =>
    `createTransaction(amount ${this.body.amount}` +
    `${this.customerPick === null ? '' : `, customer #${this.customerPick}`})`;
}

class GetLink implements Cmd {
  static readonly operation: OperationId = 'getPaymentLink';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['LINK-2XX', 'CUSTOMER-REFERENCE-NOT-5XX', 'LINK-TOKEN-OWN'];
  readonly pick: number;
  constructor(pick: number) {
    this.pick = pick;
  }
  check = (model: Readonly<Model>): boolean => open(model).length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const candidates = open(model);
    const transaction = candidates[this.pick % candidates.length]!;
    const gone = real.history.customerGone(String(transaction.id));
    real.client.step(`${this.toString()}: transaction ${transaction.id}${gone ? ' (its customer was deleted)' : ''}`);
    const exchange = await real.client.call('getPaymentLink', { params: { id: transaction.id } });
    // What the judge of traffic owes the same link: accepted; its customer deleted since, refused (a 4xx) or linked.
    const expectation = linkExpectation(real.history, 'first', String(transaction.id));
    holdsAnswer(exchange, expectation, { prerequisite: true });
    holdsHistory(exchange, bySuite({ id: transaction.id }), real.history);
    if (!isSuccess(exchange.status)) {
      transaction.closed = true;
      return;
    }
    transaction.token = (exchange.json as { token: unknown }).token;
  }
  toString = (): string => `getPaymentLink(open transaction #${this.pick})`;
}

class LinkUnknownTransaction implements Cmd {
  static readonly operation: OperationId = 'getPaymentLink';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['LINK-UNKNOWN-TXN-4XX'];
  readonly id: number;
  constructor(id: number) {
    this.id = id;
  }
  check = (): boolean => true;
  async run(_model: Model, real: Real): Promise<void> {
    real.client.step(this.toString());
    const exchange = await real.client.call('getPaymentLink', { params: { id: this.id } });
    holdsAnswer(exchange, refused('LINK-UNKNOWN-TXN-4XX'));
    holdsHistory(exchange, bySuite({ id: this.id }), real.history);
  }
  toString = (): string => `getPaymentLink(unknown transaction ${this.id})`;
}

class Send implements Cmd {
  static readonly operation: OperationId = 'sendTransaction';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = [
    'SEND-TOKEN-AS-RETURNED',
    'SEND-2XX',
    'CUSTOMER-REFERENCE-NOT-5XX',
    'LINK-TOKEN-OWN',
  ];
  readonly pick: number;
  readonly phone: { number: string; country: string } | undefined;
  constructor(pick: number, phone: { number: string; country: string } | undefined) {
    this.pick = pick;
    this.phone = phone;
  }
  check = (model: Readonly<Model>): boolean => open(model).some((transaction) => transaction.token !== undefined);
  async run(model: Model, real: Real): Promise<void> {
    const linked = open(model).filter((transaction) => transaction.token !== undefined);
    const transaction = linked[this.pick % linked.length]!;
    const gone = real.history.customerGone(String(transaction.id));
    real.client.step(`${this.toString()}: transaction ${transaction.id}${gone ? ' (its customer was deleted)' : ''}`);
    const body =
      this.phone === undefined ? { token: transaction.token } : { token: transaction.token, phone_number: this.phone };
    const exchange = await real.client.call('sendTransaction', { params: { mode: real.target.paymentMode }, body });
    // The token as returned: the documented sequences judge the send under the documented quirk, the others under
    // the inferred status rule. A transaction whose customer was deleted may be refused (a 4xx) or sent; never a 5xx.
    const rule = real.kind === 'documented' ? 'SEND-TOKEN-AS-RETURNED' : 'SEND-2XX';
    const context = { amount: transaction.amount };
    const expectation = gone ? either('CUSTOMER-REFERENCE-NOT-5XX', context) : accepted(rule, context);
    holdsAnswer(exchange, expectation, { prerequisite: true });
    holdsHistory(exchange, bySuite({ sent: body }), real.history);
    if (!isSuccess(exchange.status)) {
      transaction.closed = true;
      return;
    }
    transaction.sent = true;
  }
  toString = (): string =>
    `sendTransaction(linked transaction #${this.pick}${this.phone ? ', with phone_number' : ''})`;
}

class SendUnknownToken implements Cmd {
  static readonly operation: OperationId = 'sendTransaction';
  /** The rules its judgements name (the registry adds those its operation's answers owe). */
  static readonly rules: readonly string[] = ['SEND-UNKNOWN-TOKEN-4XX'];
  readonly token: string;
  constructor(token: string) {
    this.token = token;
  }
  check = (): boolean => true;
  async run(_model: Model, real: Real): Promise<void> {
    real.client.step(this.toString());
    const exchange = await real.client.call('sendTransaction', {
      params: { mode: real.target.paymentMode },
      body: { token: this.token },
    });
    holdsAnswer(exchange, refused('SEND-UNKNOWN-TOKEN-4XX'));
    holdsHistory(exchange, bySuite({ sent: { token: this.token } }), real.history);
  }
  toString = (): string => `sendTransaction(unknown token ${this.token})`;
}

class GetListById implements Cmd {
  static readonly operations: readonly OperationId[] = ['getBalance', 'getCurrency'];
  static readonly rules: readonly string[] = ['BALANCE-2XX', 'CURRENCY-2XX'];
  readonly which: 'balance' | 'currency';
  constructor(which: 'balance' | 'currency') {
    this.which = which;
  }
  check = (): boolean => true;
  async run(_model: Model, real: Real): Promise<void> {
    const id = (this.which === 'balance' ? real.target.balanceId : real.target.currencyId)!;
    const [operationId, success] =
      this.which === 'balance' ? (['getBalance', 'BALANCE-2XX'] as const) : (['getCurrency', 'CURRENCY-2XX'] as const);
    real.client.step(this.toString());
    const exchange = await real.client.call(operationId, { params: { id } });
    holdsAnswer(exchange, accepted(success, { id }), { prerequisite: true });
    holdsHistory(exchange, bySuite({ id }), real.history);
  }
  toString = (): string => `get${this.which === 'balance' ? 'Balance' : 'Currency'}(configured id)`;
}

const unknownId = fc.integer({ min: 2_000_000_000, max: 2_147_483_000 });

function commandArbitraries(target: Target, withCustomers: boolean): fc.Arbitrary<Cmd>[] {
  // Picks range over every element the model holds (modulo its
  // size), old and new alike; they shrink towards the oldest.
  const pick = fc.nat({ max: 999 });
  const commands: fc.Arbitrary<Cmd>[] = [
    fc
      .tuple(acceptedTransactionBody<CreateTransactionBody>(target), fc.option(pick, { nil: null }))
      .map(([body, customer]) => new CreateTransaction(body, withCustomers ? customer : null)),
    pick.map((index) => new GetLink(index)),
    fc.tuple(pick, acceptedSendPhone(target)).map(([index, phone]) => new Send(index, phone)),
    unknownId.map((id) => new LinkUnknownTransaction(id)),
    fc.stringMatching(/^0\d{12,15}$/).map((token) => new SendUnknownToken(token)),
    unknownId.map((id) => new DeleteUnknownCustomer(id)),
  ];
  if (withCustomers) {
    commands.push(
      customerBody.map((body) => new CreateCustomer(body)),
      pick.map((index) => new DeleteCustomer(index)),
      pick.map((index) => new DeleteDeletedCustomer(index)),
    );
  }
  if (target.balanceId !== null) commands.push(fc.constant(new GetListById('balance')));
  if (target.currencyId !== null) commands.push(fc.constant(new GetListById('currency')));
  return commands;
}

/**
 * Whether the target has the customer-creation helper (not shown by the reference); without it, no customer commands.
 */
async function hasCustomerCreation(client: FastClient): Promise<boolean> {
  const [body] = fc.sample(customerBody, { numRuns: 1, seed: 7 });
  const exchange = await client.call('createCustomer', { body, quiet: true });
  if ([404, 405, 501].includes(exchange.status)) return false;
  const id = createdCustomerId(exchange.json);
  if (id !== undefined) await client.call('deleteCustomer', { params: { id }, quiet: true });
  return true;
}

/** Sequence lengths: many short ones (up to 15 commands), or one long one of hundreds. */
const lengths = {
  short: { maxCommands: 15, runs: (runs: number) => Math.max(1, Math.ceil(runs / 2)), label: 'random sequences' },
  // fc.commands draws lengths up to maxCommands: two sequences of up to 500 make hundreds of commands in all.
  long: {
    maxCommands: 500,
    runs: (runs: number) => Math.max(1, Math.ceil(runs / 50)),
    label: 'long sequences (hundreds of commands)',
  },
} as const;

/** The commands of a sequence: what each judges (its own rules, and what its operation's answers owe). */
const commandClasses = [
  CreateCustomer,
  DeleteCustomer,
  DeleteDeletedCustomer,
  DeleteUnknownCustomer,
  CreateTransaction,
  GetLink,
  LinkUnknownTransaction,
  Send,
  SendUnknownToken,
];

/** Every rule the commands judge, of one kind: the sequences' tags. */
function sequenceRules(kind: RuleKind): string[] {
  const operations = [...commandClasses.map((command) => command.operation), ...GetListById.operations];
  const named = [...commandClasses.flatMap((command) => command.rules), ...GetListById.rules];
  const owed = operations.flatMap((operationId) => checksOf(operationId).map((check) => check.rule));
  return [...new Set([...named, ...owed])].filter((id) => rule(id).kind === kind);
}

/** A test of the sequences, for the spec file that declares it (so that its location is that file's). */
export interface SequenceTest {
  title: string;
  details: ReturnType<typeof covers>;
  body: Parameters<typeof test>[2];
}

/**
 * The sequence tests of one length, for both kinds of rules. Two spec files declare them: the long
 * sequences are in tests/conformance/00-long-sequences.spec.ts, whose name makes Playwright dispatch
 * them first (it dispatches tests in file order): each command of a sequence waits for the answer to
 * the one before, so against a target far away the long ones are the run's critical path, and started
 * last they would be its tail.
 */
export function sequenceTests(length: 'short' | 'long'): SequenceTest[] {
  return (['documented', 'inferred'] as const).map((kind) => {
    const ruleIds = sequenceRules(kind);
    const shape = lengths[length];
    return {
      title: `stateful: ${shape.label} of every operation agree with the model (${kind} rules)`,
      details: covers(...ruleIds),
      body: async ({ target }, testInfo) => {
        requireWrites(target);
        await runProperty({
          testInfo,
          target,
          async setup(client) {
            const available = await hasCustomerCreation(client);
            if (!available)
              testInfo.annotations.push({
                type: 'note',
                description: 'the target has no POST /customers: sequences run without customer commands',
              });
            return available;
          },
          // Short sequences: half of PCS_RUNS keeps the request count
          // near the other properties; long ones: one per 50 runs.
          runs: (settings) => shape.runs(settings.runs),
          arbitrary: (replayPath, withCustomers) =>
            fc.commands(commandArbitraries(target, withCustomers), {
              maxCommands: shape.maxCommands,
              size: length === 'long' ? 'max' : '+1',
              replayPath,
            }),
          async predicate(commands, client) {
            const real: Real = { client, target, kind, leftovers: new Set(), history: new History() };
            try {
              await fc.asyncModelRun(
                () => ({ model: { customers: [], deletedCustomers: [], transactions: [] }, real }),
                commands,
              );
            } finally {
              for (const id of real.leftovers) await client.call('deleteCustomer', { params: { id }, quiet: true });
            }
          },
        });
      },
    };
  });
}
