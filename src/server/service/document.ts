// A parsed `.http` document, cached by version. Completion and hover need only the block under the
// cursor: on a new version only that block (a few dozen lines) is parsed. In the server a document is
// kept as its blocks (BlockText: an edit re-cuts only the blocks it touches), so a keystroke in a
// 50 000-line file neither rescans nor copies the file: lines, offsets and the block under the cursor
// are found through the blocks, each block's parse and summary (file variables, request name) is kept
// with its string from version to version, and the whole text is joined only for the full parse
// (lenses, outline), lazy and cached per version.
import {
  asOneBlock, parseBlock, parseBlocks, parseHttpFile, splitLines,
  type FileVariable, type HttpFile, type HttpFileDiagnostic, type Position, type RequestBlock, type SourceLine,
} from '../../core/httpfile';
import { BlockText, lineStartsOf } from './blockText';

/** A block's parse, with the parser's diagnostics. */
export interface ParsedBlock { readonly block: RequestBlock; readonly diagnostics: readonly HttpFileDiagnostic[] }

/**
 * A block's text as a document of its own (lines counted from its first line), parsed: what validation
 * checks and what the outline, lenses and folding read, shifted to the block's place. The outline's are
 * kept by block string (and whether it is the file's last block, which also holds the line after its
 * last break), so after the open an edit parses only the blocks it made.
 */
export interface OwnBlock {
  /** The block as one (asOneBlock): its first request, every kept construct. */
  readonly block: RequestBlock;
  /** Each request of the block (more than one when a request line follows another without ###, as httpYac reads it). */
  readonly blocks: readonly RequestBlock[];
  readonly diagnostics: readonly HttpFileDiagnostic[];
  /** Line breaks in the block's text. */
  readonly breaks: number;
  /** The block's last line that is not blank (its first line when all are), for folding. */
  readonly lastFilled: number;
  /** The block's own document, on the parse that made it only (what is kept holds no lines: less to keep). */
  readonly document?: HttpDocument;
}

function ownBlockOf(uri: string, text: string, isLast: boolean): OwnBlock {
  const document = new HttpDocument(uri, 0, text);
  // The block's lines, cut once (the document keeps them for the checks that read lines).
  const lines = document.lines;
  const breaks = lines.length - 1;
  // A block other than the last ends with a line break: the empty line after it is the next block's.
  const diagnostics: HttpFileDiagnostic[] = [];
  const end = isLast ? breaks : breaks - 1;
  const blocks = parseBlocks(text, lines, 0, end, 0, diagnostics);
  const block = asOneBlock(blocks, lines, 0, end);
  let lastFilled = block.lastLine;
  while (lastFilled > block.firstLine && lines[lastFilled]!.text.trim() === '') lastFilled--;
  return { block, blocks, diagnostics, breaks, lastFilled, document };
}

/**
 * THE file variables a block defines (`@name = value`, httpYac's lazy `@name := value`): those its parse
 * read, in the preamble of each of its requests. Diagnostics, completion and hover all ask this.
 */
export function fileVariablesOf(own: Pick<OwnBlock, 'block' | 'blocks'>): readonly FileVariable[] {
  return own.blocks.length === 1 ? own.block.variables : own.blocks.flatMap((b) => b.variables);
}

/** What a block says to the rest of the file: its `# @name`s. */
interface BlockSummary { readonly requestNames: readonly string[] }

const NAME_LINE = /^[ \t]*(?:#|\/\/)[ \t]*@name[ \t=]+(\S+)/gm;

function summaryOf(text: string): BlockSummary {
  const requestNames: string[] = [];
  if (text.includes('@')) for (const m of text.matchAll(NAME_LINE)) if (m[1]) requestNames.push(m[1]);
  return { requestNames };
}

/**
 * Block summaries and parses kept from version to version by block string: an edited block is a new
 * string, every other block the same one (BlockText), so a lookup costs a hash the string already
 * holds. Entries of blocks no longer in the document are dropped once there are many more than blocks.
 */
export class BlockMemo {
  private readonly summaries = new Map<string, BlockSummary>();
  private readonly inner = new Map<string, OwnBlock>();
  private readonly last = new Map<string, OwnBlock>();

  /** `keep`: whether a parse made here is kept (the outline's: asked again at every version). */
  own(uri: string, text: string, isLast: boolean, keep: boolean): OwnBlock {
    const kept = isLast ? this.last : this.inner;
    const found = kept.get(text);
    if (found) return found;
    const made = ownBlockOf(uri, text, isLast);
    if (keep) kept.set(text, { block: made.block, blocks: made.blocks, diagnostics: made.diagnostics, breaks: made.breaks, lastFilled: made.lastFilled });
    return made;
  }

  summary(text: string): BlockSummary {
    let found = this.summaries.get(text);
    if (!found) this.summaries.set(text, (found = summaryOf(text)));
    return found;
  }

  /** Drops what no block of `blocks` holds, once there is much more kept than blocks. */
  prune(blocks: BlockText): void {
    if (this.summaries.size + this.inner.size + this.last.size <= 4 * blocks.count + 64) return;
    const live = new Set(blocks.blocks);
    for (const key of this.inner.keys()) if (!live.has(key)) this.inner.delete(key);
    for (const key of this.last.keys()) if (!live.has(key)) this.last.delete(key);
    for (const key of this.summaries.keys()) if (!live.has(key)) this.summaries.delete(key);
  }
}

/** The array parsedBlock hands the parser, holding one block's lines at a time (see there). */
let sharedLines: Array<SourceLine | undefined> = [];

/** The shared lines array, at least `length` long: made at its full length, so that V8 keeps it a plain array. */
function blockLines(length: number): Array<SourceLine | undefined> {
  if (sharedLines.length < length) sharedLines = new Array<SourceLine | undefined>(Math.max(length, 2 * sharedLines.length));
  return sharedLines;
}

export class HttpDocument {
  private cachedStarts?: number[];
  private cachedLines?: SourceLine[];
  private cachedFile?: HttpFile;
  private cachedVariableNames?: string[];
  private cachedRequestNames?: string[];
  /** Blocks parsed so far, by first line; made on first use (validation makes a document per block and parses it once). */
  private blockCache?: Map<number, ParsedBlock>;
  private readonly plain?: string;
  /** The text as blocks (the server's documents), or undefined for a text given whole. */
  readonly blocks?: BlockText;
  private cutBlocks?: BlockText;

  /** `source`: the whole text, or the server's block-kept text (with `memo`, what its blocks said in earlier versions). */
  constructor(readonly uri: string, readonly version: number, source: string | BlockText, private givenMemo?: BlockMemo) {
    if (typeof source === 'string') this.plain = source;
    else this.blocks = source;
  }

  private get memo(): BlockMemo {
    return (this.givenMemo ??= new BlockMemo());
  }

  /** The text's blocks: kept (the server's documents) or cut from the text given whole, once. */
  get blockTexts(): BlockText {
    return this.blocks ?? (this.cutBlocks ??= BlockText.of(this.plain!));
  }

  /**
   * Block `k` parsed as a document of its own. `keep`: kept by block string from version to version, so
   * that a file is parsed once: validation's parses are what the outline, lenses and folding read (a
   * parse made for one look-up, such as a file variable's, is not kept).
   */
  ownBlock(k: number, keep = true): OwnBlock {
    const blocks = this.blockTexts;
    return this.memo.own(this.uri, blocks.block(k), k === blocks.count - 1, keep);
  }

  /** The whole text (joined from the blocks on first use: only the full parse needs it). */
  get text(): string {
    return this.plain ?? this.blocks!.text;
  }

  /** Offset of the first character of each line, computed here (a text given whole). */
  private get lineStarts(): number[] {
    return (this.cachedStarts ??= lineStartsOf(this.text));
  }

  get lineCount(): number {
    return this.blocks?.lineCount ?? this.lineStarts.length;
  }

  /** Offset of line `line`'s first character; undefined past the last line. */
  private lineStart(line: number): number | undefined {
    if (line < 0) return undefined;
    const starts = this.lineStarts;
    return line < starts.length ? starts[line] : undefined;
  }

  /** One line's text without its line break ('' past the end). */
  lineText(line: number): string {
    return this.sourceLine(line)?.text ?? '';
  }

  /** Line `line`; its offset is the whole text's, or (blocks) its block's. */
  private sourceLine(line: number): SourceLine | undefined {
    if (this.cachedLines) return this.cachedLines[line];
    if (this.blocks) return this.blocks.sourceLineInBlock(line);
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
    if (this.blocks) {
      const k = this.blocks.blockOf(target);
      return this.parsedBlock(this.blocks.firstLineOf(k), this.blocks.lastLineOf(k)).block;
    }
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

  /** Lines first..last parsed as one block (ranges and offsets are the document's), with the parser's diagnostics; cached per version. */
  parsedBlock(first: number, last: number): ParsedBlock {
    const cached = this.blockCache?.get(first);
    if (cached && cached.block.lastLine === last) return cached;
    // parseBlock reads lines by absolute index: it is given the lines of one array kept for the purpose,
    // holding this block's lines at their indexes and nothing else (emptied after the parse, which keeps
    // no reference to it). An array made per block at the length of the lines before it cost a keystroke
    // near the end of a 50 000-line file 400 kB, allocated straight into the old generation.
    const lines = blockLines(last + 1);
    for (let i = first; i <= last; i++) {
      const sourceLine = this.sourceLine(i);
      if (sourceLine) lines[i] = sourceLine;
    }
    const diagnostics: HttpFileDiagnostic[] = [];
    let parsed: ParsedBlock;
    try {
      // The parser reads a line it is not given as missing, as a line past the end (textAt).
      parsed = { block: this.parseLines(lines as readonly SourceLine[], first, last, diagnostics), diagnostics };
    } finally {
      lines.fill(undefined, first, last + 1);
    }
    (this.blockCache ??= new Map()).set(first, parsed);
    return parsed;
  }

  /** parseBlock over the source its lines' offsets count in: the text, or their block (its body's offset then moved to the text's). */
  private parseLines(lines: readonly SourceLine[], first: number, last: number, diagnostics: HttpFileDiagnostic[]): RequestBlock {
    if (!this.blocks || this.cachedLines) return parseBlock(this.text, lines, first, last, 0, diagnostics);
    const k = this.blocks.blockOf(first);
    const block = parseBlock(this.blocks.block(k), lines, first, last, 0, diagnostics);
    const body = block.request?.body;
    if (!body || body.kind !== 'inline') return block;
    const offset = this.blocks.offsetOf(k);
    return { ...block, request: { ...block.request, body: { ...body, offset: body.offset + offset } } };
  }

  offsetAt(position: Position): number {
    if (this.blocks) return this.blocks.offsetAt(position);
    const start = this.lineStart(position.line);
    if (start === undefined) return this.text.length;
    return start + Math.min(position.character, this.lineText(position.line).length);
  }

  positionAt(offset: number): Position {
    if (this.blocks) return this.blocks.positionAt(offset);
    let low = 0;
    let high = this.lineCount - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStart(mid) ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: offset - (this.lineStart(low) ?? 0) };
  }

  /** The file variables' names (fileVariablesOf each block: its kept parse; a block without '@' defines none). */
  get fileVariableNames(): readonly string[] {
    if (!this.cachedVariableNames) {
      const names = new Set<string>();
      this.eachFileVariable((v) => { names.add(v.name); return false; });
      this.cachedVariableNames = [...names];
    }
    return this.cachedVariableNames;
  }

  /** `# @name` values anywhere in the file (for `{{name.response...}}` completion). */
  requestNames(): readonly string[] {
    return (this.cachedRequestNames ??= this.namesOf('requestNames'));
  }

  /** The first file variable of this name in the file (fileVariablesOf, block by block). */
  fileVariable(name: string): FileVariable | undefined {
    let found: FileVariable | undefined;
    this.eachFileVariable((v) => {
      if (v.name === name) found = v;
      return found !== undefined;
    });
    return found;
  }

  /** Each file variable in file order, until `stop` says so; a block without '@' holds none and is not parsed. */
  private eachFileVariable(stop: (variable: FileVariable) => boolean): void {
    const blocks = this.blockTexts.blocks;
    for (let k = 0; k < blocks.length; k++) {
      if (!blocks[k]!.includes('@')) continue;
      for (const variable of fileVariablesOf(this.ownBlock(k))) if (stop(variable)) return;
    }
  }

  private namesOf(kind: keyof BlockSummary): string[] {
    const names = new Set<string>();
    for (const text of this.blocks?.blocks ?? [this.text]) for (const name of this.memo.summary(text)[kind]) names.add(name);
    if (this.blocks) this.memo.prune(this.blocks);
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

/** Keeps the latest version of each open document, as its blocks, with what its blocks said before. */
export class HttpDocumentCache {
  private readonly documents = new Map<string, { document: HttpDocument; readonly memo: BlockMemo }>();

  /** The document at `version`, made from `text` (the whole text, or the blocks after an edit) when it is newer than the one kept. */
  get(uri: string, version: number, text: () => string | BlockText): HttpDocument {
    const existing = this.documents.get(uri);
    if (existing && existing.document.version === version) return existing.document;
    const source = text();
    const memo = existing?.memo ?? new BlockMemo();
    const document = new HttpDocument(uri, version, typeof source === 'string' ? BlockText.of(source) : source, memo);
    this.documents.set(uri, { document, memo });
    return document;
  }

  delete(uri: string): void {
    this.documents.delete(uri);
  }
}
