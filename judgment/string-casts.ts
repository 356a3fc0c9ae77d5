/**
 * How mainstream stacks write a JSON boolean or number sent where a string is documented: each one's documented
 * cast, with its source. A cast keeps the value (true stays true, 12.5 stays 12.5), only its spelling differs, so a
 * server that accepts the input and echoes it in one of these spellings read it; any other text is another value.
 *
 * - ajv's type coercion (Fastify's default body validation) and Jackson's StringDeserializer (a scalar token's
 *   text): "true", "false", a number as JSON writes it;
 * - pydantic 1's str() (Python): "True", "False", a float as Python's repr() writes it (1e+16, 1.5e-05);
 * - ActiveModel::Type::String (Rails' string attributes): "t" and "f", a number's Ruby to_s (1.0e+15);
 * - Perl's JSON booleans (Mojo::JSON, JSON::PP) used as text: "1" and "0".
 */

export interface StringCast {
  /** The stack and the function whose cast it is. */
  source: string;
  /** The text it makes of the value; undefined when it has no cast for it. */
  cast(value: boolean | number): string | undefined;
}

/** A float in exponent form: the mantissa as `mantissaOf` spells it, a signed exponent of two digits or more. */
function exponentForm(value: number, mantissaOf: (mantissa: string) => string): string {
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const sign = exponent.startsWith('-') ? '-' : '+';
  return `${mantissaOf(mantissa)}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
}

/** The text of a finite float with a fraction mark: ".0" added to an integral value. */
const withFraction = (text: string): string => (text.includes('.') || text.includes('e') ? text : `${text}.0`);

/** Python's repr() of a float: the shortest round-trip digits, in exponent form below 1e-4 and from 1e16. */
export function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) return exponentForm(value, (mantissa) => mantissa);
  return withFraction(Object.is(value, -0) ? '-0' : String(value));
}

/** Ruby's Float#to_s: the shortest round-trip digits, in exponent form below 1e-4 and from 1e15, always a fraction. */
export function rubyFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e15)) return exponentForm(value, withFraction);
  return withFraction(Object.is(value, -0) ? '-0' : String(value));
}

/**
 * A JSON number reaches Python and Ruby as an integer when it has no fraction (its digits), as a float otherwise.
 * The suite writes numbers as JSON.stringify does, so an integral value never carries a fraction on the wire.
 */
const numberText = (float: (value: number) => string) => (value: number) =>
  Number.isInteger(value) ? String(value) : float(value);

export const stringCasts: readonly StringCast[] = [
  {
    source: "ajv's coercion (Fastify), Jackson's StringDeserializer",
    cast: (value) => String(value),
  },
  {
    source: "pydantic 1's str() (Python)",
    cast: (value) => (typeof value === 'boolean' ? (value ? 'True' : 'False') : numberText(pythonFloat)(value)),
  },
  {
    source: "ActiveModel's string cast (Rails)",
    cast: (value) => (typeof value === 'boolean' ? (value ? 't' : 'f') : numberText(rubyFloat)(value)),
  },
  {
    source: "Perl's JSON booleans as text (Mojo::JSON, JSON::PP)",
    cast: (value) => (typeof value === 'boolean' ? (value ? '1' : '0') : undefined),
  },
];
