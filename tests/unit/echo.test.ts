/**
 * Echo by equivalence (judgment/rules/echoes.ts, rule TXN-CREATE-ECHO): the forms real runtimes
 * store a sent text or URL in pass; a changed value fails. The stored forms below were printed
 * by the runtimes themselves (PHP 8.2, Python 3.11 with pydantic 1.10, Go 1.19, Node 20) for the
 * sent value beside them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalUrl, echoEquivalent, echoViolations } from '../../judgment/rules/echoes.ts';
import { canonicalText } from '../../judgment/canonical-text.ts';

interface Case {
  runtime: string;
  sent: string;
  stored: string;
}

const equivalentDescriptions: Case[] = [
  { runtime: 'PHP trim() keeps a no-break space', sent: 'Order 42\u00a0', stored: 'Order 42\u00a0' },
  { runtime: 'PHP trim() strips NUL and vertical tab', sent: '\u0000Order 42\u000b', stored: 'Order 42' },
  { runtime: 'PHP trim() strips CR LF', sent: ' \t\nOrder 42\r\n', stored: 'Order 42' },
  { runtime: 'PHP trim() keeps U+3000', sent: '\u3000Order 42', stored: '\u3000Order 42' },
  { runtime: 'Python str.strip() strips a no-break space', sent: 'Order 42\u00a0', stored: 'Order 42' },
  { runtime: 'Python str.strip() strips U+001C..U+001F', sent: '\u001fOrder 42\u001c', stored: 'Order 42' },
  { runtime: 'Python str.strip() strips NEL and LINE SEPARATOR', sent: '\u0085Order 42\u2028', stored: 'Order 42' },
  { runtime: 'Python str.strip() keeps a BOM', sent: '\ufeffOrder 42', stored: '\ufeffOrder 42' },
  { runtime: 'Go strings.TrimSpace strips NEL', sent: '\u0085Order 42', stored: 'Order 42' },
  { runtime: 'Go strings.TrimSpace keeps U+001C', sent: '\u001cOrder 42', stored: '\u001cOrder 42' },
  { runtime: '.NET String.Trim strips an em space', sent: '\u2003Order 42\u2003', stored: 'Order 42' },
  { runtime: 'JavaScript trim() strips a BOM', sent: '\ufeffOrder 42', stored: 'Order 42' },
  { runtime: 'NFC normalization (composed é)', sent: 'de\u0301ja\u0300 vu', stored: 'déjà vu' },
  { runtime: 'NFD normalization (decomposed é)', sent: 'déjà vu', stored: 'de\u0301ja\u0300 vu' },
  { runtime: 'white space only, trimmed to empty', sent: ' \t ', stored: '' },
];

const equivalentUrls: Case[] = [
  {
    runtime: 'pydantic HttpUrl: punycode host, scheme case kept',
    sent: 'HTTPS://bücher.example/cb',
    stored: 'HTTPS://xn--bcher-kva.example/cb',
  },
  {
    runtime: 'Go url.Parse(...).String(): percent-encoded host',
    sent: 'HTTPS://bücher.example/cb',
    stored: 'https://b%C3%BCcher.example/cb',
  },
  {
    runtime: 'WHATWG URL: lower case, default port dropped, path resolved',
    sent: 'https://Example.COM:443/a/../cb?x=1',
    stored: 'https://example.com/cb?x=1',
  },
  { runtime: 'WHATWG URL: a path added to a bare host', sent: 'https://example.com', stored: 'https://example.com/' },
  {
    runtime: 'RFC 3986 6.2.2.2: unreserved decoded',
    sent: 'https://example.com/%7Euser',
    stored: 'https://example.com/~user',
  },
  { runtime: 'RFC 3986 6.2.2.1: hex case', sent: 'https://example.com/a%2fb', stored: 'https://example.com/a%2Fb' },
  { runtime: 'the fragment dropped', sent: 'https://example.com/cb?x=1#frag', stored: 'https://example.com/cb?x=1' },
  {
    runtime: 'pydantic: an empty query dropped',
    sent: 'https://bücher.example/cb?',
    stored: 'https://xn--bcher-kva.example/cb',
  },
  { runtime: 'PHP trim() of a URL', sent: ' https://example.com/cb ', stored: 'https://example.com/cb' },
  { runtime: 'a space percent-encoded', sent: 'https://example.com/a b', stored: 'https://example.com/a%20b' },
];

const differentDescriptions: Case[] = [
  { runtime: 'truncated', sent: 'Order 42', stored: 'Order 4' },
  { runtime: 'a character replaced', sent: 'Order 😀', stored: 'Order \ufffd' },
  { runtime: 'an accent removed', sent: 'déjà vu', stored: 'deja vu' },
  { runtime: 'compatibility-folded (NFKC is not lossless)', sent: 'ﬁle ①', stored: 'file 1' },
  { runtime: 'an inner NUL removed', sent: 'Order \u0000 42', stored: 'Order  42' },
  { runtime: 'control characters at the end removed', sent: 'Order \u0001\u0007', stored: 'Order' },
  { runtime: 'a zero-width space removed', sent: 'a\u200bb', stored: 'ab' },
  { runtime: 'inner white space collapsed', sent: 'Order  42', stored: 'Order 42' },
  { runtime: 'case changed', sent: 'Order 42', stored: 'order 42' },
];

const differentUrls: Case[] = [
  { runtime: 'the query dropped', sent: 'https://example.com/cb?x=1', stored: 'https://example.com/cb' },
  { runtime: 'the path case changed', sent: 'https://example.com/Cb', stored: 'https://example.com/cb' },
  { runtime: 'another port', sent: 'https://example.com:8443/cb', stored: 'https://example.com/cb' },
  { runtime: 'another scheme', sent: 'http://example.com/cb', stored: 'https://example.com/cb' },
  { runtime: 'a reserved character decoded', sent: 'https://example.com/a%2Fb', stored: 'https://example.com/a/b' },
  { runtime: 'another URL', sent: 'https://example.com/cb', stored: 'https://example.com/another-callback' },
];

for (const { runtime, sent, stored } of equivalentDescriptions) {
  test(`description echo: ${runtime} is equivalent`, () => {
    assert.equal(echoEquivalent('description', sent, stored), true);
    assert.deepEqual(echoViolations({ json: { description: stored } }, { description: sent }), []);
  });
}

for (const { runtime, sent, stored } of equivalentUrls) {
  test(`callback_url echo: ${runtime} is equivalent`, () => {
    assert.equal(echoEquivalent('callback_url', sent, stored), true);
  });
}

for (const { runtime, sent, stored } of differentDescriptions) {
  test(`description echo: ${runtime} is another value`, () => {
    assert.equal(echoEquivalent('description', sent, stored), false);
    const [violation] = echoViolations({ json: { description: stored } }, { description: sent });
    assert.equal(violation?.location, 'body /description');
    assert.match(violation?.expected ?? '', /or an equivalent form/);
  });
}

for (const { runtime, sent, stored } of differentUrls) {
  test(`callback_url echo: ${runtime} is another value`, () => {
    assert.equal(echoEquivalent('callback_url', sent, stored), false);
  });
}

test('a description is not compared as a URL', () => {
  assert.equal(echoEquivalent('description', 'https://Example.com/cb', 'https://example.com/cb'), false);
});

test('amounts are compared exactly: another number or type is another value', () => {
  assert.equal(echoEquivalent('amount', 1500, 1500), true);
  assert.equal(echoEquivalent('amount', 1500, 1501), false);
  assert.equal(echoEquivalent('amount', 1500, '1500'), false);
});

test('the violation names the canonical form the comparison used', () => {
  const [violation] = echoViolations(
    { json: { callback_url: 'https://example.com/cb' } },
    { callback_url: 'HTTPS://Example.com/cb?x=1' },
  );
  assert.equal(
    violation?.expected,
    '"HTTPS://Example.com/cb?x=1" (string) or an equivalent form (canonical "https://example.com/cb?x=1" (string))',
  );
});

test('canonical forms', () => {
  assert.equal(canonicalText('\u00a0e\u0301\u3000'), 'é');
  assert.equal(canonicalUrl('HTTPS://BÜCHER.example:443/%7e?q=%2f#f', true), 'https://xn--bcher-kva.example/~?q=%2F');
  assert.equal(canonicalUrl('not a url'), undefined);
});
