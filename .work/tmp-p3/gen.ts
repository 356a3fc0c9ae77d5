import fc from 'fast-check';
const time = (name: string, f: () => unknown) => { const t = performance.now(); f(); console.log(name, (performance.now() - t).toFixed(0), 'ms'); };
const which = process.argv[2];
if (which === 'url') time('webUrl', () => fc.sample(fc.webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true }), 100));
if (which === 'email') time('email', () => fc.sample(fc.emailAddress(), 100));
if (which === 'binary') time('binary', () => fc.sample(fc.string({ unit: 'binary', maxLength: 120 }), 100));
if (which === 'ascii') time('ascii', () => fc.sample(fc.string({ unit: 'grapheme-ascii', maxLength: 120 }), 100));
if (which === 'date') time('date', () => fc.sample(fc.date({ noInvalidDate: true }), 100));
if (which === 'all') { const { acceptedTransactionBody } = await import('../../support/arbitraries.ts'); time('import+body', () => fc.sample(acceptedTransactionBody({ currencyIso: 'XOF', paymentMode: 'mtn', phoneNumber: '+22997000001', phoneCountry: 'BJ', runId: 'x' }), 100)); }
