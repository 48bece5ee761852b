// A parsed `.http` document, cached by version. Completion and hover need only the block under the
// cursor: on a new version only that block (a few dozen lines) is parsed, and lines are located by a
// scan of line starts that creates no strings, so typing in a 5 000-line file stays fast. The full
// parse (diagnostics, lenses, outline) is lazy and cached per version.
import {
  parseBlock, parseHttpFile, splitLines,
  type HttpFile, type HttpFileDiagnostic, type Position, type RequestBlock, type SourceLine,
} from '../../core/httpfile';

export class HttpDocument {
  private cachedStarts?: number[];
  private cachedLines?: SourceLine[];
  private cachedFile?: HttpFile;
  private cachedVariableNames?: string[];
  private cachedRequestNames?: string[];
  private readonly blockCache = new Map<number, { readonly block: RequestBlock; readonly diagnostics: readonly HttpFileDiagnostic[] }>();

  constructor(readonly uri: string, readonly version: number, readonly text: string) {}

  /** Offset of the first character of each line. */
  private get lineStarts(): number[] {
    if (this.cachedStarts) return this.cachedStarts;
    const starts = [0];
    const text = this.text;
    if (!text.includes('\r')) {
      // The common case: indexOf is much faster than a character loop.
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      return (this.cachedStarts = starts);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    return (this.cachedStarts = starts);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** One line's text without its line break ('' past the end). */
  lineText(line: number): string {
    return this.sourceLine(line)?.text ?? '';
  }

  private sourceLine(line: number): SourceLine | undefined {
    if (this.cachedLines) return this.cachedLines[line];
    const starts = this.lineStarts;
    const start = starts[line];
    if (start === undefined) return undefined;
    const next = starts[line + 1];
    let end = next ?? this.text.length;
    let eol: SourceLine['eol'] = '';
    if (next !== undefined) {
      if (this.text.charCodeAt(end - 1) === 10 && this.text.charCodeAt(end - 2) === 13) { end -= 2; eol = '\r\n'; }
      else { eol = this.text.charCodeAt(end - 1) === 10 ? '\n' : '\r'; end -= 1; }
    }
    return { text: this.text.slice(start, end), eol, offset: start };
  }

  /** Every line with its text; built once (the full parse shares its lines). */
  get lines(): readonly SourceLine[] {
    return (this.cachedLines ??= this.cachedFile ? [...this.cachedFile.lines] : splitLines(this.text));
  }

  /** The whole file, parsed once per version. */
  get file(): HttpFile {
    if (!this.cachedFile) {
      this.cachedFile = parseHttpFile(this.text);
      this.cachedLines ??= [...this.cachedFile.lines];
    }
    return this.cachedFile;
  }

  /** The block holding `line`, parsing only that block unless the whole file is already parsed. */
  blockAt(line: number): RequestBlock | undefined {
    if (this.cachedFile) return findBlock(this.cachedFile.blocks, line);
    const count = this.lineCount;
    const target = Math.max(0, Math.min(line, count - 1));
    let first = target;
    while (first > 0 && !this.startsBlock(first)) first--;
    let last = target + 1;
    while (last < count && !this.startsBlock(last)) last++;
    return this.parsedBlock(first, last - 1).block;
  }

  /** Whether line `n` opens a block (a `###` line; line 0 always does), as the parser splits a file. */
  private startsBlock(n: number): boolean {
    return n === 0 || this.text.startsWith('###', this.lineStarts[n] ?? 0);
  }

  /** Inclusive [first, last] line pairs of the blocks, as parseHttpFile would cut them, found without parsing. */
  blockBounds(): Array<[number, number]> {
    const bounds: Array<[number, number]> = [];
    const count = this.lineCount;
    let start = 0;
    for (let n = 1; n < count; n++) {
      if (this.startsBlock(n)) {
        bounds.push([start, n - 1]);
        start = n;
      }
    }
    bounds.push([start, count - 1]);
    return bounds;
  }

  /** The text of lines first..last, line breaks included (a block's identity for caches). */
  linesText(first: number, last: number): string {
    return this.text.slice(this.lineOffset(first), this.lineOffset(last + 1));
  }

  /** Offset of line `line`'s first character; the text's length past the last line (no out-of-bounds read: V8 deoptimises on one). */
  private lineOffset(line: number): number {
    const starts = this.lineStarts;
    return line < starts.length ? starts[line] ?? this.text.length : this.text.length;
  }

  /** Lines first..last parsed as one block (ranges are the document's), with the parser's diagnostics; cached per version. */
  parsedBlock(first: number, last: number): { readonly block: RequestBlock; readonly diagnostics: readonly HttpFileDiagnostic[] } {
    const cached = this.blockCache.get(first);
    if (cached && cached.block.lastLine === last) return cached;
    // parseBlock reads lines by absolute index: give it a sparse array holding just this block.
    const lines: SourceLine[] = [];
    for (let i = first; i <= last; i++) {
      const sourceLine = this.sourceLine(i);
      if (sourceLine) lines[i] = sourceLine;
    }
    const diagnostics: HttpFileDiagnostic[] = [];
    const parsed = { block: parseBlock(lines, first, last, 0, diagnostics), diagnostics };
    this.blockCache.set(first, parsed);
    return parsed;
  }

  offsetAt(position: Position): number {
    const start = this.lineStarts[position.line];
    if (start === undefined) return this.text.length;
    return start + Math.min(position.character, this.lineText(position.line).length);
  }

  positionAt(offset: number): Position {
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - (starts[low] ?? 0) };
  }

  /** `@name = value` names anywhere in the file (a cheap scan, no full parse). */
  get fileVariableNames(): readonly string[] {
    if (this.cachedVariableNames) return this.cachedVariableNames;
    const names = new Set<string>();
    for (const m of this.text.matchAll(/^[ \t]*@([A-Za-z_][\w.-]*)[ \t]*=/gm)) if (m[1]) names.add(m[1]);
    return (this.cachedVariableNames = [...names]);
  }

  /** `# @name` values anywhere in the file (for `{{name.response...}}` completion). */
  requestNames(): readonly string[] {
    if (this.cachedRequestNames) return this.cachedRequestNames;
    const names = new Set<string>();
    for (const m of this.text.matchAll(/^[ \t]*(?:#|\/\/)[ \t]*@name[ \t=]+(\S+)/gm)) if (m[1]) names.add(m[1]);
    return (this.cachedRequestNames = [...names]);
  }
}

function findBlock(blocks: readonly RequestBlock[], line: number): RequestBlock | undefined {
  let low = 0;
  let high = blocks.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const block = blocks[mid];
    if (!block) return undefined;
    if (line < block.firstLine) high = mid - 1;
    else if (line > block.lastLine) low = mid + 1;
    else return block;
  }
  return blocks.at(-1);
}

/** Keeps the latest parsed version of each open document. */
export class HttpDocumentCache {
  private readonly documents = new Map<string, HttpDocument>();

  get(uri: string, version: number, text: () => string): HttpDocument {
    const existing = this.documents.get(uri);
    if (existing && existing.version === version) return existing;
    const document = new HttpDocument(uri, version, text());
    this.documents.set(uri, document);
    return document;
  }

  delete(uri: string): void {
    this.documents.delete(uri);
  }
}
