// The `.http` grammar: lines → blocks (split at `###`, and where another tool opens a new request) →
// preamble (comments, directives, file variables, other tools' constructs), then the request (request.ts).
// It never throws: anything it cannot make sense of becomes a diagnostic, and the source lines are kept so
// nothing is lost. THE invariant, kept here and only here (accountFor): every non-blank line of a block is
// part of the request, a construct the product understands, or a construct kept verbatim and reported —
// no line is dropped without a word.
import type {
  Comment, Directive, FileVariable, HttpFile, HttpFileDiagnostic, HttpRequestNode, KeptConstruct, Range, RequestBlock, SourceLine, VariableReference,
} from './model';
import { isBlank, leadingCode, range, lineRange, splitLines } from './lines';
import { scanReferences } from './variables';
import { COMMENT, DIRECTIVE, KEPT_BEFORE_REQUEST_LEADS, keptBeforeRequest, keptLines, reportKept, unrecognisedLine } from './foreign';
import { COMMENT_LEADS, mayMatch, parseRequest } from './request';
import { isRequestLine, notSentWords } from './requestLine';
import { reportDirective } from './directives';

export { HTTP_METHODS } from './requestLine';

/** A line that opens a new block wherever it stands, a body included. */
export const SEPARATOR = /^###/;
const NEW_REQUEST = 'A request line without ### before it: read as a new request, as httpYac reads it (REST Client and the JetBrains HTTP Client need ### before it).';
/** `@name = value`, or httpYac's lazy `@name := value`. */
export const FILE_VARIABLE = /^(\s*)@([A-Za-z_][\w.-]*)(\s*(:?)=\s*)(.*?)\s*$/;
export const FILE_VARIABLE_LEADS: ReadonlySet<number> = new Set(['@'.charCodeAt(0)]);

export function parseHttpFile(text: string): HttpFile {
  const lines = splitLines(text);
  const diagnostics: HttpFileDiagnostic[] = [];
  const blocks: RequestBlock[] = [];
  const requests: HttpRequestNode[] = [];
  for (const [first, last] of blockBounds(lines)) {
    for (const block of parseBlocks(text, lines, first, last, requests.length, diagnostics)) {
      blocks.push(block);
      if (block.request) requests.push(block.request);
    }
  }
  return { lines, blocks, requests, diagnostics };
}

/** Inclusive [first, last] line pairs of the blocks; they tile the file. */
export function blockBounds(lines: readonly SourceLine[]): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  let start = 0;
  for (let i = 1; i < lines.length; i++) {
    if (SEPARATOR.test(lines[i]?.text ?? '')) {
      bounds.push([start, i - 1]);
      start = i;
    }
  }
  bounds.push([start, lines.length - 1]);
  return bounds;
}

/**
 * Offsets in `text` where its blocks begin: 0, then the start of every later line that begins with
 * `###` (a line begins after \n, \r\n or a lone \r, as splitLines cuts). The same cut as
 * blockBounds(splitLines(text)), found without making a string per line: the language server splits a
 * 50 000-line file on every version.
 */
export function blockStartOffsets(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('###', 1); at !== -1; at = text.indexOf('###', at + 1)) {
    const before = text.charCodeAt(at - 1);
    if (before === 10 || before === 13) starts.push(at);
  }
  return starts;
}

/** How many '#' `text` starts with. */
function leadingHashes(text: string): number {
  let n = 0;
  while (text.charCodeAt(n) === 35 /* # */) n++;
  return n;
}

/** Line `i`'s text ('' past the end). */
function textAt(lines: readonly SourceLine[], i: number): string {
  return lines[i]?.text ?? '';
}

/**
 * Parses lines first..last (inclusive), one `###` block, as the blocks it holds: one, or more where a
 * request line without `###` opens another request (httpYac's reading). They tile first..last; the first
 * request's index is `requestIndex`. `lines` are `source`'s lines (splitLines(source), or some of them at
 * their own indexes): a body is read from `source` by its lines' offsets.
 */
export function parseBlocks(
  source: string, lines: readonly SourceLine[], first: number, last: number, requestIndex: number, diagnostics: HttpFileDiagnostic[],
): RequestBlock[] {
  const blocks: RequestBlock[] = [];
  let from = first;
  for (;;) {
    const said = diagnostics.length;
    const { block, next } = parseOne(source, lines, from, last, requestIndex + blocks.filter((b) => b.request).length, diagnostics);
    if (blocks.length > 0 && block.request) {
      diagnostics.push({ code: 'missing-separator', message: NEW_REQUEST, range: block.request.requestLine.range, severity: 'warning' });
    }
    blocks.push(accountFor(block, lines, diagnostics, said));
    if (next === undefined) return blocks;
    from = next;
  }
}

/**
 * One `###` block as the language server parses it, block by block: the first request of lines
 * first..last, with the diagnostics of all of them; the block spans first..last.
 */
export function parseBlock(
  source: string, lines: readonly SourceLine[], first: number, last: number, requestIndex: number, diagnostics: HttpFileDiagnostic[],
): RequestBlock {
  return asOneBlock(parseBlocks(source, lines, first, last, requestIndex, diagnostics), lines, first, last);
}

/** The blocks parseBlocks made of lines first..last as one: the first request, every kept construct, the whole span. */
export function asOneBlock(blocks: readonly RequestBlock[], lines: readonly SourceLine[], first: number, last: number): RequestBlock {
  const head = blocks[0]!;
  if (blocks.length === 1) return head;
  return { ...head, kept: blocks.flatMap((b) => b.kept), range: range(first, 0, last, textAt(lines, last).length), lastLine: last };
}

interface Preamble {
  readonly directives: Directive[];
  readonly comments: Comment[];
  readonly variables: FileVariable[];
  readonly kept: KeptConstruct[];
}

/** The block from line `first` to the next request's start (`next`) or `last`. */
function parseOne(
  source: string, lines: readonly SourceLine[], first: number, last: number, requestIndex: number, diagnostics: HttpFileDiagnostic[],
): { block: RequestBlock; next?: number } {
  let separator: RequestBlock['separator'];
  let i = first;
  if (SEPARATOR.test(textAt(lines, i))) {
    const text = textAt(lines, i);
    separator = { title: text.slice(leadingHashes(text)).trim(), range: lineRange(i, text) };
    i++;
  }
  const pre: Preamble = { directives: [], comments: [], variables: [], kept: [] };
  i = parsePreamble(lines, i, last, pre, diagnostics);
  const whole = (end: number): Pick<RequestBlock, 'range' | 'firstLine' | 'lastLine'> => ({ range: range(first, 0, end, textAt(lines, end).length), firstLine: first, lastLine: end });
  if (i > last) return { block: { separator, ...pre, ...whole(last) } };
  const name = pre.directives.find((d) => d.key === 'name')?.value || separator?.title || undefined;
  const parsed = parseRequest(source, lines, i, last, requestIndex, name, { comments: pre.comments, kept: pre.kept, diagnostics });
  reportKind(parsed.node, diagnostics);
  const end = parsed.next === undefined ? last : parsed.next - 1;
  return parsed.next === undefined ? { block: { separator, ...pre, request: parsed.node, ...whole(end) } } : { block: { separator, ...pre, request: parsed.node, ...whole(end) }, next: parsed.next };
}

/** Comments, directives, file variables and kept constructs before the request line: the line where the request line is (last + 1: none). */
function parsePreamble(lines: readonly SourceLine[], from: number, last: number, pre: Preamble, diagnostics: HttpFileDiagnostic[]): number {
  for (let i = from; i <= last; i++) {
    const text = textAt(lines, i);
    if (isBlank(text)) continue;
    const foreign = keptBeforeRequest(lines, i, last, diagnostics);
    if (foreign) {
      pre.kept.push(foreign);
      reportKept(foreign, diagnostics);
      i = foreign.range.end.line;
      continue;
    }
    const lead = leadingCode(text);
    const commented = mayMatch(lead, COMMENT_LEADS);
    const directive = commented ? DIRECTIVE.exec(text) : null;
    const comment = commented && !directive ? COMMENT.exec(text) : null;
    const variable = mayMatch(lead, FILE_VARIABLE_LEADS) ? FILE_VARIABLE.exec(text) : null;
    if (directive) {
      const read = toDirective(i, text, directive);
      pre.directives.push(read);
      reportDirective(read, diagnostics);
    } else if (comment) pre.comments.push({ text: comment[3] ?? '', prefix: comment[2] === '#' ? '#' : '//', range: lineRange(i, text) });
    else if (variable) pre.variables.push(toFileVariable(i, text, variable, diagnostics));
    else if (isRequestLine(text)) return i;
    else i = notARequestLine(lines, i, last, pre, diagnostics);
  }
  return last + 1;
}

const NOT_A_REQUEST_LINE = 'Not a request line: a request begins with its method and URL (GET https://…), or a URL alone for a GET. Kept as written, not sent.';
const AFTER_SEPARATOR = ' A line that begins with ### begins a new request block, inside a body too.';

/**
 * Text where a request line should be (prose after `### Notes`, the text below a Markdown `### heading`
 * in a body): kept with its lines up to a blank line or a line that may be something else, and said
 * (an unread line: a request of the block is not run), never read as a GET of that text. Its last line.
 */
function notARequestLine(lines: readonly SourceLine[], i: number, last: number, pre: Preamble, diagnostics: HttpFileDiagnostic[]): number {
  let end = i;
  while (end < last && isProse(textAt(lines, end + 1))) end++;
  const kept = keptLines(lines, i, end, 'unrecognised', 'API Workbench');
  pre.kept.push(kept);
  const separated = i > 0 && SEPARATOR.test(textAt(lines, i - 1));
  diagnostics.push({ code: 'unrecognised-line', message: NOT_A_REQUEST_LINE + (separated ? AFTER_SEPARATOR : ''), range: kept.range, severity: 'warning' });
  return end;
}

/** A line that continues text kept by notARequestLine: not blank, no request line, and starting with nothing a preamble construct may start with. */
function isProse(text: string): boolean {
  const lead = leadingCode(text);
  return lead !== -1 && !KEPT_BEFORE_REQUEST_LEADS.has(lead) && !COMMENT_LEADS.has(lead) && !FILE_VARIABLE_LEADS.has(lead) && !isRequestLine(text);
}

const SPREAD_WORDS = (name: string): string =>
  `httpYac header spread ...${name}: sent when '${name}' is a file variable holding a JSON object of headers; an object a script sets is not known, and the request is then not run.`;
const PATH_ONLY_WORDS = 'Path-only request line (JetBrains HTTP Client, httpYac): it goes to its Host header, else to the {{host}} variable (httpYac @host); with neither it is not run.';

/** What decides whether a request is run, said where it is written: a kind not sent, a header spread, a path-only request line. */
function reportKind(node: HttpRequestNode, diagnostics: HttpFileDiagnostic[]): void {
  const words = notSentWords(node.requestLine);
  if (words !== undefined) diagnostics.push({ code: 'not-sent-kind', message: `${words}; it is not run.`, range: node.requestLine.range, severity: 'warning' });
  for (const spread of node.headerSpreads) diagnostics.push({ code: 'other-tool-syntax', message: SPREAD_WORDS(spread.name), range: spread.range, severity: 'information' });
  if (node.requestLine.url.startsWith('/') && !node.requestLine.url.startsWith('//')) {
    diagnostics.push({ code: 'other-tool-syntax', message: PATH_ONLY_WORDS, range: node.requestLine.urlRange, severity: 'information' });
  }
}

/**
 * THE invariant: every non-blank line of the block belongs to something the grammar read, or a diagnostic
 * of the block names it. A line that does not is kept as an 'unrecognised' construct with a warning: nothing in a file is dropped or swallowed.
 */
function accountFor(block: RequestBlock, lines: readonly SourceLine[], diagnostics: HttpFileDiagnostic[], said: number): RequestBlock {
  const first = block.firstLine;
  // One mark per line of the block (no set, no copied lists: every block of a 50 000-line file passes here).
  const marks = new Uint8Array(block.lastLine - first + 1);
  const mark = (r: Range): void => {
    for (let l = r.start.line; l <= r.end.line; l++) marks[l - first] = 1;
  };
  const markAll = (parts: ReadonlyArray<{ readonly range: Range }>): void => {
    for (let k = 0; k < parts.length; k++) mark(parts[k]!.range);
  };
  if (block.separator) mark(block.separator.range);
  markAll(block.directives); markAll(block.comments); markAll(block.variables); markAll(block.kept);
  const request = block.request;
  if (request) {
    mark(request.requestLine.range);
    markAll(request.queryContinuations); markAll(request.headers); markAll(request.headerSpreads); markAll(request.responseHandlers); markAll(request.assertions);
    if (request.body) mark(request.body.range);
  }
  // A line a diagnostic of this block already speaks of (a malformed header) is not dropped without a word.
  for (let d = said; d < diagnostics.length; d++) {
    const line = diagnostics[d]!.range.start.line;
    if (line >= first && line <= block.lastLine) marks[line - first] = 1;
  }
  let extra: KeptConstruct[] | undefined;
  for (let i = first; i <= block.lastLine; i++) {
    if (marks[i - first] === 1 || isBlank(textAt(lines, i))) continue;
    const kept = unrecognisedLine(lines, i);
    reportKept(kept, diagnostics);
    (extra ??= []).push(kept);
  }
  return extra ? { ...block, kept: [...block.kept, ...extra].sort((a, b) => a.range.start.line - b.range.start.line) } : block;
}

function toDirective(line: number, text: string, m: RegExpExecArray): Directive {
  const keyStart = text.indexOf('@', (m[1] ?? '').length) + 1;
  const key = m[3] ?? '';
  const value = m[5] ?? '';
  const valueStart = value ? keyStart + key.length + (m[4] ?? '').length : keyStart + key.length;
  return {
    key,
    value,
    prefix: m[2] === '#' ? '#' : '//',
    range: lineRange(line, text),
    keyRange: range(line, keyStart, line, keyStart + key.length),
    valueRange: range(line, valueStart, line, valueStart + value.length),
  };
}

function toFileVariable(line: number, text: string, m: RegExpExecArray, diagnostics: HttpFileDiagnostic[]): FileVariable {
  const nameStart = (m[1] ?? '').length + 1;
  const name = m[2] ?? '';
  const value = m[5] ?? '';
  const valueStart = nameStart + name.length + (m[3] ?? '').length;
  const references: VariableReference[] = [];
  scanReferences(text, line, valueStart, references, diagnostics);
  return {
    name,
    value,
    ...(m[4] === ':' ? { lazy: true as const } : {}),
    range: lineRange(line, text),
    nameRange: range(line, nameStart, line, nameStart + name.length),
    valueRange: range(line, valueStart, line, valueStart + value.length),
    references,
  };
}
