// Texts for the tests of the one {{reference}} rule (src/core/secrets/vocabulary.ts nextReference) and of
// what is built on it: short random strings of braces, spaces and names, where a scanner and the regular
// expression it replaced are most likely to part ways.

/** The expression the scanner replaced: what it must find, span for span (group 1: the name, trimmed). */
export const REFERENCE_EXPRESSION = /\{\{\s*([^{}]*?)\s*\}\}/g;

const PIECES = ['{', '}', '{{', '}}', 'a', 'b', ' ', '\t', '\n', '\u00a0', '$', '.', '{{{', '}}}'];

/** `count` texts of 1 to 12 pieces, the same ones for the same seed. */
export function braceHeavyTexts(count: number, seed: number): string[] {
  let state = seed;
  const random = (n: number): number => {
    // In 32-bit integer arithmetic (a product past 2^53 would be rounded and the sequence fall into a short cycle).
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    // The high bits: this generator's low bits repeat with a short period.
    return Math.floor((state / 2147483648) * n);
  };
  return Array.from({ length: count }, () => Array.from({ length: 1 + random(12) }, () => PIECES[random(PIECES.length)]!).join(''));
}
