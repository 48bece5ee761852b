// How deep JSON may nest before the product stops walking it. Parsers and walkers that recurse (jsonc-parser,
// JSON.stringify, schema walks, redaction of rows) overflow the stack somewhere past a few thousand levels,
// and no real request body, response row or env file comes near this limit. Text is measured before it
// is parsed and values before they are walked, both without recursion, so the answer is a clear error
// naming where, never "Maximum call stack size exceeded".

/** The deepest nesting of arrays and objects the product reads. */
export const MAX_JSON_DEPTH = 512;

export interface TooDeep {
  /** Offset in the text of the bracket that went past the limit (0 for a parsed value). */
  readonly offset: number;
  readonly limit: number;
}

/**
 * Where JSON text (or JSON-like text: `{{placeholders}}`, comments and errors are tolerated) first nests
 * deeper than `limit`, or undefined. Linear, one pass; brackets inside strings do not count. A string ends
 * at its next unescaped quote or at a newline; its characters are skipped with indexOf (a 20 MB body is
 * mostly strings), and the next backslash and newline are looked up once each, not once per string.
 */
export function jsonTextTooDeep(text: string, limit = MAX_JSON_DEPTH): TooDeep | undefined {
  const n = text.length;
  let depth = 0;
  let nextBackslash = -2;
  let nextNewline = -2;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let from = i + 1;
      for (;;) {
        if (nextBackslash !== -1 && nextBackslash < from) nextBackslash = text.indexOf('\\', from);
        if (nextNewline !== -1 && nextNewline < from) nextNewline = text.indexOf('\n', from);
        const quote = text.indexOf('"', from);
        let end = quote === -1 ? n : quote;
        if (nextNewline !== -1 && nextNewline < end) end = nextNewline;
        // An escape before the end: the escaped character (a quote, a newline) does not end the string.
        if (nextBackslash !== -1 && nextBackslash < end) {
          from = nextBackslash + 2;
          continue;
        }
        i = end;
        break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return { offset: i, limit };
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return undefined;
}

/** The sentence users read, e.g. "nests deeper than 512 levels (at line 3)". */
export function tooDeepText(limit = MAX_JSON_DEPTH): string {
  return `nests arrays and objects deeper than ${limit} levels, more than API Workbench reads`;
}
