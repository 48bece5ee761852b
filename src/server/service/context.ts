// What the service knows besides the document, and where a position falls inside a request block.
import type { HttpRequestNode, Position, RequestBlock } from '../../core/httpfile';
import type { HttpDocument } from './document';
import type { OperationIndex } from './operations';
import type { EnvFileVariable } from '../../core/env/envFileNames';

export interface ServiceContext {
  readonly operations: OperationIndex;
  /**
   * Variable NAMES of the active environment, as the client reported them (never values). Undefined
   * until the client says which environment is active: undefined-variable warnings wait for it.
   */
  readonly environmentVariables?: readonly string[];
  /** Names the server read from the env files itself (server/envFileNames.ts): completion's, while the client sends none. */
  readonly envFileVariables?: readonly EnvFileVariable[];
}

/** An environment variable the service knows: its name, and where it is declared in words (never its value). */
export interface KnownEnvironmentVariable {
  readonly name: string;
  readonly private: boolean;
  /** "of the active environment (…)", "of dev, prod (http-client.env.json)". */
  readonly where: string;
}

/**
 * THE environment variables completion and hover know: the active environment's names as the client
 * reported them, or, while it reports none (Neovim, Emacs, Helix), those the server read from the env
 * files, with where each is declared.
 */
export function environmentVariablesOf(context: ServiceContext): readonly KnownEnvironmentVariable[] {
  if (context.environmentVariables) {
    return context.environmentVariables.map((name) => ({ name, private: false, where: 'of the active environment (its value stays with the editor)' }));
  }
  return (context.envFileVariables ?? []).map((variable) => ({ name: variable.name, private: variable.private, where: envFileWhere(variable) }));
}

/** "of sandbox, production (http-client.env.json)": names only, never a value. */
function envFileWhere(variable: EnvFileVariable): string {
  const where = variable.environments.map((e) => (e === '$shared' ? 'every environment ($shared)' : e)).join(', ');
  return variable.private ? `of ${where} (http-client.private.env.json; its value is not read here)` : `of ${where} (http-client.env.json)`;
}

/** "environment variable of dev (http-client.env.json)", "private environment variable of …": completion's detail. */
export function environmentVariableWords(variable: KnownEnvironmentVariable): string {
  return `${variable.private ? 'private ' : ''}environment variable ${variable.where}`;
}

export type Zone =
  | { readonly kind: 'preamble'; readonly block?: RequestBlock }
  | { readonly kind: 'request-line'; readonly request: HttpRequestNode }
  | { readonly kind: 'query-continuation'; readonly request: HttpRequestNode }
  | { readonly kind: 'header'; readonly request: HttpRequestNode }
  | { readonly kind: 'body'; readonly request: HttpRequestNode }
  | { readonly kind: 'after-body'; readonly request: HttpRequestNode };

/** Which part of its request block a position is in. */
export function zoneAt(document: HttpDocument, position: Position): Zone {
  const block = document.blockAt(position.line);
  const request = block?.request;
  const line = position.line;
  if (!request || line < request.requestLine.range.start.line) return { kind: 'preamble', block };
  if (line === request.requestLine.range.start.line) return { kind: 'request-line', request };
  if (request.queryContinuations.some((q) => q.range.start.line === line)) return { kind: 'query-continuation', request };
  // Headers run from the request line to the first blank line; the cursor's own blank line still
  // counts as a header line (the user is about to type one).
  for (let i = request.requestLine.range.start.line + 1; i < line; i++) {
    if (document.lineText(i).trim() === '') {
      const handlerStart = request.responseHandlers[0]?.range.start.line;
      if (handlerStart !== undefined && line >= handlerStart) return { kind: 'after-body', request };
      return { kind: 'body', request };
    }
  }
  return { kind: 'header', request };
}

/** The text of a line before the cursor. */
export function textBefore(document: HttpDocument, position: Position): string {
  return document.lineText(position.line).slice(0, position.character);
}

/** Offset of a position in the document text. */
export function documentOffset(document: HttpDocument, position: Position): number {
  return document.offsetAt(position);
}

/** `{{partial` open before the cursor: the partial name and the character where it starts. */
export function openVariableAt(before: string): { readonly start: number; readonly partial: string } | undefined {
  const open = before.lastIndexOf('{{');
  if (open === -1 || before.indexOf('}}', open) !== -1) return undefined;
  return { start: open + 2, partial: before.slice(open + 2) };
}
