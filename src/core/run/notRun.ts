// One request's problem is that request's problem: what keeps a request of a file from being sent —
// an error the parser found in its block (an unknown `??` predicate, a malformed header) or a line of it
// the parser did not read (it would not be sent), a kind API
// Workbench does not send (gRPC, WebSocket, SSE, MQTT, AMQP), a header spread or a path-only request line
// whose source is not known — is said for that request only, with its file, line, reason and the tool whose
// construct it is; the others of the file run. An error outside every request's block is the file's.
// A request the file holds in another tool's form that is not a request line (a REST Client curl command:
// unsentRequestsIn) is a request not run too, wherever it stands: every caller counts it as one.
import type { HttpFile, HttpFileDiagnostic, HttpRequestNode, HttpTool, KeptConstruct, RequestBlock } from '../httpfile/model';
import { disablingDirective } from '../httpfile/directives';
import { notSentWords } from '../httpfile/requestLine';
import { shapeProblem } from './requestShape';

/** A request (or a file's construct) that is not run, for the CLI line and every report. */
export interface NotRunRequest {
  /** The file as shown. */
  readonly file: string;
  /** One-based line of the request line (of the construct, for a file's own). */
  readonly line: number;
  /** The request's # @name or ### title, else `file:line`. */
  readonly name: string;
  readonly reason: string;
  /** Whose construct stops it ('API Workbench' when it is no other tool's). */
  readonly tool: HttpTool | 'API Workbench';
}

type Reason = Pick<NotRunRequest, 'reason' | 'tool'>;

/** Why a request is not run; `stoppedBy`: the line of its block that stops it and that line's words, when a line does. */
export type RequestReason = Reason & { readonly stoppedBy?: { readonly line: number; readonly words: string } };

const TOOL_OF_CODE: Partial<Record<HttpFileDiagnostic['code'], HttpTool>> = {
  'malformed-assertion': 'httpYac',
  'unterminated-handler': 'JetBrains HTTP Client',
};

function fromDiagnostic(d: HttpFileDiagnostic): RequestReason {
  const line = d.range.start.line + 1;
  return { reason: `line ${line}: ${d.message}`, tool: TOOL_OF_CODE[d.code] ?? 'API Workbench', stoppedBy: { line, words: d.message } };
}

/** What stops a request: an error, or a line of its block the parser did not read (what it says would not be sent). */
function stops(d: HttpFileDiagnostic): boolean {
  return d.severity === 'error' || d.code === 'unrecognised-line';
}

function errorsIn(file: HttpFile, firstLine: number, lastLine: number): HttpFileDiagnostic[] {
  return file.diagnostics.filter((d) => stops(d) && d.range.start.line >= firstLine && d.range.start.line <= lastLine);
}

/**
 * A diagnostic a run says before it sends (it would go unnoticed in a terminal): a request line read as a
 * body, a header written twice, a directive not acted on as written — but not the one that is the reason its request is not run
 * (stoppingDiagnostic): that one is said once, there, with its file and line.
 */
export function saidBeforeRun(d: HttpFileDiagnostic): boolean {
  return d.code === 'missing-separator' || d.code === 'directive' || d.code === 'repeated-header';
}

/** The line of a request's block that is the reason it is not run (its first error or unread line); none for a kind not sent (the kind is its reason). */
export function stoppingDiagnostic(file: HttpFile, block: RequestBlock, node: HttpRequestNode): HttpFileDiagnostic | undefined {
  return notSentKind(node) === undefined ? errorsIn(file, block.firstLine, block.lastLine)[0] : undefined;
}

/**
 * Why a request of a run of many — `apiwb run` of a file, `apiwb compare`, the editor's Compare of a
 * collection — is set aside unsent, neither run nor failed: its `# @disabled` (directives.ts), in that
 * line's words (`line 7: @disabled (httpYac): this request is not sent, …`). Undefined for one that is run.
 */
export function setAsideReason(file: HttpFile, block: RequestBlock): string | undefined {
  const disabled = disablingDirective(block.directives);
  if (!disabled) return undefined;
  const line = disabled.range.start.line;
  const said = file.diagnostics.find((d) => d.code === 'directive' && d.range.start.line === line);
  return `line ${line + 1}: ${said?.message ?? `@${disabled.key}`}`;
}

/** Why a request of another kind is not sent (every caller: the run, the editor's send), or undefined for a kind that is. */
export function notSentKind(node: HttpRequestNode): string | undefined {
  return notSentWords(node.requestLine);
}

/** Why this request of `file` is not run, or undefined when it is sent. `environment`: the run's variables. */
export function notRunReason(file: HttpFile, block: RequestBlock, node: HttpRequestNode, environment: Readonly<Record<string, string>>): RequestReason | undefined {
  const kind = notSentKind(node);
  if (kind !== undefined) return { reason: kind, tool: 'httpYac' };
  const error = stoppingDiagnostic(file, block, node);
  if (error) return fromDiagnostic(error);
  const shape = shapeProblem(file, node, environment);
  return shape === undefined ? undefined : { reason: shape, tool: 'httpYac' };
}

/** The errors of a file outside every request's block (an unclosed script block before the first request): the file's own. */
export function fileProblems(file: HttpFile): Array<Reason & { readonly line: number }> {
  return file.blocks
    .filter((b) => !b.request)
    .flatMap((b) => errorsIn(file, b.firstLine, b.lastLine))
    .map((d) => {
      const { reason, tool } = fromDiagnostic(d);
      return { reason, tool, line: d.range.start.line + 1 };
    });
}

/**
 * THE kept constructs that are a request of the file in another tool's form (REST Client sends a pasted
 * curl command like any request), which API Workbench does not send: each is a request not run, counted
 * by the exit code, the summary, the reports and the editor like a gRPC request, never a mere note.
 */
const UNSENT_REQUEST_KINDS: ReadonlySet<KeptConstruct['kind']> = new Set(['curl']);

export function isUnsentRequest(k: KeptConstruct): boolean {
  return UNSENT_REQUEST_KINDS.has(k.kind);
}

/** The requests of a block in another tool's form that are not sent (isUnsentRequest), with their one-based line, reason and tool. */
export function unsentRequestsIn(block: RequestBlock): Array<Reason & { readonly line: number }> {
  return block.kept.filter(isUnsentRequest).map((k) => ({
    line: k.range.start.line + 1,
    reason: `a ${k.tool} ${k.kind} command is a request API Workbench does not send; write it as a request line (METHOD URL, headers, body) to run it`,
    tool: k.tool,
  }));
}
