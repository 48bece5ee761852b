// The `.http` parser: lines → blocks (split at `###`) → preamble (comments, directives, file variables),
// request line, query continuations, headers, body, response handlers. It never throws: anything it
// cannot make sense of becomes a diagnostic, and the source lines are kept so nothing is lost.
import type {
  AssertionNode, Body, Comment, Directive, FileVariable, Header, HttpFile, HttpFileDiagnostic, HttpRequestNode,
  KeptConstruct, QueryContinuation, QueryParameter, RequestBlock, RequestLine, ResponseHandler, SourceLine, VariableReference,
} from './model';
import { isBlank, leadingCode, range, lineRange, splitLines } from './lines';
import { scanReferences } from './variables';
import { ASSERTION_LINE, parseAssertionLine } from './assertions';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE'] as const;
const KNOWN_METHODS = new Set<string>(HTTP_METHODS);

const SEPARATOR = /^###/;
const COMMENT = /^(\s*)(#|\/\/)(.*)$/;
const DIRECTIVE = /^(\s*)(#|\/\/)\s*@([A-Za-z_][\w.-]*)(?:(\s*=\s*|\s+)(.*?))?\s*$/;
const FILE_VARIABLE = /^(\s*)@([A-Za-z_][\w.-]*)(\s*=\s*)(.*?)\s*$/;
const QUERY_CONTINUATION = /^\s*[?&]/;
const HEADER = /^(\s*)([^\s:]+)(\s*:\s*)(.*?)\s*$/;
const HANDLER_SCRIPT = /^\s*>\s*\{%/;
const HANDLER_FILE = /^\s*>\s*(\S.*?)\s*$/;
const RESPONSE_REFERENCE = /^\s*<>/;
const INCLUDE = /^(\s*)<(@)?(\s+)(\S.*?)\s*$/;
// Other tools' constructs (see KeptConstruct).
const PRE_REQUEST_SCRIPT = /^\s*<\s*\{%/;
const PRE_REQUEST_FILE = /^\s*<\s+\S+\.(?:js|mjs|cjs|ts)\s*$/;
const SCRIPT_OPEN = /^\s*\{\{(?:@\w*|\+\w*)?\s*$/;
const SCRIPT_CLOSE = /^\s*\}\}\s*$/;
const BLOCK_COMMENT_OPEN = /^\s*\/\*/;
const PROTO_IMPORT = /^\s*proto\s*</;
const XPATH_NAMESPACE = /^\s*@xpath_ns\s/;
const JETBRAINS_IMPORT = /^\s*import\s+\S/;
const JETBRAINS_RUN = /^\s*run\s+(?:#|\S+\.(?:http|rest)\b)/;
const CURL = /^\s*curl\s/;
const OUTPUT_REDIRECT = /^\s*>>!?\s/;
const RECORDED_RESPONSE = /^\s*HTTP\/\d(?:\.\d)?\s+\d{3}\b/;
const HEADERS_END = /^\s*[{[<]/;
/** An HTTP version ending a request line: tried only on a line that ends with a digit (endsWithDigit). */
export const VERSION_AT_END = /\s+(HTTP\/\d(?:\.\d)?)$/i;
/** A request line swallowed into a body after a blank line (REST Client and JetBrains read it as body); any method of the one list. */
const SWALLOWED_REQUEST_LINE = new RegExp(`^(?:${HTTP_METHODS.join('|')})\\s+(?:https?://|/|\\{\\{)\\S*(?:\\s+HTTP/\\d(?:\\.\\d)?)?\\s*$`);

// Most lines match none of the per-line patterns, and each pattern needs its line to start (after
// whitespace) with one of a few characters: a line whose first other character (leadingCode) is none of
// them is not tried against them. PATTERN_LEADS lists each pattern with the characters it is tried for;
// test/unit/httpfileLineShortcuts.test.ts checks that no pattern matches a line starting otherwise.
const leads = (characters: string): ReadonlySet<number> => new Set([...characters].map((c) => c.charCodeAt(0)));
const HEADERS_END_LEADS = leads('{[<>?');
const COMMENT_LEADS = leads('#/');
const FILE_VARIABLE_LEADS = leads('@');
const BODY_END_LEADS = leads('><?{H');
const KEPT_BEFORE_REQUEST_LEADS = leads('<{/p@irc');

/** Whether a line whose leadingCode is `lead` may match a pattern starting with one of `characters`. */
function mayMatch(lead: number, characters: ReadonlySet<number>): boolean {
  return lead === -1 || characters.has(lead);
}

export const PATTERN_LEADS: ReadonlyArray<readonly [RegExp, ReadonlySet<number>]> = [
  [HEADERS_END, HEADERS_END_LEADS], [HANDLER_SCRIPT, HEADERS_END_LEADS], [HANDLER_FILE, HEADERS_END_LEADS], [ASSERTION_LINE, HEADERS_END_LEADS],
  [COMMENT, COMMENT_LEADS], [DIRECTIVE, COMMENT_LEADS], [FILE_VARIABLE, FILE_VARIABLE_LEADS],
  [HANDLER_SCRIPT, BODY_END_LEADS], [HANDLER_FILE, BODY_END_LEADS], [RESPONSE_REFERENCE, BODY_END_LEADS], [ASSERTION_LINE, BODY_END_LEADS],
  [SCRIPT_OPEN, BODY_END_LEADS], [RECORDED_RESPONSE, BODY_END_LEADS],
  [PRE_REQUEST_SCRIPT, KEPT_BEFORE_REQUEST_LEADS], [PRE_REQUEST_FILE, KEPT_BEFORE_REQUEST_LEADS], [SCRIPT_OPEN, KEPT_BEFORE_REQUEST_LEADS],
  [BLOCK_COMMENT_OPEN, KEPT_BEFORE_REQUEST_LEADS], [PROTO_IMPORT, KEPT_BEFORE_REQUEST_LEADS], [XPATH_NAMESPACE, KEPT_BEFORE_REQUEST_LEADS],
  [JETBRAINS_IMPORT, KEPT_BEFORE_REQUEST_LEADS], [JETBRAINS_RUN, KEPT_BEFORE_REQUEST_LEADS], [CURL, KEPT_BEFORE_REQUEST_LEADS],
];

const KEPT_MESSAGES: Record<KeptConstruct['kind'], string> = {
  'pre-request-script': 'JetBrains HTTP Client pre-request script: kept as written, not run.',
  'script-block': 'httpYac script block: kept as written, not run.',
  'block-comment': 'httpYac block comment.',
  'proto-import': 'httpYac gRPC proto import: kept as written; API Workbench sends HTTP requests only.',
  'xpath-namespace': 'httpYac XPath namespace: kept as written, not used.',
  import: "JetBrains HTTP Client import: kept as written; the imported file's requests are not loaded.",
  run: 'JetBrains HTTP Client run: kept as written; the named request is not run from here.',
  curl: 'REST Client curl command: kept as written, not sent (write it as a request line to send it).',
  'output-redirect': 'Response redirect (JetBrains HTTP Client, httpYac): kept as written; the response is not written to that file.',
  'recorded-response': 'httpYac recorded response: kept as written, not compared.',
  'script-assertion': 'httpYac script assertion (?? js / ?? xpath): kept as written, not checked (no script is run).',
};

/** The informational diagnostic for a kept construct; block comments are understood and get none. */
function reportKept(construct: KeptConstruct, diagnostics: HttpFileDiagnostic[]): void {
  if (construct.kind === 'block-comment') return;
  diagnostics.push({ code: 'kept-construct', message: KEPT_MESSAGES[construct.kind], range: construct.range, severity: 'information' });
}

export function parseHttpFile(text: string): HttpFile {
  const lines = splitLines(text);
  const diagnostics: HttpFileDiagnostic[] = [];
  const blocks: RequestBlock[] = [];
  const requests: HttpRequestNode[] = [];
  for (const [first, last] of blockBounds(lines)) {
    const block = parseBlock(text, lines, first, last, requests.length, diagnostics);
    blocks.push(block);
    if (block.request) requests.push(block.request);
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

/** Whether `text` ends with 0-9: VERSION_AT_END cannot match a text that does not (\d is 0-9). */
export function endsWithDigit(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 48 && last <= 57;
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
 * Parses lines first..last (inclusive) as one block; `requestIndex` is the index its request gets.
 * `lines` are `source`'s lines (splitLines(source), or some of them at their own indexes): a body is
 * read from `source` by its lines' offsets.
 */
export function parseBlock(
  source: string,
  lines: readonly SourceLine[],
  first: number,
  last: number,
  requestIndex: number,
  diagnostics: HttpFileDiagnostic[],
): RequestBlock {
  const directives: Directive[] = [];
  const comments: Comment[] = [];
  const variables: FileVariable[] = [];
  const kept: KeptConstruct[] = [];
  let separator: RequestBlock['separator'];
  let i = first;
  if (SEPARATOR.test(textAt(lines, i))) {
    const text = textAt(lines, i);
    separator = { title: text.slice(leadingHashes(text)).trim(), range: lineRange(i, text) };
    i++;
  }
  // Preamble: everything before the request line.
  for (; i <= last; i++) {
    const text = textAt(lines, i);
    if (isBlank(text)) continue;
    const foreign = keptBeforeRequest(lines, i, last, diagnostics);
    if (foreign) {
      kept.push(foreign);
      reportKept(foreign, diagnostics);
      i = foreign.range.end.line;
      continue;
    }
    const lead = leadingCode(text);
    const commented = mayMatch(lead, COMMENT_LEADS);
    const directive = commented ? DIRECTIVE.exec(text) : null;
    if (directive) {
      directives.push(toDirective(i, text, directive));
      continue;
    }
    const comment = commented ? COMMENT.exec(text) : null;
    if (comment) {
      comments.push({ text: comment[3] ?? '', prefix: comment[2] === '#' ? '#' : '//', range: lineRange(i, text) });
      continue;
    }
    const variable = mayMatch(lead, FILE_VARIABLE_LEADS) ? FILE_VARIABLE.exec(text) : null;
    if (variable) {
      variables.push(toFileVariable(i, text, variable, diagnostics));
      continue;
    }
    break;
  }
  const blockRange = range(first, 0, last, textAt(lines, last).length);
  if (i > last) return { separator, directives, comments, variables, kept, range: blockRange, firstLine: first, lastLine: last };

  const name = directives.find((d) => d.key === 'name')?.value || separator?.title || undefined;
  const request = parseRequest(source, lines, i, last, requestIndex, name, comments, kept, diagnostics);
  return { separator, directives, comments, variables, request, kept, range: blockRange, firstLine: first, lastLine: last };
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
  const value = m[4] ?? '';
  const valueStart = nameStart + name.length + (m[3] ?? '').length;
  const references: VariableReference[] = [];
  scanReferences(text, line, valueStart, references, diagnostics);
  return {
    name,
    value,
    range: lineRange(line, text),
    nameRange: range(line, nameStart, line, nameStart + name.length),
    valueRange: range(line, valueStart, line, valueStart + value.length),
    references,
  };
}

function parseRequest(
  source: string,
  lines: readonly SourceLine[],
  start: number,
  last: number,
  index: number,
  name: string | undefined,
  comments: Comment[],
  kept: KeptConstruct[],
  diagnostics: HttpFileDiagnostic[],
): HttpRequestNode {
  const references: VariableReference[] = [];
  const requestLine = parseRequestLine(start, textAt(lines, start));
  scanReferences(textAt(lines, start), start, requestLine.urlRange.start.character, references, diagnostics);
  const queryParameters = queryParametersOf(start, textAt(lines, start), requestLine.urlRange.start.character);
  let i = start + 1;

  const queryContinuations: QueryContinuation[] = [];
  for (; i <= last && QUERY_CONTINUATION.test(textAt(lines, i)); i++) {
    queryContinuations.push({ text: textAt(lines, i).trim(), range: lineRange(i, textAt(lines, i)) });
    scanReferences(textAt(lines, i), i, 0, references, diagnostics);
    queryParameters.push(...queryParametersOf(i, textAt(lines, i), textAt(lines, i).search(/[?&]/)));
  }

  const headers: Header[] = [];
  let bodyStart = -1;
  for (; i <= last; i++) {
    const text = textAt(lines, i);
    if (isBlank(text)) { bodyStart = i + 1; break; }
    const lead = leadingCode(text);
    if (mayMatch(lead, HEADERS_END_LEADS) && (HEADERS_END.test(text) || HANDLER_SCRIPT.test(text) || HANDLER_FILE.test(text) || ASSERTION_LINE.test(text))) {
      if (/^\s*[{[]/.test(text) && !SCRIPT_OPEN.test(text)) {
        diagnostics.push({ code: 'missing-blank-line', message: 'A blank line must separate the headers from the body.', range: lineRange(i, text), severity: 'warning' });
      }
      bodyStart = i;
      break;
    }
    const comment = mayMatch(lead, COMMENT_LEADS) ? COMMENT.exec(text) : null;
    if (comment) {
      comments.push({ text: comment[3] ?? '', prefix: comment[2] === '#' ? '#' : '//', range: lineRange(i, text) });
      continue;
    }
    const header = HEADER.exec(text);
    if (!header) {
      diagnostics.push({ code: 'malformed-header', message: `Not a header ('Name: value'): ${text.trim()}`, range: lineRange(i, text), severity: 'error' });
      continue;
    }
    const nameStart = (header[1] ?? '').length;
    const headerName = header[2] ?? '';
    const value = header[4] ?? '';
    const valueStart = nameStart + headerName.length + (header[3] ?? '').length;
    headers.push({
      name: headerName,
      value,
      range: lineRange(i, text),
      nameRange: range(i, nameStart, i, nameStart + headerName.length),
      valueRange: range(i, valueStart, i, valueStart + value.length),
    });
    scanReferences(text, i, valueStart, references, diagnostics);
  }

  let body: Body | undefined;
  const responseHandlers: ResponseHandler[] = [];
  const assertions: AssertionNode[] = [];
  // The last query continuation or header line (each list is in line order), else the request line.
  let lastContent = Math.max(start, queryContinuations.at(-1)?.range.end.line ?? start, headers.at(-1)?.range.end.line ?? start);
  if (bodyStart !== -1 && bodyStart <= last) {
    let bodyEnd = bodyStart;
    while (bodyEnd <= last && !endsBody(textAt(lines, bodyEnd), textAt(lines, bodyEnd - 1))) bodyEnd++;
    // The body is bodyStart..bodyEnd-1 without its trailing blank lines.
    let lastBodyLine = bodyEnd - 1;
    while (lastBodyLine >= bodyStart && isBlank(textAt(lines, lastBodyLine))) lastBodyLine--;
    let firstBodyLine = bodyStart;
    while (firstBodyLine <= lastBodyLine && isBlank(textAt(lines, firstBodyLine))) firstBodyLine++;
    if (firstBodyLine <= lastBodyLine) {
      body = toBody(source, lines, firstBodyLine, lastBodyLine);
      // No line of a body without '{{' holds one (a line break cannot stand inside '{{'): most bodies skip the scan.
      const referenced = body.kind !== 'inline' || body.text.includes('{{');
      for (let b = firstBodyLine; b <= lastBodyLine; b++) {
        if (referenced) scanReferences(textAt(lines, b), b, 0, references, diagnostics);
        if (body.kind === 'inline' && isBlank(textAt(lines, b - 1)) && SWALLOWED_REQUEST_LINE.test(textAt(lines, b))) {
          diagnostics.push({
            code: 'missing-separator',
            message: 'This looks like a request line, but it is read as the body of the request above: missing ### before it?',
            range: lineRange(b, textAt(lines, b)),
            severity: 'warning',
          });
        }
      }
      lastContent = lastBodyLine;
    }
    lastContent = parseHandlers(lines, bodyEnd, last, { handlers: responseHandlers, assertions, kept }, diagnostics, lastContent);
  }
  return {
    index,
    name,
    requestLine,
    queryContinuations,
    queryParameters,
    headers,
    body,
    responseHandlers,
    assertions,
    references,
    range: range(start, 0, lastContent, textAt(lines, lastContent).length),
  };
}

/** Whether a body line ends the body: a handler's start, or a recorded response after a blank line. */
function endsBody(text: string, previous: string): boolean {
  const lead = leadingCode(text);
  if (!mayMatch(lead, BODY_END_LEADS)) return false;
  return isHandlerStart(text) || (RECORDED_RESPONSE.test(text) && isBlank(previous));
}

function isHandlerStart(text: string): boolean {
  return HANDLER_SCRIPT.test(text) || HANDLER_FILE.test(text) || RESPONSE_REFERENCE.test(text) || ASSERTION_LINE.test(text) || SCRIPT_OPEN.test(text);
}

/** Lines i..(the closing line) of a construct that spans lines up to a line matching `close`. */
function keptSpan(
  lines: readonly SourceLine[], i: number, last: number, close: (text: string, line: number) => boolean,
  kind: KeptConstruct['kind'], tool: KeptConstruct['tool'], diagnostics: HttpFileDiagnostic[], closer: string,
): KeptConstruct {
  let j = i;
  while (j <= last && !close(textAt(lines, j), j)) j++;
  if (j > last) {
    j = last;
    diagnostics.push({ code: 'unterminated-block', message: `${KEPT_MESSAGES[kind].split(':')[0]} is not closed by '${closer}'.`, range: range(i, 0, last, textAt(lines, last).length), severity: 'error' });
  }
  return keptLines(lines, i, j, kind, tool);
}

function keptLines(lines: readonly SourceLine[], i: number, j: number, kind: KeptConstruct['kind'], tool: KeptConstruct['tool']): KeptConstruct {
  const texts: string[] = [];
  for (let k = i; k <= j; k++) texts.push(lines[k]?.text ?? '');
  return { kind, tool, text: texts.join('\n'), range: range(i, 0, j, (lines[j]?.text ?? '').length) };
}

/** Another tool's construct starting at line i before the request line, or undefined. */
function keptBeforeRequest(lines: readonly SourceLine[], i: number, last: number, diagnostics: HttpFileDiagnostic[]): KeptConstruct | undefined {
  const text = textAt(lines, i);
  if (!mayMatch(leadingCode(text), KEPT_BEFORE_REQUEST_LEADS)) return undefined;
  if (PRE_REQUEST_SCRIPT.test(text)) {
    const open = text.indexOf('{%');
    return keptSpan(lines, i, last, (t, k) => t.indexOf('%}', k === i ? open + 2 : 0) !== -1, 'pre-request-script', 'JetBrains HTTP Client', diagnostics, '%}');
  }
  if (PRE_REQUEST_FILE.test(text)) return keptLines(lines, i, i, 'pre-request-script', 'JetBrains HTTP Client');
  const shared = keptAnywhere(lines, i, last, diagnostics);
  if (shared) return shared;
  if (PROTO_IMPORT.test(text)) {
    // Its option lines (`keepCase: true`) follow up to a blank line.
    let j = i;
    while (j + 1 <= last && !isBlank(textAt(lines, j + 1)) && HEADER.test(textAt(lines, j + 1)) && !DIRECTIVE.test(textAt(lines, j + 1)) && !COMMENT.test(textAt(lines, j + 1))) j++;
    return keptLines(lines, i, j, 'proto-import', 'httpYac');
  }
  if (XPATH_NAMESPACE.test(text)) return keptLines(lines, i, i, 'xpath-namespace', 'httpYac');
  if (JETBRAINS_IMPORT.test(text)) return keptLines(lines, i, i, 'import', 'JetBrains HTTP Client');
  if (JETBRAINS_RUN.test(text)) return keptLines(lines, i, i, 'run', 'JetBrains HTTP Client');
  if (CURL.test(text)) {
    // A curl command continues while a line ends with a backslash.
    let j = i;
    while (j + 1 <= last && /\\\s*$/.test(textAt(lines, j))) j++;
    return keptLines(lines, i, j, 'curl', 'REST Client');
  }
  return undefined;
}

/** Constructs that may stand before the request or after its body: script blocks and block comments. */
function keptAnywhere(lines: readonly SourceLine[], i: number, last: number, diagnostics: HttpFileDiagnostic[]): KeptConstruct | undefined {
  const text = lines[i]?.text ?? '';
  if (SCRIPT_OPEN.test(text)) return keptSpan(lines, i, last, (t, k) => k > i && SCRIPT_CLOSE.test(t), 'script-block', 'httpYac', diagnostics, '}}');
  if (BLOCK_COMMENT_OPEN.test(text)) {
    const open = text.indexOf('/*');
    return keptSpan(lines, i, last, (t, k) => t.indexOf('*/', k === i ? open + 2 : 0) !== -1, 'block-comment', 'httpYac', diagnostics, '*/');
  }
  return undefined;
}


function toBody(source: string, lines: readonly SourceLine[], first: number, last: number): Body {
  const firstText = lines[first]?.text ?? '';
  const include = first === last ? INCLUDE.exec(firstText) : null;
  if (include) {
    const pathStart = (include[1] ?? '').length + 1 + (include[2] ?? '').length + (include[3] ?? '').length;
    const path = include[4] ?? '';
    return {
      kind: 'include',
      path,
      substituteVariables: include[2] === '@',
      range: lineRange(first, firstText),
      pathRange: range(first, pathStart, first, pathStart + path.length),
    };
  }
  const startOffset = lines[first]?.offset ?? 0;
  const lastLine = lines[last];
  const lastLength = lastLine?.text.length ?? 0;
  // The lines first..last with the breaks between them, as written: one slice of the source (no copy).
  const text = source.slice(startOffset, (lastLine?.offset ?? startOffset) + lastLength);
  return { kind: 'inline', text, range: range(first, 0, last, lastLength), offset: startOffset };
}

const HANDLER_NOT_RUN = 'JetBrains HTTP Client response handler: kept as written, not run (API Workbench runs no scripts; ?? assertions are checked).';

interface AfterBody {
  readonly handlers: ResponseHandler[];
  readonly assertions: AssertionNode[];
  readonly kept: KeptConstruct[];
}

/** Handlers, assertions and kept constructs from line `from` to `last`; returns the last line holding content. */
function parseHandlers(
  lines: readonly SourceLine[],
  from: number,
  last: number,
  out: AfterBody,
  diagnostics: HttpFileDiagnostic[],
  lastContent: number,
): number {
  const keep = (construct: KeptConstruct): void => {
    out.kept.push(construct);
    reportKept(construct, diagnostics);
  };
  for (let i = from; i <= last; i++) {
    const text = textAt(lines, i);
    if (isBlank(text)) continue;
    lastContent = i;
    if (HANDLER_SCRIPT.test(text)) {
      const open = text.indexOf('{%');
      const sameLineClose = text.indexOf('%}', open + 2);
      if (sameLineClose !== -1) {
        out.handlers.push({ kind: 'script', text: text.slice(open + 2, sameLineClose), range: lineRange(i, text) });
        diagnostics.push({ code: 'kept-construct', message: HANDLER_NOT_RUN, range: lineRange(i, text), severity: 'information' });
        continue;
      }
      const parts = [text.slice(open + 2)];
      let j = i + 1;
      for (; j <= last; j++) {
        const close = textAt(lines, j).indexOf('%}');
        if (close !== -1) { parts.push(textAt(lines, j).slice(0, close)); break; }
        parts.push(textAt(lines, j));
      }
      if (j > last) {
        diagnostics.push({ code: 'unterminated-handler', message: "The response handler '> {%' is not closed by '%}'.", range: range(i, 0, last, textAt(lines, last).length), severity: 'error' });
        j = last;
      }
      out.handlers.push({ kind: 'script', text: parts.join('\n'), range: range(i, 0, j, textAt(lines, j).length) });
      diagnostics.push({ code: 'kept-construct', message: HANDLER_NOT_RUN, range: range(i, 0, j, textAt(lines, j).length), severity: 'information' });
      lastContent = j;
      i = j;
      continue;
    }
    if (OUTPUT_REDIRECT.test(text)) {
      keep(keptLines(lines, i, i, 'output-redirect', 'JetBrains HTTP Client'));
      continue;
    }
    if (ASSERTION_LINE.test(text)) {
      const assertion = parseAssertionLine(i, text, diagnostics);
      if (assertion) out.assertions.push(assertion);
      else keep(keptLines(lines, i, i, 'script-assertion', 'httpYac'));
      continue;
    }
    const foreign = keptAnywhere(lines, i, last, diagnostics);
    if (foreign) {
      keep(foreign);
      lastContent = foreign.range.end.line;
      i = lastContent;
      continue;
    }
    if (RECORDED_RESPONSE.test(text)) {
      // The recorded response runs to the end of the block, except the assertions written after it.
      let j = last;
      while (j > i && (isBlank(textAt(lines, j)) || ASSERTION_LINE.test(textAt(lines, j)))) j--;
      keep(keptLines(lines, i, j, 'recorded-response', 'httpYac'));
      lastContent = j;
      i = j;
      continue;
    }
    const file = HANDLER_FILE.exec(text);
    if (file) {
      out.handlers.push({ kind: 'file', text: file[1] ?? '', range: lineRange(i, text) });
      diagnostics.push({ code: 'kept-construct', message: HANDLER_NOT_RUN, range: lineRange(i, text), severity: 'information' });
    }
    // Anything else after the body (`<> previous-response`, comments) stays in the source untouched.
  }
  return lastContent;
}

function parseRequestLine(line: number, text: string): RequestLine {
  const indent = text.length - text.trimStart().length;
  const content = text.trimEnd();
  const firstSpace = content.slice(indent).search(/\s/);
  const firstToken = firstSpace === -1 ? content.slice(indent) : content.slice(indent, indent + firstSpace);
  const hasMethod = firstSpace !== -1 && (KNOWN_METHODS.has(firstToken.toUpperCase()) || /^[A-Z]+$/.test(firstToken));
  const method = hasMethod ? firstToken.toUpperCase() : 'GET';
  const methodRange = hasMethod ? range(line, indent, line, indent + firstToken.length) : range(line, indent, line, indent);
  let urlStart = hasMethod ? indent + firstToken.length : indent;
  while (urlStart < content.length && /\s/.test(content[urlStart] ?? '')) urlStart++;
  let urlEnd = content.length;
  let httpVersion: string | undefined;
  let httpVersionRange: RequestLine['httpVersionRange'];
  const version = endsWithDigit(content) ? VERSION_AT_END.exec(content.slice(urlStart)) : null;
  if (version) {
    httpVersion = version[1];
    const versionStart = content.length - (version[1]?.length ?? 0);
    httpVersionRange = range(line, versionStart, line, content.length);
    urlEnd = urlStart + version.index;
  }
  return {
    method,
    methodWritten: hasMethod,
    methodRange,
    url: content.slice(urlStart, urlEnd),
    urlRange: range(line, urlStart, line, urlEnd),
    httpVersion,
    httpVersionRange,
    range: lineRange(line, text),
  };
}

/** Parameters after the first `?` (or from `start` on a continuation line). */
function queryParametersOf(line: number, text: string, start: number): QueryParameter[] {
  const result: QueryParameter[] = [];
  const content = text.trimEnd();
  let q = content.indexOf('?', start);
  if (q === -1) {
    if (content[start] !== '&') return result;
    q = start;
  }
  const versionMatch = endsWithDigit(content) ? VERSION_AT_END.exec(content) : null;
  const end = versionMatch ? versionMatch.index : content.length;
  let from = q + 1;
  while (from <= end) {
    let amp = content.indexOf('&', from);
    if (amp === -1 || amp > end) amp = end;
    const part = content.slice(from, amp);
    if (part.length > 0) {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? '' : part.slice(eq + 1);
      const valueStart = eq === -1 ? amp : from + eq + 1;
      result.push({
        name: name.trim(),
        value,
        range: range(line, from, line, amp),
        nameRange: range(line, from, line, from + name.length),
        valueRange: range(line, valueStart, line, valueStart + value.length),
      });
    }
    from = amp + 1;
  }
  return result;
}
