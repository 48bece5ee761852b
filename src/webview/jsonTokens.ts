// The raw body cut into coloured runs for the Raw JSON view: keys, strings, numbers, booleans and null, the
// rest (punctuation, blanks) plain. A lexer of JSON's tokens only, run over text already shown: text that is
// not JSON simply yields fewer coloured runs. Bodies past MAX_HIGHLIGHTED characters stay plain (cheap).
export type JsonTokenKind = 'key' | 'string' | 'number' | 'boolean' | 'null';

export interface JsonRun {
  readonly text: string;
  readonly kind?: JsonTokenKind;
}

export const MAX_HIGHLIGHTED = 500_000;

const TOKEN = /("(?:[^"\\\n]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false)\b|\b(null)\b/g;

export function jsonRuns(text: string): JsonRun[] {
  if (text.length > MAX_HIGHLIGHTED) return [{ text }];
  const runs: JsonRun[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index;
    if (at > last) runs.push({ text: text.slice(last, at) });
    if (match[1] !== undefined) {
      runs.push({ text: match[1], kind: match[2] === undefined ? 'string' : 'key' });
      if (match[2] !== undefined) runs.push({ text: match[2] });
    } else {
      runs.push({ text: match[0], kind: match[3] !== undefined ? 'number' : match[4] !== undefined ? 'boolean' : 'null' });
    }
    last = at + match[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last) });
  return runs;
}
