// The canonical printer: `printNormalizedHttpFile` writes the form the product generates (scratch files,
// saved collections) from plain data. (A parsed file needs no printer: it keeps every source line with
// its own line break; test/unit/httpfilePrint.ts prints it back to show that nothing is lost.)
import { parseHttpFile, SEPARATOR } from './parser';
import { bodyEndingLine, isIncludeLine } from './request';
import { isBlank, splitLines } from './lines';
import { LINE_BREAKS, oneLine } from '../text/oneLine';

export interface RequestSpec {
  readonly method: string;
  readonly url: string;
  readonly httpVersion?: string;
  readonly headers?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** Inline body text, or a `< path` include. */
  readonly body?: string | { readonly include: string; readonly substituteVariables?: boolean };
  /** Response handler scripts, printed as `> {% ... %}`. */
  readonly handlers?: readonly string[];
}

export interface BlockSpec {
  /** The `### title`. */
  readonly title?: string;
  readonly comments?: readonly string[];
  readonly variables?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** `# @key value` lines; `name` is printed first. */
  readonly directives?: ReadonlyArray<{ readonly key: string; readonly value?: string }>;
  readonly request?: RequestSpec;
}

/** A field `printNormalizedHttpFile` will not print: written as it is, it would change the file's structure. */
export class HttpPrintError extends Error {
  constructor(readonly field: string, readonly reason: string) {
    super(`${field} ${reason}`);
    this.name = 'HttpPrintError';
  }
}

const LINE_BREAK = /\r\n|\r|\n|\u0085|\u2028|\u2029/;
const METHOD = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** An HTTP token that cannot be read as a comment (`#`), a query continuation (`?`, `&`) or a variable (`@`). */
const HEADER_NAME = /^[A-Za-z0-9!$%'*+.^_`|~-]+$/;
const IDENTIFIER = /^[A-Za-z_][\w.-]*$/;

/**
 * Why `body` cannot be printed as an inline body, or undefined when it can: a line the parser reads as
 * something else (a new request, or a line that ends a body: the parser's own list, bodyEndingLine), or
 * a body of one line read as a file to send. Importers ask first and decide what to do instead.
 */
export function inlineBodyProblem(body: string): string | undefined {
  const lines = splitLines(body).map((line) => line.text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // The printer writes a blank line before the body: the first line's previous line is blank.
    const readAs = SEPARATOR.test(line) ? 'a new request' : bodyEndingLine(line, i === 0 ? '' : lines[i - 1]!);
    if (readAs) return `line ${i + 1} of the body starts with '${line.trim().slice(0, 4)}', which a .http file reads as ${readAs}`;
  }
  const content = lines.filter((line) => !isBlank(line));
  if (content.length === 1 && isIncludeLine(content[0]!)) return "the body is one line starting with '<', which a .http file reads as a file to send";
  return undefined;
}

function singleLineField(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new HttpPrintError(field, 'holds a line break, which would start a new line of the file');
  return value;
}

/** The request line's URL: line breaks and other control characters percent-encoded (the URL keeps its meaning). */
function urlField(url: string): string {
  return url.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, (c) => encodeURIComponent(c));
}

/**
 * The canonical form: each request opens with `###`, then comments, file variables, directives,
 * request line, headers, a blank line and the body; one blank line between requests. Safe by
 * construction: a title or comment with line breaks is folded (titles) or split into comment lines,
 * control characters in a URL are percent-encoded, and anything else that would change the file's
 * structure (a line break in a header, variable or directive, a method or header name that is not a
 * token, an empty URL, a body line the parser reads as anything but body) throws HttpPrintError naming it.
 */
export function printNormalizedHttpFile(blocks: readonly BlockSpec[], eol: '\n' | '\r\n' = '\n'): string {
  const out: string[] = [];
  const requests: RequestSpec[] = [];
  blocks.forEach((block, index) => {
    const isLeadingPrelude = index === 0 && !block.request && block.title === undefined;
    if (!isLeadingPrelude) out.push(block.title ? `### ${oneLine(block.title)}`.trimEnd() : '###');
    for (const comment of block.comments ?? []) {
      // A comment line that starts with @ would be read as a directive.
      for (const line of comment.split(LINE_BREAKS)) out.push(`# ${line.replace(/^(\s*)@/, '$1(@)')}`.trimEnd());
    }
    for (const variable of block.variables ?? []) {
      if (!IDENTIFIER.test(variable.name)) throw new HttpPrintError(`the variable name '${oneLine(variable.name)}'`, 'is not a name (letters, digits, _ . -)');
      out.push(`@${variable.name} = ${singleLineField(`the value of @${variable.name}`, variable.value)}`);
    }
    const directives = [...(block.directives ?? [])].sort((a, b) => Number(b.key === 'name') - Number(a.key === 'name'));
    for (const directive of directives) {
      if (!IDENTIFIER.test(directive.key)) throw new HttpPrintError(`the directive '${oneLine(directive.key)}'`, 'is not a name (letters, digits, _ . -)');
      const value = directive.value ? singleLineField(`the value of # @${directive.key}`, directive.value) : '';
      out.push(`# @${directive.key}${value ? ` ${value}` : ''}`);
    }
    if (block.request) {
      requests.push(block.request);
      printRequest(block.request, out);
    }
    out.push('');
  });
  const text = out.join(eol);
  // The file reads back as the requests it was given, each with its body, or it is not returned.
  const readBack = parseHttpFile(text).requests;
  if (readBack.length !== requests.length) throw new HttpPrintError('the printed file', `reads back as ${readBack.length} request(s) instead of ${requests.length}`);
  readBack.forEach((node, k) => {
    const body = requests[k]!.body;
    if (typeof body !== 'string') return;
    const read = node.body?.kind === 'inline' ? node.body.text : '';
    if (read !== bodyAsRead(body, eol)) throw new HttpPrintError(`the body of request ${k + 1}`, 'does not read back as written');
  });
  return text;
}

/** An inline body as the parser gives it back: its lines joined by `eol`, without blank lines around them. */
function bodyAsRead(body: string, eol: string): string {
  const lines = splitLines(body).map((line) => line.text);
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && isBlank(lines[first]!)) first++;
  while (last >= first && isBlank(lines[last]!)) last--;
  return lines.slice(first, last + 1).join(eol);
}

/** A request's lines in the canonical form (see printNormalizedHttpFile). */
function printRequest(request: NonNullable<BlockSpec['request']>, out: string[]): void {
  if (!METHOD.test(request.method)) throw new HttpPrintError(`the method '${oneLine(request.method)}'`, 'is not an HTTP method name');
  // A request line of a method alone reads back as a request to the URL named like the method.
  if (request.url.trim() === '') throw new HttpPrintError('the URL', 'is empty');
  const version = request.httpVersion ? ` ${singleLineField('the HTTP version', request.httpVersion)}` : '';
  out.push(`${request.method.toUpperCase()} ${urlField(request.url)}${version}`);
  for (const header of request.headers ?? []) {
    if (!HEADER_NAME.test(header.name)) throw new HttpPrintError(`the header name '${oneLine(header.name)}'`, 'is not an HTTP header name');
    out.push(`${header.name}: ${singleLineField(`the value of header ${header.name}`, header.value)}`);
  }
  if (request.body !== undefined) {
    out.push('');
    if (typeof request.body === 'string') {
      const problem = inlineBodyProblem(request.body);
      if (problem) throw new HttpPrintError('the body', `cannot be written inline: ${problem}`);
      out.push(...request.body.split(/\r\n|\r|\n/));
    } else {
      out.push(`<${request.body.substituteVariables ? '@' : ''} ${singleLineField('the body file', request.body.include)}`);
    }
  }
  if (request.handlers?.length) {
    out.push('');
    for (const script of request.handlers) {
      if (script.includes('%}')) throw new HttpPrintError('a response handler', "holds '%}', which would end it early");
      out.push(`> {%${script}%}`);
    }
  }
}
