// One request of a block: its request line and URL continuation lines, headers (and httpYac header
// spreads), body, and what follows the body (handlers, `??` assertions, other tools' constructs). Where
// another tool would open a new request — a request line among the headers or after the body's handlers
// and assertions — the request ends and `next` says where the next one begins (httpYac reads two request
// lines without `###` as two requests; a request line inside a body, after a blank line or right after a
// body line, stays body, as REST Client and the JetBrains HTTP Client read it, with a warning).
import type {
  AssertionNode, Body, BodyFileLine, Comment, Header, HeaderSpread, HttpFileDiagnostic, HttpRequestNode, KeptConstruct,
  QueryContinuation, ResponseHandler, SourceLine, VariableReference,
} from './model';
import { isBlank, leadingCode, range, lineRange } from './lines';
import { scanReferences } from './variables';
import { repeatedFieldWords } from '../http/fieldLines';
import { ASSERTION_LINE, parseAssertionLine } from './assertions';
import { reportMisplacedDirective } from './directives';
import { isUrlContinuation, looksLikeRequestLine, parseRequestLine, queryParametersOf } from './requestLine';
import {
  COMMENT, HANDLER_FILE, HANDLER_SCRIPT, HEADER, HEADER_SPREAD, keptAnywhere, keptLines, OUTPUT_REDIRECT,
  PRE_REQUEST_SCRIPT, RECORDED_RESPONSE, reportKept, RESPONSE_REFERENCE, SCRIPT_OPEN,
} from './foreign';

export const HEADERS_END = /^\s*[{[<]/;
/** `< ./file`, `<@ ./file` (variables substituted) or `<@latin1 ./file` (that encoding too: REST Client, httpYac). */
const INCLUDE = /^(\s*)<(?:(@)([A-Za-z][\w-]*)?)?(\s+)(\S.*?)\s*$/;
const FILE_VARIABLE_LINE = /^\s*@[A-Za-z_][\w.-]*\s*:?=/;

// Most lines match none of the per-line patterns, and each needs its line to start (after whitespace)
// with one of a few characters: a line whose first other character (leadingCode) is none of them is not
// tried. test/unit/httpfileLineShortcuts.test.ts checks that no pattern matches a line starting otherwise.
const leads = (characters: string): ReadonlySet<number> => new Set([...characters].map((c) => c.charCodeAt(0)));
export const HEADERS_END_LEADS = leads('{[<>?');
export const COMMENT_LEADS = leads('#/');
export const BODY_END_LEADS = leads('><?{H');

/** Whether a line whose leadingCode is `lead` may match a pattern starting with one of `characters`. */
export function mayMatch(lead: number, characters: ReadonlySet<number>): boolean {
  return lead === -1 || characters.has(lead);
}

const HANDLER_NOT_RUN = 'JetBrains HTTP Client response handler: kept as written, not run (API Workbench runs no scripts; ?? assertions are checked).';
const SWALLOWED = 'This looks like a request line, but it is read as the body of the request above, as REST Client and the JetBrains HTTP Client read it (httpYac reads a new request): missing ### before it?';

/** Line `i`'s text ('' past the end). */
function textAt(lines: readonly SourceLine[], i: number): string {
  return lines[i]?.text ?? '';
}

/** What parseRequest fills besides the node: the block's comments and kept constructs. */
export interface RequestSinks {
  readonly comments: Comment[];
  readonly kept: KeptConstruct[];
  readonly diagnostics: HttpFileDiagnostic[];
}

export interface ParsedRequest {
  readonly node: HttpRequestNode;
  /** The line where the next request of the same `###` block begins (its comments and directives first), if any. */
  readonly next?: number;
}

/**
 * From line i on, over blank, comment, directive and file-variable lines: i when the line reached is a
 * request line (another tool would begin a request there, its `# @name` included), else undefined.
 */
export function nextRequestStart(lines: readonly SourceLine[], i: number, last: number): number | undefined {
  let j = i;
  while (j <= last && (isBlank(textAt(lines, j)) || COMMENT.test(textAt(lines, j)) || FILE_VARIABLE_LINE.test(textAt(lines, j)))) j++;
  return j <= last && looksLikeRequestLine(textAt(lines, j)) ? i : undefined;
}

function comment(i: number, text: string, m: RegExpExecArray): Comment {
  return { text: m[3] ?? '', prefix: m[2] === '#' ? '#' : '//', range: lineRange(i, text) };
}

export function parseRequest(
  source: string, lines: readonly SourceLine[], start: number, last: number, index: number, name: string | undefined, sinks: RequestSinks,
): ParsedRequest {
  const { diagnostics } = sinks;
  const references: VariableReference[] = [];
  const requestLine = parseRequestLine(start, textAt(lines, start));
  scanReferences(textAt(lines, start), start, requestLine.urlRange.start.character, references, diagnostics);
  const queryParameters = queryParametersOf(start, textAt(lines, start), requestLine.urlRange.start.character);
  let i = start + 1;
  const queryContinuations: QueryContinuation[] = [];
  for (; i <= last && isUrlContinuation(textAt(lines, i)); i++) {
    const text = textAt(lines, i);
    queryContinuations.push({ text: text.trim(), range: lineRange(i, text) });
    scanReferences(text, i, 0, references, diagnostics);
    queryParameters.push(...queryParametersOf(i, text, text.search(/[?&]/)));
  }
  const head = parseHeaders(lines, i, last, references, sinks);
  const after = { handlers: [] as ResponseHandler[], assertions: [] as AssertionNode[] };
  let body: Body | undefined;
  // The last continuation, header or spread line (each list is in line order), else the request line.
  let lastContent = Math.max(start, queryContinuations.at(-1)?.range.end.line ?? start, head.lastLine);
  let next = head.next;
  if (next === undefined && head.bodyStart !== -1 && head.bodyStart <= last) {
    const read = readBody(source, lines, head.bodyStart, last, references, diagnostics, isMultipart(head.headers));
    body = read.body;
    if (body) lastContent = body.range.end.line;
    const handled = parseHandlers(lines, read.end, last, { ...after, ...sinks }, lastContent);
    lastContent = handled.lastContent;
    next = handled.next;
  }
  const node: HttpRequestNode = {
    index,
    name,
    requestLine,
    queryContinuations,
    queryParameters,
    headers: head.headers,
    headerSpreads: head.spreads,
    body,
    responseHandlers: after.handlers,
    assertions: after.assertions,
    references,
    range: range(start, 0, lastContent, textAt(lines, lastContent).length),
  };
  return next === undefined ? { node } : { node, next };
}

interface HeadersRead {
  readonly headers: Header[];
  readonly spreads: HeaderSpread[];
  /** The first line of the body (-1: none), or where the next request begins (`next`). */
  readonly bodyStart: number;
  readonly next?: number;
  /** The last header or spread line (-1: none). */
  readonly lastLine: number;
}

function parseHeaders(lines: readonly SourceLine[], from: number, last: number, references: VariableReference[], sinks: RequestSinks): HeadersRead {
  const headers: Header[] = [];
  const spreads: HeaderSpread[] = [];
  let lastLine = -1;
  for (let i = from; i <= last; i++) {
    const text = textAt(lines, i);
    if (isBlank(text)) return { headers, spreads, bodyStart: i + 1, lastLine };
    const lead = leadingCode(text);
    if (mayMatch(lead, HEADERS_END_LEADS) && (HEADERS_END.test(text) || HANDLER_SCRIPT.test(text) || HANDLER_FILE.test(text) || OUTPUT_REDIRECT.test(text) || ASSERTION_LINE.test(text))) {
      if (/^\s*[{[]/.test(text) && !SCRIPT_OPEN.test(text)) {
        sinks.diagnostics.push({ code: 'missing-blank-line', message: 'A blank line must separate the headers from the body.', range: lineRange(i, text), severity: 'warning' });
      }
      return { headers, spreads, bodyStart: i, lastLine };
    }
    const next = mayMatch(lead, COMMENT_LEADS) || looksLikeRequestLine(text) ? nextRequestStart(lines, i, last) : undefined;
    if (next !== undefined) return { headers, spreads, bodyStart: -1, next, lastLine };
    const commented = mayMatch(lead, COMMENT_LEADS) ? COMMENT.exec(text) : null;
    if (commented) {
      sinks.comments.push(comment(i, text, commented));
      reportMisplacedDirective(i, text, sinks.diagnostics);
      continue;
    }
    lastLine = i;
    const spread = HEADER_SPREAD.exec(text);
    if (spread) spreads.push({ name: spread[1] ?? '', range: lineRange(i, text) });
    else headerLine(i, text, headers, references, sinks.diagnostics);
  }
  return { headers, spreads, bodyStart: -1, lastLine };
}

function headerLine(i: number, text: string, headers: Header[], references: VariableReference[], diagnostics: HttpFileDiagnostic[]): void {
  const header = HEADER.exec(text);
  if (!header) {
    diagnostics.push({ code: 'malformed-header', message: `Not a header ('Name: value'): ${text.trim()}`, range: lineRange(i, text), severity: 'error' });
    return;
  }
  const nameStart = (header[1] ?? '').length;
  const headerName = header[2] ?? '';
  const value = header[4] ?? '';
  const valueStart = nameStart + headerName.length + (header[3] ?? '').length;
  const lower = headerName.toLowerCase();
  if (headers.some((h) => h.name.toLowerCase() === lower)) diagnostics.push({ code: 'repeated-header', message: repeatedFieldWords(headerName), range: lineRange(i, text), severity: 'warning' });
  headers.push({
    name: headerName,
    value,
    range: lineRange(i, text),
    nameRange: range(i, nameStart, i, nameStart + headerName.length),
    valueRange: range(i, valueStart, i, valueStart + value.length),
  });
  scanReferences(text, i, valueStart, references, diagnostics);
}

/** Whether the request's Content-Type is multipart (its body's `< ./file` lines are the files' content; sent with CRLF line breaks). */
function isMultipart(headers: readonly Header[]): boolean {
  return headers.some((h) => /^content-type$/i.test(h.name) && /^\s*multipart\//i.test(h.value));
}

/** The body from `bodyStart` up to what ends it (`end`: the first line after it), without blank lines around it. */
function readBody(
  source: string, lines: readonly SourceLine[], bodyStart: number, last: number, references: VariableReference[], diagnostics: HttpFileDiagnostic[], multipart: boolean,
): { body?: Body; end: number } {
  let bodyEnd = bodyStart;
  while (bodyEnd <= last && bodyEndingLine(textAt(lines, bodyEnd), textAt(lines, bodyEnd - 1)) === undefined) bodyEnd++;
  let lastBodyLine = bodyEnd - 1;
  while (lastBodyLine >= bodyStart && isBlank(textAt(lines, lastBodyLine))) lastBodyLine--;
  let firstBodyLine = bodyStart;
  while (firstBodyLine <= lastBodyLine && isBlank(textAt(lines, firstBodyLine))) firstBodyLine++;
  if (firstBodyLine > lastBodyLine) return { end: bodyEnd };
  const written = toBody(source, lines, firstBodyLine, lastBodyLine);
  const files = multipart && written.kind === 'inline' ? fileLinesOf(lines, firstBodyLine, lastBodyLine) : [];
  const body: Body = multipart && written.kind === 'inline' ? { ...written, files } : written;
  // No line of a body without '{{' holds one (a line break cannot stand inside '{{'): most bodies skip the scan.
  const referenced = body.kind !== 'inline' || body.text.includes('{{');
  for (let b = firstBodyLine; b <= lastBodyLine; b++) {
    if (referenced) scanReferences(textAt(lines, b), b, 0, references, diagnostics);
    if (body.kind === 'inline' && looksLikeRequestLine(textAt(lines, b))) {
      diagnostics.push({ code: 'missing-separator', message: SWALLOWED, range: lineRange(b, textAt(lines, b)), severity: 'warning' });
    }
  }
  return { body, end: bodyEnd };
}

/**
 * THE list of lines that end a body (`previous`: the line before it): what the line is read as instead
 * of body text, or undefined when it stays body. The printer asks the same (printer.ts): a body it writes
 * holds none of these lines, so it reads back as written.
 */
export function bodyEndingLine(text: string, previous: string): string | undefined {
  const lead = leadingCode(text);
  if (!mayMatch(lead, BODY_END_LEADS)) return undefined;
  if (HANDLER_SCRIPT.test(text) || HANDLER_FILE.test(text)) return 'a response handler';
  if (OUTPUT_REDIRECT.test(text)) return 'a response redirect';
  if (RESPONSE_REFERENCE.test(text)) return 'a previous-response reference';
  if (ASSERTION_LINE.test(text)) return 'an assertion';
  if (SCRIPT_OPEN.test(text)) return 'an httpYac script block';
  if (PRE_REQUEST_SCRIPT.test(text)) return 'a pre-request script';
  if (RECORDED_RESPONSE.test(text) && isBlank(previous)) return 'a recorded response';
  return undefined;
}

/** Whether a body of this one line is read as a file to send (`< ./file`) rather than as its text. */
export function isIncludeLine(text: string): boolean {
  return INCLUDE.test(text);
}

/** Line i as an include line (`< ./file`, `<@ ./file`, `<@latin1 ./file`), or undefined. */
function includeLine(lines: readonly SourceLine[], i: number): BodyFileLine | undefined {
  const text = textAt(lines, i);
  const include = INCLUDE.exec(text);
  if (!include) return undefined;
  const encoding = include[3];
  const pathStart = (include[1] ?? '').length + 1 + (include[2] ?? '').length + (encoding ?? '').length + (include[4] ?? '').length;
  const path = include[5] ?? '';
  return {
    path, substituteVariables: include[2] === '@', ...(encoding ? { encoding } : {}),
    range: lineRange(i, text), pathRange: range(i, pathStart, i, pathStart + path.length),
  };
}

/** The `< ./file` lines of a multipart body (lines first..last). */
function fileLinesOf(lines: readonly SourceLine[], first: number, last: number): BodyFileLine[] {
  const found: BodyFileLine[] = [];
  for (let i = first; i <= last; i++) {
    const line = leadingCode(textAt(lines, i)) === 60 /* < */ ? includeLine(lines, i) : undefined;
    if (line) found.push(line);
  }
  return found;
}

function toBody(source: string, lines: readonly SourceLine[], first: number, last: number): Body {
  const include = first === last ? includeLine(lines, first) : undefined;
  if (include) return { kind: 'include', ...include };
  const startOffset = lines[first]?.offset ?? 0;
  const lastLine = lines[last];
  const lastLength = lastLine?.text.length ?? 0;
  // The lines first..last with the breaks between them, as written: one slice of the source (no copy).
  const text = source.slice(startOffset, (lastLine?.offset ?? startOffset) + lastLength);
  return { kind: 'inline', text, range: range(first, 0, last, lastLength), offset: startOffset };
}

interface AfterBody extends RequestSinks {
  readonly handlers: ResponseHandler[];
  readonly assertions: AssertionNode[];
}

/**
 * Handlers, assertions, comments and kept constructs from line `from` to `last`, up to the next request
 * line (`next`); `lastContent`: the last line holding this request's content. A line none of these
 * explains is left to the grammar's invariant (parser.ts), which keeps and reports it.
 */
function parseHandlers(lines: readonly SourceLine[], from: number, last: number, out: AfterBody, lastContent: number): { lastContent: number; next?: number } {
  const keep = (construct: KeptConstruct): number => {
    out.kept.push(construct);
    reportKept(construct, out.diagnostics);
    return construct.range.end.line;
  };
  for (let i = from; i <= last; i++) {
    const text = textAt(lines, i);
    if (isBlank(text)) continue;
    const next = nextRequestStart(lines, i, last);
    if (next !== undefined) return { lastContent, next };
    const commented = COMMENT.exec(text);
    if (commented) {
      out.comments.push(comment(i, text, commented));
      reportMisplacedDirective(i, text, out.diagnostics);
      continue;
    }
    const end = afterBodyLine(lines, i, last, out, keep);
    if (end !== undefined) {
      lastContent = end;
      i = end;
    }
  }
  return { lastContent };
}

/** One construct after the body starting at line i: its last line, or undefined when the line is none. */
function afterBodyLine(lines: readonly SourceLine[], i: number, last: number, out: AfterBody, keep: (k: KeptConstruct) => number): number | undefined {
  const text = textAt(lines, i);
  if (HANDLER_SCRIPT.test(text)) return scriptHandler(lines, i, last, out);
  if (OUTPUT_REDIRECT.test(text)) return keep(keptLines(lines, i, i, 'output-redirect', 'JetBrains HTTP Client'));
  if (ASSERTION_LINE.test(text)) {
    const assertion = parseAssertionLine(i, text, out.diagnostics);
    if (assertion) out.assertions.push(assertion);
    else keep(keptLines(lines, i, i, 'script-assertion', 'httpYac'));
    return i;
  }
  if (RESPONSE_REFERENCE.test(text)) return keep(keptLines(lines, i, i, 'previous-response', 'JetBrains HTTP Client'));
  const foreign = keptAnywhere(lines, i, last, out.diagnostics);
  if (foreign) return keep(foreign);
  if (RECORDED_RESPONSE.test(text)) {
    // The recorded response runs to the next request or the end of the block, except the assertions written after it.
    let end = i;
    while (end < last && nextRequestStart(lines, end + 1, last) === undefined) end++;
    while (end > i && (isBlank(textAt(lines, end)) || ASSERTION_LINE.test(textAt(lines, end)))) end--;
    return keep(keptLines(lines, i, end, 'recorded-response', 'httpYac'));
  }
  const file = HANDLER_FILE.exec(text);
  if (!file) return undefined;
  out.handlers.push({ kind: 'file', text: file[1] ?? '', range: lineRange(i, text) });
  out.diagnostics.push({ code: 'kept-construct', message: HANDLER_NOT_RUN, range: lineRange(i, text), severity: 'information' });
  return i;
}

/** A `> {% … %}` response handler from line i: its last line. */
function scriptHandler(lines: readonly SourceLine[], i: number, last: number, out: AfterBody): number {
  const text = textAt(lines, i);
  const open = text.indexOf('{%');
  const sameLineClose = text.indexOf('%}', open + 2);
  if (sameLineClose !== -1) {
    out.handlers.push({ kind: 'script', text: text.slice(open + 2, sameLineClose), range: lineRange(i, text) });
    out.diagnostics.push({ code: 'kept-construct', message: HANDLER_NOT_RUN, range: lineRange(i, text), severity: 'information' });
    return i;
  }
  const parts = [text.slice(open + 2)];
  let j = i + 1;
  for (; j <= last; j++) {
    const close = textAt(lines, j).indexOf('%}');
    if (close !== -1) { parts.push(textAt(lines, j).slice(0, close)); break; }
    parts.push(textAt(lines, j));
  }
  if (j > last) {
    out.diagnostics.push({ code: 'unterminated-handler', message: "The response handler '> {%' is not closed by '%}'.", range: range(i, 0, last, textAt(lines, last).length), severity: 'error' });
    j = last;
  }
  out.handlers.push({ kind: 'script', text: parts.join('\n'), range: range(i, 0, j, textAt(lines, j).length) });
  out.diagnostics.push({ code: 'kept-construct', message: HANDLER_NOT_RUN, range: range(i, 0, j, textAt(lines, j).length), severity: 'information' });
  return j;
}
