// Other tools' constructs (see KeptConstruct in model.ts): how each is recognised, how far it runs, and
// the words that name its tool. The grammar (parser.ts) asks here before reading a line as its own; a
// construct found here is kept verbatim and never read as a request line, a header or a body.
import type { HttpFile, HttpFileDiagnostic, KeptConstruct, SourceLine } from './model';
import { isBlank, leadingCode, range, lineRange } from './lines';

export const COMMENT = /^(\s*)(#|\/\/)(.*)$/;
export const DIRECTIVE = /^(\s*)(#|\/\/)\s*@([A-Za-z_][\w.-]*)(?:(\s*=\s*|\s+)(.*?))?\s*$/;
export const HEADER = /^(\s*)([^\s:]+)(\s*:\s*)(.*?)\s*$/;
export const HANDLER_SCRIPT = /^\s*>\s*\{%/;
/** A response handler file: `> ` and a path that looks like a script (./ ../ / or .js .mjs .cjs .ts); any other `> text` is no handler. */
export const HANDLER_FILE = /^\s*>\s*((?:\.{1,2}\/|\/)\S.*?|\S+\.(?:[mc]?js|ts))\s*$/;
export const RESPONSE_REFERENCE = /^\s*<>/;
export const PRE_REQUEST_SCRIPT = /^\s*<\s*\{%/;
/** `< ./script.js` (JetBrains) or `< ./script` before the request line: a script file run before it (a body include comes after the headers). */
export const PRE_REQUEST_FILE = /^\s*<\s+\S+\s*$/;
export const SCRIPT_OPEN = /^\s*\{\{(?:@\w*|\+\w*)?\s*$/;
const SCRIPT_CLOSE = /^\s*\}\}\s*$/;
export const BLOCK_COMMENT_OPEN = /^\s*\/\*/;
export const PROTO_IMPORT = /^\s*proto\s*</;
export const XPATH_NAMESPACE = /^\s*@xpath_ns\s/;
export const JETBRAINS_IMPORT = /^\s*import\s+\S/;
export const JETBRAINS_RUN = /^\s*run\s+(?:#|\S+\.(?:http|rest)\b)/;
export const CURL = /^\s*curl\s/;
export const OUTPUT_REDIRECT = /^\s*>>!?\s/;
export const RECORDED_RESPONSE = /^\s*HTTP\/\d(?:\.\d)?\s+\d{3}\b/;
export const GRAPHQL_FRAGMENT = /^\s*fragment\s+\w+\s+on\s+\w+/;
/** httpYac `...defaultHeaders` among the headers (its own pattern: one name, an optional comma). */
export const HEADER_SPREAD = /^\s*\.{3}([^\s,]+),?\s*$/;

/** Characters a line must start with (after whitespace) to open a construct keptBeforeRequest finds. */
export const KEPT_BEFORE_REQUEST_LEADS: ReadonlySet<number> = new Set([...'<{/p@ircf'].map((c) => c.charCodeAt(0)));

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
  'graphql-fragment': "httpYac GraphQL fragment: added to this file's GraphQL queries that spread it (...Name).",
  'previous-response': 'JetBrains HTTP Client previous-response reference (<>): kept as written, not compared.',
  unrecognised: 'Not a request line, header, body or a construct of REST Client, httpYac or the JetBrains HTTP Client: kept as written, not sent. A request line needs ### before it.',
};

/** What a kept construct is, in a few words (the lead of its diagnostic), for readers other than the editor. */
export function keptConstructName(kind: KeptConstruct['kind']): string {
  return kind === 'unrecognised' ? 'a line no known tool explains' : KEPT_MESSAGES[kind].replace(/[:.].*$/s, '');
}

/** The diagnostic for a kept construct: information naming its tool; block comments are understood and get none; an unrecognised line is a warning. */
export function reportKept(construct: KeptConstruct, diagnostics: HttpFileDiagnostic[]): void {
  if (construct.kind === 'block-comment') return;
  const unrecognised = construct.kind === 'unrecognised';
  diagnostics.push({
    code: unrecognised ? 'unrecognised-line' : 'kept-construct',
    message: KEPT_MESSAGES[construct.kind],
    range: construct.range,
    severity: unrecognised ? 'warning' : 'information',
  });
}

function textAt(lines: readonly SourceLine[], i: number): string {
  return lines[i]?.text ?? '';
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

export function keptLines(lines: readonly SourceLine[], i: number, j: number, kind: KeptConstruct['kind'], tool: KeptConstruct['tool']): KeptConstruct {
  const texts: string[] = [];
  for (let k = i; k <= j; k++) texts.push(textAt(lines, k));
  return { kind, tool, text: texts.join('\n'), range: range(i, 0, j, textAt(lines, j).length) };
}

/** Another tool's construct starting at line i before the request line, or undefined. */
export function keptBeforeRequest(lines: readonly SourceLine[], i: number, last: number, diagnostics: HttpFileDiagnostic[]): KeptConstruct | undefined {
  const text = textAt(lines, i);
  const lead = leadingCode(text);
  if (lead !== -1 && !KEPT_BEFORE_REQUEST_LEADS.has(lead)) return undefined;
  // A script (`< {%`) is tried before a script file: `< {%` alone on its line looks like `< ./file` too.
  const anywhere = keptAnywhere(lines, i, last, diagnostics);
  if (anywhere) return anywhere;
  if (PRE_REQUEST_FILE.test(text)) return keptLines(lines, i, i, 'pre-request-script', 'JetBrains HTTP Client');
  return keptSingle(lines, i, last);
}

/** The constructs of keptBeforeRequest that need no closing line. */
function keptSingle(lines: readonly SourceLine[], i: number, last: number): KeptConstruct | undefined {
  const text = textAt(lines, i);
  if (PROTO_IMPORT.test(text)) {
    // Its option lines (`keepCase: true`) follow up to a blank line.
    let j = i;
    while (j + 1 <= last && isOptionLine(textAt(lines, j + 1))) j++;
    return keptLines(lines, i, j, 'proto-import', 'httpYac');
  }
  if (XPATH_NAMESPACE.test(text)) return keptLines(lines, i, i, 'xpath-namespace', 'httpYac');
  if (JETBRAINS_IMPORT.test(text)) return keptLines(lines, i, i, 'import', 'JetBrains HTTP Client');
  if (JETBRAINS_RUN.test(text)) return keptLines(lines, i, i, 'run', 'JetBrains HTTP Client');
  if (GRAPHQL_FRAGMENT.test(text)) return keptLines(lines, i, braceEnd(lines, i, last), 'graphql-fragment', 'httpYac');
  if (CURL.test(text)) {
    // A curl command continues while a line ends with a backslash.
    let j = i;
    while (j + 1 <= last && /\\\s*$/.test(textAt(lines, j))) j++;
    return keptLines(lines, i, j, 'curl', 'REST Client');
  }
  return undefined;
}

function isOptionLine(text: string): boolean {
  return !isBlank(text) && HEADER.test(text) && !DIRECTIVE.test(text) && !COMMENT.test(text);
}

/** The line where the braces opened at line i are all closed (the last line when they never are). */
function braceEnd(lines: readonly SourceLine[], i: number, last: number): number {
  let depth = 0;
  let opened = false;
  for (let j = i; j <= last; j++) {
    for (const c of textAt(lines, j)) {
      if (c === '{') { depth++; opened = true; } else if (c === '}') depth--;
    }
    if (opened && depth <= 0) return j;
  }
  return last;
}

/**
 * Constructs that may stand before the request or after its body: script blocks, block comments and
 * JetBrains pre-request scripts (`< {% … %}`: written below a request, right below its request line
 * or its body, it is still a script, kept and said, never headers or body text sent).
 */
export function keptAnywhere(lines: readonly SourceLine[], i: number, last: number, diagnostics: HttpFileDiagnostic[]): KeptConstruct | undefined {
  const text = textAt(lines, i);
  if (PRE_REQUEST_SCRIPT.test(text)) {
    const open = text.indexOf('{%');
    return keptSpan(lines, i, last, (t, k) => t.indexOf('%}', k === i ? open + 2 : 0) !== -1, 'pre-request-script', 'JetBrains HTTP Client', diagnostics, '%}');
  }
  if (SCRIPT_OPEN.test(text)) return keptSpan(lines, i, last, (t, k) => k > i && SCRIPT_CLOSE.test(t), 'script-block', 'httpYac', diagnostics, '}}');
  if (BLOCK_COMMENT_OPEN.test(text)) {
    const open = text.indexOf('/*');
    return keptSpan(lines, i, last, (t, k) => t.indexOf('*/', k === i ? open + 2 : 0) !== -1, 'block-comment', 'httpYac', diagnostics, '*/');
  }
  return undefined;
}

/** An unrecognised line, kept (the grammar's invariant: no line is dropped without a word). */
export function unrecognisedLine(lines: readonly SourceLine[], i: number): KeptConstruct {
  return { kind: 'unrecognised', tool: 'API Workbench', text: textAt(lines, i), range: lineRange(i, textAt(lines, i)) };
}

/** The file's GraphQL fragments written outside every request (httpYac), for the queries that spread them. */
export function graphqlFragmentsOf(file: HttpFile): string[] {
  return file.blocks.flatMap((b) => b.kept.filter((k) => k.kind === 'graphql-fragment').map((k) => k.text));
}
