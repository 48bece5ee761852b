// The syntax tree of a `.http` request file (the format REST Client, httpYac and JetBrains HTTP Client
// share). Every node carries a precise line/character range so the language server can point at it,
// and the source text is kept so that printing the tree gives back exactly what the user wrote.

/** Zero-based line and UTF-16 character, as LSP counts them. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** One physical line: its text without the line break, the break itself ('' on the last line) and offset. */
export interface SourceLine {
  readonly text: string;
  readonly eol: '' | '\n' | '\r\n' | '\r';
  readonly offset: number;
}

/** A `{{...}}` reference. `name` is the trimmed inside (`host`, `$uuid`, `login.response.body.$.id`). */
export interface VariableReference {
  readonly name: string;
  /** The whole `{{...}}`. */
  readonly range: Range;
  /** Just the name inside the braces. */
  readonly nameRange: Range;
}

/** `# @name login`, `// @no-redirect`, `# @paging export-ordinal`: kept as data, interpreted elsewhere. */
export interface Directive {
  readonly key: string;
  /** Empty when the directive is a bare flag. */
  readonly value: string;
  readonly prefix: '#' | '//';
  readonly range: Range;
  readonly keyRange: Range;
  readonly valueRange: Range;
}

export interface Comment {
  readonly text: string;
  readonly prefix: '#' | '//';
  readonly range: Range;
}

/**
 * `@host = https://example.test` — a file variable, visible to every request after it. httpYac's lazy
 * `@x := value` is one too (`lazy`): file variables are resolved where they are used, which is what lazy means.
 */
export interface FileVariable {
  readonly name: string;
  readonly value: string;
  readonly lazy?: true;
  readonly range: Range;
  readonly nameRange: Range;
  readonly valueRange: Range;
  readonly references: readonly VariableReference[];
}

/**
 * What a request line asks for: HTTP (every method, WebDAV's included), or another tool's request kind
 * (httpYac `GRAPHQL`, `GRPC`, `WEBSOCKET`/`WS`/`WSS`, `SSE`/`EVENTSOURCE`, `MQTT`/`MQTTS`, `AMQP`, or a bare
 * `grpc://`, `ws://`, `mqtt://`, `amqp://` URL). Only 'http' is sent as written; the list lives in requestLine.ts.
 */
export type RequestKind = 'http' | 'graphql' | 'grpc' | 'websocket' | 'sse' | 'mqtt' | 'amqp';

export interface RequestLine {
  /** Upper-cased as written (`GRAPHQL`, `GRPC` too); 'GET' when the line is a bare URL. */
  readonly method: string;
  readonly kind: RequestKind;
  /** False for a bare URL (REST Client's shorthand for GET). */
  readonly methodWritten: boolean;
  readonly methodRange: Range;
  /** The URL as written on the request line; with its query continuation lines: writtenUrl(request). */
  readonly url: string;
  /** The URL on the request line only. */
  readonly urlRange: Range;
  readonly httpVersion?: string;
  readonly httpVersionRange?: Range;
  readonly range: Range;
}

/** A `  ?a=1` or `  &b=2` line continuing the request line's query (REST Client), or an indented `  /path` piece (JetBrains multi-line URL). */
export interface QueryContinuation {
  readonly text: string;
  readonly range: Range;
}

/** A query parameter of the request's URL, from the request line or a continuation line. */
export interface QueryParameter {
  readonly name: string;
  readonly value: string;
  readonly range: Range;
  readonly nameRange: Range;
  readonly valueRange: Range;
}

/**
 * httpYac `...defaultHeaders`: the headers of a variable holding an object, spread into the request's. Sent
 * only when its source is known (a file variable holding a JSON object: headerSpread.ts); else the request is not run.
 */
export interface HeaderSpread {
  readonly name: string;
  readonly range: Range;
}

export interface Header {
  readonly name: string;
  readonly value: string;
  readonly range: Range;
  readonly nameRange: Range;
  readonly valueRange: Range;
}

/**
 * The request body. `inline` holds the text as written (trailing blank lines excluded, kept in the
 * source); `include` is a `< ./file` (or httpYac `<@ ./file`, whose variables are substituted; REST
 * Client `<@latin1 ./file`, read in that encoding, its variables substituted) line kept as a reference
 * that a file port resolves.
 */
export type Body =
  | {
      readonly kind: 'inline'; readonly text: string; readonly range: Range; readonly offset: number;
      /**
       * Present on a multipart body (sent with CRLF line breaks: run/bodyFileParts.ts): its `< ./file` lines,
       * none or more; each stands for that file's content (REST Client, httpYac, JetBrains).
       */
      readonly files?: readonly BodyFileLine[];
    }
  | { readonly kind: 'include'; readonly path: string; readonly substituteVariables: boolean; readonly encoding?: string; readonly range: Range; readonly pathRange: Range };

/** A `< ./file` line of a multipart body (a part's content), as an include line reads it. */
export interface BodyFileLine {
  readonly path: string;
  readonly substituteVariables: boolean;
  readonly encoding?: string;
  readonly range: Range;
  readonly pathRange: Range;
}

/** `> {% ... %}` script or `> ./handler.js` after the body: preserved verbatim, never executed here. */
export interface ResponseHandler {
  readonly kind: 'script' | 'file';
  /** The script between `{%` and `%}`, or the file path. */
  readonly text: string;
  readonly range: Range;
}

/** The tools whose `.http` dialects this parser knows. */
export type HttpTool = 'REST Client' | 'httpYac' | 'JetBrains HTTP Client';

/**
 * A construct of another tool's dialect that API Workbench does not act on: kept verbatim in the source
 * (the printer gives it back), reported with an informational diagnostic naming its tool, and never read
 * as a request line, a header or a body.
 */
export interface KeptConstruct {
  readonly kind:
    | 'pre-request-script' // JetBrains `< {% … %}` or `< ./script.js` before the request line
    | 'script-block' // httpYac `{{ … }}`, `{{@request … }}`, `{{@response … }}`
    | 'block-comment' // httpYac `/* … */`: understood as a comment, no diagnostic
    | 'proto-import' // httpYac gRPC `proto < ./file.proto` and its option lines
    | 'xpath-namespace' // httpYac `@xpath_ns prefix=uri`
    | 'import' // JetBrains `import ./file.http`
    | 'run' // JetBrains `run #name` / `run ./file.http`
    | 'curl' // REST Client: a pasted curl command
    | 'output-redirect' // JetBrains/httpYac `>> file`, `>>! file`
    | 'recorded-response' // httpYac: a response written after the request (`HTTP/1.1 200 OK` …)
    | 'script-assertion' // httpYac `?? js …` / `?? xpath …`: an assertion that needs a script engine
    | 'graphql-fragment' // httpYac GraphQL `fragment Name on Type { … }` before a request
    | 'previous-response' // JetBrains `<> ./previous-response.json`: a response to compare with, not compared
    | 'unrecognised'; // a line no tool's grammar known here explains: kept, warned (the parser's invariant)
  /** Whose construct it is; 'API Workbench' for an unrecognised line (no tool's known construct). */
  readonly tool: HttpTool | 'API Workbench';
  /** The construct's lines as written. */
  readonly text: string;
  readonly range: Range;
}

/**
 * `?? status == 200`, `?? header content-type includes json`, `?? body $.total >= 1`, `?? duration < 500`,
 * `?? business ok`, `?? business code == 26`, `?? rows >= 1` (httpYac's syntax plus this product's
 * business and rows subjects). Declarative: evaluated by `src/core/run/assertions.ts`, nothing executed.
 */
export interface AssertionNode {
  /** The text after `??`, trimmed. */
  readonly text: string;
  readonly subject: string;
  /** Header name, body JSON path, or `ok`/`code` for business; '' when absent. */
  readonly argument: string;
  /** As written (`==`, `includes`, `isArray`, …); '' when the line names none (`?? business ok`). */
  readonly predicate: string;
  /** '' for predicates that take no value. */
  readonly expected: string;
  readonly range: Range;
  readonly subjectRange: Range;
  readonly predicateRange?: Range;
  readonly expectedRange?: Range;
}

export interface HttpRequestNode {
  /** Position among the file's requests (0-based): the `requestIndex` of CodeLens commands. */
  readonly index: number;
  /** `# @name` value, else the `### title`, else undefined. */
  readonly name?: string;
  readonly requestLine: RequestLine;
  readonly queryContinuations: readonly QueryContinuation[];
  readonly queryParameters: readonly QueryParameter[];
  readonly headers: readonly Header[];
  /** httpYac `...name` lines among the headers, in file order. */
  readonly headerSpreads: readonly HeaderSpread[];
  readonly body?: Body;
  readonly responseHandlers: readonly ResponseHandler[];
  /** `??` lines after the request, in file order. */
  readonly assertions: readonly AssertionNode[];
  /** Every `{{...}}` in the URL, headers and body. */
  readonly references: readonly VariableReference[];
  /** From the request line to the last non-blank line of the block. */
  readonly range: Range;
}

/** The text between two `###` lines (the first block starts at the top of the file). */
export interface RequestBlock {
  /** The `###` line opening this block; absent for the first block. */
  readonly separator?: { readonly title: string; readonly range: Range };
  readonly directives: readonly Directive[];
  readonly comments: readonly Comment[];
  readonly variables: readonly FileVariable[];
  readonly request?: HttpRequestNode;
  /** Other tools' constructs in this block (before or after the request), kept verbatim. */
  readonly kept: readonly KeptConstruct[];
  /** Whole lines, separator included: blocks tile the file. */
  readonly range: Range;
  /** First and last line (inclusive) the block covers. */
  readonly firstLine: number;
  readonly lastLine: number;
}

export type HttpFileDiagnosticCode =
  | 'malformed-header'
  | 'missing-blank-line'
  | 'unterminated-handler'
  | 'unterminated-variable'
  | 'malformed-variable'
  | 'malformed-request-line'
  /** Another tool's construct, kept as written and not acted on (information). */
  | 'kept-construct'
  /** A request line inside a body after a blank line: probably a missing `###` (warning). */
  | 'missing-separator'
  /** A header written again under the same name: both values are sent as one field (warning). */
  | 'repeated-header'
  | 'malformed-assertion'
  | 'unterminated-block'
  /** A request of a kind API Workbench does not send (gRPC, WebSocket, SSE, MQTT, AMQP): named, not run (warning). */
  | 'not-sent-kind'
  /** Another tool's syntax API Workbench acts on, with the condition it needs (header spread, path-only line; information). */
  | 'other-tool-syntax'
  /** A line that is no request line, header, body or known construct: kept as written (warning). */
  | 'unrecognised-line'
  /** A `# @key` directive not acted on as written (directives.ts): skipped, refused, warned or noted. */
  | 'directive';

export interface HttpFileDiagnostic {
  readonly code: HttpFileDiagnosticCode;
  readonly message: string;
  readonly range: Range;
  readonly severity: 'error' | 'warning' | 'information';
}

export interface HttpFile {
  /** The source, so the printer can give it back byte for byte. */
  readonly lines: readonly SourceLine[];
  readonly blocks: readonly RequestBlock[];
  readonly requests: readonly HttpRequestNode[];
  readonly diagnostics: readonly HttpFileDiagnostic[];
}
