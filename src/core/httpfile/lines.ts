// Splitting text into physical lines (keeping each line break as written) and range helpers.
import type { Position, Range, SourceLine } from './model';

export function splitLines(text: string): SourceLine[] {
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

/** Offset in the whole text of a position, given the file's lines. */
export function offsetAt(lines: readonly SourceLine[], p: Position): number {
  const line = lines[Math.min(p.line, lines.length - 1)];
  if (!line) return 0;
  return line.offset + Math.min(p.character, line.text.length);
}

/** Position of an offset in the whole text (binary search over line starts). */
export function positionAt(lines: readonly SourceLine[], offset: number): Position {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lines[mid]?.offset ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  const line = lines[low];
  return { line: low, character: Math.min(offset - (line?.offset ?? 0), line?.text.length ?? 0) };
}
