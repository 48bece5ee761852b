// A parsed `.http` document, cached by version. Completion and hover need only the block under the
// cursor: on a new version only that block (a few dozen lines) is parsed, and lines are located by
// line starts that create no strings — the editor's document keeps them up to date edit by edit (a
// LineIndex), so a keystroke in a 50 000-line file does not rescan the file. The full parse (lenses,
// outline) is lazy and cached per version.
import {
  parseBlock, parseHttpFile, splitLines,
  type HttpFile, type HttpFileDiagnostic, type Position, type RequestBlock, type SourceLine,
} from '../../core/httpfile';

/**
 * Line starts of a text kept elsewhere: the server's TextDocument (vscode-languageserver-textdocument),
 * which updates them on each incremental change and cuts lines as splitLines does (\n, \r\n, \r).
 * Read only while its version is the document's: the TextDocument changes in place.
 */
export interface LineIndex {
  readonly version: number;
  readonly lineCount: number;
  offsetAt(position: Position): number;
}

export class HttpDocument {
  private cachedStarts?: number[];
  private cachedLines?: SourceLine[];
  private cachedFile?: HttpFile;
  private cachedVariableNames?: string[];
  private cachedRequestNames?: string[];
  /** Blocks parsed so far, by first line; made on first use (validation makes a document per block and parses it once). */
  private blockCache?: Map<number, { readonly block: RequestBlock; readonly diagnostics: readonly HttpFileDiagnostic[] }>;

  constructor(readonly uri: string, readonly version: number, readonly text: string, private readonly index?: LineIndex) {}

  /** The index, while it still describes this version's text. */
  private get liveIndex(): LineIndex | undefined {
    return this.index?.version === this.version ? this.index : undefined;
  }

  /** Offset of the first character of each line, computed here (no live index). */
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
    return this.liveIndex?.lineCount ?? this.lineStarts.length;
  }

  /** Offset of line `line`'s first character; undefined past the last line. */
  private lineStart(line: number): number | undefined {
    if (line < 0) return undefined;
    const index = this.liveIndex;
    if (index) return line < index.lineCount ? index.offsetAt({ line, character: 0 }) : undefined;
    const starts = this.lineStarts;
    return line < starts.length ? starts[line] : undefined;
  }

  /** One line's text without its line break ('' past the end). */
  lineText(line: number): string {
    return this.sourceLine(line)?.text ?? '';
  }

  private sourceLine(line: number): SourceLine | undefined {
    if (this.cachedLines) return this.cachedLines[line];
    const start = this.lineStart(line);
    if (start === undefined) return undefined;
    const next = this.lineStart(line + 1);
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
    return n === 0 || this.text.startsWith('###', this.lineStart(n) ?? 0);
  }

  /** Lines first..last parsed as one block (ranges are the document's), with the parser's diagnostics; cached per version. */
  parsedBlock(first: number, last: number): { readonly block: RequestBlock; readonly diagnostics: readonly HttpFileDiagnostic[] } {
    const cached = this.blockCache?.get(first);
    if (cached && cached.block.lastLine === last) return cached;
    // parseBlock reads lines by absolute index: give it an array holding just this block's lines. Made
    // at its full length first, so that V8 keeps it a plain array (set far past its end, it becomes a
    // dictionary, slow to fill and to read).
    const lines = new Array<SourceLine>(last + 1);
    for (let i = first; i <= last; i++) {
      const sourceLine = this.sourceLine(i);
      if (sourceLine) lines[i] = sourceLine;
    }
    const diagnostics: HttpFileDiagnostic[] = [];
    const parsed = { block: parseBlock(this.text, lines, first, last, 0, diagnostics), diagnostics };
    (this.blockCache ??= new Map()).set(first, parsed);
    return parsed;
  }

  offsetAt(position: Position): number {
    const start = this.lineStart(position.line);
    if (start === undefined) return this.text.length;
    return start + Math.min(position.character, this.lineText(position.line).length);
  }

  positionAt(offset: number): Position {
    let low = 0;
    let high = this.lineCount - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStart(mid) ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - (this.lineStart(low) ?? 0) };
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

  get(uri: string, version: number, text: () => string, index?: LineIndex): HttpDocument {
    const existing = this.documents.get(uri);
    if (existing && existing.version === version) return existing;
    const document = new HttpDocument(uri, version, text(), index);
    this.documents.set(uri, document);
    return document;
  }

  delete(uri: string): void {
    this.documents.delete(uri);
  }
}
