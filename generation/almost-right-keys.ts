/**
 * Credentials that are almost right (AUTH-KEY-EXACT; OWASP API2): the valid key with characters
 * appended, cut short, one character changed, its letters in another case. A server that compares
 * a prefix, ignores case or stops early accepts one of them.
 */
import { registerSecret } from '../settings/secrets.ts';

/** Changes one character into another of its kind (a digit into a digit, a letter into a letter, else into x). */
function changed(character: string): string {
  if (/\d/.test(character)) return character === '7' ? '3' : '7';
  if (/[a-z]/.test(character)) return character === 'q' ? 'z' : 'q';
  if (/[A-Z]/.test(character)) return character === 'Q' ? 'Z' : 'Q';
  return character === 'x' ? 'y' : 'x';
}

/**
 * Keys that are almost the valid one (OWASP API2): with characters appended, cut short (prefixes of
 * several lengths), one character changed at the start, the middle and the end, its letters in another
 * case. Each is registered as a secret first: it is most of the key, and must never be printed.
 */
export function almostRightKeys(key: string): Array<{ name: string; key: string }> {
  const middle = Math.floor(key.length / 2);
  const at = (index: number): string => key.slice(0, index) + changed(key[index]!) + key.slice(index + 1);
  const swapped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  const candidates = [
    { name: 'with a character appended', key: `${key}0` },
    { name: 'with characters appended', key: `${key}xyz` },
    { name: 'without its last character', key: key.slice(0, -1) },
    { name: 'cut to half its length', key: key.slice(0, Math.max(1, middle)) },
    { name: 'without its last four characters', key: key.slice(0, Math.max(1, key.length - 4)) },
    { name: 'with its first character changed', key: at(0) },
    { name: 'with its middle character changed', key: at(middle) },
    { name: 'with its last character changed', key: at(key.length - 1) },
    { name: 'with its letters in the other case', key: swapped },
    { name: 'in upper case', key: key.toUpperCase() },
  ];
  const seen = new Set<string>([key]);
  return candidates.filter((candidate) => {
    if (seen.has(candidate.key) || candidate.key === '') return false;
    seen.add(candidate.key);
    registerSecret(candidate.key);
    return true;
  });
}
