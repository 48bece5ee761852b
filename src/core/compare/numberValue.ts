// A number in a record as a comparison sees it: by the value its text names, never by the double
// JSON.parse makes of it. Rule: two numbers are the same when their texts name the same decimal value
// (1.0 = 1 = 1e0 = 10E-1, -0 = 0); 12345678901234567890 and 12345678901234567891, or 1e400 and -1e400,
// are different numbers though JSON.parse reads each pair as one double. The value's text: where the
// double's shortest text (String()) names the same value, that text (so a number JSON.parse keeps
// whole and one kept as a NumberText compare alike, at JSON.stringify's cost); else the exact value in
// a normal form `[-]d[.ddd]eN` — a text no double's String() writes for that value, so the two never meet.
// The records come from json/numberText.ts parseKeepingNumbers: a number whose String() is not its
// text arrives as a NumberText holding its text, already a JSON number (no second grammar here: the
// text is only cut at its `.` and `e`).
import { NumberText } from '../json/numberText';

/** The comparable text of a number as JSON.parse or parseKeepingNumbers gave it (see the top). */
export function numberValueText(value: number | NumberText): string {
  if (typeof value === 'number') return String(value);
  const shortest = String(Number(value.text));
  const exact = exactForm(value.text);
  return exact === exactForm(shortest) ? shortest : exact;
}

/** Whether a parsed value is a number (a NumberText included). */
export const isNumberValue = (value: unknown): value is number | NumberText => typeof value === 'number' || value instanceof NumberText;

/**
 * A JSON number's exact value as `[-]d[.ddd]eN` (no leading or trailing zeros; zero is `0`), or the text
 * itself when it is no JSON number (String() of an infinite double: `Infinity`, never equal to a form).
 */
function exactForm(text: string): string {
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const e = body.search(/[eE]/);
  const mantissa = e < 0 ? body : body.slice(0, e);
  const exponent = e < 0 ? 0 : Number(body.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(exponent)) return text;
  const first = digits.search(/[1-9]/);
  if (first < 0) return '0';
  let last = digits.length;
  while (digits.charCodeAt(last - 1) === 48 /* 0 */) last--;
  const significant = digits.slice(first, last);
  // The value is 0.<digits from first> × 10^(integer digits - first): written d.ddd × 10^(that - 1).
  const power = (dot < 0 ? mantissa.length : dot) - first - 1 + exponent;
  return `${negative ? '-' : ''}${significant[0]}${significant.length > 1 ? `.${significant.slice(1)}` : ''}e${power}`;
}
