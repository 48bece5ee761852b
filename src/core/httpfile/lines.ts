// Splitting text into physical lines (keeping each line break as written) and range helpers.
import type { Position, Range, SourceLine } from './model';

/**
 * The lines of `text`, each with the break that ends it (\n, \r\n or a lone \r; the last line's is '').
 * A text without \r is cut at each \n found by indexOf, much faster than a character loop before the
 * loop is optimised (the language server cuts thousands of blocks as it opens a file); the character
 * loop cuts the rest. test/unit/httpfileLineShortcuts.test.ts checks both cut texts without \r alike.
 */
export function splitLines(text: string): SourceLine[] {
  return text.includes('\r') ? splitAtAnyBreak(text) : splitAtNewlines(text);
}

/** splitLines of a text holding no \r. */
export function splitAtNewlines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    lines.push({ text: text.slice(start, end), eol: '\n', offset: start });
    start = end + 1;
  }
  lines.push({ text: text.slice(start), eol: '', offset: start });
  return lines;
}

/** splitLines of any text. */
export function splitAtAnyBreak(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      lines.push({ text: text.slice(start, i), eol: '\n', offset: start });
      start = i + 1;
    } else if (c === 13 /* \r */) {
      const crlf = text.charCodeAt(i + 1) === 10;
      lines.push({ text: text.slice(start, i), eol: crlf ? '\r\n' : '\r', offset: start });
      if (crlf) i++;
      start = i + 1;
    }
  }
  lines.push({ text: text.slice(start), eol: '', offset: start });
  return lines;
}

const BLANK = /^\s*$/;

/**
 * `text.trim() === ''` without making the trimmed string: spaces and tabs are skipped here, any other
 * whitespace or non-ASCII character is left to the regex, whose \s is the set trim removes.
 */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) continue;
    return c > 32 && c < 127 ? false : BLANK.test(text);
  }
  return true;
}

/**
 * The code of `text`'s first character that is not a space or a tab; -1 when the line is only those, or
 * when that character is other whitespace or not ASCII. A pattern `^\s*X` (X a printable ASCII
 * character) can match only where this is X or -1: \s holds no printable ASCII character, so a line
 * whose first other character is printable ASCII matches only if it is X. The parser skips its
 * per-line patterns with it; test/unit/httpfileLineShortcuts.test.ts checks it against the patterns.
 */
export function leadingCode(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) continue;
    return c > 32 && c < 127 ? c : -1;
  }
  return -1;
}

export function range(startLine: number, startCharacter: number, endLine: number, endCharacter: number): Range {
  return { start: { line: startLine, character: startCharacter }, end: { line: endLine, character: endCharacter } };
}

export function lineRange(line: number, text: string): Range {
  return range(line, 0, line, text.length);
}

export function comparePositions(a: Position, b: Position): number {
  return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

/** Inclusive at both ends: a cursor right after the last character is still "in" the range. */
export function containsPosition(r: Range, p: Position): boolean {
  return comparePositions(r.start, p) <= 0 && comparePositions(p, r.end) <= 0;
}
