// A parsed `.http` document, cached by version. Completion and hover need only the block under the
// cursor: on a new version it is parsed alone (a few dozen lines) instead of the whole file, so typing
// in a 5 000-line file stays fast. The full parse (diagnostics, lenses, outline) is lazy and cached.
import {
  isSeparatorLine, parseBlock, parseHttpFile, positionAt, splitLines, type Position,
  type HttpFile, type HttpFileDiagnostic, type RequestBlock, type SourceLine,
} from '../../core/httpfile';

export class HttpDocument {
  private cachedLines?: SourceLine[];
  private cachedFile?: HttpFile;
  private cachedVariableNames?: string[];
  private readonly blockCache = new Map<number, RequestBlock>();

  constructor(readonly uri: string, readonly version: number, readonly text: string) {}

  get lines(): readonly SourceLine[] {
    return (this.cachedLines ??= this.cachedFile ? [...this.cachedFile.lines] : splitLines(this.text));
  }

  /** The whole file, parsed once per version. */
  get file(): HttpFile {
    return (this.cachedFile ??= parseHttpFile(this.text));
  }

  /** The block holding `line`, parsing only that block unless the whole file is already parsed. */
  blockAt(line: number): RequestBlock | undefined {
    if (this.cachedFile) return findBlock(this.cachedFile.blocks, line);
    const lines = this.lines;
    const target = Math.max(0, Math.min(line, lines.length - 1));
    let first = target;
    while (first > 0 && !isSeparatorLine(lines[first]?.text ?? '')) first--;
    let last = target + 1;
    while (last < lines.length && !isSeparatorLine(lines[last]?.text ?? '')) last++;
    last--;
    const cached = this.blockCache.get(first);
    if (cached) return cached;
    const diagnostics: HttpFileDiagnostic[] = [];
    const block = parseBlock(lines, first, last, 0, diagnostics);
    this.blockCache.set(first, block);
    return block;
  }

  positionAt(offset: number): Position {
    return positionAt(this.lines, offset);
  }

  /** `@name = value` names anywhere in the file (a cheap scan, no full parse). */
  get fileVariableNames(): readonly string[] {
    if (this.cachedVariableNames) return this.cachedVariableNames;
    const names = new Set<string>();
    for (const m of this.text.matchAll(/^[ \t]*@([A-Za-z_][\w.-]*)[ \t]*=/gm)) if (m[1]) names.add(m[1]);
    return (this.cachedVariableNames = [...names]);
  }

  /** `# @name` values anywhere in the file (for `{{name.response...}}` completion). */
  requestNames(): string[] {
    const names = new Set<string>();
    for (const m of this.text.matchAll(/^[ \t]*(?:#|\/\/)[ \t]*@name[ \t=]+(\S+)/gm)) if (m[1]) names.add(m[1]);
    return [...names];
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

