// How deep JSON may nest before the product stops walking it. Parsers and walkers that recurse (jsonc-parser,
// JSON.stringify, schema walks, redaction of rows) overflow the stack somewhere past a few thousand levels,
// and no real request body, response row or env file comes near this limit. Text is measured before it
// is parsed and values before they are walked, both without recursion, so the answer is a clear error
// naming where, never "Maximum call stack size exceeded".
import { HeldScan } from './heldScan';

/** The deepest nesting of arrays and objects the product reads. */
export const MAX_JSON_DEPTH = 512;

export interface TooDeep {
  /** Offset in the text of the bracket that went past the limit (0 for a parsed value). */
  readonly offset: number;
  readonly limit: number;
}

/**
 * Where JSON text (or JSON-like text: `{{placeholders}}`, comments and errors are tolerated) first nests
 * deeper than `limit`, or undefined. Brackets inside strings do not count; a string ends at its next
 * unescaped quote or at a line break, CR or LF (as jsonc-parser, whose recursion this bounds, ends it). Measured by the
 * held body's scan (heldScan.ts), the text fed to it as one chunk: one measure of nesting, chunked or whole.
 */
export function jsonTextTooDeep(text: string, limit = MAX_JSON_DEPTH): TooDeep | undefined {
  const offset = HeldScan.nestedPast(text, limit);
  return offset < 0 ? undefined : { offset, limit };
}

/** The sentence users read, e.g. "nests deeper than 512 levels (at line 3)". */
export function tooDeepText(limit = MAX_JSON_DEPTH): string {
  return `nests arrays and objects deeper than ${limit} levels, more than API Workbench reads`;
}
